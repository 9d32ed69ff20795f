"""The one word module (text/words.py): what a word, a stem and a normalised answer are,
for named hops, the answer stage's readers and the scorer alike. Pure text."""

from __future__ import annotations

import pytest

from drrag_cli.text.words import (
    content,
    content_words,
    normalize_answer,
    same_word,
    stands_in,
    stem,
    uninflected,
    words,
)


def test_a_stem_is_a_word_s_first_five_letters() -> None:
    assert stem("headquartered") == stem("headquarters") == "headq"
    assert stem("restoring") == stem("restore") and stem("join") == "join"


@pytest.mark.parametrize(
    ("word", "bare"),
    [("founded", "found"), ("cocktails", "cocktail"), ("directed", "direct"), ("director", "director"),
     ("matches", "match"), ("poets", "poet"), ("was", "was"), ("1990s", "1990")],
)
def test_a_word_without_its_ending(word: str, bare: str) -> None:
    assert uninflected(word) == bare


def test_content_words_leave_the_stop_words_out() -> None:
    assert content_words("Where was the lead engineer of Heron born?") == {"lead", "engineer", "heron", "born"}
    assert content("Where was the lead engineer born?") == {"lead", "engin", "born"}


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
