"""What two named sides have in common, read in code: "What occupation do Chris Menges and
Aram Avakian share?", "Peter Curtis and Scott Draper are both what?", "What type of media does
Bitter Jester and Sicko have in common?".

Gemma-3-270M answers these with a name ("Chris Menges"), an article ("a") or the start of a
sentence ("They were"): 13 of the 27 such questions of HotpotQA dev500 q250–499 were wrong
(accuracy; 7 after this, docs/BENCHMARKS.md). A document's opening sentence says what its
subject is ("Chris Menges is an English cinematographer and film director"; "Aram Avakian
was an American film editor and director"); what two of them share is string work, as
comparing two dates is (:mod:`.compare`).

The sides are the fed documents whose whole title the question names
(:func:`.origin.named_sides`, exactly two, in the question's order). Each side's roles are
the phrases after the opening sentence's first "is / was a / an / the", cut at a clause
("who", "from", "in", "by", "made", …) and split at commas and "and", without years and
nationality words; a profile note without such a sentence gives its Role row's. Two roles
meet when they end in the same words (or one is the start of the other: "documentary",
"documentary film"); the answer is the longest such ending for each role of the first side
that meets one of the second's, in the first side's order ("director"; "director and
producer"). A question about a country or nationality gets the shared one
(:func:`.origin.nationality`). When the sides share nothing this can read, :func:`shared`
returns None and the model answers as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from drrag_cli.answer.compare import Comparison
from drrag_cli.answer.origin import COUNTRY_OF, demonym, named_sides, nationality, side_name
from drrag_cli.answer.statements import ROLE_KEYS
from drrag_cli.asked import Question
from drrag_cli.text.sentences import opening
from drrag_cli.text.tables import key_values
from drrag_cli.text.words import stem

_WH = re.compile(r"\b(?:what|which)\b", re.IGNORECASE)
# the question asks what the sides share: "... share?", "... have in common?", "are both what?"
_SHARED = re.compile(
    r"\bin\s+common\b|\bshare[sd]?\b"
    r"|\b(?:are|were)\s+both\s+(?:what|which|examples|forms|types|kinds|part|best\s+known)\b"
    r"|\bwhat\s+(?:[\w-]+\s+){0,3}?(?:are|were)\s+both\b"
    r"|\b(?:are|were)\s+both\s+(?:located\s+|based\s+)?in\s+(?:what|which)\s+country\b",
    re.IGNORECASE,
)
_ORIGIN = re.compile(r"\b(?:country|countries|nationality|nationalities)\b", re.IGNORECASE)
_DESCENT = re.compile(r"\b(?:ancestry|descent|heritage|ethnicity)\b", re.IGNORECASE)  # not the opening's nationality
_COUNTRY_ASKED = re.compile(r"\bcountry\b", re.IGNORECASE)
# a sentence ends after a word of three or more characters: not "Aram A. Avakian", "St. Anthony"
_BRACKETS = re.compile(r"\([^)]*\)|\[[^\]]*\]")
# "is a / an / the": a noun phrase follows, not "was born in Uppsala"
_IS = re.compile(r"\b(?:is|was|are|were)\s+(?:(?:also|now|currently)\s+)?(?:a|an|the)\s+", re.IGNORECASE)
# where what the subject is ends: a clause, a place, a maker, a time
_CLAUSE = re.compile(
    r"[;:\"“”]|\s(?:who|which|that|whose|where|when|best|known|born|from|in|at|based|with|for|by|on|since|"
    r"between|during|until|whom|than|as|to|made|directed|written|produced|published|released|starring|"
    r"featuring|about|created|designed|founded|located|owned|developed)\b",
    re.IGNORECASE,
)
_ROLE_SPLIT = re.compile(r",\s*(?:and\s+|or\s+)?|\s+and\s+|\s*/\s*", re.IGNORECASE)
_WORD = re.compile(r"[\w'’–-]+")
_HYPHEN = re.compile(r"[–-]")
_SKIP = frozenset("a an the his her their its of and or former".split())
_YEARISH = re.compile(r"^\d+(?:s|th|st|nd|rd)?$")


def roles(text: str) -> list[list[str]]:
    """What ``text``'s opening sentence says its subject is, as word lists (lower-case, no
    years or nationality words): "is an English cinematographer and film director" →
    [["cinematographer"], ["film", "director"]]; else its Role (Title, Occupation, …) row, as
    a profile note keeps it ("| **Role** | Senior software engineer |"); [] when neither says."""
    first = _BRACKETS.sub(" ", opening(text))
    said = _IS.search(first)
    if said is not None:
        what = first[said.end() :]
        cut = _CLAUSE.search(what)
        return _phrases(what[: cut.start()] if cut else what)
    row = next((value for key, value, _ in key_values(text) if key.strip().lower() in ROLE_KEYS), "")
    return _phrases(_BRACKETS.sub(" ", row))


def _phrases(what: str) -> list[list[str]]:
    """``what`` split at commas and "and", each part's words without years, nationality
    words or a leading article."""
    out = []
    for part in _ROLE_SPLIT.split(what):
        words = [w.lower() for w in _WORD.findall(part) if not _YEARISH.match(w) and not _national(w)]
        while words and words[0] in _SKIP:
            words = words[1:]
        if words and words[-1] not in _SKIP:
            out.append(words)
    return out


def _national(word: str) -> bool:
    """A nationality word, alone or in a compound: "American", "Armenian–American",
    "French-Belgian-Irish", "American-born"."""
    return any(part in COUNTRY_OF for part in _HYPHEN.split(word))


def _heads(role: list[str]) -> list[list[str]]:
    """``role``, and its words before "of" when it has them: "author of sixteen books" is an
    author; "genus of flowering plants" stays whole too."""
    return [role, role[: role.index("of")]] if "of" in role[1:] else [role]


def _common_end(a: list[str], b: list[str]) -> list[str]:
    """The words ``a`` and ``b`` both end in (by their :func:`~drrag_cli.text.words.stem`),
    as ``a`` writes them, its last word as the longer of the two ("cocktail", "cocktails": "cocktails")."""
    n = 0
    while n < min(len(a), len(b)) and stem(a[-1 - n]) == stem(b[-1 - n]):
        n += 1
    if not n:
        return []
    return [*a[len(a) - n : -1], max(a[-1], b[-1], key=len)]


def _common_start(a: list[str], b: list[str]) -> list[str]:
    """The shorter of ``a`` and ``b`` when the other starts with it: "documentary" is what
    "documentary film" is too."""
    short, long = sorted((a, b), key=len)
    return short if long[: len(short)] == short else []


def _joined(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _named(question: Question, docs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The named sides (:func:`.origin.named_sides`) in the question's order, without one whose
    name is inside another's ("Jester" in "Bitter Jester", "Park Avenue" in "277 Park Avenue")."""
    sides = named_sides(question, docs)
    names = [f" {side_name(title)} " for title, _ in sides]
    kept = [(s, n) for s, n in zip(sides, names, strict=True) if not any(n != m and n in m for m in names)]
    asked = f" {question.plain} "
    return [s for s, n in sorted(kept, key=lambda sn: asked.find(sn[1]))]


