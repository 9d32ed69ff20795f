"""The eval report's summary line: which model answered, or only counted tokens."""

from __future__ import annotations

from drrag_cli.evaluate.report import summary_line
from drrag_cli.evaluate.result import EvalResult


def _result(**meta: object) -> EvalResult:
    return EvalResult("dev100.musique", "musique", 3, 1839, [], meta={"wall_s": 1.25, **meta})


def test_a_run_with_the_llm_names_its_model() -> None:
    line = summary_line(_result(llm=True, model="/m/gemma.gguf"))
    assert line == "dev100.musique (musique): 3 questions, 1839 passages, model gemma.gguf, 1.2 s wall"


def test_a_no_llm_run_says_so_though_a_model_counted_its_tokens() -> None:
    assert ", no LLM, " in summary_line(_result(llm=False, model="/m/gemma.gguf"))
    assert ", no LLM, " in summary_line(_result(llm=False, model=None))


def test_resumed_and_interrupted_runs_say_so() -> None:
    line = summary_line(_result(llm=False, model=None, resumed=2, interrupted=True))
    assert line.endswith("2 resumed, INTERRUPTED: partial")
