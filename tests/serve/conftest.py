"""One warm Service over the tiny corpus per module: real index, MiniLM (ONNX), Gemma."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.config import Settings
from tests.conftest import write_corpus


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, Path]:
    """(settings, corpus folder) of a freshly built index, shared by a module's tests."""
    from drrag_cli.index.api import Index

    base = tmp_path_factory.mktemp("served")
    corpus = write_corpus(base / "corpus")
    settings = Settings().replace({"index.path": str(base / "ix")})
    Index.build([corpus], settings)
    return settings, corpus


@pytest.fixture(scope="module")
def service(served: tuple[Settings, Path]):  # noqa: ANN201
    from drrag_cli.serve.service import Service

    svc = Service(served[0])
    svc.load()
    return svc
