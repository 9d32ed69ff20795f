"""What an eval run produces: the rows, the per-question records and the run's meta."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from drrag_cli.evaluate.metrics import summarise

PER_RECORD = ("recall", "docs_fed", "tokens_fed", "tokens_selected", "em", "f1", "acc", "accepted", "llm_calls")
METRICS = (*PER_RECORD, "sec_per_q", "retrieve_s", "classify_s", "generate_s")
ROW_KEYS = ("strategy", "k", *METRICS, "n")


@dataclass
class EvalResult:
    dataset: str
    fmt: str
    questions: int
    corpus_passages: int
    rows: list[dict[str, Any]]
    records: list[dict[str, Any]] = field(default_factory=list)  # per question × strategy × k
    meta: dict[str, Any] = field(default_factory=dict)  # settings, model, wall time, notes, ...
    by_type: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # question type → rows (by_type())

    @property
    def interrupted(self) -> bool:
        return bool(self.meta.get("interrupted"))

    def to_json(self) -> dict[str, Any]:
        """What ``results.json`` holds and ``drrag eval --json`` prints."""
        return {
            "dataset": self.dataset,
            "format": self.fmt,
            "questions": self.questions,
            "corpus_passages": self.corpus_passages,
            "rows": self.rows,
            **({"by_type": self.by_type} if self.by_type else {}),
            **self.meta,
        }


class EvalInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_eval`; ``.result`` holds the partial result (already written to ``out``)."""

    def __init__(self, result: EvalResult) -> None:
        super().__init__("evaluation interrupted")
        self.result = result


def aggregate(records: Sequence[dict[str, Any]], strategies: Sequence[str], ks: Sequence[int]) -> list[dict]:
    """One row per (strategy, k) that has records: means, ``None`` where not computed."""
    by_unit: dict[tuple[str, int], list[dict]] = {}
    for r in records:
        by_unit.setdefault((r["strategy"], r["k"]), []).append(r)
    rows = []
    for strategy in strategies:
        for k in ks:
            recs = by_unit.get((strategy, k))
            if not recs:
                continue
            flat = [
                {
                    **{m: r.get(m) for m in PER_RECORD},
                    "sec_per_q": r["timings"].get("total_s"),
                    **{t: r["timings"].get(t) for t in ("retrieve_s", "classify_s", "generate_s")},
                }
                for r in recs
            ]
            means = summarise(flat)
            row: dict[str, Any] = {"strategy": strategy, "k": k}
            row.update({m: round(means[m], 4) if m in means else None for m in METRICS})
            row["n"] = len(recs)
            rows.append(row)
    return rows


def question_type(qtype: str) -> str:
    """The type a question is reported under: the dataset's own ('bridge', 'comparison'),
    MuSiQue's by hop count ('3hop1' and '3hop2' are both '3hop')."""
    return re.sub(r"^(\d+hop)\d*$", r"\1", qtype)


def by_type(records: Sequence[dict[str, Any]], strategies: Sequence[str], ks: Sequence[int]) -> dict[str, list[dict]]:
    """:func:`aggregate` per question type, when the set has two types or more ({} when not):
    a multi-hop set's 3- and 4-hop questions can tell apart strategies its 2-hop ones do not."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        if r.get("qtype"):
            groups.setdefault(question_type(r["qtype"]), []).append(r)
    if len(groups) < 2:
        return {}
    return {name: aggregate(groups[name], strategies, ks) for name in sorted(groups)}
