"""Whether an answer stands on what the model read: in the fed text, and more than an echo
of the question. Pure text: the CLI's client path imports it to say why an answer is
marked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from drrag_cli.answer.prompts import FALLBACK_ANSWER
from drrag_cli.text.options import answer_options
from drrag_cli.types import Passage

_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b")  # "Graves's", "Heron's": the name without it


def fed_texts(passages: Sequence[Passage]) -> list[str]:
    """Each passage's title and text, as :func:`is_supported` looks for an answer in them."""
    return [f"{p.title} {p.text}" for p in passages]


def is_supported(answer: str, texts: Sequence[str]) -> bool:
    """True when the short answer is yes/no, or its normalised words stand, in order, in
    the normalised fed text. A base model that copies a few-shot example, names something
    from its own memory or rambles fails this check; the CLI marks such answers."""
    from drrag_cli.text.words import normalize_answer, stands_in

    norm = normalize_answer(answer)
    if norm in ("yes", "no"):
        return True
    if not norm or answer == FALLBACK_ANSWER:
        return False
    return any(stands_in(norm, text) for text in texts)


def each_supported(answer: str, texts: Sequence[str]) -> bool:
    """Every item of a list answer ("film director, producer and writer") is in the fed text
    (:func:`is_supported`), though not the list as written."""
    items = [item for item in re.split(r",\s*(?:and\s+)?|\s+and\s+", answer) if item.strip()]
    return bool(items) and all(is_supported(item, texts) for item in items)


def echoes(answer: str, question: str) -> bool:
    """True when an open question's answer only repeats words of the question, in order:
    "Which client is the Plover pipeline built for?" → "Plover"; "Who is Robert Graves's
    father?" → "Robert Graves" (a possessive's "'s" is no part of the name). Two-sided and
    yes/no questions name their answers (:func:`answer_options`), so they never echo."""
    from drrag_cli.text.words import normalize_answer, stands_in

    norm = normalize_answer(answer)
    if not norm or not question or answer_options(question):
        return False
    return stands_in(norm, question) or stands_in(norm, _POSSESSIVE.sub("", question))


def supported_part(answer: str, texts: Sequence[str]) -> str:
    """``answer`` cut to its first comma-separated part when only that part is in the fed
    text: a small model appends what it knows ("Uppsala, Sweden") to what it read."""
    head = answer.split(",")[0].strip()
    if head and head != answer.strip() and not is_supported(answer, texts) and is_supported(head, texts):
        return head
    return answer


def echoes_either(answer: str, question: str, original: str) -> bool:
    """The answer echoes the question as asked or as the user wrote it (:func:`echoes`)."""
    return echoes(answer, question) or echoes(answer, original)
