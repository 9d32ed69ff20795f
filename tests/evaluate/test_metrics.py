"""Metrics on hand-computed cases (SQuAD / HotpotQA conventions)."""

from __future__ import annotations

import math

import pytest

from drrag_cli.evaluate.metrics import (
    MeanAccumulator,
    accuracy,
    answer_scores,
    exact_match,
    f1_score,
    normalize_answer,
    recall,
    summarise,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("The Beatles", "beatles"),
        ("  A   cat, an apple; THE end!  ", "cat apple end"),
        ("Theatre", "theatre"),  # 'the' only as a whole word
        ("U.S.A.", "usa"),
        ("the-end", "theend"),  # punctuation goes first, as in the official script
        ("", ""),
        ("the", ""),
    ],
)
def test_normalize_answer(raw: str, expected: str) -> None:
    assert normalize_answer(raw) == expected


def test_exact_match_articles_punctuation_and_aliases() -> None:
    assert exact_match("the Chief of Protocol.", "Chief of Protocol") == 1.0
    assert exact_match("Chief", "Chief of Protocol") == 0.0
    assert exact_match("Stanley Hall", ["G. Stanley Hall", "Stanley Hall"]) == 1.0
    assert exact_match("anything", []) == 0.0
    assert exact_match("", "") == 1.0


def test_f1_hand_computed() -> None:
    # pred tokens: [chief, protocol]; gold: [chief, of, protocol]; overlap 2
    # P = 2/2, R = 2/3, F1 = 2 * 1 * 2/3 / (1 + 2/3) = 0.8
    assert f1_score("the chief protocol", "Chief of Protocol") == pytest.approx(0.8)
    # repeated tokens are counted with multiplicity: pred [a1, a1] vs gold [a1]
    # overlap 1, P = 1/2, R = 1, F1 = 2/3
    assert f1_score("paris paris", "Paris") == pytest.approx(2 / 3)
    assert f1_score("london", "Paris") == 0.0


def test_f1_takes_best_alias() -> None:
    answers = ["for Best Performance by a Leading Actress", "leading actress"]
    assert f1_score("Leading actress", answers) == 1.0
    assert f1_score("x", answers) == 0.0
    assert f1_score("x", []) == 0.0


@pytest.mark.parametrize(
    ("prediction", "gold", "expected"),
    [
        ("yes", "yes", 1.0),
        ("Yes.", "yes", 1.0),
        ("no", "no idea", 0.0),  # plain F1 would give 2/3
        ("yes it is", "yes", 0.0),  # plain F1 would give 0.5
        ("noanswer", "no answer", 0.0),
    ],
)
def test_f1_yes_no_special_case(prediction: str, gold: str, expected: float) -> None:
    assert f1_score(prediction, gold) == expected


def test_f1_empty_strings() -> None:
    assert f1_score("", "") == 1.0
    assert f1_score("the", "a") == 1.0  # both normalise to nothing
    assert f1_score("", "Paris") == 0.0
    assert f1_score("Paris", "") == 0.0


def test_accuracy_substring_of_normalised_prediction() -> None:
    assert accuracy("She served as the Chief of Protocol of the US.", "Chief of Protocol") == 1.0
    assert accuracy("I don't know", ["Chief of Protocol", "protocol chief"]) == 0.0
    assert accuracy("It was Stanley Hall.", ["G. Stanley Hall", "Stanley Hall"]) == 1.0
    assert accuracy("anything", ["", "the", "?"]) == 0.0  # empty aliases never count
    assert accuracy("", "Paris") == 0.0
    assert accuracy("anything", []) == 0.0


def test_recall() -> None:
    assert recall(["a", "b", "c"], ["a", "d"]) == 0.5
    assert recall(["a", "d", "a"], ["a", "d"]) == 1.0
    assert recall([], ["a"]) == 0.0
    assert recall(["a"], []) == 1.0  # no gold: nothing missed, and never NaN


def test_answer_scores_keys() -> None:
    scores = answer_scores("The Paris", ["paris"])
    assert scores == {"em": 1.0, "f1": 1.0, "acc": 1.0}


def test_mean_accumulator_and_summarise() -> None:
    rows = [
        {"qid": "q1", "em": 1.0, "f1": 0.5, "docs": 3, "ok": True},
        {"qid": "q2", "em": 0.0, "f1": 1.0, "docs": 5, "ok": False},
    ]
    acc = MeanAccumulator()
    for row in rows:
        acc.add(row)
    assert acc.count == 2
    assert acc.means() == {"em": 0.5, "f1": 0.75, "docs": 4.0}
    assert summarise(rows) == {"n": 2.0, "em": 0.5, "f1": 0.75, "docs": 4.0}
    assert summarise([]) == {"n": 0.0}
    with pytest.raises(ValueError, match="finite"):
        acc.add({"f1": math.nan})


def test_a_normalised_phrase_stands_in_a_text_word_for_word() -> None:
    from drrag_cli.text.words import stands_in

    assert stands_in("uppsala", "Born in Uppsala.")
    assert stands_in("new york", "The New-York? No: the New York office.")
    assert not stands_in("upps", "Born in Uppsala.")  # whole words only
