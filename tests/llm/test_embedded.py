"""The embedded model's f16-layer copy (llm/embedded.py): built once, checked, used."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from drrag_cli.answer.answer import generate_answer
from drrag_cli.config import LLMSettings
from drrag_cli.llm import embedded
from drrag_cli.llm.embedded import SUFFIX, default_model_path, is_current, widened, widened_path
from drrag_cli.llm.llm import LocalLLM
from drrag_cli.types import Passage

QUESTION = "In which city is Toad Hall?"


@pytest.mark.slow
def test_the_default_model_is_the_f16_layer_copy_and_answers_as_the_shipped_one() -> None:
    source = default_model_path()
    copy = default_model_path(f16_layers=True)  # built on first use (~3 s), then checked by stat
    assert copy == widened_path(source) and copy.name.endswith(SUFFIX) and copy.read_bytes()[:4] == b"GGUF"
    assert 300e6 < copy.stat().st_size < 450e6  # layers in f16, the 170 MB q8_0 token embedding kept
    start = time.perf_counter()
    assert default_model_path(f16_layers=True) == copy
    assert time.perf_counter() - start < 0.1  # its record is checked, nothing rebuilt
    assert LocalLLM(LLMSettings()).model_path == copy  # llm.f16_layers defaults to on
    assert LocalLLM(LLMSettings(f16_layers=False)).model_path == source
    passage = Passage("notes/toad.md", "Toad Hall", "Toad Hall is a hall of the university in Canberra.", 0, 0, 50)
    answers = [generate_answer(LocalLLM(LLMSettings(model_path=str(p), threads=1)), QUESTION, [passage]).text
               for p in (source, copy)]
    assert answers[0] == answers[1] == "Canberra"


def test_a_copy_is_used_only_while_it_matches_its_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "model.gguf"
    source.write_bytes(b"GGUF source")
    monkeypatch.setattr(embedded, "_quantize", lambda src, out: out.write_bytes(b"GGUF wide " + src.read_bytes()) and 0)
    copy = widened(source, "aaaa")
    assert copy == tmp_path / f"model{SUFFIX}" and is_current(copy, "aaaa")
    assert not is_current(copy, "bbbb")  # a new embedded model: rebuilt, never used
    copy.write_bytes(b"GGUF changed by hand")
    assert not is_current(copy, "aaaa")
    assert widened(source, "aaaa") == copy and copy.read_bytes() == b"GGUF wide GGUF source"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_when_llama_cpp_cannot_write_the_copy_the_shipped_file_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "model.gguf"
    source.write_bytes(b"GGUF source")
    calls: list[Path] = []
    monkeypatch.setattr(embedded, "_quantize", lambda src, out: calls.append(out) or 1)
    assert widened(source, "aaaa") is None
    assert not list(tmp_path.glob("*.tmp")) and not (tmp_path / f"model{SUFFIX}").exists()
    assert widened(source, "aaaa") is None and len(calls) == 1  # a full disk: not tried again at every ask
    assert widened(source, "bbbb") is None and len(calls) == 2  # a new embedded model is tried
    monkeypatch.setattr(embedded.time, "time", lambda: 10**12)  # a day later
    assert widened(source, "bbbb") is None and len(calls) == 3


def test_a_build_killed_half_way_is_swept_by_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The next build removes the temporary files of processes that no longer run."""
    import os

    source = tmp_path / "model.gguf"
    source.write_bytes(b"GGUF source")
    dead = tmp_path / f".model{SUFFIX}.{2**22 + 7}.1.tmp"  # above Linux's pid_max: no such process
    mine = tmp_path / f".model{SUFFIX}.{os.getpid()}.99.tmp"  # another thread of a live process
    dead.write_bytes(b"half")
    mine.write_bytes(b"busy")
    monkeypatch.setattr(embedded, "_quantize", lambda src, out: out.write_bytes(b"GGUF wide") and 0)
    assert widened(source, "aaaa") is not None
    assert not dead.exists() and mine.exists()
