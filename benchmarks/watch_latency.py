"""Watch latency: from a file change to the changed text in search results (issue 15).

Runs a real `drrag index COPY --watch --json` process on a copy of the sample corpus, or of
``--corpus`` (the index is built first, so only the watch loop is measured) and, in this process, polls
`Index.open(...)` + a BM25 search every 20 ms for a token written by the change:
  1. one-file edit: a sentence with a fresh token appended to one note (``--edits`` times);
  2. bursts: N new files written as fast as Python can (a `git checkout`), timed from the
     last write until the last file's token is found; the re-index runs are counted.

For each it reports the latency, the build's own seconds (scan + embed + write + publish, from
the watcher's JSON line) and the rest: the time to notice and debounce the change, which the
issue's target bounds ("within 5 s, plus its embedding time").

    python benchmarks/watch_latency.py [--edits 5] [--bursts 50,1000] [--via index|service] [--corpus DIR]
        [--vectors benchmarks/out/edit/ix/vectors.sqlite]
                                       [--out benchmarks/out/watch]

``--via service`` polls one warm :class:`Service` instead (what `drrag serve` and `drrag mcp`
answer from): its latency adds the switch to the new generation (opened and warmed).

The machine is shared, so every time is an upper bound. Prints a Markdown table, writes
results.json.
"""

from __future__ import annotations

import argparse
import json
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from drrag_cli.config import Settings  # noqa: E402
from drrag_cli.index.api import Index  # noqa: E402

POLL_S = 0.02
LIMIT_S = 600.0


Probe = Callable[[str], bool]  # does a search for this token find it?


def index_probe(settings: Settings) -> Probe:
    """What a new `drrag search` process sees: `Index.open` of the live generation, opened
    again only when CURRENT names a new one (opening tantivy every 20 ms would take a core
    from the build being measured)."""
    from drrag_cli.index import layout

    root = Path(settings.index.path)
    opened: dict[str, Index] = {}

    def found(token: str) -> bool:
        gen = layout.current_generation(root)
        if gen is None:
            return False
        try:
            if gen.name not in opened:
                opened.clear()
                opened[gen.name] = Index.open(settings)
            return bool(opened[gen.name].bm25_ranked(token, 1))
        except Exception:  # noqa: BLE001 - a generation pruned between resolve and open: poll again
            opened.clear()
            return False

    return found


def service_probe(settings: Settings) -> Probe:
    """One warm Service, as `drrag serve` / `drrag mcp` hold it: it switches to a new
    generation (opened and warmed) at the next request after CURRENT changes."""
    from drrag_cli.serve.service import Service

    service = Service(settings)
    service.load()

    def found(token: str) -> bool:
        hits = service.search(token, mode="bm25", k=1)["results"]
        return bool(hits) and token in hits[0]["text"]

    return found


def wait_for(found: Probe, token: str, since: float) -> float:
    while time.perf_counter() - since < LIMIT_S:
        if found(token):
            return time.perf_counter() - since
        time.sleep(POLL_S)
    sys.exit(f"{token} never showed up in {LIMIT_S:.0f} s")


