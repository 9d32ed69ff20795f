"""Index and search benchmark on the HotpotQA dev500 corpus (issues: foundation, 14).

One run on this machine measures (the machine is shared: read times as upper bounds, ratios
as the result; the timed units 1, 2 and 5 run once per --rounds round, in reversed order every
other round, and each unit's best round counts):
  1. whole `drrag index` throughput, a real subprocess (imports, model load, chunking,
     embedding, BM25 + HNSW, atomic publish), passages/s: the default (``embedding.runtime:
     auto`` = the verified ONNX export) against ``runtime: torch``, alternating;
  2. raw embedding throughput on exactly the passage texts the index embedded, in-process,
     same batch size, all cores: sentence-transformers (torch) and the ONNX export,
     alternating; targets index(default) / raw sentence-transformers ≥ 1.0;
  3. warm hybrid search latency p50/p95 (query embedding + BM25 + HNSW + RRF + passage
     fetch) over the dev500 questions, each query runtime in a fresh process of its own (as
     `drrag search`/`ask` run: the ONNX path never imports torch), ONNX twice and torch once;
     target p50 ≤ 8 ms on ONNX;
  4. cold `drrag search --mode bm25` wall time (fresh process); target ≤ 0.5 s;
  5. txtai 9's hybrid index on the same passage texts and questions
     (benchmarks/txtai_bench.py in benchmarks/txtai/.venv, skipped when that venv is
     missing): drrag's index rate and warm p50 as ratios to txtai's; goal index ≥ 1.3×.

    python benchmarks/index_bench.py [--data ../shared/data/hotpotqa/dev500.ircot.jsonl] \\
        [--out benchmarks/out/index] [--rounds 2] [--index-runtimes auto,torch] [--txtai-queries 100]

The ONNX export is made (or found) before anything is timed, as after a first `drrag index`.
Writes results.json in --out and prints it.
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
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "hotpotqa" / "dev500.ircot.jsonl"
TXTAI_PY = REPO / "benchmarks" / "txtai" / ".venv" / "bin" / "python"


def drrag(*args: str) -> list[str]:
    return [sys.executable, "-P", "-m", "drrag_cli.cli.main", *args]


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


def stats(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values), 2), "p95": round(pct(values, 0.95), 2), "n": len(values)}


def run_index(corpus: Path, ix: Path, config: Path) -> tuple[float, dict[str, Any]]:
    shutil.rmtree(ix, ignore_errors=True)
    t0 = time.perf_counter()
    run = subprocess.run(drrag("index", str(corpus), "--index", str(ix), "--json", "-c", str(config)),
                         capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if run.returncode != 0:
        sys.exit(run.stderr)
    return wall, json.loads(run.stdout)


def index_once(corpus: Path, out: Path, rt: str) -> tuple[float, dict[str, Any]]:
    """One whole `drrag index` with ``embedding.runtime: rt`` into a fresh folder (fresh vector cache)."""
    config = out / f"{rt}.yaml"
    config.write_text(f"embedding:\n  runtime: {rt}\n")
    return run_index(corpus, out / f"ix-{rt}", config)


class Raw:
    """sentence-transformers and the ONNX export on the same texts, same batch, all cores."""

    def __init__(self, texts: list[str], batch: int) -> None:
        from drrag_cli.config import Settings
        from drrag_cli.index.embedder import Embedder

        model = Settings().embedding.model
        self.texts, self.batch = texts, batch
        self.runners = {"sentence_transformers": Embedder(model, 0, "torch"), "onnx": Embedder(model, 0, "onnx")}
        for emb in self.runners.values():
            emb.encode(texts[:64], batch_size=batch)  # load + warm
        self.vecs: dict[str, Any] = {}

    def run(self, name: str) -> float:
        t0 = time.perf_counter()
        self.vecs[name] = self.runners[name].encode(self.texts, batch_size=self.batch)
        return time.perf_counter() - t0

    def cosine(self) -> dict[str, float]:
        cos = (self.vecs["sentence_transformers"] * self.vecs["onnx"]).sum(axis=1)
        return {"min": round(float(cos.min()), 6), "mean": round(float(cos.mean()), 7)}


def timed_rounds(corpus: Path, out: Path, args: argparse.Namespace, questions: list[str]) -> dict[str, Any]:
    """Every timed unit once per round, in reversed order every other round (A B C D, D C B A),
    so a load change on the shared machine hits all of them alike. Rates use each unit's best round."""
    from drrag_cli.config import Settings
    from drrag_cli.index.api import Index
    from drrag_cli.index.embedder import passage_embed_text

    runtimes = list(dict.fromkeys(["auto", *args.index_runtimes.split(",")]))
    units = [f"index:{rt}" for rt in runtimes] + ["raw:sentence_transformers", "raw:onnx"]
    units += [] if args.no_txtai or not TXTAI_PY.exists() else ["txtai"]
    secs: dict[str, list[float]] = {u: [] for u in units}
    txtai_runs: list[dict[str, Any]] = []
    raw: Raw | None = None
    reports: dict[str, Any] = {}
    for r in range(args.rounds):
        for unit in units if r % 2 == 0 else units[::-1]:
            kind, _, name = unit.partition(":")
            if kind == "index":
                wall, reports[name] = index_once(corpus, out, name)
                secs[unit].append(wall)
                continue
            if raw is None:  # the texts the index embedded, known after round 0's first unit
                index = Index.open(Settings().replace({"index.path": str(out / "ix-auto")}))
                texts = [passage_embed_text(t, x) for _id, t, x, _h in index.store.all_passages()]
                raw = Raw(texts, Settings().embedding.batch_size)
            if kind == "raw":
                secs[unit].append(raw.run(name))
            else:
                ext = txtai(out, raw.texts, questions[: args.txtai_queries])
                if ext:
                    txtai_runs.append(ext)
                    secs[unit].append(ext["index_s"])
    n = reports["auto"]["passages_total"]
    manifest = json.loads(next((out / "ix-auto").glob("*/manifest.json")).read_text())["embedding"]
    rates = {u: round(n / min(v), 2) for u, v in secs.items() if v}
    return {
        "passages": n, "seconds": {u: [round(x, 2) for x in v] for u, v in secs.items()}, "passages_per_s": rates,
        "cosine_onnx_vs_torch": raw.cosine() if raw else None,
        "auto_manifest": {k: manifest.get(k) for k in ("runtime", "passages_runtime", "onnx_export")},
        "txtai": min(txtai_runs, key=lambda x: x["index_s"]) if txtai_runs else None,
        "txtai_warm_p50_ms_per_round": [x["warm_search_ms"]["p50"] for x in txtai_runs],
    }


