"""A scripted stand-in for the LLM, for unit tests of control logic only.

Integration tests use the real embedded GGUF; this fake exists so a test can script
exactly what "the model" says (malformed output included) and check what the code does.
"""

from __future__ import annotations

from collections.abc import Callable


class ScriptedLLM:
    """Implements the Generator protocol; returns scripted outputs in order."""

    n_ctx = 2048
    max_tokens = 48
    model_id = "scripted"

    def __init__(self, outputs: list[str] | Callable[[str], str], chat: bool = False) -> None:
        self.outputs = outputs
        self.prompts: list[str] = []
        self._chat = chat

    @property
    def has_chat_template(self) -> bool:
        return self._chat

    def count_tokens(self, text: str) -> int:
        return len(text.split()) + 1  # + BOS, like LocalLLM

    def complete(self, prompt: str, *, max_tokens: int, stop=None, on_token=None, options=(), **held) -> str:  # noqa: ANN001
        self.prompts.append(prompt)
        if callable(self.outputs):
            return self.outputs(prompt)
        return self.outputs.pop(0) if self.outputs else ""

    def render_chat(self, messages: list[dict[str, str]]) -> str:
        return "\n".join(f"<{m['role']}>{m['content']}" for m in messages)

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int, on_token=None, options=(), **held) -> str:  # noqa: ANN001
        return self.complete(self.render_chat(messages), max_tokens=max_tokens)
