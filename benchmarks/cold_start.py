"""Cold-start benchmark: the ONNX query path against the torch path (issue 14).

Measures, as whole processes on this machine, for ``embedding.runtime: auto`` (queries on the
verified ONNX export) and ``embedding.runtime: torch`` (today's sentence-transformers path):
  1. cold `drrag ask` on the sample corpus, embedded defaults: median of 7 wall times, each
     run a different QUESTIONS.md question; then the questions a reader answers and those
     the model answers apart (a reader's answer loads no model); the model's once more with
     the stored prompt state deleted before every run (a first ask after install, see
     drrag_cli/llm/kv_cache.py);
  2. cold `drrag search --mode hybrid`: median of 7;
  3. peak RSS of each cold command (``/usr/bin/time -v``, "Maximum resident set size");
  4. warm in-process hybrid search p50/p95 over the sample questions (query embedding + BM25 +
     HNSW + RRF + passage fetch), one thread as the query path uses.

    python benchmarks/cold_start.py [--out benchmarks/out/cold_start] [--runs 7] [--runtimes auto,auto:shipped]
        [--model GGUF]   # answer with another model (llm.model_path) instead of the embedded one

The machine is shared, so every time is an upper bound. Prints a Markdown table, writes
results.json. The index is built once with `drrag index` (which also makes the export).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
QUESTION = "In which city was the lead engineer of Project Heron born?"
WARM_QUERIES = (
    QUESTION, "Who led Project Heron?", "Which team built the storage engine?", "When did the pilot start?",
    "What did the meeting decide about the release?", "Where was the first prototype tested?",
)


def drrag(*args: str) -> list[str]:
    return [sys.executable, "-P", "-m", "drrag_cli.cli.main", *args]


# As on a user's machine, Python may cache bytecode: a sandbox that sets
# PYTHONDONTWRITEBYTECODE=1 makes every cold process recompile the editable drrag_cli
# (about 0.06 s of a cold search here), which no installed copy pays.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list[str], cwd: Path) -> tuple[float, int]:
    """Wall seconds and peak RSS (KB) of one whole process, via /usr/bin/time -v."""
    t0 = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v", *cmd], cwd=cwd, capture_output=True, text=True, env=ENV)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {proc.stderr[-2000:]}")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    return wall, int(rss.group(1)) if rss else 0


def cold(cmds: list[list[str]], cwd: Path, runs: int, before: Callable[[], None] = lambda: None) -> dict[str, float]:
    """Median of ``runs`` cold processes, run ``i`` being ``cmds[i % len(cmds)]``."""
    timed(cmds[-1], cwd)  # warm-up: page cache, not the process
    samples = []
    for i in range(runs):
        before()
        samples.append(timed(cmds[i % len(cmds)], cwd))
    return {
        "median_s": round(statistics.median(s for s, _ in samples), 3),
        "min_s": round(min(s for s, _ in samples), 3),
        "peak_rss_mb": round(statistics.median(r for _, r in samples) / 1024, 1),
    }


def warm(config: Path, index: Path, runtime: str) -> dict[str, float]:
    """Warm hybrid search latency in a fresh interpreter (so the other runtime is not loaded)."""
    code = f"""
import json, statistics, sys, time
from drrag_cli.config import load_settings
from drrag_cli.index.api import Index
ix = Index.open(load_settings({str(config)!r}, {{"index.path": {str(index)!r}}}))
qs = {list(WARM_QUERIES)!r}
for q in qs: ix.search(q, "hybrid", 5)
ts = []
for _ in range(20):
    for q in qs:
        t = time.perf_counter(); ix.search(q, "hybrid", 5); ts.append(1000 * (time.perf_counter() - t))
