"""An indefinite description whose clause holds the question word, asked of the bridge by name."""

from __future__ import annotations

import pytest

from drrag_cli.answer.hop.decompose import bridged
from drrag_cli.answer.hop.relative import relative_question
from tests.answer.hop.test_decompose import selected

HUNT = "Helen Hunt (born 1963) is an American actress and director."
WARD = "M. Ward is an American singer-songwriter and guitarist."
DUNKIN = "Dunkin' Brands is an American restaurant holding company."


@pytest.mark.parametrize(
    ("question", "entity", "opening", "expected"),
    [
        ("The Curse of the Jade Scorpion is a 2001 film featuring an American actress who starred in what for "
         "seven years?", "Helen Hunt", HUNT, "Helen Hunt starred in what for seven years?"),
        ("Transfiguration of Vincent is the third studio album by a singer-songwriter from what state?", "M. Ward",
         WARD, "M. Ward is from what state?"),
        ("Jon L. Luther was the CEO of a restaurant holding company headquartered in what city?", "Dunkin' Brands",
         DUNKIN, "Dunkin' Brands is headquartered in what city?"),
        ("The manuscript is in the hand of a German musician whose godfather is whom?", "C. P. E. Bach",
         "C. P. E. Bach was a German Classical period musician.", "C. P. E. Bach's godfather is whom?"),
        ("Steve Johnson is the head coach at a University which also has a campus in which California city?",
         "Bethel University", "Bethel University is an evangelical institution.",
         "Bethel University also has a campus in which California city?"),  # its name says the kind
        # the first description that fits: a song is not what Engelbert Humperdinck is
        ('"Wonderland by Night" is a song included in an album by an English pop singer that has sold how many '
         "records?", "Engelbert Humperdinck", "Engelbert Humperdinck is an English pop singer.",
         "Engelbert Humperdinck has sold how many records?"),
        # "the …" too, when the definite rules leave it; an adjective in -ed is part of the kind
        ("Jean Vander Pyl voiced Rosie on the Hanna-Barbera animated sitcom that premiered on which date?",
         "The Jetsons", "The Jetsons is an American animated sitcom produced by Hanna-Barbera.",
         "The Jetsons premiered on which date?"),
        # left alone
        ("Scott Howell is a consultant who has worked with the mayor of what city?", "Rudy Giuliani",
         "Rudy Giuliani is an American politician.", None),  # the bridge is no consultant
        ("Who directed the film that was shot in Leland in 1986?", "Maximum Overdrive",
         "Maximum Overdrive is a 1986 film.", None),  # the question word comes first
        ("Tom Hanks starred in a film that Nora Ephron directed in what year?", "Sleepless in Seattle",
         "Sleepless in Seattle is a 1993 film.", None),  # the clause's subject is another
        ("Helen Hunt is an American actress who starred in what?", "Helen Hunt", HUNT, None),  # already named
    ],
)
def test_relative_question(question: str, entity: str, opening: str, expected: str | None) -> None:
    assert relative_question(question, entity, opening) == expected


def test_the_bridge_the_first_document_leads_to_is_asked_by_name() -> None:
    album = selected(1, "album.md", "Transfiguration of Vincent", "Transfiguration of Vincent is an album by M. Ward.")
    ward = selected(2, "ward.md", "M. Ward", WARD + " He was born in Portland, Oregon.", via=1)
    found = bridged("Transfiguration of Vincent is the third studio album by a singer-songwriter from what state?",
                    [album, ward])  # fmt: skip
    assert found is not None and found[0] == "M. Ward is from what state?" and found[1].source == "ward.md"
