"""Generate stage: one local GGUF call turns the selected passages into a short answer.

``LocalLLM`` wraps llama-cpp-python (lazy, loaded once per process); ``generate_answer``
fits the passages into the context window, renders the prompt and post-processes the
answer. Citations are the caller's job, from ``Answer.passages``.
"""

from drrag_cli.generate.answer import Answer, Generator, generate_answer
from drrag_cli.generate.llm import LocalLLM, default_model_path
from drrag_cli.generate.prompts import DEFAULT_STYLE, FALLBACK_ANSWER, PromptStyle

__all__ = [
    "DEFAULT_STYLE",
    "FALLBACK_ANSWER",
    "Answer",
    "Generator",
    "LocalLLM",
    "PromptStyle",
    "default_model_path",
    "generate_answer",
]
