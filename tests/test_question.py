"""The one question check (drrag_cli/question.py) and the library entry points that use it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.errors import InputError
from drrag_cli.index.api import Index
from drrag_cli.pipeline import Pipeline
from drrag_cli.question import REPLACEMENT, checked_question, clean_text
from tests.fakes import ScriptedLLM


def test_clean_text_decodes_argv_bytes_and_replaces_lone_surrogates() -> None:
    assert clean_text("plain é 🙂") == "plain é 🙂"
    argv = os.fsdecode(b"caf\xe9 \xff\xfe heron \xc3\xa9")  # what sys.argv holds for these bytes
    assert clean_text(argv) == f"caf{REPLACEMENT} {REPLACEMENT}{REPLACEMENT} heron é"
    assert clean_text("\ud800x\udfff") == f"{REPLACEMENT}x{REPLACEMENT}"
    assert clean_text("\ud83d\ude42") == "🙂"  # a pair split into two code points is joined
    for text in (argv, "\ud800", "a\udc80\ud800b"):
        clean_text(text).encode("utf-8")  # never raises


def test_checked_question_refuses_what_no_stage_can_take() -> None:
    settings = Settings()
    assert checked_question("a\x00b\x1b[31m", settings) == "a b [31m"  # controls become spaces
    for blank in ("", "   \t\n", "\x00\x01", os.fsdecode(b"\xff\xfe"), "\u200b\ufeff"):
        with pytest.raises(InputError, match="the question is (empty|only blanks)"):
            checked_question(blank, settings)
    with pytest.raises(InputError) as err:
        checked_question("x" * 100_000, settings)
    assert "100,000 characters" in str(err.value) and "2,000" in str(err.value)
    assert "search.max_question_chars" in str(err.value)
    wide = settings.replace({"search.max_question_chars": 200_000})
    assert len(checked_question("x" * 100_000, wide)) == 100_000


def test_a_question_too_long_for_n_ctx_is_named_as_the_cause() -> None:
    settings = Settings().replace({"search.max_question_chars": 10_000})
    calls: list[str] = []

    def count(text: str) -> int:  # one token per word, like tests/fakes.py
        calls.append(text)
        return len(text.split())

    assert checked_question("short question?", settings, count) == "short question?"
    assert calls == []  # under the byte bound: the tokenizer is not even asked
    with pytest.raises(InputError) as err:
        checked_question("word " * 1500, settings, count)
    assert "1,500 tokens" in str(err.value) and "llm.n_ctx 2048" in str(err.value)


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> Pipeline:
    from tests.conftest import write_corpus

    root = tmp_path_factory.mktemp("question")
    settings = Settings().replace({"index.path": str(root / "ix"), "embedding.threads": 1})
    Index.build([write_corpus(root / "corpus")], settings)
    return Pipeline(settings, generator=ScriptedLLM(lambda _prompt: "Tromsø"))


@pytest.mark.parametrize("strategy", ["bm25", "hybrid", "cfs"])
def test_pipeline_takes_lone_surrogates_and_refuses_long_questions(pipeline: Pipeline, strategy: str) -> None:
    question = "Where was Mara Quint born?\udcff\ud800"
    retrieval = pipeline.retrieve(question, strategy)
    assert retrieval.question == f"Where was Mara Quint born?{REPLACEMENT}{REPLACEMENT}" and retrieval.passages
    result = pipeline.ask(question, strategy)
    assert result.question == retrieval.question and result.answer.text == "Tromsø"
    with pytest.raises(InputError, match="100,000 characters"):
        pipeline.retrieve("x" * 100_000, strategy)
    with pytest.raises(InputError, match="100,000 characters"):
        pipeline.ask("x" * 100_000, strategy)


def test_pipeline_refuses_before_opening_the_index(tmp_path: Path) -> None:
    pipeline = Pipeline(Settings().replace({"index.path": str(tmp_path / "none")}))
    with pytest.raises(InputError, match="empty"):
        pipeline.ask("  ")
    with pytest.raises(InputError, match="characters long"):
        pipeline.retrieve("y" * 2001)
