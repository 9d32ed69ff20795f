"""Evaluation: dataset loaders (HotpotQA, 2Wiki, IRCoT, MuSiQue), metrics and the eval runner (SPEC §7).

    from drrag_cli.evaluate import load_dataset, run_eval

Names load lazily, so importing a loader or a metric never imports the runner.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "FORMATS": "datasets",
    "detect_format": "datasets",
    "load_corpus": "datasets",
    "load_dataset": "datasets",
    "MeanAccumulator": "metrics",
    "accuracy": "metrics",
    "answer_scores": "metrics",
    "exact_match": "metrics",
    "f1_score": "metrics",
    "normalize_answer": "metrics",
    "recall": "metrics",
    "summarise": "metrics",
    "EvalInterrupted": "result",
    "EvalResult": "result",
    "run_eval": "runner",
}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(name)
    return getattr(importlib.import_module(f"drrag_cli.evaluate.{_WHERE[name]}"), name)
