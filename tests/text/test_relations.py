"""Where a document names the one a relation noun asks for (drrag_cli/text/relations.py)."""

from __future__ import annotations

from drrag_cli.text.relations import named_by, related, title_name, without_aside


def test_a_relation_noun_is_named_by_its_verb_or_its_irregular_words() -> None:
    assert named_by("director") == ("director", "direct")
    assert "wrote" in named_by("author") and "son" in named_by("father")
    assert named_by("club") == ("club",)  # no agent noun: only itself


def test_a_title_is_named_without_its_aside_and_accents() -> None:
    assert without_aside("Peter Curtis (tennis)") == "Peter Curtis"
    assert title_name("Émile Chautard (director)") == " emile chautard "


TITLES = ["Claude Zidi", "Louis de Funès", "Lady for a Day"]


def test_the_name_after_the_relation_word_is_the_related_document() -> None:
    text = "Stadium Nuts is a 1972 French comedy film directed by Claude Zidi and starring Louis de Funès."
    assert related("Stadium Nuts", text, "director", TITLES) == 0


def test_a_maker_may_be_named_by_by_alone_but_never_its_own_title() -> None:
    assert related("Lady for a Day", "Lady for a Day is a 1933 film by Claude Zidi.", "director", TITLES) == 0
    assert related("Stadium Nuts", "Stadium Nuts is a 1972 comedy starring Louis de Funès.", "director", TITLES) is None
    # "directed by" someone not offered: "by" alone does not pick the next name
    text = "Stadium Nuts was directed by Jean Girault, a remake of a film by Claude Zidi."
    assert related("Stadium Nuts", text, "director", TITLES) is None


def test_a_relative_may_be_described_before_named() -> None:
    """Kin (father, spouse …) reach 50 characters: "a son of former Lillestrøm player Kjetil Lind"
    (28 characters between); a maker still 25."""
    text = "Joachim Lind is a Norwegian striker. A son of former Lillestrøm player Kjetil Lind, he started there."
    assert related("Joachim Lind", text, "father", ["Kjetil Lind"]) == 0
    film = "Heron is a 1972 film directed by the Swedish writer, painter and sailor Kjetil Lind."
    assert related("Heron", film, "director", ["Kjetil Lind"]) is None