def warm_search(ix: Path, questions: list[str], out: Path) -> dict[str, Any]:
    """Hybrid search on the ONNX and the torch query path, each in a fresh process of its own.

    `drrag search`/`ask` never import torch on the ONNX path, and torch's threads and
    allocator change the ONNX timings when both live in one process, so each runtime is
    timed alone (ONNX first, then torch, then ONNX again; the better ONNX run counts).
    """
    qfile = out / "warm-questions.json"
    qfile.write_text(json.dumps(questions), encoding="utf-8")
    runs: dict[str, list[dict[str, Any]]] = {"onnx": [], "torch": []}
    for rt in ("onnx", "torch", "onnx"):
        r = subprocess.run([sys.executable, __file__, "--warm-runtime", rt, "--warm-index", str(ix),
                            "--warm-questions", str(qfile)], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(r.stderr[-2000:])
        runs[rt].append(json.loads(r.stdout))
    best = {rt: min(v, key=lambda x: x["hybrid_ms"]["p50"]) for rt, v in runs.items()}
    return {f"hybrid_{rt}_ms": b["hybrid_ms"] for rt, b in best.items()} | {
        "hybrid_onnx_ms_per_run": [x["hybrid_ms"] for x in runs["onnx"]],
        "bm25_ms": best["onnx"]["bm25_ms"],
        "torch_imported_on_onnx_path": any(x["torch_imported"] for x in runs["onnx"]),
    }


def warm_search_one(rt: str, ix: Path, questions: list[str]) -> dict[str, Any]:
    """One runtime's warm hybrid (and, on ONNX, BM25) latency in this process."""
    from drrag_cli.config import Settings
    from drrag_cli.index.api import Index

    index = Index.open(Settings().replace({"index.path": str(ix), "embedding.runtime": rt}))
    for q in questions[:10]:
        index.search(q, mode="hybrid", k=5)
    hybrid: list[float] = []
    bm25: list[float] = []
    for q in questions:
        t0 = time.perf_counter()
        index.search(q, mode="hybrid", k=5)
        hybrid.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        index.search(q, mode="bm25", k=5)
        bm25.append((time.perf_counter() - t0) * 1000)
    return {"hybrid_ms": stats(hybrid), "bm25_ms": stats(bm25), "torch_imported": "torch" in sys.modules}


def cold_bm25(ix: Path, questions: list[str]) -> dict[str, float]:
    cold = []
    for q in questions[:7]:
        t0 = time.perf_counter()
        r = subprocess.run(drrag("search", q, "--index", str(ix), "--mode", "bm25", "--json"), capture_output=True)
        cold.append(time.perf_counter() - t0)
        if r.returncode != 0:
            sys.exit(r.stderr.decode(errors="replace"))
    return {"median": round(statistics.median(cold), 3), "max": round(max(cold), 3)}


def txtai(out: Path, texts: list[str], questions: list[str]) -> dict[str, Any] | None:
    """benchmarks/txtai_bench.py in its own venv on the same texts and questions."""
    if not TXTAI_PY.exists():
        print(f"txtai skipped: no {TXTAI_PY} (see benchmarks/txtai/requirements.txt)", file=sys.stderr)
        return None
    from drrag_cli.index.embedder import DEFAULT_MODEL, resolve_model

    passages, qfile, result = out / "txtai-passages.jsonl", out / "txtai-questions.json", out / "txtai.json"
    passages.write_text("".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in enumerate(texts)), encoding="utf-8")
    qfile.write_text(json.dumps(questions), encoding="utf-8")
    run = subprocess.run(
        [str(TXTAI_PY), str(REPO / "benchmarks" / "txtai_bench.py"), "--passages", str(passages),
         "--questions", str(qfile), "--model", resolve_model(DEFAULT_MODEL)[1], "--out", str(result)],
        capture_output=True, text=True, env=os.environ | {"HF_HUB_OFFLINE": "1"},
    )
    if run.returncode != 0:
        print(f"txtai failed:\n{run.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(result.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out" / "index")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the timed units (ABCD, DCBA, ...)")
    parser.add_argument("--index-runtimes", default="auto,torch",
                        help="embedding.runtime values to time `drrag index` with (auto first; 'auto' saves time)")
    parser.add_argument("--no-txtai", action="store_true")
    parser.add_argument("--txtai-queries", type=int, default=100, help="questions for txtai's warm latency")
    parser.add_argument("--warm-runtime", help=argparse.SUPPRESS)  # internal: one runtime's warm search
    parser.add_argument("--warm-index", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--warm-questions", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.warm_runtime:
        questions = json.loads(args.warm_questions.read_text(encoding="utf-8"))
        print(json.dumps(warm_search_one(args.warm_runtime, args.warm_index, questions)))
        return
    if not args.data.exists():
        sys.exit(f"dataset {args.data} not found (pass --data)")
    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)
    corpus, questions = write_corpus(args.data, args.out)

    from drrag_cli.config import Settings
    from drrag_cli.index.embedder import Embedder

    settings = Settings()
    export = Embedder(settings.embedding.model, 0, "auto").export()  # as after a first `drrag index`
    timed = timed_rounds(corpus, args.out, args, questions)
    ix = args.out / "ix-auto"
    search = warm_search(ix, questions, args.out)
    rate = timed["passages_per_s"]
    st_rate = rate["raw:sentence_transformers"]
    ext = timed.pop("txtai")
    results: dict[str, Any] = {
        "machine": f"{os.cpu_count()} cores, {sys.platform}, Python {sys.version.split()[0]}",
        "data": str(args.data),
        "rounds": args.rounds,
        "export": {k: export.get(k) for k in ("passed", "cosine_min", "graph", "exporter")},
        **timed,
        "ratios": {
            "index_default_over_raw_st": round(rate["index:auto"] / st_rate, 3),
            "raw_onnx_over_raw_st": round(rate["raw:onnx"] / st_rate, 3),
            "hybrid_p50_torch_over_onnx": round(
                search["hybrid_torch_ms"]["p50"] / search["hybrid_onnx_ms"]["p50"], 2),
        },
        **search,
        "cold_bm25_cli_s": cold_bm25(ix, questions),
    }
    if "index:torch" in rate:
        results["ratios"] |= {"index_torch_over_raw_st": round(rate["index:torch"] / st_rate, 3),
                              "index_default_over_index_torch": round(rate["index:auto"] / rate["index:torch"], 3)}
    if ext:
        results["txtai"] = ext
        results["ratios"] |= {
            "index_rate_drrag_over_txtai": round(rate["index:auto"] / rate["txtai"], 2),
            "warm_p50_txtai_over_drrag": round(ext["warm_search_ms"]["p50"] / search["hybrid_onnx_ms"]["p50"], 2),
        }
    (args.out / "results.json").write_text(json.dumps(results, indent=2))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
