"""Answer and retrieval metrics of the evaluation protocol (SPEC §7).

EM and F1 follow the official SQuAD / HotpotQA scripts exactly, so numbers are
comparable with the DR-RAG and Adaptive-Note papers; Acc is the looser "the gold answer
appears in the prediction" used by those papers for generative models that answer in a
sentence. Only the standard library is needed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from drrag_cli.text.words import normalize_answer

_SPECIAL = frozenset({"yes", "no", "noanswer"})


def _as_list(answers: str | Sequence[str]) -> list[str]:
    return [answers] if isinstance(answers, str) else list(answers)


def exact_match(prediction: str, answers: str | Sequence[str]) -> float:
    """1.0 if the normalised prediction equals any normalised gold answer or alias.

    No gold answers at all scores 0.0: there is nothing the prediction could match.
    """
    pred = normalize_answer(prediction)
    return max((float(pred == normalize_answer(a)) for a in _as_list(answers)), default=0.0)


def _f1(prediction: str, gold: str) -> float:
    pred, ref = normalize_answer(prediction), normalize_answer(gold)
    # HotpotQA: a yes/no/noanswer on either side only scores when both are identical;
    # otherwise "no" against "no idea" would earn partial credit.
    if (pred in _SPECIAL or ref in _SPECIAL) and pred != ref:
        return 0.0
    pred_tokens, ref_tokens = pred.split(), ref.split()
    if not pred_tokens or not ref_tokens:
        return float(pred_tokens == ref_tokens)  # both empty: 1.0, one empty: 0.0
    same = sum((Counter(pred_tokens) & Counter(ref_tokens)).values())
    if same == 0:
        return 0.0
    precision, recall_ = same / len(pred_tokens), same / len(ref_tokens)
    return 2 * precision * recall_ / (precision + recall_)


def f1_score(prediction: str, answers: str | Sequence[str]) -> float:
    """Token-level F1 after normalisation, the best over the gold answer and its aliases."""
    return max((_f1(prediction, a) for a in _as_list(answers)), default=0.0)


def accuracy(prediction: str, answers: str | Sequence[str]) -> float:
    """1.0 if any normalised gold answer is a substring of the normalised prediction.

    This is a plain substring test, as in the papers we compare with, so a verbose
    answer that contains the gold one still counts. An alias that normalises to nothing
    ("the", "?") never counts, or every prediction would be correct.
    """
    pred = normalize_answer(prediction)
    golds = (normalize_answer(a) for a in _as_list(answers))
    return float(any(g and g in pred for g in golds))


def recall(fed_keys: Iterable[str], gold_keys: Iterable[str]) -> float:
    """|gold ∩ fed| / |gold|: how many gold paragraphs reached the LLM.

    A question without gold paragraphs returns 1.0 (nothing was missed) rather than NaN,
    so averages over a dataset stay finite; such questions are rare and the loader warns.
    """
    gold = set(gold_keys)
    if not gold:
        return 1.0
    return len(gold & set(fed_keys)) / len(gold)


def answer_scores(prediction: str, answers: str | Sequence[str]) -> dict[str, float]:
    """EM, F1 and Acc of one prediction, keyed as in reports."""
    return {
        "em": exact_match(prediction, answers),
        "f1": f1_score(prediction, answers),
        "acc": accuracy(prediction, answers),
    }


class MeanAccumulator:
    """Running means of named numbers (em, f1, recall, docs fed, seconds, ...).

    Lets the eval runner add one row per question and print means as it goes without
    keeping every row. Non-finite values (NaN, inf) are rejected: one would poison the
    mean silently.
    """

    def __init__(self) -> None:
        self._sums: dict[str, float] = {}
        self._counts: dict[str, int] = {}

    def add(self, row: Mapping[str, float]) -> None:
        for name, value in row.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue  # ids, strategy names and flags are not averaged
            if not math.isfinite(value):
                raise ValueError(f"metric {name!r} is {value}; metrics must be finite")
            self._sums[name] = self._sums.get(name, 0.0) + float(value)
            self._counts[name] = self._counts.get(name, 0) + 1

    @property
    def count(self) -> int:
        """Number of rows added (the most any one metric was seen)."""
        return max(self._counts.values(), default=0)

    def means(self) -> dict[str, float]:
        return {name: self._sums[name] / self._counts[name] for name in self._sums}


def summarise(rows: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """Mean of every numeric field over ``rows``, plus ``n``, the number of rows."""
    acc = MeanAccumulator()
    n = 0
    for row in rows:
        acc.add(row)
        n += 1
    return {"n": float(n), **acc.means()}


def answer_fields(answer: Any, question: str, golds: Sequence[str], forms: Sequence[str] = ()) -> dict[str, Any]:  # noqa: ANN401
    """An eval record's fields for ``answer`` (a :class:`~drrag_cli.answer.answer.Answer`;
    not imported) to ``question``: the text, its scores against ``golds`` (and ``accepted``,
    with the gold's other ``forms``: :mod:`.forms`), and how it was reached."""
    from drrag_cli.evaluate.forms import accepted

    fields: dict[str, Any] = {"answer": answer.text, "trimmed": len(answer.trimmed), "supported": answer.supported}
    fields["confidence"] = None if answer.confidence is None else round(answer.confidence, 4)
    if answer.asked not in ("", question):
        fields["asked"] = answer.asked  # answer.mode: decompose rewrote it
    fields["reader"] = getattr(answer, "reader", None)  # the code reader that answered (answer.readers), or None
    if answer.compared is not None:
        fields["compared"] = answer.compared.to_json()  # answer.compare decided it in code
    if answer.looked_up is not None:
        fields["looked_up"] = answer.looked_up.to_json()  # read from a table in code
    if answer.picked is not None:
        fields["picked"] = answer.picked.to_json()  # the fed document the question asks for (.entity)
    if answer.reasked:
        fields["reasked"] = answer.reasked  # the first answer only echoed the question
    return fields | answer_scores(answer.text, golds) | {"accepted": accepted(answer.text, golds, forms)}
