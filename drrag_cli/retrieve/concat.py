"""Query–document concatenation (QDC, DR-RAG §3.2.1): q*_i = q + " " + d_i."""

from __future__ import annotations


def concat_query(question: str, title: str, text: str) -> str:
    """The second-stage query for static document (title, text).

    The title goes in too: the bridge entity is often the static document's subject,
    and BM25 over q* finds the second hop through that name.
    """
    doc = f"{title}. {text}" if title else text
    return f"{question} {doc}"
