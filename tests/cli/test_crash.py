"""SIGKILL during `drrag index` leaves the old index usable; searches during a build work.

Real subprocesses, real MiniLM: the second build has ~300 passages to embed (~10 s on
2 cores), long enough to search during it and to kill it halfway.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from tests.conftest import drrag_cmd, write_corpus

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma".split()


def _many_files(root: Path, n: int) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        body = " ".join(f"{WORDS[(i + j) % len(WORDS)]}{j % 7}" for j in range(90))
        (root / f"bulk{i:04d}.txt").write_text(f"Bulk note {i} about item{i}. {body}.\n")


def _cached_vectors(ix: Path) -> int:
    db = ix / "vectors.sqlite"
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=1) as conn:
            return conn.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def _search(ix: Path, query: str, mode: str = "bm25") -> dict:
    run = subprocess.run(
        drrag_cmd("search", query, "--index", str(ix), "--mode", mode, "--json"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_sigkill_midway_keeps_old_index_and_rerun_resumes(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    ix = tmp_path / "ix"
    first = subprocess.run(
        drrag_cmd("index", str(corpus), "--index", str(ix), "--json"), capture_output=True, text=True, timeout=300
    )
    assert first.returncode == 0, first.stderr
    base_vectors = _cached_vectors(ix)
    old_total = json.loads(first.stdout)["passages_total"]

    _many_files(corpus / "bulk", 300)
    proc = subprocess.Popen(
        drrag_cmd("index", str(corpus), "--index", str(ix), "--json"), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.time() + 240
    searches = 0
    while _cached_vectors(ix) < base_vectors + 64:  # embedding is under way
        assert proc.poll() is None, "index finished before it could be killed"
        assert time.time() < deadline
        hits = _search(ix, "Mara Quint born")  # during the build: the old index answers
        assert hits["results"] and all("bulk" not in r["source"] for r in hits["results"])
        searches += 1
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert searches >= 1
    assert any(p.name.endswith(".tmp") for p in ix.iterdir())  # the unfinished build

    # the old index is intact and complete
    hits = _search(ix, "Where was Mara Quint born?", mode="hybrid")
    assert "Tromsø" in hits["results"][0]["text"]
    status = subprocess.run(drrag_cmd("status", "--index", str(ix), "--json"), capture_output=True, text=True)
    assert json.loads(status.stdout)["passages"] == old_total

    # a re-run completes, keeps what the killed run embedded, and cleans up
    rerun = subprocess.run(
        drrag_cmd("index", str(corpus), "--index", str(ix), "--json"), capture_output=True, text=True, timeout=300
    )
    assert rerun.returncode == 0, rerun.stderr
    report = json.loads(rerun.stdout)
    assert report["files"]["added"] == 300
    assert report["passages_total"] == old_total + 300
    assert report["passages_embedded"] <= 300 - 64  # resumed from the embedding cache
    assert not any(p.name.endswith(".tmp") for p in ix.iterdir())
    assert _search(ix, "item123 bulk note")["results"][0]["source"].endswith("bulk0123.txt")


def test_second_writer_is_refused(tmp_path: Path) -> None:
    from drrag_cli.errors import IndexBusyError
    from drrag_cli.index.layout import writer_lock

    ix = tmp_path / "ix"
    with writer_lock(ix):
        run = subprocess.run(
            drrag_cmd("index", str(write_corpus(tmp_path / "c")), "--index", str(ix)),
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert run.returncode == 1 and "another `drrag index`" in run.stderr
    assert IndexBusyError.exit_code == 1
