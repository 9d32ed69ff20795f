"""`drrag ask --server`: a real `drrag serve` process, real cold client processes; the
client prints what a local ask prints and imports neither torch, llama_cpp nor onnxruntime."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from drrag_cli.config import Settings
from tests.conftest import drrag_cmd

pytestmark = pytest.mark.slow
QUESTION = "Where was the lead engineer of Project Heron born?"
HEAVY = {"torch", "llama_cpp", "onnxruntime", "numpy", "sentence_transformers"}
WAIT = 120.0  # bound of every wait on a slow shared machine, never a timing target
PROBE = """import atexit, json, runpy, sys
out, args = sys.argv[1], sys.argv[2:]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
sys.argv = ["drrag", *args]
runpy.run_module("drrag_cli.cli.main", run_name="__main__")
"""


@pytest.fixture(scope="module")
def server_url(served: tuple[Settings, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`drrag serve --port 0` in its own process; its URL from the line it prints."""
    settings, _ = served
    cwd = tmp_path_factory.mktemp("server")
    proc = subprocess.Popen(
        drrag_cmd("serve", "--index", settings.index.path, "--port", "0"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith("drrag serve: http://127.0.0.1:"), (line, proc.stderr and proc.stderr.read())
        yield line.split()[2]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(WAIT) == 0  # uvicorn finishes in-flight requests, then exits cleanly


def client(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str, set[str]]:
    """A cold `drrag ARGS` process → (exit code, stdout, stderr, top-level modules it imported)."""
    out = tmp_path / "modules.json"
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(out), *args],
        capture_output=True,
        text=True,
        timeout=WAIT,
        cwd=tmp_path,
        env={**os.environ, **(env or {})},
    )
    modules = {m.split(".")[0] for m in json.loads(out.read_text())} if out.exists() else set()
    return proc.returncode, proc.stdout, proc.stderr, modules


def stable(doc: dict) -> dict:
    return {key: value for key, value in doc.items() if key != "timings"}


def test_ask_server_prints_what_a_local_ask_prints(server_url: str, served, cli, tmp_path: Path) -> None:  # noqa: ANN001
    settings, _ = served
    code, local_json, _ = cli("ask", QUESTION, "--index", settings.index.path, "--json")
    assert code == 0
    code, out, err, modules = client(tmp_path, "ask", QUESTION, "--server", server_url, "--json")
    assert code == 0, err
    assert stable(json.loads(out)) == stable(json.loads(local_json))
    assert not modules & HEAVY, sorted(modules & HEAVY)

    code, local_human, _ = cli("ask", QUESTION, "--index", settings.index.path)
    code, out, err, _ = client(tmp_path, "ask", QUESTION, env={"DRRAG_SERVER": server_url})
    assert code == 0 and out == local_human and "Sources" in out

    code, local_streamed, _ = cli("ask", QUESTION, "--index", settings.index.path, "--stream")
    code, out, err, _ = client(tmp_path, "ask", QUESTION, "--server", server_url, "--stream")
    assert code == 0 and out == local_streamed


def test_server_errors_are_the_local_lines(server_url: str, tmp_path: Path) -> None:
    code, out, err, _ = client(tmp_path, "ask", "x" * 3000, "--server", server_url)
    assert code == 1 and out == "" and err.startswith("drrag: error: ") and len(err.strip().splitlines()) == 1
    assert "over the limit of 2,000" in err  # the question limit the server applies, in the CLI's words
    code, _, err, _ = client(tmp_path, "ask", QUESTION, "--server", server_url, "--rewrite", "dmqr")
    assert code == 1 and "--rewrite cannot be sent to a server" in err


def test_server_down_is_one_line_unless_fallback(served, tmp_path: Path) -> None:  # noqa: ANN001
    settings, _ = served
    down = "http://127.0.0.1:9"  # discard port: nothing listens
    code, out, err, _ = client(tmp_path, "ask", QUESTION, "--server", down)
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith(f"drrag: error: no drrag server answers at {down}") and "--fallback-local" in err
    code, _, err, _ = client(tmp_path, "ask", QUESTION, "--server", down, "--index", settings.index.path)
    assert code == 1 and "--index cannot be sent to a server" in err
    env = {"DRRAG_SERVER": down}
    code, out, err, _ = client(tmp_path, "ask", QUESTION, "--fallback-local", "--index", settings.index.path, env=env)
    assert code == 0 and "Sources" in out
    assert err.startswith(f"drrag: no drrag server answers at {down}") and "answering locally" in err
