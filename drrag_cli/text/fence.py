"""The fence around untrusted documents in a prompt: the ``<documents>`` block.

Documents are data, never instructions. Each one is shown as a ``[n] title`` line followed
by its text on ONE line, inside a ``<documents>`` block; :func:`neutralise` collapses all
whitespace and removes the block tags, so document text can neither start a line (a fake
``[n]``, ``Question:`` or ``Answer:``) nor close the block. The answer prompt, the
Adaptive-Note prompts and DMQR's rewrites all fence text this way, and the model runtime
finds the block (:data:`DOCS_OPEN`) to keep the prompt's fixed prefix cached.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from drrag_cli.text.tables import linearise

DOCS_OPEN = "<documents>"
DOCS_CLOSE = "</documents>"

_TAG_RE = re.compile(r"<\s*/?\s*documents?\s*>", re.IGNORECASE)
_SPACE_RE = re.compile(r"\s+")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

_SHOWN_WIKI_LINK = re.compile(r"\[\[([^\]|#\n]*)(?:#[^\]|\n]*)?(?:\|([^\]\n]*))?\]\]")  # [[Page#Part|alias]]
_SHOWN_MD_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)")  # [text](target), ![alt](image)


def unlinked(text: str) -> str:
    """Links as the words a reader sees: "[[Marisol Okonkwo|Marisol]]" → "Marisol",
    "[[Ana Ruiz]]" → "Ana Ruiz", "[the plan](plans/q3.md)" → "the plan"."""
    text = _SHOWN_WIKI_LINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), text)
    return _SHOWN_MD_LINK.sub(lambda m: m.group(1), text)


def neutralise(text: str) -> str:
    """Make untrusted text safe to place inside the documents block (one line, no tags)."""
    text = _CONTROL_RE.sub(" ", text)
    text = _TAG_RE.sub(" ", text)
    return _SPACE_RE.sub(" ", text).strip()


def render_documents(docs: Sequence[tuple[str, str]]) -> str:
    """``<documents>`` block of ``[n] title`` + one-line text, numbered from 1; tables are
    written out row by row (:func:`drrag_cli.text.tables.linearise`)."""
    lines = [DOCS_OPEN]
    for number, (title, text) in enumerate(_shown(docs), start=1):
        lines += [f"[{number}] {title}", text]
    lines.append(DOCS_CLOSE)
    return "\n".join(lines)


def document_lines(docs: Sequence[tuple[str, str]]) -> list[str]:
    """Every line of the ``<documents>`` block a model may copy an answer from: each title
    (without its ``[n]``) and each line of its text, as the prompt shows them."""
    return [line for title, text in _shown(docs) for line in (title, *text.splitlines()) if line.strip()]


def _shown(docs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each (title, text) as the prompt shows it; a link as the words a reader sees (a small
    model copies what it is shown, brackets and all: "[[Marisol Okonkwo]], who took over")."""
    return [(neutralise(title) or "Untitled", linearise(neutralise(unlinked(text)))) for title, text in docs]
