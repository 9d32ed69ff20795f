"""A yes/no question about one named subject, checked against what its documents state.

"Was Harbour Lights directed by Maren Solberg?", "Was Ilse Varga born in Graz?", "Did Ada
Byron die in 1852?": the question names a value after its verb; the open question it
rewrites ("Who was Harbour Lights directed by?", "Where was Ilse Varga born?", "When did Ada
Byron die?") goes to the readers of one stated value, and the value they read is compared
with the one asked: the same (or the asked one is a region written after it: "Tromsø,
Norway" for "in Norway") → yes, another → no; a country the text does not write after the
place read is left to the model.

"Is Ilse Varga an Austrian actress?", "Is Maren Solberg Austrian?", "Is Lake Vättern located
in Sweden?": the question names one fed document and asks a property of it, checked on that
document's opening sentences as the reader "both" checks each of two sides
(:func:`.alike.check_property`): it holds → yes; another country or US state is named, or
what the subject is is read and the kind asked for is not → no.

Gemma-3-270M says "yes" to nearly every such question whatever the text (``answer.no_bias``
turns that into "no"); the readers do not guess. Left to the model (None) when the question
is not one of these shapes, the open question has no stated value, or the property is
undecided.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from drrag_cli.answer.alike import check_property, without_sides
from drrag_cli.answer.compare import Comparison
from drrag_cli.answer.origin import COUNTRY_OF, named_sides
from drrag_cli.asked import Question, parse
from drrag_cli.ingest.units import statement_units
from drrag_cli.text.tables import linearise
from drrag_cli.text.words import MONTHS, STOP

Docs = Sequence[tuple[str, str]]
# the readers that answer the open question: each reads one stated value
OPEN_READERS = ("bridge-trait", "table", "statement", "release")
_PARTICIPLE = (
    r"born|founded|established|opened|built|released|published|formed|created|launched|located|based|"
    r"headquartered|buried|raised|directed|written|produced|designed|composed|(?-i:[a-z]{3,}ed)"
)
# "Was Harbour Lights directed by Maren Solberg?", "Was Ilse Varga born in Graz?"
_WAS_VALUE = re.compile(
    rf"^\s*(?P<aux>was|were|is|are)\s+(?P<subject>[A-Z].*?)\s+(?P<verb>{_PARTICIPLE})\s+"
    r"(?P<prep>by|in|on|at)\s+(?P<value>[A-Z0-9].*?)\s*\?\s*$",
    re.IGNORECASE,
)
# "Did Ada Byron die in 1852?", "Does Ilse Varga live in Vienna?"
_DID_VALUE = re.compile(
    r"^\s*(?P<aux>did|does|do)\s+(?P<subject>[A-Z].*?)\s+(?P<verb>(?-i:[a-z]+))\s+"
    r"(?P<prep>in|on|at)\s+(?P<value>[A-Z0-9].*?)\s*\?\s*$",
    re.IGNORECASE,
)
_WHEN = re.compile(r"^(?:\d{1,2}\s+)?(?:[A-Z][a-z]+\s+)?(?:\d{1,2},?\s+)?\d{3,4}$")  # "1852", "March 1951"
_YEAR = re.compile(r"\b\d{3,4}\b")
_LETTERS = re.compile(r"[^\W\d_]+")
_IS = re.compile(r"^\s*(?:is|was|are|were)\s+(?P<rest>.+?)\s*\?\s*$", re.IGNORECASE)


def open_question(question: Question) -> tuple[str, str] | None:
    """(the open question, the value asked) of a yes/no question that names a value after its
    verb: "Was X directed by Y?" → ("Who was X directed by?", "Y"); None for another shape."""
    if not question.yes_no or question.alike is not None:
        return None
    found = _WAS_VALUE.match(question.text) or _DID_VALUE.match(question.text)
    if found is None:
        return None
    value, prep = found.group("value"), found.group("prep").lower()
    wh = "Who" if prep == "by" else "When" if _WHEN.match(value) else "Where"
    verb = found.group("verb") + (" by" if prep == "by" else "")
    return f"{wh} {found.group('aux').lower()} {found.group('subject')} {verb}?", value


def checked_value(asked: tuple[str, str], docs: Docs, read: str | None) -> Comparison | None:
    """Yes when the value ``read`` for the open question is the one asked (``asked``: what
    :func:`open_question` gives), or the asked one is a region a fed sentence writes after it;
    no when it is another; None when nothing whole was read or the asked country is not written."""
    if not read:
        return None
    value = asked[1]
    if not _whole(read, asked[0].split()[0]):
        return None
    same = _same_value(value, read) or any(_stated_with(value, read, text) for _, text in docs)
    if not same and value in COUNTRY_OF:  # "born in Norway?" over "born in Tromsø": not said
        return None
    subject = parse(asked[0]).subject or "read"
    return Comparison("yes" if same else "no", "checked", ((subject, read), ("asked", value)))


def checked_property(question: Question, docs: Docs) -> Comparison | None:
    """Yes / no for "Is <one fed document's title> <a property>?" from that document's opening
    sentences; None when the question names no or several fed documents or the check is
    undecided. The caller asks it of a question that names no value (:func:`open_question`)."""
    if not question.yes_no or question.alike is not None:
        return None
    found = _IS.match(question.text)
    sides = named_sides(question, docs)
    if found is None or len(sides) != 1:
        return None
    prop = without_sides(" ".join(re.findall(r"\w+", found.group("rest").lower())), sides)
    held, shown, firm = check_property(prop, sides[0][1])
    if held is None or (held is False and not firm and not _a_kind(prop, docs)):
        return None
    return Comparison("yes" if held else "no", "checked", ((sides[0][0], shown), ("asked", prop)))


def _a_kind(prop: str, docs: Docs) -> bool:
    """Some fed document is what ``prop`` asks for: "film director" is a kind when a director's
    page is fed, so an actress's page not saying it is a "no"; "a wonderful person" is none."""
    return any(check_property(prop, text)[0] for _, text in docs)


def _whole(read: str, wh: str) -> bool:
    """The value read is whole: no name cut at an initial ("Leo C" of "Leo C. Popkin"), a year
    for "When", and for "Where" no date ("died in October 2006")."""
    words = _LETTERS.findall(read)
    if not words or len(words[-1]) == 1:
        return False
    if wh == "When":
        return bool(_YEAR.search(read))
    return wh != "Where" or (words[0].lower() not in MONTHS and not _YEAR.search(read))


def _same_value(value: str, answer: str) -> bool:
    """The asked value and the one read name the same thing: a year either writes, or the
    words of one among the other's ("Maren Solberg" in "Maren Solberg and Ola Berg")."""
    years = set(_YEAR.findall(value))
    if years:
        return bool(years & set(_YEAR.findall(answer)))
    mine, theirs = _named(value), _named(answer)
    return bool(mine) and bool(theirs) and (mine <= theirs or theirs <= mine)


def _named(text: str) -> set[str]:
    """The words of a name, lower-case, however hyphens are spaced ("Jean- Pierre")."""
    return {w.lower() for w in _LETTERS.findall(text)} - STOP


def _stated_with(value: str, answer: str, text: str) -> bool:
    """The asked value is a region ``text`` writes after the value read ("born in Tromsø,
    Norway" for "Was she born in Norway?")."""
    regions = re.compile(rf"{re.escape(answer)}(?:,\s*[^,.;()]+?)*,\s*{re.escape(value)}\b", re.IGNORECASE)
    return any(regions.search(sentence) for sentence in statement_units(linearise(text)))
