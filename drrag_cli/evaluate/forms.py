"""Other forms of a gold answer that the documents or the question settle, for a second score.

"Gerald McRaney" for the gold "Gerald Lee McRaney" names the same man: his page is titled the
one and opens with the other. A plain substring test (Acc) marks it wrong, and it marks "Sandra
Miju Oh" wrong for the gold "Sandra Oh" the same way, so which of the two forms an answer rule
prefers is decided by how the gold was written. ``accepted`` counts an answer right when Acc
does, or when a form of the gold stands in it word for word:

* the name a document is titled and the name its opening sentence gives (sharing a word with
  the title), each for the other, when one of them is the gold;
* a date's year, when the question asks for a year ("In what year …?", gold "8 June 1951");
* a country for its people and back ("American" / "United States", ``answer.origin.NATIONS``);
* a word's singular for its plural and back ("dog" / "Dogs").

The gold itself is never loosened, and EM, F1 and Acc stay the official ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from drrag_cli.answer.origin import COUNTRY_OF, NATIONS
from drrag_cli.text.relations import without_aside
from drrag_cli.text.words import normalize_answer

# A document's opening name: what its first sentence says before "(born …)", "," or "is / was".
_OPENING = re.compile(r"\s*([^\W\d_][^()\n,;:.]{0,80}?)\s*(?:\(|,|\s(?:is|was|are|were|has|had|refers)\s)")
_HEADING = re.compile(r"\s*#+[^\n]*\n")  # a note's "# Title" line
_YEAR_ASKED = re.compile(r"\byear\b", re.IGNORECASE)
_YEAR = re.compile(r"\b(1\d{3}|20\d{2})\b")
_NAME_WORDS = 8


def opening_name(title: str, text: str) -> str | None:
    """The name ``text``'s first sentence opens with, when it shares a word with ``title``
    ("Gerald Lee McRaney (born …) is …" under "Gerald McRaney"); None otherwise."""
    m = _OPENING.match(_HEADING.sub("", text, count=1) if text.lstrip().startswith("#") else text)
    if m is None or len(m.group(1).split()) > _NAME_WORDS:
        return None
    name = m.group(1).strip()
    shared = set(normalize_answer(name).split()) & set(normalize_answer(without_aside(title)).split())
    return name if shared else None


def gold_forms(golds: Sequence[str], question: str, documents: Iterable[tuple[str, str]]) -> list[str]:
    """The other forms of ``golds`` that ``documents`` ((title, text)) and ``question`` settle."""
    wanted = {normalize_answer(g) for g in golds} - {""}
    forms: list[str] = []
    for title, text in documents:
        name = opening_name(title, text)
        if name is None:
            continue
        plain = without_aside(title)
        if normalize_answer(plain) in wanted:
            forms.append(name)
        if normalize_answer(name) in wanted:
            forms.append(plain)
    for gold in golds:
        year = _YEAR.findall(gold)
        if _YEAR_ASKED.search(question) and len(year) == 1 and normalize_answer(gold) != year[0]:
            forms.append(year[0])
        country = COUNTRY_OF.get(gold.strip())
        if country is not None:
            forms.extend(NATIONS[country].split("|"))
    return [f for f in dict.fromkeys(forms) if normalize_answer(f) not in wanted]


def accepted(prediction: str, golds: Sequence[str], forms: Sequence[str] = ()) -> float:
    """1.0 when a gold stands in ``prediction`` (Acc), or a form of one does, word for word, a
    word's plural and singular taken as one."""
    pred = normalize_answer(prediction)
    if any(g and g in pred for g in map(normalize_answer, golds)):
        return 1.0
    words = f" {_singular(pred)} "
    return float(any(f" {f} " in words for f in (_singular(normalize_answer(x)) for x in [*golds, *forms]) if f))


def _singular(norm: str) -> str:
    """Each word of a normalised text without a plural "s" ("dogs" → "dog", not "glass")."""
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in norm.split())
