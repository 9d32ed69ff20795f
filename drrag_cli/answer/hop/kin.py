"""A kin word made of several links, walked in code up to its last link, which is asked.

"Who is the paternal grandfather of Lucia Graves?" is father, then father
(:attr:`~drrag_cli.asked.Question.kin_path`). Lucia Graves's page names her father as a fed
document ("the daughter of writer Robert Graves", :func:`drrag_cli.text.relations.related`):
:func:`walk` goes there, every link but the last through a fed document. The reader ``kin``
then reads the last link in his page's words; where it reads none, :func:`kin_chain` asks
"Who is Robert Graves's father?" and the model reads his page (asked the question whole, it
had answered the father himself). Pure string rules, no model call; a chain that a fed
document does not continue is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from drrag_cli.answer.bridge import bridge_of
from drrag_cli.asked import parse
from drrag_cli.text.relations import plain, title_name, without_aside

if TYPE_CHECKING:
    from drrag_cli.asked import Question
    from drrag_cli.retrieve.context import Selected


class KinStep(NamedTuple):
    """The question asked of the chain's last person, that person and the fed file about them,
    and the title of the document the question named."""

    asked: str
    entity: str
    source: str
    about: str


def kin_chain(question: str, documents: Sequence[Selected]) -> KinStep | None:
    """The question about the last link of a kin word of two or more links, or None."""
    asked = parse(question)
    if len(asked.kin_path) < 2:
        return None
    files: dict[str, tuple[str, str]] = {}  # source → (title, its fed text)
    for d in documents:
        title, text = files.get(d.passage.source, (d.passage.title, ""))
        files[d.passage.source] = (title, f"{text} {d.passage.text}")
    sources, docs = list(files), list(files.values())
    found = walk(asked, docs)
    if found is None or found[0] == found[1]:
        return None
    start, at = found
    entity = without_aside(docs[at][0])
    rewritten = _replaced(question, without_aside(docs[start][0]), asked.kin_word, f"{entity}'s {asked.kin_path[-1]}")
    return KinStep(rewritten, entity, sources[at], docs[start][0]) if rewritten else None


def walk(asked: Question, docs: Sequence[tuple[str, str]]) -> tuple[int, int] | None:
    """(the document of the person the question names, the document of the person whose
    relative the kin word's last link is) among ``docs`` ((title, text)), each link but the last
    a fed document its predecessor names as that relative (:func:`~drrag_cli.answer.bridge.bridge_of`,
    as ``bridge-trait`` follows one); None when the chain breaks."""
    start = _named(asked.text, [title for title, _ in docs])
    if start is None or not asked.kin_path:
        return None
    at = docs[start]
    for link in asked.kin_path[:-1]:
        found = bridge_of(at[0], link, docs)
        if found is None:
            return None
        at = found
    return start, docs.index(at)


def _named(question: str, titles: Sequence[str]) -> int | None:
    """The index of the longest title the question names (plain words, no trailing "(…)")."""
    said = plain(question)
    named = [(len(title_name(t)), i) for i, t in enumerate(titles) if len(title_name(t)) > 4 and title_name(t) in said]
    return max(named)[1] if named else None


def _replaced(question: str, person: str, kin_word: str, by: str) -> str | None:
    """``question`` with "<person>'s <kin word>" or "the <kin word> of <person>" (a trailing
    "(…)" after the person kept out of it) replaced by ``by``; None when it holds neither."""
    name = r"\s+".join(re.escape(w) for w in person.split())
    kin = r"\s+".join(re.escape(w) for w in kin_word.split())
    aside = r"(?:\s*\([^)]*\))?"
    for pattern in (rf"{name}{aside}['’]s\s+{kin}\b", rf"\bthe\s+{kin}\s+of\s+{name}{aside}"):
        found = re.search(pattern, question, re.IGNORECASE)
        if found:
            return f"{question[: found.start()]}{by}{question[found.end() :]}"
    return None
