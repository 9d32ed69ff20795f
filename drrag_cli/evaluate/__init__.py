"""Evaluation: dataset loaders (HotpotQA, 2Wiki, IRCoT, MuSiQue) and metrics (SPEC §7)."""

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

__all__ = [
    "FORMATS",
    "Dataset",
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
    "summarise",
]
