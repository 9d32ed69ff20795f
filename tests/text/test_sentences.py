"""Where a sentence ends (text/sentences.py): never after an initial."""

from __future__ import annotations

from drrag_cli.text.sentences import opening, sentences


def test_an_initial_ends_no_sentence() -> None:
    cash = 'John R. "Johnny" Cash (born J. R. Cash; February 26, 1932) was an American singer. He sold records.'
    assert opening(cash) == 'John R. "Johnny" Cash (born J. R. Cash; February 26, 1932) was an American singer.'
    assert sentences(cash)[1] == "He sold records."


def test_the_first_n_sentences() -> None:
    text = "Heron is a bird. It wades in 1999. Plover is too."
    assert opening(text, 2) == "Heron is a bird. It wades in 1999."
