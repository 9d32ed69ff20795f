"""Threads per completion: a fixed llm.threads as set; auto = the cores no other task runs on."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.llm import perf


@pytest.fixture()
def loadavg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "loadavg"
    monkeypatch.setattr(perf, "_LOADAVG", path)
    monkeypatch.setattr(perf, "cores", lambda: 4)
    return path


@pytest.mark.parametrize(("running", "threads"), [(1, 4), (2, 3), (4, 1), (9, 1)])
def test_auto_uses_the_cores_no_other_task_runs_on(loadavg: Path, running: int, threads: int) -> None:
    loadavg.write_text(f"0.52 0.40 0.31 {running}/212 4242\n")
    assert perf.threads_now(0) == threads  # the caller itself is one of the running tasks


def test_a_configured_count_is_used_as_set(loadavg: Path) -> None:
    loadavg.write_text("9.00 9.00 9.00 9/212 4242\n")
    assert perf.threads_now(3) == 3


def test_without_proc_every_core(loadavg: Path) -> None:
    assert not loadavg.exists()
    assert perf.threads_now(0) == 4
    loadavg.write_text("garbage\n")
    assert perf.threads_now(0) == 4
