"""Which questions of a dataset an eval run can ask.

Every question passes :func:`drrag_cli.question.checked_question`, as ``drrag ask``
does; one that no stage could take (empty, over ``search.max_question_chars``, too long
for ``llm.n_ctx``) is skipped and listed with its reason, because one bad line of a
dataset must not abort, or silently distort, a run of hundreds.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from drrag_cli.errors import InputError
from drrag_cli.question import checked_question

if TYPE_CHECKING:
    from drrag_cli.pipeline import Pipeline
    from drrag_cli.types import Dataset


def askable(dataset: Dataset, pipeline: Pipeline, answers: bool, meta: dict[str, Any]) -> Dataset:
    """``dataset`` with the questions it can ask, cleaned of undecodable characters; the
    others go to ``meta["skipped_questions"]`` as ``"qid: reason"``. ``answers``: the run
    calls the LLM, so a question must also leave the passages room in ``llm.n_ctx``.
    Refuses a dataset of which no question is left."""
    count = pipeline.count_tokens if answers else None
    kept, skipped = [], []
    for ex in dataset.examples:
        try:
            kept.append(dataclasses.replace(ex, question=checked_question(ex.question, pipeline.settings, count)))
        except InputError as err:
            skipped.append(f"{ex.qid}: {err}")
    if not kept:
        raise InputError(f"none of the {len(skipped)} questions can be asked; the first: {skipped[0]}")
    meta["skipped_questions"] = skipped
    return dataclasses.replace(dataset, examples=kept)