ts.sort()
print(json.dumps({{"p50_ms": round(statistics.median(ts), 2), "p95_ms": round(ts[int(0.95 * len(ts))], 2),
                  "runtime": ix.embedder.active_runtime, "torch_loaded": "torch" in sys.modules}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["runtime"] == ("onnx" if runtime == "auto" else "torch"), result
    return result


def split_by_answerer(asks: list[list[str]], cwd: Path) -> tuple[list[list[str]], list[list[str]]]:
    """The asks a reader answers (no model call) and those the model answers, from one
    ``--json`` run of each."""
    readers, model = [], []
    for cmd in asks:
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=ENV, check=True)
        (model if json.loads(done.stdout)["llm_calls"] else readers).append(cmd)
    return readers, model


def drop_kv_state() -> None:
    """Delete the stored prompt KV state, as before the first ask after install."""
    from drrag_cli.config import user_cache_dir

    shutil.rmtree(user_cache_dir() / "kv", ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(REPO / "benchmarks" / "out" / "cold_start"))
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--runtimes", default="auto,torch",
                    help="auto (the ONNX query path), torch, or both; NAME:shipped = the embedded GGUF as shipped")
    ap.add_argument("--model", default="", help="a GGUF to answer with instead of the embedded model (llm.model_path)")
    args = ap.parse_args()
    out = Path(args.out).resolve()  # the asks run in the sample corpus folder
    out.mkdir(parents=True, exist_ok=True)
    index = out / "index"
    subprocess.run(drrag("index", str(REPO / "sample_corpus"), "--index", str(index), "--rebuild"),
                   check=True, capture_output=True)
    sys.path.insert(0, str(REPO / "benchmarks"))
    from sample_questions import parse_questions

    questions = [q["question"] for q in parse_questions(REPO / "sample_corpus" / "QUESTIONS.md")]
    results: dict[str, dict] = {}
    for runtime in args.runtimes.split(","):
        name, _, shipped = runtime.partition(":")  # "auto:shipped": the embedded GGUF as shipped (llm.f16_layers off)
        llm = "llm:\n  f16_layers: false\n" if shipped == "shipped" else ""
        llm = f"llm:\n  model_path: {Path(args.model).expanduser().resolve()}\n" if args.model else llm
        config = out / f"{runtime.replace(':', '-')}.yaml"
        config.write_text(f"embedding:\n  runtime: {name}\nindex:\n  path: {index}\n{llm}", encoding="utf-8")
        base = ("--config", str(config), "--json")
        asks = [drrag("ask", q, *base) for q in questions]
        by_reader, by_model = split_by_answerer(asks, out)
        results[runtime] = {
            "ask": cold(asks, out, args.runs),
            "ask_reader": cold(by_reader, out, args.runs),
            "ask_model": cold(by_model, out, args.runs),
            "ask_no_kv_state": cold(by_model, out, args.runs, before=drop_kv_state),
            "search_hybrid": cold([drrag("search", QUESTION, "--mode", "hybrid", *base)], out, args.runs),
            "warm_hybrid": warm(config, index, name),
        }
    (out / "results.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    names = list(results)
    print("| measure | " + " | ".join(names) + " |\n|---|" + "---|" * len(names))
    rows = (("cold `drrag ask` (a different question each run), median", "ask"),
            ("the same, questions a reader answers (no model call), median", "ask_reader"),
            ("the same, questions the model answers, median", "ask_model"),
            ("the model's, with no stored KV state (first ask after install), median", "ask_no_kv_state"),
            ("cold `drrag search --mode hybrid`, median", "search_hybrid"))
    for name, key in rows:
        print(f"| {name} of {args.runs} | " + " | ".join(f"{results[n][key]['median_s']:.2f} s" for n in names) + " |")
        print(f"| peak RSS, {key} | " + " | ".join(f"{results[n][key]['peak_rss_mb']:.0f} MB" for n in names) + " |")
    warm_ms = (f"{results[n]['warm_hybrid']['p50_ms']:.1f} ms" for n in names)
    print("| warm hybrid search p50 | " + " | ".join(warm_ms) + " |")
    print("\nShared 2-core machine: times are upper bounds.")


if __name__ == "__main__":
    main()
