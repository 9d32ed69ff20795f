"""Run every sample_corpus/QUESTIONS.md question through `drrag ask` (embedded defaults),
or those of another folder in the same format (--corpus benchmarks/linked_notes).

For each question: the answer, whether it is correct (the gold answer appears in the
normalised prediction — SQuAD-normalised accuracy — and exact match), and which of its two
gold documents were among the cited sources. Uses real `drrag` subprocesses, like a user.

    python benchmarks/sample_questions.py [--strategy cfs] [--out benchmarks/out/sample]
    python benchmarks/sample_questions.py --corpus benchmarks/linked_notes --out benchmarks/out/linked
    python benchmarks/sample_questions.py --questions QUESTIONS-profiles.md --out benchmarks/out/profiles
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "sample_corpus"


def parse_questions(path: Path) -> list[dict]:
    questions = []
    for block in re.split(r"^## ([A-Z]\d+)\s*$", path.read_text(encoding="utf-8"), flags=re.M)[1:]:
        questions.append(block)
    out = []
    for qid, body in zip(questions[0::2], questions[1::2], strict=True):
        lines = [line.strip() for line in body.strip().splitlines() if line.strip()]
        fields = dict(
            (m.group(1), m.group(2)) for m in (re.match(r"- (\w+): (.*)", line) for line in lines[1:]) if m
        )
        out.append({
            "id": qid, "question": lines[0], "answer": fields["answer"], "type": fields["type"],
            "gold": [g.strip() for g in fields["gold"].split(",")],
        })
    return out


def questions_file(name: str, corpus: Path) -> Path:
    """``name`` in the ``corpus`` folder, else as a path; one line and exit 1 when neither is a file."""
    found = next((p for p in (corpus / name, Path(name)) if p.is_file()), None)
    if found is None:
        sys.exit(f"{Path(sys.argv[0]).name}: no questions file {name} in {corpus} or as a path")
    return found


def main() -> None:
    from drrag_cli.evaluate.metrics import accuracy, exact_match

    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="a folder with its QUESTIONS.md")
    parser.add_argument("--questions", default="QUESTIONS.md", help="a name in the corpus folder, or a path")
    parser.add_argument("--strategy", default="cfs")
    parser.add_argument("-k", type=int, default=None)
    parser.add_argument("--model", default=None)
    parser.add_argument("--answer-mode", default=None, choices=["one-call", "decompose"])
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out" / "sample")
    parser.add_argument("-c", "--config", type=Path, default=None, help="a drrag config file for every ask")
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    questions = questions_file(args.questions, corpus)
    args.out.mkdir(parents=True, exist_ok=True)
    ix = args.out / "ix"
    drrag = [sys.executable, "-P", "-m", "drrag_cli.cli.main"]
    index_cmd = [*drrag, "index", str(corpus), "--index", str(ix), "--replace", "--json"]
    run = subprocess.run(index_cmd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(run.stderr)
    rows = []
    for q in parse_questions(questions):
        cmd = [*drrag, "ask", q["question"], "--index", str(ix), "--strategy", args.strategy, "--json"]
        if args.k:
            cmd += ["-k", str(args.k)]
        if args.model:
            cmd += ["--model", args.model]
        if args.answer_mode:
            cmd += ["--answer-mode", args.answer_mode]
        if args.config:
            cmd += ["-c", str(args.config)]
        t0 = time.perf_counter()
        run = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if run.returncode != 0:
            sys.exit(run.stderr)
        data = json.loads(run.stdout)
        cited = [Path(c["source"]).resolve() for c in data["citations"]]
        gold_cited = [g for g in q["gold"] if (corpus / g).resolve() in cited]
        rows.append({
            "id": q["id"], "type": q["type"], "question": q["question"], "gold_answer": q["answer"],
            "answer": data["answer"], "acc": accuracy(data["answer"], [q["answer"]]),
            "em": exact_match(data["answer"], [q["answer"]]), "gold_cited": len(gold_cited), "gold": len(q["gold"]),
            "docs_fed": len(data["citations"]), "asked": data.get("asked"), "wall_s": round(wall, 2),
            "llm_calls": data["llm_calls"], "compared": data.get("compared"),
            "looked_up": data.get("looked_up"),
        })
        print(f"{q['id']:>4} acc={rows[-1]['acc']:.0f} gold_cited={len(gold_cited)}/{len(q['gold'])} "
              f"fed={len(data['citations'])}  {data['answer']!r} (gold {q['answer']!r})", flush=True)
    summary = {
        "strategy": args.strategy, "model": args.model or "embedded Gemma-3-270M", "questions": len(rows),
        "answer_mode": args.answer_mode or "config default", "rewritten": sum(bool(r["asked"]) for r in rows),
        "compared_in_code": sum(bool(r["compared"]) for r in rows),
        "read_from_tables": sum(bool(r["looked_up"]) for r in rows),
        "correct_acc": sum(r["acc"] for r in rows), "exact_match": sum(r["em"] for r in rows),
        "both_gold_cited": sum(r["gold_cited"] == 2 for r in rows),
        "one_gold_cited": sum(r["gold_cited"] == 1 for r in rows),
        "all_gold_cited": sum(r["gold_cited"] == r["gold"] for r in rows),
        "mean_docs_fed": round(sum(r["docs_fed"] for r in rows) / len(rows), 2),
        "median_wall_s": sorted(r["wall_s"] for r in rows)[len(rows) // 2],
    }
    model = Path(args.model).stem if args.model else "gemma-embedded"
    model += f"_{args.answer_mode}" if args.answer_mode else ""
    model += f"_{args.config.stem}" if args.config else ""
    model += f"_{Path(args.questions).stem}" if args.questions != "QUESTIONS.md" else ""
    result = json.dumps({"summary": summary, "rows": rows}, indent=2)
    (args.out / f"results_{args.strategy}_{model}.json").write_text(result)
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
