"""The prompt's KV state kept across processes, on the real embedded Gemma GGUF: a model
loaded later restores it, answers exactly as a model that computed everything, and a
broken file is no cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.answer.prompts import completion_prompt
from drrag_cli.config import LLMSettings
from drrag_cli.llm import kv_cache, llm, perf

pytestmark = pytest.mark.slow

DOCS = [("Tobias Lindqvist", "Tobias Lindqvist is a storage engineer. He was born in Uppsala in 1988.")]
FIRST = completion_prompt("Where was Tobias Lindqvist born?", DOCS)
SECOND = completion_prompt("In which year was Tobias Lindqvist born?", DOCS)


def fresh(settings: LLMSettings) -> llm.LocalLLM:
    """A LocalLLM whose model is loaded anew, as in a new process."""
    model = llm.LocalLLM(settings)
    llm._CACHE.pop((str(model.model_path.resolve()), settings.n_ctx, settings.threads), None)
    return model


@pytest.fixture()
def kv_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(kv_cache, "user_cache_dir", lambda: tmp_path)
    return tmp_path / "kv"


def test_a_new_process_restores_the_state_and_answers_the_same(kv_dir: Path) -> None:
    settings = LLMSettings(n_ctx=1024, threads=1)  # a context of its own: other tests keep theirs
    first = fresh(settings)
    assert first.model.n_tokens == 0 and not kv_dir.exists()
    assert "Uppsala" in first.complete(FIRST, max_tokens=8, stop=["\n"])
    stored = list(kv_dir.glob("*.bin"))
    assert len(stored) == 1

    second = fresh(settings)
    restored = second.model.n_tokens
    assert restored > 100  # the instruction and examples at least
    warm = second.complete(SECOND, max_tokens=8, stop=["\n"])

    stored[0].unlink()
    cold = fresh(settings)
    assert cold.model.n_tokens == 0
    assert warm == cold.complete(SECOND, max_tokens=8, stop=["\n"])


def test_a_broken_state_file_is_removed_and_changes_nothing(kv_dir: Path) -> None:
    settings = LLMSettings(n_ctx=1024, threads=1)
    path = kv_cache.state_path(fresh(settings).model_path, settings.n_ctx, perf.amx_cpu())
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x00not a llama state" * 100)
    model = fresh(settings)
    assert model.model.n_tokens == 0 and not path.exists()
    assert "Uppsala" in model.complete(FIRST, max_tokens=8, stop=["\n"])
    assert path.exists()  # this process left a good one
