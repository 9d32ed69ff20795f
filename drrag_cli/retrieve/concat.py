"""Query–document concatenation (QDC, DR-RAG §3.2.1): q*_i = q + " " + d_i.

With ``focus`` (``retrieval.qstar_focus``), d_i is cut to its ``focus`` units (sentences,
lines, table rows) that share the most content words with q, kept in their original
order. A passage that lists twelve people, projects or dates otherwise drowns the one
name the question is about: the second hop is the entity *next to* the question's words.
"""

from __future__ import annotations

from drrag_cli.select.features import focus_units


def concat_query(question: str, title: str, text: str, focus: int = 0) -> str:
    """The second-stage query for static document (title, text).

    The title goes in too: the bridge entity is often the static document's subject,
    and BM25 over q* finds the second hop through that name.
    """
    if focus > 0:
        text = focus_units(question, text, focus, title)
    doc = f"{title}. {text}" if title else text
    return f"{question} {doc}"
