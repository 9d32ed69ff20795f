"""An eval run skips (and lists) the questions that cannot be asked instead of aborting."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.errors import InputError
from drrag_cli.evaluate import load_dataset
from drrag_cli.evaluate.runner import run_eval
from tests.evaluate import tiny_multihop as tiny


@pytest.fixture(autouse=True)
def _eval_cache(eval_cache: Path) -> None:
    """The session's eval cache: the tiny corpus is indexed once."""


def test_bad_questions_are_skipped_with_their_reason(tmp_path: Path) -> None:
    dataset = load_dataset(tiny.write(tmp_path / "tiny.ircot.jsonl"))
    q1, q2, q3, q4 = dataset.examples
    hostile = [
        dataclasses.replace(q1, question="x" * 100_000),
        dataclasses.replace(q2, question=" \t "),
        dataclasses.replace(q3, question=q3.question + "\udcff"),  # a lone surrogate from a JSON escape
        q4,
    ]
    settings = Settings().replace({"embedding.threads": 1})
    result = run_eval(dataclasses.replace(dataset, examples=hostile), settings, ["bm25"], [2], llm=False)
    assert [r["qid"] for r in result.records] == [q3.qid, q4.qid]
    assert result.records[0]["question"] == q3.question + "\ufffd"
    skipped = result.meta["skipped_questions"]
    assert skipped[0].startswith(f"{q1.qid}: the question is 100,000 characters long")
    assert skipped[1].startswith(f"{q2.qid}: the question is empty") and len(skipped) == 2
    assert result.to_json()["questions"] == 2 and result.meta["complete"]

    nothing = dataclasses.replace(dataset, examples=hostile[:2])
    with pytest.raises(InputError, match="none of the 2 questions can be asked"):
        run_eval(nothing, settings, ["bm25"], [2], llm=False)
