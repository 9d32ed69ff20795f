"""Decomposed answers: ask the second hop about the bridge entity by name.

A small model cannot compose two hops: given the Heron overview ("Lead engineer | Tobias
Lindqvist") and Tobias's profile ("born in Uppsala"), Gemma-3-270M answers "In which city
was the lead engineer of Project Heron born?" with "Ghent", yet answers "In which city was
Tobias Lindqvist born?" with "Uppsala" from the same text. It cannot rewrite the question
either (asked to, it copies it). DR-RAG already knows the bridge: a dynamic document was
found *through* a static one, and its title names the entity. So the rewrite is done
here, without a model call: the question's first definite description ("the lead engineer
of Project Heron") is replaced by that title.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from drrag_cli.generate.prompts import answer_options, neutralise

if TYPE_CHECKING:
    from drrag_cli.retrieve.context import Selected

_DETERMINERS = frozenset({"the", "a", "an"})
_AUX = frozenset({"is", "are", "was", "were", "do", "does", "did", "has", "have", "had"})
_WH = frozenset({"what", "which", "who", "whom", "whose", "where", "when", "how", "why"})


def bridge_question(question: str, entity: str) -> str | None:
    """``question`` with its first definite description replaced by ``entity``, or None
    when it has no such description, is a choice or yes/no question, or already names
    ``entity``.

    The description runs from the first determiner after the question word to the end of
    the question, except the last word when the description follows an auxiliary ("In
    which city *was* [the lead engineer of Project Heron] born?"). The question word must
    come before it: "The Oberoi family is part of [a hotel company that ...] in what city?"
    is left alone.
    """
    question, entity = neutralise(question), neutralise(entity)
    if not entity or answer_options(question) or entity.lower() in question.lower():
        return None
    words = question.rstrip(" ?").split()
    for i in range(1, len(words)):
        if words[i].lower() not in _DETERMINERS:
            continue
        tail = 1 if words[i - 1].lower() in _AUX and len(words) - i > 2 else 0
        span = words[i : len(words) - tail]
        if not any(w.lower() in _WH for w in words[:i]) or len(span) < 2:
            return None
        return " ".join([*words[:i], entity, *words[len(words) - tail :]]) + "?"
    return None


def named_bridge(documents: Sequence[Selected]) -> str | None:
    """The bridge entity of a two-hop context: the title of the first dynamic document
    that its static document's fed passages name (the link CFS followed). A title they do
    not contain is a document, not an entity ("Offsite 2022: notes"), so no bridge."""
    statics = [d.passage for d in documents if d.via is None]
    sources = {p.passage_id: p.source for p in statics}
    for d in documents:
        if d.via is None:
            continue
        title = d.passage.title.strip().lower()
        source = sources.get(d.via)
        texts = [p.text.lower() for p in statics if source is None or p.source == source]
        if len(title) >= 3 and any(title in text for text in texts):
            return d.passage.title.strip()
    return None


def decomposed(question: str, documents: Sequence[Selected]) -> str | None:
    """The question about the bridge entity (:func:`bridge_question` of
    :func:`named_bridge`), or None when the context has no named bridge or the question
    cannot be rewritten; then the caller asks the question as it is."""
    entity = named_bridge(documents)
    return bridge_question(question, entity) if entity else None
