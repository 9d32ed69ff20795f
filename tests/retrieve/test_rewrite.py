"""DMQR rewriting: prompts, defensive parsing, adaptive selection, the disk cache (scripted LLM)."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.retrieve.rewrite import (
    RewriteCache,
    adaptive_prompt,
    completion_prompt,
    parse_rewrite,
    parse_selection,
    rewrite_question,
)
from tests.fakes import ScriptedLLM

Q = "In which city was the lead engineer of Project Heron born?"


def test_completion_prompts_end_in_the_label_the_model_continues() -> None:
    assert completion_prompt("kwr", Q).endswith(f"Question: {Q}\nKeywords:")
    assert completion_prompt("par", Q).endswith("Answer sentence:")
    assert adaptive_prompt(Q).endswith("Strategies:")
    assert "gqr:" in adaptive_prompt(Q) and "cce:" in adaptive_prompt(Q)  # the strategy descriptions


def test_every_strategy_runs_and_the_question_comes_first() -> None:
    llm = ScriptedLLM([" Where was Heron's lead engineer born?", " Heron, lead engineer, birthplace",
                       " The lead engineer of Heron was born in Uppsala.", " Birthplace of Heron's lead engineer"])
    out = rewrite_question(llm, Q, ["gqr", "kwr", "par", "cce"])
    assert out.llm_calls == 4 and len(llm.prompts) == 4
    assert [label for label, _ in out.queries] == ["original", "gqr", "kwr", "par", "cce"]
    assert out.queries[0][1] == Q
    assert out.items[1].text == "Heron, lead engineer, birthplace" and out.fallbacks == []


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        ("", "skipped: empty output"),
        ("   \n  ", "skipped: empty output"),
        (f" {Q}", "skipped: repeats the question"),
        (" " + "word " * 40, "skipped: 40 words, over 30"),
        (' Keywords: "Heron, engineer"\nmore rambling', "ok"),
    ],
)
def test_malformed_rewrites_are_skipped_not_raised(raw: str, status: str) -> None:
    text, got = parse_rewrite("kwr", raw, Q)
    assert got == status
    assert (text == "Heron, engineer") if status == "ok" else text == ""


def test_skipped_rewrite_is_reported_and_question_still_retrieved() -> None:
    out = rewrite_question(ScriptedLLM(["", " Heron engineer"]), Q, ["gqr", "kwr"])
    assert [label for label, _ in out.queries] == ["original", "kwr"]
    assert out.items[0].status == "skipped: empty output"
    assert out.fallbacks == ["gqr rewrite empty output: retrieved without it"]


def test_adaptive_selection_and_its_fallback() -> None:
    out = rewrite_question(ScriptedLLM([" kwr, PAR and more", " Heron", " born in Uppsala"]), Q, ["adaptive"])
    assert out.chosen == ["kwr", "par"] and out.llm_calls == 3 and out.fallbacks == []
    bad = rewrite_question(ScriptedLLM([" I think the best is maybe"] + [" x y"] * 4), Q, ["adaptive"])
    assert bad.chosen == ["gqr", "kwr", "par", "cce"]
    assert bad.fallbacks[0].startswith("adaptive selection unreadable")
    assert parse_selection("cce\npar") == ["cce"]  # first line only


def test_chat_models_get_messages() -> None:
    llm = ScriptedLLM([" Heron, engineer"], chat=True)
    out = rewrite_question(llm, Q, ["kwr"])
    assert llm.prompts[0].startswith("<system>You rewrite search queries.") and out.items[0].status == "ok"


def test_cache_per_question_model_and_strategy(tmp_path: Path) -> None:
    cache = RewriteCache(tmp_path / "rw")
    first = rewrite_question(ScriptedLLM([" Heron, engineer"]), Q, ["kwr"], cache)
    assert first.llm_calls == 1
    again = ScriptedLLM([])
    second = rewrite_question(again, Q, ["kwr"], cache)
    assert second.llm_calls == 0 and again.prompts == [] and second.items[0].status == "cached"
    assert second.items[0].text == "Heron, engineer"
    other = ScriptedLLM([" other"])
    other.model_id = "another-model"
    assert rewrite_question(other, Q, ["kwr"], cache).llm_calls == 1  # a different model misses
    assert rewrite_question(ScriptedLLM([" Heron"]), Q, ["cce"], cache).llm_calls == 1  # and a strategy
    (next((tmp_path / "rw").glob("*.json"))).write_text("{not json", encoding="utf-8")  # corrupt: ignored
    assert len(list((tmp_path / "rw").glob("*.json"))) == 3
