"""What the stages need from a model: the :class:`Generator` protocol.

``LocalLLM`` (:mod:`drrag_cli.llm.llm`) is the one implementation; the answer stage, DMQR
and Adaptive-Note take any object of this shape, so a unit test of pure logic can hand
them a scripted fake.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol


class Generator(Protocol):
    """What a stage needs from a model (``LocalLLM`` or a test fake)."""

    n_ctx: int
    max_tokens: int

    @property
    def has_chat_template(self) -> bool: ...

    def count_tokens(self, text: str) -> int: ...

    def complete(
        self,
        prompt: str,
        *,
        max_tokens: int,
        stop: list[str] | None = None,
        on_token: Callable[[str], None] | None = None,
        options: Sequence[str] = (),
        spans: Sequence[str] = (),
        not_first: Sequence[str] = (),
        avoid: Sequence[str] = (),
        prior: Sequence[float] = (),
    ) -> str: ...

    def render_chat(self, messages: list[dict[str, str]]) -> str: ...

    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        max_tokens: int,
        on_token: Callable[[str], None] | None = None,
        options: Sequence[str] = (),
        avoid: Sequence[str] = (),
        prior: Sequence[float] = (),
    ) -> str: ...
