"""`drrag ask` latency on the HotpotQA dev500 corpus, split into retrieval / classifier / LLM.

Warm: one in-process Pipeline (models loaded), N questions, p50/p95 of each stage.
Cold: fresh `drrag ask --json` processes, i.e. what a shell user waits for (imports,
model loads, retrieval, classifier, generation).

    python benchmarks/ask_bench.py [--index benchmarks/out/index/ix] [-n 30] [--strategy cfs]

Needs the dev500 index built by benchmarks/index_bench.py (or any index via --index).
Questions are dev500[0:N] — never used to train the classifier (it trains on 250..499).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "hotpotqa" / "dev500.ircot.jsonl"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--index", type=Path, default=REPO / "benchmarks" / "out" / "index" / "ix")
    parser.add_argument("-n", type=int, default=30)
    parser.add_argument("--cold", type=int, default=5)
    parser.add_argument("--strategy", default="cfs")
    parser.add_argument("-k", type=int, default=4)
    args = parser.parse_args()
    from drrag_cli.config import Settings
    from drrag_cli.evaluate.datasets import load_dataset
    from drrag_cli.pipeline import Pipeline

    questions = [ex.question for ex in load_dataset(DATA, limit=args.n).examples]
    settings = Settings().replace({"index.path": str(args.index), "retrieval.k": args.k})
    pipe = Pipeline(settings)
    pipe.ask(questions[0], strategy=args.strategy)  # load every model once
    stages: dict[str, list[float]] = {"retrieve_s": [], "classify_s": [], "generate_s": [], "total_s": []}
    for q in questions:
        result = pipe.ask(q, strategy=args.strategy)
        for key in stages:
            stages[key].append(result.timings[key])
    warm = {k: {"p50": round(statistics.median(v), 3), "p95": round(pct(v, 0.95), 3)} for k, v in stages.items()}
    cold = []
    for q in questions[: args.cold]:
        t0 = time.perf_counter()
        run = subprocess.run(
            [sys.executable, "-m", "drrag_cli.cli.main", "ask", q, "--index", str(args.index), "--strategy",
             args.strategy, "-k", str(args.k), "--json"],
            capture_output=True, text=True,
        )
        cold.append(time.perf_counter() - t0)
        if run.returncode != 0:
            sys.exit(run.stderr)
    out = {"strategy": args.strategy, "k": args.k, "questions": len(questions), "warm": warm,
           "cold_wall_s": {"median": round(statistics.median(cold), 2), "max": round(max(cold), 2), "n": len(cold)}}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
