"""Where a supported answer stands: the cited source and the sentence (or table row) that
holds it.

A wrong answer with the right citations looks trustworthy; an answer shown with the
sentence it was read from can be checked at a glance ("found in [3]: 'Tobias was born in
Uppsala in 1988'"). Among the fed passages' units (sentences, table rows written out with
their headers, headings, list items) that hold the normalised answer, the one sharing most
words with the question wins, the earlier citation on a tie. Pure text: the CLI's client
path may import it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from drrag_cli.ingest.units import statement_units
from drrag_cli.text.tables import linearise
from drrag_cli.text.words import normalize_answer, stands_in
from drrag_cli.types import Passage

WIDTH = 200  # characters of a long unit shown around the answer


@dataclass(frozen=True, slots=True)
class Evidence:
    """The unit of citation ``citation`` (1-based, as printed) that holds the answer."""

    citation: int
    text: str

    def to_json(self) -> dict[str, object]:
        return {"citation": self.citation, "text": self.text}


def _words(text: str) -> set[str]:
    """Content words by their stem: "joined" meets "join", "born" meets "born"."""
    from drrag_cli.text.words import STOP, stem

    return {stem(w) for w in normalize_answer(text).split() if w not in STOP}


def evidence(answer: str, question: str, passages: Sequence[Passage]) -> Evidence | None:
    """The unit of ``passages`` (in citation order) that states ``answer`` and shares most
    words with ``question``; None for yes/no, an empty answer or one no unit holds."""
    best = _best(answer, question, passages)
    return Evidence(-best[1], window(best[2], answer)) if best else None


def beside_question(answer: str, question: str, passages: Sequence[Passage]) -> bool:
    """Whether a unit of ``passages`` that states ``answer`` also holds a word of
    ``question`` other than what it asks for ("how many", "which year"). An answer picked
    from the numbers or years the text states is always in the text, so being there says
    little: "How many look-ups does a search session get?" → "1" (from "1 to 200", a range
    of another option) is not beside the question, "1,000" (from the row on look-ups a
    session) is."""
    best = _best(answer, question, passages)
    return best is not None and best[0] > 0


_ASKING = frozenset({"many", "much", "year", "numb"})  # what a typed question asks for, cut as _words cuts


def _best(answer: str, question: str, passages: Sequence[Passage]) -> tuple[int, int, str] | None:
    """(words shared with ``question``, -citation, unit) of the unit that states ``answer``
    and shares most words, the earlier citation on a tie."""
    norm = normalize_answer(answer)
    if not norm or norm in ("yes", "no"):
        return None
    asked = _words(question) - _ASKING - _words(answer)
    best: tuple[int, int, str] | None = None
    for n, passage in enumerate(passages, start=1):
        for unit in statement_units(linearise(passage.text, between="\n\n")):  # a row a unit
            if stands_in(norm, unit):
                key = (len(asked & _words(unit)), -n, unit)
                if best is None or key[:2] > best[:2]:
                    best = key
    return best


def window(unit: str, answer: str, width: int = WIDTH) -> str:
    """``unit`` cut to about ``width`` characters around ``answer`` (with "…" where cut)."""
    if len(unit) <= width:
        return unit
    at = max(unit.lower().find(answer.lower()), 0)
    start = max(0, min(at - width // 2, len(unit) - width))
    start = unit.rfind(" ", 0, start) + 1 if start else 0  # whole words
    end = unit.find(" ", start + width)
    end = len(unit) if end < 0 else end
    return f"{'…' if start else ''}{unit[start:end].strip()}{'…' if end < len(unit) else ''}"
