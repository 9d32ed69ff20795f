"""An answer's verdict (answer.Answer.verdict): supported or not, and why, judged once in the
answer stage so the CLI and the server only render it. Pure text, no model."""

from __future__ import annotations

import pytest

from drrag_cli.answer.answer import Answer
from drrag_cli.answer.prompts import FALLBACK_ANSWER
from drrag_cli.types import Passage

QUESTION = "Where was Tobias Lindqvist born?"
TEXT = "Tobias Lindqvist was born in Uppsala. Years later he moved to Ghent, in 2019."
FED = [Passage(source="t.md", title="Tobias Lindqvist", text=TEXT, ordinal=0, char_start=0, char_end=len(TEXT))]


def _answer(text: str, **extra: object) -> Answer:
    return Answer(text, list(FED), [], "", 1, 0.0, 0, asked=QUESTION, **extra)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "extra", "supported", "why"),
    [
        ("Uppsala", {}, True, ""),
        ("Stockholm", {}, False, "absent"),
        ("Uppsala", {"strayed": True}, False, "strayed"),
        ("Uppsala", {"reasked": "Tobias Lindqvist"}, False, "second-choice"),
        ("Tobias Lindqvist", {}, False, "echo"),
        (FALLBACK_ANSWER, {}, False, "no-answer"),
        (FALLBACK_ANSWER, {"strayed": True}, False, "no-answer-strayed"),
        ("2019", {"typed": True}, False, "elsewhere"),  # a picked year the text states, not where it answers
    ],
)
def test_the_verdict_says_whether_and_why(text: str, extra: dict, supported: bool, why: str) -> None:
    answer = _answer(text, **extra)
    assert answer.verdict.supported is answer.supported is supported
    assert answer.verdict.why == why
