"""DSLR's threshold from sample data: a percentile of sentence scores (the paper's recipe).

    drrag eval dev500.ircot.jsonl -s cfs+dslr --calibrate-dslr 70
    calibrate(pipeline, dataset.examples, ["cfs+dslr"], k=4, percentile=70)["threshold"]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from drrag_cli.plan import parse_plan
from drrag_cli.refine.dslr import calibrate_threshold, make_scorer, split_sentences

if TYPE_CHECKING:
    from drrag_cli.pipeline import Pipeline
    from drrag_cli.types import QAExample

CALIBRATION_QUESTIONS = 50


def calibrate(
    pipeline: Pipeline, examples: Sequence[QAExample], strategies: Sequence[str], k: int, percentile: float
) -> dict[str, Any]:
    """The DSLR threshold as the ``percentile`` of sentence scores over sample questions.

    Sample = the first :data:`CALIBRATION_QUESTIONS` questions, each retrieved with the
    first ``+dslr`` spec minus its dslr part, at ``k``; every sentence of every selected
    passage is scored against its question. No gold label is used.
    """
    spec = next(p for p in map(parse_plan, strategies) if p.refine)
    plan = dataclasses.replace(spec, refine=None)
    base = "+".join(p for p in (plan.rewrite, plan.strategy) if p)
    scorer = make_scorer(pipeline.settings.refine.scorer, pipeline.index.embed)
    scores: list[float] = []
    sample = examples[:CALIBRATION_QUESTIONS]
    for ex in sample:
        for p in pipeline.retrieve(ex.question, plan, k=k).passages:
            scores += scorer.score(ex.question, split_sentences(p.text) or [p.text])
    threshold = round(calibrate_threshold(scores, percentile), 4)
    return {
        "percentile": percentile,
        "threshold": threshold,
        "strategy": base,
        "k": k,
        "questions": len(sample),
        "sentences": len(scores),
    }
