"""Reading a table cell the question names, in code: a row's column ("In which city is
Kestrel Rail headquartered?" over the client register), a key's value ("When did Inês
Carvalho join?" over her profile), a timeline's date, who wrote or leads a thing.

The Markdown parse (:func:`~drrag_cli.text.tables.tables`, ``key_values``, ``linearise``)
is :mod:`drrag_cli.text.tables`, shared with ingest and retrieval.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from drrag_cli.text.tables import key_values, tables
from drrag_cli.text.tables import plain as _plain
from drrag_cli.text.words import same_word, stem


@dataclass(frozen=True)
class Lookup:
    """A cell read from a table row that the question names, under the header it asks for;
    a key's value in a key-value table or a bold list item (``source`` "list"); or (``source``
    "text") a value a sentence states after the question's verb (.statements)."""

    answer: str
    row: str  # the row's first cell: "Kestrel Rail" (the question's subject: "Tobias Lindqvist")
    column: str  # "Headquarters" (the verb: "born")
    document: int  # index of the fed document that holds the table (the sentence)
    source: str = "table"

    def to_json(self) -> dict[str, object]:
        return {"row": self.row, "column": self.column, "answer": self.answer, "source": self.source}


# "Who wrote / owns / leads ...?": the keys of a key-value table ("| **Author** | Priya
# Raman |", a note's metadata) that name who did it.
_AGENTS = (
    (re.compile(r"\b(?:wrote|writes|written|write|authored)\b", re.I), ("author", "authors", "writer")),
    (re.compile(r"\b(?:owns|owned|own)\b", re.I), ("owner", "owners")),
    (re.compile(r"\b(?:leads|led|lead)\b", re.I), ("lead", "leader", "project lead")),
    (re.compile(r"\b(?:founded)\b", re.I), ("founder", "founders")),
    (re.compile(r"\b(?:maintains|maintained)\b", re.I), ("maintainer", "maintainers")),
    (re.compile(r"\b(?:facilitated)\b", re.I), ("facilitator",)),
    (re.compile(r"\b(?:reviewed)\b", re.I), ("reviewer", "reviewers")),
)
_KEYS = frozenset(key for _verb, names in _AGENTS for key in names if " " not in key)
_WHO = re.compile(r"^\s*who\b", re.I)
_WHO_IS = re.compile(r"^\s*who\s+(?:is|was|are|were)\b", re.I)
_PERSON = frozenset(map(stem, ("person", "name")))  # header stems (text.words.content) "Who is …?" reads
_CLAUSE = re.compile(r"\b(?:that|which|who|whom|whose|where|when)\b", re.I)


def _asked_agent(question: str) -> tuple[set[str], str]:
    """The table keys a "Who ...?" question names (by its verb, "wrote" → author, or by the
    key itself, "the author of") and what it asks the agent of: the words after that verb
    or key, up to a relative clause ("Who owns [the command-line tool] that the how-to ...
    tells you to use?"): the document must be that thing, not one the clause mentions."""
    verbs = [(m, names) for verb, names in _AGENTS if (m := verb.search(question))]
    nouns = [m for m in re.finditer(r"[A-Za-z]+", question) if m.group(0).lower() in _KEYS]
    keys = {key for _m, names in verbs for key in names} | {m.group(0).lower() for m in nouns}
    starts = [m.end() for m, _names in verbs] + [m.end() for m in nouns]
    rest = question[min(starts) :] if starts else question
    return keys, _CLAUSE.split(rest, maxsplit=1)[0]


