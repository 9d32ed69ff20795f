"""`drrag ask` latency, split into retrieval / classifier / LLM (prompt evaluation, generation).

Warm: one in-process Pipeline (models loaded), N questions, p50/p95 of each stage.
Cold: fresh `drrag ask --json` processes, i.e. what a shell user waits for (imports,
model loads, retrieval, classifier, generation).

    python benchmarks/ask_bench.py [--index benchmarks/out/index/ix] [-n 30] [--strategy cfs]

Needs the dev500 index built by benchmarks/index_bench.py (or any index via --index).
Questions are dev500[0:N] — never used to train the classifier (it trains on 250..499).

    python benchmarks/ask_bench.py --sample [--rounds 3] [--set llm.threads=1 ...]

The 12 sample_corpus/QUESTIONS.md questions (or another set: ``--questions
QUESTIONS-facts.md``) through a warm `Service` (what `drrag serve`'s /ask and `drrag
mcp`'s ask answer from), CFS k=4, one at a time, ``--rounds`` times. Per
question: stages, prompt tokens, tokens whose KV cells were reused from the previous
call, llama.cpp's prompt-eval and generation time, and the answer (so a setting that
changes answers shows it). The sample index is built into --out unless --index is given.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "hotpotqa" / "dev500.ircot.jsonl"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def drrag(*args: str) -> list[str]:
    return [sys.executable, "-P", "-m", "drrag_cli.cli.main", *args]


def parse_sets(pairs: list[str]) -> dict[str, Any]:
    """``--set llm.threads=1`` pairs as a Settings.replace mapping (values read as YAML)."""
    import yaml

    out: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        out[key] = yaml.safe_load(value)
    return out


def dev500(args: argparse.Namespace) -> dict[str, Any]:
    from drrag_cli.config import Settings
    from drrag_cli.evaluate.datasets import load_dataset
    from drrag_cli.pipeline import Pipeline

    questions = [ex.question for ex in load_dataset(args.data, limit=args.n).examples]
    index = args.index or REPO / "benchmarks" / "out" / "index" / "ix"
    settings = Settings().replace({"index.path": str(index), "retrieval.k": args.k, **parse_sets(args.set)})
    pipe = Pipeline(settings)
    pipe.ask(questions[0], strategy=args.strategy)  # load every model once
    stages: dict[str, list[float]] = {"retrieve_s": [], "classify_s": [], "generate_s": [], "total_s": []}
    calls: dict[int, int] = {}  # model calls per answer: 0 read in code, 2 asked once more after an echo
    for q in questions:
        result = pipe.ask(q, strategy=args.strategy)
        for key in stages:
            stages[key].append(result.timings[key])
        calls[result.llm_calls] = calls.get(result.llm_calls, 0) + 1
    warm: dict[str, Any] = {
        k: {"p50": round(statistics.median(v), 3), "p95": round(pct(v, 0.95), 3)} for k, v in stages.items()
    }
    warm["answers_by_llm_calls"] = dict(sorted(calls.items()))
    cold = []
    for q in questions[: args.cold]:
        t0 = time.perf_counter()
        run = subprocess.run(
            drrag("ask", q, "--index", str(index), "--strategy", args.strategy, "-k", str(args.k), "--json"),
            capture_output=True,
            text=True,
        )
        cold.append(time.perf_counter() - t0)
        if run.returncode != 0:
            sys.exit(run.stderr)
    out: dict[str, Any] = {"strategy": args.strategy, "k": args.k, "questions": len(questions), "warm": warm}
    if cold:
        out["cold_wall_s"] = {"median": round(statistics.median(cold), 2), "max": round(max(cold), 2), "n": len(cold)}
    return out


def sample(args: argparse.Namespace) -> dict[str, Any]:
    """Warm Service over the sample questions: the split of every answer."""
    from drrag_cli.config import Settings
    from drrag_cli.serve.service import Service

    sys.path.insert(0, str(REPO / "benchmarks"))
    from sample_questions import parse_questions, questions_file

    from drrag_cli.evaluate.metrics import accuracy

    parsed = parse_questions(questions_file(args.questions, REPO / "sample_corpus"))
    questions = [q["question"] for q in parsed]
    index = args.index
    if index is None:
        index = args.out.resolve() / "sample-ix"
        if not index.exists():
            subprocess.run(drrag("index", str(REPO / "sample_corpus"), "--index", str(index)), check=True)
    service = Service(Settings().replace({"index.path": str(index), **parse_sets(args.set)}))
    t0 = time.perf_counter()
    service.load()
    load_s = time.perf_counter() - t0
    llm = service._generator.llm  # noqa: SLF001 - the LocalLLM behind the queue: its last_call
    service.ask(questions[0], args.strategy, k=args.k)  # first call: the instruction and examples
    rows = []
    for rnd in range(args.rounds):
        for i, q in enumerate(questions):
            llm.last_call = None
            t0 = time.perf_counter()
            doc = service.ask(q, args.strategy, k=args.k)
            wall = time.perf_counter() - t0
            row = {"round": rnd, "q": i + 1, "wall_s": round(wall, 4), **doc["timings"]}
            if llm.last_call is not None:  # an answer decided without the LLM (answer.compare) has none
                call = llm.last_call.to_json()
                call["llm_wall_s"] = call.pop("wall_s")
                row.update(call)
            row.update(docs_fed=len(doc["citations"]), llm_calls=doc["llm_calls"], answer=doc["answer"])
            row["correct"] = accuracy(doc["answer"] or "", [parsed[i]["answer"]])  # as sample_questions.py counts
            rows.append(row)
    keys = [
        *("wall_s", "total_s", "retrieve_s", "classify_s", "generate_s", "llm_wall_s", "prompt_tokens"),
        *("reused_tokens", "evaluated_tokens", "prompt_eval_s", "generated_tokens", "generate_eval_s", "docs_fed"),
    ]
    p50 = {k: round(statistics.median(r[k] for r in rows if k in r), 4) for k in keys if any(k in r for r in rows)}
    answers = {r["q"]: r["answer"] for r in rows if r["round"] == 0}
    correct = sum(r["correct"] for r in rows if r["round"] == 0)
    modelled = [r["wall_s"] for r in rows if r["llm_calls"]]  # answers decided in code take ~0.15 s: apart
    return {"settings": parse_sets(args.set), "load_s": round(load_s, 2), "rounds": args.rounds, "correct": correct,
            "p50": p50, "p95_wall_s": round(pct([r["wall_s"] for r in rows], 0.95), 4),
            "model_answered": len(modelled),
            "p50_wall_s_model_answered": round(statistics.median(modelled), 4) if modelled else None,
            "answers": answers, "rows": rows}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--index", type=Path, default=None)
    parser.add_argument("--data", type=Path, default=DATA, help="the QA file whose first -n questions are asked")
    parser.add_argument("-n", type=int, default=30)
    parser.add_argument("--cold", type=int, default=5)
    parser.add_argument("--strategy", default="cfs")
    parser.add_argument("-k", type=int, default=4)
    parser.add_argument("--sample", action="store_true", help="the sample corpus questions on a warm Service")
    parser.add_argument("--rounds", type=int, default=1, help="--sample: passes over the 12 questions")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a setting, e.g. llm.threads=1")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out" / "ask_bench")
    parser.add_argument("--rows", action="store_true", help="--sample: print every question's row too")
    parser.add_argument("--questions", default="QUESTIONS.md",
                        help="--sample: a question file in sample_corpus/ (QUESTIONS-facts.md) or a path")
    args = parser.parse_args()
    out = sample(args) if args.sample else dev500(args)
    if args.sample and not args.rows:
        out.pop("rows")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
