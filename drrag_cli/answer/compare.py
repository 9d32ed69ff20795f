"""Comparison questions decided in code: "Which model has more parameters, Saltmarsh or
Tidepool?" A 270M model reads "22 million" and "110 million" correctly but picks the wrong
side of "more" about half the time; comparing two numbers or two dates is not its job.

The question must offer its two sides (``…, A or B?``, :func:`prompts.answer_options`) and
carry a comparative cue that says what is compared: a time (first, earlier, older, … or
later, latest, younger, …) or a quantity (more, larger, … or fewer, smaller, …). Each
side's value comes from the fed passages about it (its title, else its text names it): the
statement with a value of that kind that shares most words with the question's attribute
("parameters", "joined", "attendees"; "born" for older/younger). Only when both values are
found and differ does the comparison decide; otherwise :func:`compare` returns None and
the model answers as before. Everything here is pure text work: no model, no index.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from drrag_cli.answer.dates import dates
from drrag_cli.answer.lifespan import life_dates
from drrag_cli.asked import CUES, Question
from drrag_cli.ingest.units import statement_units
from drrag_cli.text.words import STOP, stem

_NUMBER_WORDS = {w: i for i, w in enumerate(
    "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty".split(), start=2)}  # not "one": "one month after", "one of us"
_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mln": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9,
          "trillion": 1e12}
_NUMBER_RE = re.compile(
    r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![.\d]*\.\d)\s*(thousand|million|billion|trillion|mln|bn|[kmb])?\b"
    rf"|\b({'|'.join(_NUMBER_WORDS)})\b",
    re.I,
)
_IMPLIED = {"older": {"born", "birth"}, "oldest": {"born", "birth"}, "younger": {"born", "birth"},
            "youngest": {"born", "birth"}}
# besides the stop words, the words a side is named with but never named by ("the one in
# Oostende") and that never name the attribute compared ("more than", "there were")
_FILLER = STOP | frozenset("one ones these those than there".split())
_TOKEN = re.compile(r"v?\d+(?:\.\d+)+|\w+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_BLOCK_START = re.compile(r"^\s*(?:[|#>*-]|\d+[.)]\s)")


@dataclass(frozen=True)
class Comparison:
    """What the comparison read for each side, and the side it decided."""

    answer: str
    kind: str  # time | number | origin (.origin) | shared (.shared) | alike (.alike)
    values: tuple[tuple[str, str], tuple[str, str]]  # (side, the value as written) per side

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "values": {side: shown for side, shown in self.values}, "answer": self.answer}


def tokens(text: str) -> set[str]:
    """Lower-cased tokens but stop words, each by its :func:`~drrag_cli.text.words.stem`;
    version numbers without their zero tail ("v1.0", "1.0.0" → "1"): "version 1.0" meets "[1.0.0]"."""
    out = set()
    for tok in _TOKEN.findall(text.lower()):
        if tok[0] in "v0123456789" and "." in tok:
            tok = re.sub(r"(?:\.0)+$", "", tok.lstrip("v"))
        if tok not in _FILLER:
            out.add(stem(tok))
    return out


def statements(text: str) -> list[str]:
    """A passage as statements: table rows, list items and headings alone; wrapped
    paragraph lines joined, then split into sentences (and, for stored text whose line
    breaks are gone, into :func:`~drrag_cli.ingest.units.statement_units`)."""
    blocks: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            blocks.append("")
        elif _BLOCK_START.match(line) or not blocks or not blocks[-1]:
            blocks.append(line.strip())
        else:
            blocks[-1] += " " + line.strip()
    return [u for block in blocks if block for s in _SENTENCE.split(block) for u in statement_units(s)]


def numbers(text: str) -> list[tuple[float, str]]:
    """The quantities in ``text`` (dates blanked first): (value, as written)."""
    out = []
    for m in _NUMBER_RE.finditer(dates(text)[1]):
        if m.group(3):
            out.append((float(_NUMBER_WORDS[m.group(3).lower()]), m.group(0)))
        else:
            scale = _SCALE.get((m.group(2) or "").lower(), 1.0)
            out.append((float(m.group(1).replace(",", "")) * scale, m.group(0).strip()))
    return out


_AUX = ("has", "had", "have", "is", "was", "are", "were", "did", "does", "do")


def _kind_words(head: str) -> set[str]:
    """What the sides are ("Which team offsite had more attendees" → team, offsite): not
    the attribute compared, so not evidence for a value."""
    words = head.lower().split()
    if words and words[0] in ("which", "what"):
        for i, word in enumerate(words[1:5], start=1):
            if word in _AUX:
                return tokens(" ".join(words[1:i]))
    return set()


def side_value(side: str, attribute: set[str], kind: str, passages: Sequence[tuple[str, str]]):
    """The side's value of ``kind``: from the passages titled by the side (else naming it),
    the statement with a value that shares most attribute words (mentions of the side count
    one), earliest first on ties."""
    key = tokens(side)
    if not key:
        return None
    # the exact title first: "Lucky Boy" is the 1929 film, not "Lucky Boy (2017 film)", on a tie
    titled = sorted((p for p in passages if key <= tokens(p[0])), key=lambda p: tokens(p[0]) != key)
    named = [p for p in passages if p not in titled and key <= tokens(p[1])]
    for about in (titled, named):
        best, best_score = None, 0
        for _, text in about:
            for statement in statements(text):
                values = dates(statement)[0] if kind == "time" else numbers(statement)
                if not values:
                    continue
                words = tokens(statement)
                score = len(words & attribute) + (1 if key <= words else 0)
                if score > best_score:
                    best, best_score = values[0], score
        if best is not None:
            return best
    return None


def _life_value(side: str, life: str, passages: Sequence[tuple[str, str]]):
    """The birth or death date (``life``) the side's own document states, or None: the first
    date of "(October 2, 1886 – June 9, 1956)" is the birth, never "when he died"."""
    key = tokens(side)
    for title, text in passages:
        if key and key <= tokens(title):
            birth, death = life_dates(text)
            found = birth if life == "birth" else death
            if found is not None:
                return found
    return None


def compare(question: Question, passages: Sequence[tuple[str, str]]) -> Comparison | None:
    """Decide ``question`` between its two options (its sides) from the fed ``passages``
    ((title, text), best first), or None when it is not a comparison this can decide."""
    options = question.options
    if len(options) != 2 or question.yes_no or question.cue is None:
        return None
    word, kind, larger = question.cue.word, question.cue.kind, question.cue.larger_wins
    head = question.text.split(",")[0]
    attribute = (tokens(head) - tokens(" ".join(options)) - _kind_words(head) - set(CUES)) | _IMPLIED.get(word, set())
    # "died first": the death date, not the first one; a bridge's life ("the director who died first") is
    # not in the side's document: the side's own date stands in for it (bridge-compare reads the real one)
    life = question.life if kind == "time" and not question.bridge else ""
    found = [(life and _life_value(side, life, passages)) or side_value(side, attribute, kind, passages)
             for side in options]
    if any(v is None for v in found):
        return None
    (a, a_shown), (b, b_shown) = found
    if kind == "time" and (a[0] == 0 or b[0] == 0) and not (a[0] == b[0] == 0):
        return None  # "14 June" against "2019": not comparable
    if a == b:
        return None
    wins = 0 if (a > b) == larger else 1
    return Comparison(options[wins], kind, ((options[0], a_shown), (options[1], b_shown)))
