"""The one word module (text/words.py): what a word, a stem and a normalised answer are,
for named hops, the answer stage's readers and the scorer alike. Pure text."""

from __future__ import annotations

import pytest

from drrag_cli.text.words import (
    content,
    content_words,
    normalize_answer,
    root,
    same_word,
    stands_in,
    stem,
    words,
)


@pytest.mark.parametrize(
    ("a", "b"),
    [("backup", "backups"), ("restoring", "restore"), ("headquarters", "headquartered"), ("joined", "join"),
     ("languages", "language"), ("role", "roles"), ("founded", "found"), ("cocktails", "cocktail"),
     ("starring", "star"), ("stopped", "stop"), ("called", "call"), ("matches", "match"), ("wishes", "wish"),
     ("studies", "studied"), ("city", "cities"), ("movie", "movies"), ("horses", "horse"),
     ("buildings", "build"), ("hundreds", "hundred"), ("played", "plays"), ("speeds", "speed"),
     ("moved", "move"), ("named", "names"), ("removed", "remove")],
)
def test_the_forms_of_one_word_have_one_stem(a: str, b: str) -> None:
    assert stem(a) == stem(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [("director", "directed"), ("director", "direction"), ("producer", "produced"), ("american", "america"),
     ("contact", "content"), ("on", "one"), ("found", "fund")],
)
def test_two_words_of_one_root_keep_two_stems(a: str, b: str) -> None:
    assert stem(a) != stem(b)


@pytest.mark.parametrize(
    ("word", "bare"),
    [("founded", "found"), ("cocktails", "cocktail"), ("directed", "direct"), ("director", "director"),
     ("matches", "match"), ("poets", "poet"), ("restore", "restor"), ("cities", "citi"), ("starring", "star"),
     ("1990s", "1990"),
     # four letters stay, and -ss, -us, -is are no plurals
     ("was", "was"), ("used", "used"), ("role", "role"), ("news", "news"), ("running", "runn"),
     ("class", "class"), ("genus", "genus"), ("analysis", "analysis"), ("play", "play"), ("", "")],
)
def test_a_stem(word: str, bare: str) -> None:
    assert stem(word) == bare


@pytest.mark.parametrize(
    ("a", "b"),
    [("director", "directed"), ("composers", "composed"), ("producer", "produced"), ("founder", "founded"),
     ("creator", "created"), ("headquarters", "headquartered"), ("city", "cities")],
)
def test_an_agent_noun_has_the_root_of_its_verb(a: str, b: str) -> None:
    """Named hops match "the director of X" with "X ... directed by Y" (only they: the stem keeps them apart)."""
    assert root(a) == root(b)


def test_content_words_leave_the_stop_words_out() -> None:
    assert content_words("Where was the lead engineer of Heron born?") == {"lead", "engineer", "heron", "born"}
    assert content("Where were the lead engineers born?") == {"lead", "engineer", "born"}


def test_words_make_a_phrase_test() -> None:
    assert " kestrel rail " in words("signed by Kestrel Rail, in Linz")


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [("join", "joined", True), ("language", "languages", True), ("poet", "poets", True), ("on", "on", True),
     ("works", "work", True), ("director", "direction", False), ("on", "one", False), ("contact", "content", False)],
)
def test_two_words_of_one_stem(a: str, b: str, same: bool) -> None:
    assert same_word(a, b) is same


def test_an_answer_is_normalised_as_squad_does() -> None:
    assert normalize_answer("The  Eiffel-Tower!") == "eiffeltower"
    assert stands_in(normalize_answer("Uppsala"), "Born in Uppsala.") and not stands_in("upp", "Born in Uppsala.")
