"""A real cold `drrag search --mode hybrid` and `drrag ask` never import torch, transformers
or sentence_transformers once `drrag index` has made the verified ONNX export (issue 14);
nor spaCy, which only indexing and DSLR need."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from tests.conftest import write_corpus

pytestmark = pytest.mark.slow
HEAVY = ("torch", "transformers", "sentence_transformers")
QUESTION = "Which program did Ada Lovelace-Smith lead?"
PROBE = """import atexit, json, runpy, sys
out, args = sys.argv[1], sys.argv[2:]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
sys.argv = ["drrag", *args]
runpy.run_module("drrag_cli.cli.main", run_name="__main__")
"""


def _modules(tmp_path: Path, *args: str, cache: Path | None = None) -> tuple[set[str], dict]:
    out = tmp_path / "modules.json"
    env = os.environ | ({"XDG_CACHE_HOME": str(cache)} if cache else {})
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(out), *args], capture_output=True, text=True, timeout=300,
        cwd=tmp_path, env=env,
    )
    assert proc.returncode == 0, proc.stderr
    return {m.split(".")[0] for m in json.loads(out.read_text())}, json.loads(proc.stdout)


def test_cold_query_commands_do_not_import_torch(eval_cache: Path, tmp_path: Path) -> None:
    ix = tmp_path / "ix"
    Index.build([write_corpus(tmp_path / "corpus")], Settings().replace({"index.path": str(ix)}))
    manifest = json.loads(next(ix.glob("*/manifest.json")).read_text())["embedding"]
    assert manifest["onnx_export"]["passed"] is True and manifest["passages_runtime"] == "onnx"

    top, hits = _modules(tmp_path, "search", QUESTION, "--mode", "hybrid", "--index", str(ix), "--json")
    assert hits["results"] and "onnxruntime" in top
    assert not top & {*HEAVY, "spacy", "llama_cpp"}, sorted(top & {*HEAVY, "spacy", "llama_cpp"})

    top, answer = _modules(tmp_path, "ask", QUESTION, "--index", str(ix), "--json")
    assert answer["answer"] and "onnxruntime" in top and "llama_cpp" in top
    assert not top & {*HEAVY, "spacy"}, sorted(top & {*HEAVY, "spacy"})

    top, report = _modules(tmp_path, "index", str(tmp_path / "corpus"), "--index", str(ix), "--json")
    assert report["files"]["unchanged"] == 6 and not top & {*HEAVY, "spacy", "rich", "llama_cpp"}  # for scripts: no bar


def test_without_the_export_queries_run_on_torch(eval_cache: Path, tmp_path: Path) -> None:
    """An index whose export is gone (another cache, an index from before ONNX) still
    answers, on torch, with the same hits."""
    ix = tmp_path / "ix"
    Index.build([write_corpus(tmp_path / "corpus")], Settings().replace({"index.path": str(ix)}))
    args = ("search", QUESTION, "--index", str(ix), "--json")
    top, onnx_hits = _modules(tmp_path, *args)
    assert "onnxruntime" in top
    top, torch_hits = _modules(tmp_path, *args, cache=tmp_path / "empty-cache")
    assert "torch" in top and "onnxruntime" not in top
    assert _ids(torch_hits) == _ids(onnx_hits)


def _ids(found: dict) -> list[int]:
    return [hit["passage_id"] for hit in found["results"]]


def test_an_error_during_the_overlapped_model_load_still_reaches_stderr(tmp_path: Path) -> None:
    """`ask` loads the LLM on a thread while it retrieves: an error in retrieval (here: no
    index) must still print its one line (a load that redirected fd 2 once swallowed it)."""
    proc = subprocess.run(
        [sys.executable, "-m", "drrag_cli.cli.main", "ask", QUESTION, "--index", str(tmp_path / "none")],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert proc.returncode == 1 and "no index" in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