def default_sigint() -> None:
    """In the child: Ctrl-C as in a terminal, even when this script runs in the background
    (a shell starts background jobs with SIGINT ignored, and Python keeps it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Watcher:
    """`drrag index --watch --json` as a process; its JSON lines on a queue."""

    def __init__(self, corpus: Path, ix: Path) -> None:
        cmd = [
            sys.executable,
            "-m",
            "drrag_cli.cli.main",
            "index",
            str(corpus),
            "--watch",
            "--json",
            "--index",
            str(ix),
        ]
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, text=True, cwd=corpus.parent, preexec_fn=default_sigint
        )
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(json.loads(line))

    def runs_until(self, done: Any) -> list[dict[str, Any]]:
        runs = [self.lines.get(timeout=LIMIT_S)]
        while not done(runs):
            runs.append(self.lines.get(timeout=LIMIT_S))
        return runs

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(timeout=60)


def one_edit(w: Watcher, found: Probe, note: Path, i: int) -> dict[str, float]:
    token = f"zqedit{i:03d}x"
    t0 = time.perf_counter()
    with open(note, "a", encoding="utf-8") as fh:
        fh.write(f"\nThe inspection code of round {i} is {token}.\n")
    latency = wait_for(found, token, t0)
    runs = w.runs_until(lambda rs: any(r.get("published") for r in rs))
    build = sum(r.get("seconds", 0.0) for r in runs)
    return {"latency_s": latency, "build_s": build, "notice_s": latency - build, "runs": len(runs)}


def burst(w: Watcher, found: Probe, folder: Path, n: int) -> dict[str, float]:
    folder.mkdir()
    for i in range(n):
        (folder / f"f{i:04d}.md").write_text(f"# Burst note {i}\nThe crate label is zqburst{n}n{i:04d}x.\n")
    t0 = time.perf_counter()
    latency = wait_for(found, f"zqburst{n}n{n - 1:04d}x", t0)
    runs = w.runs_until(lambda rs: sum(r.get("files", {}).get("added", 0) for r in rs) >= n)
    build = sum(r.get("seconds", 0.0) for r in runs)
    embedded = sum(r.get("passages_embedded", 0) for r in runs)
    return {
        "files": n,
        "latency_s": latency,
        "build_s": build,
        "notice_s": latency - build,
        "runs": len(runs),
        "passages_embedded": embedded,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=5)
    ap.add_argument("--bursts", default="50,1000")
    ap.add_argument(
        "--via",
        choices=("index", "service"),
        default="index",
        help="who searches: a fresh Index.open per poll, or one warm Service (what drrag serve / mcp answer from)",
    )
    ap.add_argument("--corpus", type=Path, default=REPO / "sample_corpus",
                    help="the folder copied and watched (e.g. benchmarks/out/edit/notes, 7,618 notes)")
    ap.add_argument("--vectors", type=Path, default=None,
                    help="an embedding cache (an index folder's vectors.sqlite) to start from, e.g. edit_bench's")
    ap.add_argument("--out", default=str(REPO / "benchmarks" / "out" / "watch"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="drrag-watch-") as tmp:
        corpus = Path(tmp) / "corpus"
        shutil.copytree(args.corpus, corpus)
        ix = Path(tmp) / "ix"
        if args.vectors is not None:  # the first build then embeds only what the cache lacks
            ix.mkdir()
            shutil.copy2(args.vectors, ix / "vectors.sqlite")
        settings = Settings().replace({"index.path": str(ix)})
        Index.build([corpus], settings)
        found = service_probe(settings) if args.via == "service" else index_probe(settings)
        w = Watcher(corpus, ix)
        w.runs_until(lambda rs: rs[-1].get("trigger") == "start")
        notes = corpus / "notes" if (corpus / "notes").is_dir() else corpus
        edits = [one_edit(w, found, sorted(p for p in notes.iterdir() if p.is_file())[0], i) for i in range(args.edits)]
        bursts = [burst(w, found, corpus / f"burst{n}", int(n)) for n in args.bursts.split(",") if n]
        code = w.stop()
    report = {
        "edits": edits,
        "bursts": bursts,
        "via": args.via,
        "exit_code": code,
        "settings": Settings().watch.__dict__,
        "python": sys.version.split()[0],
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(report, indent=2) + "\n")
    print(table(edits, bursts))


def table(edits: list[dict[str, float]], bursts: list[dict[str, float]]) -> str:
    def med(key: str) -> float:
        return statistics.median(e[key] for e in edits)

    rows = [
        "| change | re-index runs | change → in search (s) | build (s) | notice + debounce (s) |",
        "|---|---:|---:|---:|---:|",
    ]
    if edits:
        rows.append(
            f"| 1-file edit (median of {len(edits)}; max latency {max(e['latency_s'] for e in edits):.2f}) "
            f"| {max(e['runs'] for e in edits)} | {med('latency_s'):.2f} | {med('build_s'):.2f} "
            f"| {med('notice_s'):.2f} |"
        )
    for b in bursts:
        rows.append(
            f"| burst of {b['files']} new files ({b['passages_embedded']} passages embedded) | {b['runs']} "
            f"| {b['latency_s']:.2f} | {b['build_s']:.2f} | {b['notice_s']:.2f} |"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    main()
