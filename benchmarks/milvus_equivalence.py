"""Milvus backend vs local: recall on the eval sets, and Milvus round trips per `ask` (issue 17).

1. ``drrag eval --no-llm -s sm,qdc,cfs -k 4`` on HotpotQA dev500 q0-249 and MuSiQue dev100,
   once with ``benchmarks/bench.yaml`` (local) and once with ``benchmarks/milvus.yaml``
   (the same + ``index.backend: milvus``, Milvus Lite in the eval index folder). Both run
   in a private XDG cache (the user's eval embedding caches copied, models and ONNX linked),
   so the shared cache other runs read is never switched to Milvus. Target: equal within 1 point.
2. Round trips: the sample corpus indexed into Milvus Lite, then every sample_corpus/QUESTIONS.md
   question through ``Pipeline.ask`` (CFS, k = 4, the real Gemma); requests counted on the
   backend. A hybrid list is :data:`HYBRID_REQUESTS` requests (the title's and the text's BM25
   lists and the dense list; index/milvus/summed.py may ask one more per field for a missing
   score); a question's q* lists go in one such batch (``Index.ranked_many``).

    .venv/bin/python benchmarks/milvus_equivalence.py [--limit 250] [--out benchmarks/out/milvus-eq]
        [--skip-eval | --skip-round-trips]

Waits while /tmp/drrag-quiet exists before each run. Writes results.json in --out.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
SETS = {
    "hotpotqa": (DATA / "hotpotqa" / "dev500.ircot.jsonl", True),
    "musique": (DATA / "musique" / "dev100.musique.json", False),
}
CONFIGS = {"local": REPO / "benchmarks" / "bench.yaml", "milvus": REPO / "benchmarks" / "milvus.yaml"}
QUIET = Path("/tmp/drrag-quiet")
HYBRID_REQUESTS = 3  # milvus/search.py: title BM25, text BM25, dense (fused by drrag's RRF)


def wait_quiet() -> None:
    while QUIET.exists():
        time.sleep(20)


def private_cache(out: Path) -> Path:
    """An XDG cache of our own: the user's eval embedding caches copied (an index copied whole
    would add its new corpus path beside the old root), models and ONNX linked."""
    real = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "drrag"
    cache = out / "xdg-cache"
    mine = cache / "drrag"
    mine.mkdir(parents=True, exist_ok=True)
    for name in ("models", "onnx"):
        if (real / name).exists() and not (mine / name).exists():
            (mine / name).symlink_to(real / name, target_is_directory=True)
    for vectors in (real / "eval").glob("*/index-*/vectors.sqlite"):  # embeddings only: the indexes are built here
        dest = mine / vectors.relative_to(real)
        if not dest.exists():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(vectors, dest)
    return cache


def run_eval(data: Path, limit: bool, backend: str, out: Path, cache: Path, n: int) -> dict[str, Any]:
    wait_quiet()
    dest = out / f"{backend}-{data.parent.name}"
    cmd = [
        sys.executable,
        "-m",
        "drrag_cli.cli.main",
        "eval",
        str(data),
        "--no-llm",
        "-s",
        "sm,qdc,cfs",
        "-k",
        "4",
        "-c",
        str(CONFIGS[backend]),
        "--out",
        str(dest),
    ]
    if limit:
        cmd += ["--limit", str(n)]
    print("$", " ".join(cmd), flush=True)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    if done.returncode != 0:
        raise SystemExit(f"eval failed ({backend}, {data.name}): {done.stderr.strip()[-500:]}")
    results = json.loads((dest / "results.json").read_text())
    rows = {
        r["strategy"]: {"recall": round(100 * r["recall"], 1), "docs_fed": r["docs_fed"], "sec_per_q": r["sec_per_q"]}
        for r in results["rows"]
    }
    return {"rows": rows, "wall_s": round(time.perf_counter() - t0, 1), "index": results["index"]}


def round_trips(out: Path) -> dict[str, Any]:
    """Requests to Milvus per `ask` over the sample questions (CFS, k = 4)."""
    wait_quiet()
    sys.path.insert(0, str(REPO))
    from benchmarks.sample_questions import parse_questions
    from drrag_cli.config import load_settings
    from drrag_cli.index.api import Index
    from drrag_cli.pipeline import Pipeline

    folder = Path(tempfile.mkdtemp(prefix="rt-", dir=out))
    settings = load_settings(CONFIGS["milvus"], {"index.path": str(folder / "ix")})
    Index.build([REPO / "sample_corpus"], settings)
    index = Index.open(settings)
    pipeline = Pipeline(settings, index=index)
    trips, seconds = [], []
    for q in parse_questions(REPO / "sample_corpus" / "QUESTIONS.md"):
        before = index.backend.round_trips  # type: ignore[attr-defined]
        seconds.append(pipeline.ask(q["question"], "cfs", k=4).timings["retrieve_s"])
        trips.append(index.backend.round_trips - before)  # type: ignore[attr-defined]
    shutil.rmtree(folder, ignore_errors=True)
    return {
        "questions": len(trips),
        "per_ask_mean": round(statistics.mean(trips), 2),
        "per_ask_max": max(trips),
        "retrieve_s_median": round(statistics.median(seconds), 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=250)
    ap.add_argument("--out", default=str(REPO / "benchmarks" / "out" / "milvus-eq"))
    ap.add_argument("--skip-eval", action="store_true", help="only the round trips")
    ap.add_argument("--skip-round-trips", action="store_true", help="only the recall tables (part 1)")
    args = ap.parse_args()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"evals": {}}
    if not args.skip_eval:
        cache = private_cache(out)
        for name, (data, limit) in SETS.items():
            for backend in CONFIGS:
                report["evals"][f"{backend}/{name}"] = run_eval(data, limit, backend, out, cache, args.limit)
                print(json.dumps(report["evals"][f"{backend}/{name}"]), flush=True)
        print("| strategy | " + " | ".join(f"{n} local | {n} milvus | Δ" for n in SETS) + " |")
        for strategy in ("sm", "qdc", "cfs"):
            cells = []
            for name in SETS:
                a = report["evals"][f"local/{name}"]["rows"][strategy]["recall"]
                b = report["evals"][f"milvus/{name}"]["rows"][strategy]["recall"]
                cells += [f"{a}", f"{b}", f"{b - a:+.1f}"]
            print(f"| {strategy} | " + " | ".join(cells) + " |")
    if not args.skip_round_trips:
        report["round_trips"] = round_trips(out)
        print(json.dumps(report["round_trips"]))
    (out / "results.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
