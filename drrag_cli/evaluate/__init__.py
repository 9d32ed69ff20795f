"""Evaluation: dataset loaders (HotpotQA, 2Wiki, IRCoT, MuSiQue), metrics and the eval runner (SPEC §7)."""

from drrag_cli.evaluate.datasets import (
    FORMATS,
    Dataset,
    Paragraph,
    QAExample,
    detect_format,
    load_corpus,
    load_dataset,
    paragraph_key,
)
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
from drrag_cli.evaluate.runner import EvalInterrupted, EvalResult, run_eval

__all__ = [
    "FORMATS",
    "Dataset",
    "EvalInterrupted",
    "EvalResult",
    "MeanAccumulator",
    "Paragraph",
    "QAExample",
    "accuracy",
    "answer_scores",
    "detect_format",
    "exact_match",
    "f1_score",
    "load_corpus",
    "load_dataset",
    "normalize_answer",
    "paragraph_key",
    "recall",
    "run_eval",
    "summarise",
]
