"""Where Python writes no bytecode, drrag compiles its own package once per change."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from drrag_cli.cli import bytecode


@pytest.fixture()
def package(tmp_path: Path) -> Path:
    """A copy of drrag's package with no bytecode, as a fresh clone has."""
    copy = tmp_path / "drrag_cli"
    shutil.copytree(bytecode.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _compiled(source: Path) -> Path:
    return Path(importlib.util.cache_from_source(str(source)))


def test_the_package_is_compiled_once_and_again_after_an_edit(package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    pipeline = package / "pipeline.py"
    assert not _compiled(pipeline).exists()
    assert bytecode.ensure(package) is True
    assert _compiled(pipeline).is_file() and _compiled(package / "index" / "build.py").is_file()
    assert bytecode.ensure(package) is False  # nothing changed: only the sources' times are read

    pipeline.write_text(pipeline.read_text() + "\n# an edit\n")
    before = _compiled(pipeline).stat().st_mtime_ns
    assert bytecode.ensure(package) is True
    assert _compiled(pipeline).stat().st_mtime_ns > before
    (package / "extra.py").write_text("X = 1\n")  # a new module: a change too, whatever its time
    assert bytecode.ensure(package) is True and _compiled(package / "extra.py").is_file()


def test_nothing_is_done_where_python_writes_bytecode_itself(package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert bytecode.ensure(package) is False
    assert not (package / "__pycache__").exists()


def test_a_folder_drrag_may_not_write_is_left_alone(package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setattr(bytecode.os, "access", lambda *_: False)
    assert bytecode.ensure(package) is False
    assert not (package / "__pycache__").exists()