def _agent(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """"Who wrote the design document for the reranker ...?" over a document whose key-value
    table says "Author: Priya Raman": the value under the key the question's verb names, in
    the fed document whose title shares most content words with what the question asks
    the agent of (:func:`_asked_agent`; at least one), when that document's table says one
    thing; None otherwise."""
    from drrag_cli.text.words import content

    if not _WHO.match(question):
        return None
    keys, thing = _asked_agent(question)
    if not keys:
        return None
    asked = content(thing)
    best: tuple[int, list[Lookup]] = (0, [])
    for number, (title, text) in enumerate(docs):
        shared = len(content(title) & asked)
        if shared < max(1, best[0]):
            continue
        pairs = key_values(text)
        cells = [Lookup(value, title, key, number, kind) for key, value, kind in pairs if key.lower() in keys]
        if cells:
            best = (shared, cells) if shared > best[0] else (shared, best[1] + cells)
    found = {cell.answer.lower(): cell for cell in best[1]}
    return next(iter(found.values())) if len(found) == 1 else None


def lookup(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """The answer when the question names a table row (its first cell, "Kestrel Rail") and
    asks for one of its columns (a header sharing a stem with the question's other words:
    "headquartered" → Headquarters; or naming its agent: "Who owns X?" → Owner), and every
    such row the fed ``docs`` (title, text) hold says the same; or, for "Who wrote ...?", a
    key-value table's author (:func:`_agent`); None otherwise (the model answers)."""
    from drrag_cli.text.words import content, words

    agent = _agent(question, docs) or _attribute(question, docs) or _dated(question, docs)
    if agent is not None:
        return agent
    asked = words(question)
    agents = content(" ".join(_asked_agent(question)[0])) if _WHO.match(question) else set()  # owns → Owner
    agents |= _PERSON if _WHO_IS.match(question) else set()  # "Who is Curlew's design lead?": its Person cell
    found: dict[str, Lookup] = {}
    for number, (_title, text) in enumerate(docs):
        for headers, rows, _start, _end in tables(text):
            for row in rows:
                key = words(row[0])
                if len(key) < 5 or key not in asked:  # three characters at least, spaces around
                    continue
                wanted = content(asked.replace(key, " ")) | agents
                columns = [j for j in range(1, len(headers)) if content(headers[j]) & wanted and row[j]]
                if len(columns) == 1 and not passed_cell(question, _plain(headers[columns[0]]), _plain(row[0])):
                    j = columns[0]
                    found.setdefault(row[j].lower(), Lookup(row[j], row[0], headers[j], number))
    return next(iter(found.values())) if len(found) == 1 else None


def _attribute(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """"When did Inês Carvalho join?" over the document titled "Inês Carvalho" whose key-value
    table says "Joined: June 2021": the value of the key whose words (up to three) each
    share a stem with a word the question asks (not the title's own), in a fed document
    whose title the question names in full (or by a name only that title holds: "What is
    Amara's email?" over "Amara Okafor"); None when no such key, or two values. A
    profile's table otherwise reaches Gemma-3-270M as a run of "Key: value." sentences,
    and it copied them from the start."""
    from drrag_cli.text.words import STOP, WORD_RE

    said = [w for w in WORD_RE.findall(question.lower()) if w not in STOP]
    titles = [{w for w in WORD_RE.findall(title.lower()) if w not in STOP} for title, _text in docs]
    short, said_set = _short_name(question, titles), set(said)  # "Amara" for "Amara Okafor"
    found: dict[str, Lookup] = {}
    for number, (title, text) in enumerate(docs):
        named = titles[number]
        by = _named_as(title, named, said_set, short)
        if not by or _about_the_possessed(question, by):
            continue
        asked = [w for w in said if w not in named]
        for key, value, kind in key_values(text):
            keys = [k for k in WORD_RE.findall(key.lower()) if k not in STOP]  # "Client contact": both asked
            if not 0 < len(keys) <= 3 or not all(any(same_word(k, w) for w in asked) for k in keys):
                continue
            if by != title and not all(any(same_word(k, w) for k in keys) for w in asked if len(w) > 1):
                continue  # by a first name, the key is all it asks: "Where was the Tidepool author born?" is no Author
            found.setdefault(value.lower(), Lookup(value, title, key, number, kind))
    return next(iter(found.values())) if len(found) == 1 else None


def _named_as(title: str, named: set[str], said: set[str], short: str) -> str:
    """How the question names the document titled ``title`` (its words ``named``): in full,
    by the ``short`` name only this title holds, or not at all ("")."""
    if named and named <= said:
        return title
    return short if short and set(short.lower().split()) <= named else ""


def _short_name(question: str, titles: list[set[str]]) -> str:
    """The name the question gives ("What is Amara's email?": Amara) when its words are part of
    exactly one fed title ("Amara Okafor", however many of its passages are fed), so a first
    name finds its profile; else "", and "" when the question's possessive is on another word
    ("Where was the Tidepool design's author born?" asks of the author, not of Tidepool)."""
    from drrag_cli.text.words import STOP

    written = [w for w in re.findall(r"(?<=\s)[A-Z][\w-]+", question) if w.lower() not in STOP]
    names = {w.lower() for w in written}
    owners = re.findall(r"(\w+)['’]s?(?!\w)", question)  # "the Tidepool design's author": the design's, not Tidepool's
    if any(owner.lower() not in names for owner in owners):
        return ""
    holding = {frozenset(title) for title in titles if names <= title}  # a note's passages share its title
    return " ".join(written) if names and len(holding) == 1 else ""


_ASKS_ITSELF = re.compile(r"\s*(?:what|which|who)\s+(?:is|was|are|were)\s*$", re.IGNORECASE)


def _about_the_possessed(question: str, title: str) -> bool:
    """The question asks something of what the title possesses, not for it: "Where did
    [Plover's lead] grow up?" is not answered with the Lead row's "Inês Carvalho (Porto)";
    "What is [Inês Carvalho's Slack handle]?" and "Who is [Plover's lead]?" ask for it; "the lead
    of Project Plover" is Plover's lead."""
    name = re.escape(title.strip())
    possessed = re.search(rf"(?<!\w){name}['’]s?(?!\w)", question, re.IGNORECASE) or re.search(
        rf"\bthe\s+[\w\s-]{{1,40}}?\s+of\s+(?:[\w-]+\s+)?{name}(?!\w)", question, re.IGNORECASE
    )  # "the lead of Project Plover" as "Plover's lead"
    return possessed is not None and not _ASKS_ITSELF.match(question[: possessed.start()])


_ASKS_IT = re.compile(r"(?:^|[.?!]\s*)(?:what|which|who|where|when)\s+(?:is|was|are|were)\s+$", re.IGNORECASE)


def passed_cell(question: str, header: str, row: str) -> re.Match[str] | None:
    """Where the question names a row's cell (by its ``header`` and the ``row``'s first
    cell) as a bridge, not as what it asks: "Where did [the owner of the invoice renderer]
    live before Lisbon?" and "When was the city where [the owner of the schema migration] is
    based founded?" ask something of the Owner cell's person; "Who is the owner of the
    invoice renderer?", "Where is the headquarters of Kestrel Rail?" (the description is all
    that follows "<wh> is") and "Who owns the invoice renderer?" ask for the cell. None when
    it does not."""
    if not row.strip() or not header.strip():
        return None
    name, column = re.escape(row.strip()), re.escape(header.strip())
    said = re.search(rf"\bthe\s+{column}\s+of\s+(?:the\s+)?{name}(?!\w)", question, re.IGNORECASE) or re.search(
        rf"(?<!\w)(?:the\s+)?{name}['’]s?\s+{column}\b", question, re.IGNORECASE
    )
    if said is None or (_ASKS_IT.search(question[: said.start()]) and not question[said.end() :].strip(" ?.!")):
        return None
    return said


_DATE_HEADERS = frozenset(("when", "date", "year", "day", "month"))


def _dated(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """"When did Plover v1.0 ship?" over a timeline table ("| When | What |", "| 2 November
    2022 | Plover v1.0 shipped, covering 212 pumping stations |"): the date cell of the one
    row whose other cells say the most of the question's words (two at least); None when
    two rows tie, or two tables disagree."""
    from drrag_cli.text.words import STOP, WORD_RE

    if not re.match(r"\s*when\b", question, re.IGNORECASE):
        return None
    said = {w for w in WORD_RE.findall(question.lower()) if w not in STOP}
    found: dict[str, Lookup] = {}
    for number, (_title, text) in enumerate(docs):
        for headers, rows, _start, _end in tables(text):
            dates = [j for j, h in enumerate(headers) if _plain(h).lower() in _DATE_HEADERS]
            if len(dates) != 1:
                continue
            d = dates[0]
            scored = sorted(((_said(said, row, d), row) for row in rows), key=lambda pair: -pair[0])
            if scored[0][0] >= 2 and (len(scored) == 1 or scored[1][0] < scored[0][0]) and scored[0][1][d]:
                row = scored[0][1]
                found.setdefault(row[d].lower(), Lookup(row[d], row[0] if d else row[1], _plain(headers[d]), number))
    return next(iter(found.values())) if len(found) == 1 else None


def _said(said: set[str], row: list[str], skip: int) -> int:
    """How many of the question's words ``said`` a row's cells (but cell ``skip``) hold, by stem."""
    from drrag_cli.text.words import WORD_RE

    cells = {w for j, cell in enumerate(row) if j != skip for w in WORD_RE.findall(cell.lower())}
    return sum(any(same_word(w, c) for c in cells) for w in said)
