"""Index and search benchmark on the HotpotQA dev500 corpus (issue: foundation).

Measures, in one run, on this machine:
  1. whole `drrag index` throughput (a real subprocess: model load, chunking, embedding,
     BM25 + HNSW build, atomic publish) in passages/s;
  2. raw MiniLM throughput on exactly the passage texts the index embedded, in-process,
     same batch size — the ceiling for (1); target ratio (1)/(2) ≥ 0.9;
  3. warm in-process hybrid search latency p50/p95 (query embedding + BM25 + HNSW + RRF
     + passage fetch) over the dev500 questions; target p50 ≤ 10 ms;
  4. cold `drrag search --mode bm25` wall time (fresh process); target ≤ 0.5 s.

    python benchmarks/index_bench.py [--data ../shared/data/hotpotqa/dev500.ircot.jsonl] [--out benchmarks/out/index]

Prints a Markdown section for docs/BENCHMARKS.md and writes results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "hotpotqa" / "dev500.ircot.jsonl"


def drrag(*args: str) -> list[str]:
    return [sys.executable, "-m", "drrag_cli.cli.main", *args]


def write_corpus(data: Path, out: Path) -> tuple[Path, list[str]]:
    from drrag_cli.evaluate.datasets import load_dataset

    dataset = load_dataset(data)
    corpus = out / "corpus.jsonl"
    with open(corpus, "w", encoding="utf-8") as fh:
        for p in dataset.corpus:
            fh.write(json.dumps({"id": p.key, "title": p.title, "text": p.text}) + "\n")
    return corpus, [ex.question for ex in dataset.examples]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out" / "index")
    args = parser.parse_args()
    if not args.data.exists():
        sys.exit(f"dataset {args.data} not found (pass --data)")
    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)
    corpus, questions = write_corpus(args.data, args.out)
    ix = args.out / "ix"

    # 1. whole `drrag index`, cold process
    t0 = time.perf_counter()
    run = subprocess.run(drrag("index", str(corpus), "--index", str(ix), "--json"), capture_output=True, text=True)
    index_wall = time.perf_counter() - t0
    if run.returncode != 0:
        sys.exit(run.stderr)
    report = json.loads(run.stdout)
    n_passages = report["passages_total"]
    index_rate = n_passages / index_wall

    # 2. raw MiniLM on the same passage texts, same batch size
    from drrag_cli.config import Settings
    from drrag_cli.index.api import Index
    from drrag_cli.index.embedder import get_embedder, passage_embed_text

    settings = Settings().replace({"index.path": str(ix)})
    index = Index.open(settings)
    texts = [passage_embed_text(t, x) for _id, t, x, _h in index.store.all_passages()]
    embedder = get_embedder(settings.embedding.model)
    embedder.encode(texts[:64])  # load + warm
    t0 = time.perf_counter()
    embedder.encode(texts, batch_size=settings.embedding.batch_size)
    raw_s = time.perf_counter() - t0
    raw_rate = len(texts) / raw_s

    # 3. warm hybrid search
    for q in questions[:10]:
        index.search(q, mode="hybrid", k=5)
    lat = []
    for q in questions:
        t0 = time.perf_counter()
        index.search(q, mode="hybrid", k=5)
        lat.append((time.perf_counter() - t0) * 1000)
    bm25_lat = []
    for q in questions:
        t0 = time.perf_counter()
        index.search(q, mode="bm25", k=5)
        bm25_lat.append((time.perf_counter() - t0) * 1000)

    # 4. cold bm25 CLI
    cold = []
    for q in questions[:7]:
        t0 = time.perf_counter()
        r = subprocess.run(drrag("search", q, "--index", str(ix), "--mode", "bm25", "--json"), capture_output=True)
        cold.append(time.perf_counter() - t0)
        assert r.returncode == 0, r.stderr
    drrag_bin = Path(sys.executable).with_name("drrag")
    cold_script = []
    if drrag_bin.exists():
        for q in questions[:7]:
            t0 = time.perf_counter()
            subprocess.run([str(drrag_bin), "search", q, "--index", str(ix), "--mode", "bm25"], capture_output=True)
            cold_script.append(time.perf_counter() - t0)

    results = {
        "machine": f"{os.cpu_count()} cores, {sys.platform}, Python {sys.version.split()[0]}",
        "corpus_records": sum(1 for _ in open(corpus, encoding="utf-8")),
        "passages": n_passages,
        "index_wall_s": round(index_wall, 2),
        "index_passages_per_s": round(index_rate, 2),
        "raw_embed_s": round(raw_s, 2),
        "raw_passages_per_s": round(raw_rate, 2),
        "ratio": round(index_rate / raw_rate, 3),
        "hybrid_warm_ms": {"p50": round(statistics.median(lat), 2), "p95": round(pct(lat, 0.95), 2), "n": len(lat)},
        "bm25_warm_ms": {"p50": round(statistics.median(bm25_lat), 2), "p95": round(pct(bm25_lat, 0.95), 2)},
        "cold_bm25_cli_s": {"median": round(statistics.median(cold), 3), "max": round(max(cold), 3)},
        "cold_bm25_drrag_script_s": round(statistics.median(cold_script), 3) if cold_script else None,
        "index_report": {k: report[k] for k in ("files", "passages_embedded", "passages_total", "seconds")},
    }
    (args.out / "results.json").write_text(json.dumps(results, indent=2))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
