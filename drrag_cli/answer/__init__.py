"""The answer stage: the selected passages and the question become a short, cited answer.

Its data comes from retrieval (the fed passages, the documents CFS kept) and leaves as an
:class:`Answer` the CLI and the server only render. ``generate_answer`` fits the passages
into the model's window, lets the code readers (tables, statements, comparisons, origin,
shared roles, sections) answer what the fed text states outright, else renders the prompt
for one model call, then checks the answer against the fed text (support, guard). The
model itself is :mod:`drrag_cli.llm` (shared with DMQR and Adaptive-Note); the second
hop's question rewriting is :mod:`drrag_cli.answer.hop`, because it reads the retrieved
documents and feeds the answer, never the retrieval. Citations come from
``Answer.passages``, not from the model.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from drrag_cli.answer.answer import Answer, Generator, generate_answer
    from drrag_cli.answer.prompts import DEFAULT_STYLE, FALLBACK_ANSWER, PromptStyle

# imported on first use: every command checks ``answer.readers`` when its config loads
# (answer/readers/registry.py), and `drrag index` or `search` need none of the answer stage
_WHERE = {
    "Answer": "answer", "Generator": "answer", "generate_answer": "answer",
    "DEFAULT_STYLE": "prompts", "FALLBACK_ANSWER": "prompts", "PromptStyle": "prompts",
}  # fmt: skip


def __getattr__(name: str) -> Any:  # noqa: ANN401
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)


__all__ = [
    "DEFAULT_STYLE",
    "FALLBACK_ANSWER",
    "Answer",
    "Generator",
    "PromptStyle",
    "generate_answer",
]
