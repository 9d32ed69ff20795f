"""A work's maker as the bridge: "the performer of Sings America" is who the album is "by"."""

from __future__ import annotations

from drrag_cli.answer.hop.decompose import bridged
from drrag_cli.answer.hop.describes import made_by, made_units
from tests.answer.hop.test_decompose import selected

SINGS = "Sings America is an album released by David Hasselhoff in August 2004."
SNAPPER = (
    "Snapper Foster is a fictional character on the CBS daytime soap opera The Young and the Restless. "
    "The role was played by William Gray Espy from 1973 to 1975, and David Hasselhoff from 1975 to 1982."
)


def test_the_maker_a_work_is_by_is_the_bridge_though_the_next_page_is_about_someone_else() -> None:
    """Snapper Foster's page names Hasselhoff in passing; it is not about him, yet it is
    the next hop the album's "by" leads to (MuSiQue dev100)."""
    docs = [selected(1, "sings.md", "Sings America", SINGS), selected(2, "snapper.md", "Snapper Foster", SNAPPER, 1)]
    asked, bridge = bridged("who did the performer of Sings America play on young and restless?", docs)
    assert (asked, bridge.entity) == ("who did David Hasselhoff play on young and restless?", "David Hasselhoff")


def test_a_title_qualifier_names_the_maker() -> None:
    """"Thinking About You (Norah Jones song)" is a song by Norah Jones, though its text
    says only "Norah Jones' third solo album"."""
    thinking = selected(
        1, "thinking.md", "Thinking About You (Norah Jones song)",
        "\"Thinking About You\" is the first single from Norah Jones' third solo album, \"Not Too Late\".",
    )  # fmt: skip
    turn = selected(2, "turn.md", "Turn Me On (Mark Dinning song)", "Turn Me On. Single by Norah Jones. Songwriter "
                    "John D. Loudermilk.")  # fmt: skip
    asked, _ = bridged("Who wrote Turn Me On by the Thinking About You performer?", [thinking, turn])
    assert asked == "Who wrote Turn Me On by Norah Jones?"
    assert made_units("When was it released?", thinking.passage.title, [thinking.passage.text]) == []  # no maker asked


def test_a_word_that_qualifies_the_maker_is_no_maker() -> None:
    near = "Home Alone Tonight is a song recorded by American country music artist Luke Bryan as a duet."
    assert made_by("Luke Bryan", near, "Home Alone Tonight")
    assert not made_by("American", near, "Home Alone Tonight")
    assert made_by("David Hasselhoff", SINGS, "Sings America")  # "in August": a preposition, no qualifier
    home = selected(1, "home.md", "Home Alone Tonight", near)
    country = selected(2, "country.md", "Country Man", "Country Man is a song recorded by American country music "
                       "artist Luke Bryan.")  # fmt: skip
    asked, bridge = bridged('Who sing "Home Alone Tonight" with the performer of "country Man"?', [home, country])
    assert bridge.entity == "Luke Bryan"


def test_a_named_bridge_may_drop_its_clubs_suffix() -> None:
    """The cup's page says "won by holders Nottingham Forest"; the club's page is titled
    "Nottingham Forest F.C." (MuSiQue dev100)."""
    cup = selected(1, "cup.md", "1979–80 European Cup", "The 1979–80 European Cup was won by holders Nottingham Forest "
                   "in the final against Hamburg.")  # fmt: skip
    club = selected(2, "club.md", "Nottingham Forest F.C.", "Forest won the FA Cup in 1898 and 1959.", 1)
    asked, bridge = bridged("When did the 1979-80 European Cup winner win the FA Cup?", [cup, club])
    assert (asked, bridge.entity) == ("When did Nottingham Forest win the FA Cup?", "Nottingham Forest")


def test_a_by_that_is_not_about_the_work_names_no_maker() -> None:
    """"B-side 'Big Mama' has been described by Lennon" says nothing of who performed Too
    Late for Goodbyes (MuSiQue dev100 had asked "... write for Lennon?")."""
    texts = ["\"Too Late for Goodbyes\" is the first single from Julian Lennon's 1984 album \"Valotte\". "
             "B-side \"Big Mama\" has been described by Lennon as \"semi-hard rock\"."]  # fmt: skip
    question = "What song did Paul McCartney write for the person who performed Too Late for Goodbyes?"
    assert made_units(question, "Too Late for Goodbyes", texts) == []
    assert made_units("Who performed it?", "Sings America", [SINGS]) == [SINGS]
