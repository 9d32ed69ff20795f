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

from drrag_cli.answer.answer import Answer, Generator, generate_answer
from drrag_cli.answer.prompts import DEFAULT_STYLE, FALLBACK_ANSWER, PromptStyle

__all__ = [
    "DEFAULT_STYLE",
    "FALLBACK_ANSWER",
    "Answer",
    "Generator",
    "PromptStyle",
    "generate_answer",
]