def shared(question: Question, docs: Sequence[tuple[str, str]]) -> Comparison | None:
    """What the two fed documents ``question`` names by title share, as their opening
    sentences (or Role rows) say: a role, a kind, a country; None when it is not such a
    question or nothing shared is read."""
    text = question.text
    if question.yes_no or not _WH.search(text) or not _SHARED.search(text):
        return None
    sides = [] if _DESCENT.search(text) else _named(question, docs)
    if len(sides) != 2:
        return None
    (title_a, text_a), (title_b, text_b) = sides
    if _ORIGIN.search(text):
        read = [nationality(text_a), nationality(text_b)]
        if read[0] is None or read[1] is None or read[0][0] != read[1][0]:
            return None
        country = read[0][0]
        answer = country if _COUNTRY_ASKED.search(text) else demonym(country)
        return Comparison(answer, "shared", ((title_a, read[0][1]), (title_b, read[1][1])))
    mine, theirs = _side_roles(title_a, docs), _side_roles(title_b, docs)
    found = shared_roles(mine, theirs)
    if not found:
        return None
    values = ((title_a, ", ".join(" ".join(r) for r in mine)), (title_b, ", ".join(" ".join(r) for r in theirs)))
    return Comparison(_joined(found), "shared", values)


def _side_roles(title: str, docs: Sequence[tuple[str, str]]) -> list[list[str]]:
    """The roles (:func:`roles`) of the first of the fed passages titled ``title`` that says
    any: a note's Role row may be in its second passage fed."""
    return next((found for name, text in docs if name == title and (found := roles(text))), [])


def shared_roles(mine: list[list[str]], theirs: list[list[str]]) -> list[str]:
    """For each of ``mine``'s roles in order, the longest ending it shares with one of
    ``theirs`` (before an "of" too, :func:`_heads`), else the whole of one that starts the
    other ("documentary", "documentary film"); each once."""
    found: list[str] = []
    for role in mine:
        ends = [_common_end(a, b) for other in theirs for a in _heads(role) for b in _heads(other)]
        best = max(ends, key=len, default=[])
        best = best or max((_common_start(role, other) for other in theirs), key=len, default=[])
        if best and " ".join(best) not in found:
            found.append(" ".join(best))
    return found
