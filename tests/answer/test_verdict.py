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


def test_a_side_a_comparison_decided_is_no_echo_of_the_question() -> None:
    from drrag_cli.answer.compare import Comparison

    text = "Sacred Planet is a 2004 film. Oz the Great and Powerful is a 2013 film."
    fed = [Passage(source="f.md", title="Films", text=text, ordinal=0, char_start=0, char_end=len(text))]
    question = "Which film was released first: Sacred Planet or Oz the Great and Powerful?"  # no comma: no sides parsed
    compared = Comparison("Sacred Planet", "time", (("Sacred Planet", "2004"), ("Oz the Great and Powerful", "2013")))
    answer = Answer("Sacred Planet", fed, [], "", 0, 0.0, 0, asked=question, compared=compared)
    assert answer.supported and not answer.echoed
    assert not Answer("Sacred Planet", fed, [], "", 1, 0.0, 0, asked=question).supported  # the model's: an echo
