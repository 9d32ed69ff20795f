"""User-like knowledge-base benchmark: multi-hop QA paragraphs as a folder of Markdown notes.

The paragraphs of the first --corpus-n questions of a shared QA file (../shared/data) become
one Markdown note per title (`# title` + its distinct paragraphs), indexed with `drrag index`;
then questions --start..--start+n are each asked with one `drrag ask --json` subprocess, like a
user. Per question: the answer, correct (SQuAD-normalised gold answer or alias contained in the
prediction), accepted (that, or a form of the gold its notes settle: drrag_cli/evaluate/forms.py),
EM, F1, which gold notes (the files of the is_supporting titles) were cited.

    python benchmarks/kb_bench.py --dataset hotpotqa|musique|2wiki [-n 40] [--start 0] [--corpus-n 250]
        [--strategy cfs] [-k 6] [--model ~/models/x.gguf] [--answer-mode decompose] [-c CONFIG]
        [--file ../shared/data/musique/train100.musique.json] [--out benchmarks/out/kb]

--file builds the knowledge base from another shared file (a tuning half: MuSiQue train100, 2Wiki
train500, HotpotQA train100) read by drrag's own loader; its output folder is named after the file.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
FILES = {"hotpotqa": "hotpotqa/dev500.ircot.jsonl", "musique": "musique/dev100.musique.json",
         "2wiki": "2wiki/dev182.2wiki.json"}
CORPUS_N = {"hotpotqa": 250, "musique": 100, "2wiki": 182}


def load(dataset: str, path: Path | None = None) -> list[dict]:
    """Questions as {id, question, answers, paragraphs: [(title, text, is_supporting)]}."""
    if path is not None:
        return load_with_drrag(path)
    path = DATA / FILES[dataset]
    if dataset == "hotpotqa":
        out = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            answers = [s for a in r["answers_objects"] for s in a["spans"]]
            paras = [(c["title"], c["paragraph_text"], bool(c["is_supporting"])) for c in r["contexts"]]
            out.append({"id": r["question_id"], "question": r["question_text"], "answers": answers,
                        "paragraphs": paras})
        return out
    if dataset == "2wiki":  # drrag's own reader of the raw file (its context may be a string of a list)
        return load_with_drrag(path)
    return [{"id": r["id"], "question": r["question"], "answers": [r["answer"], *r.get("answer_aliases", [])],
             "paragraphs": [(p["title"], p["paragraph_text"], bool(p["is_supporting"])) for p in r["paragraphs"]]}
            for r in json.loads(path.read_text(encoding="utf-8"))]


def load_with_drrag(path: Path) -> list[dict]:
    from drrag_cli.evaluate.datasets import load_dataset

    return [{"id": ex.qid, "question": ex.question, "answers": ex.answers,
             "paragraphs": [(p.title, p.text, p.key in ex.gold_keys) for p in ex.paragraphs]}
            for ex in load_dataset(path).examples]


def slug(title: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:80].strip("-")
    return s or "untitled"


def build_notes(questions: list[dict]) -> tuple[dict[str, str], dict[str, str]]:
    """({filename: content}, {title: filename}); titles in first-seen order, so collisions
    (-2, -3, ...) resolve the same way on every run."""
    paras: dict[str, list[str]] = {}
    for q in questions:
        for title, text, _ in q["paragraphs"]:
            texts = paras.setdefault(title, [])
            if text.strip() and text.strip() not in texts:
                texts.append(text.strip())
    files: dict[str, str] = {}
    names: dict[str, str] = {}
    for title, texts in paras.items():
        base, i = slug(title), 1
        name = f"{base}.md"
        while name in files:
            i += 1
            name = f"{base}-{i}.md"
        names[title] = name
        files[name] = f"# {title}\n\n" + "\n\n".join(texts) + "\n"
    return files, names


def sync_notes(folder: Path, files: dict[str, str]) -> int:
    """Make folder hold exactly `files`, touching only what differs (so the index is reused)."""
    folder.mkdir(parents=True, exist_ok=True)
    changed = 0
    for old in folder.glob("*.md"):
        if old.name not in files:
            old.unlink()
            changed += 1
    for name, content in files.items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != content:
            path.write_text(content, encoding="utf-8")
            changed += 1
    return changed


def main() -> None:
    from drrag_cli.evaluate.forms import accepted, gold_forms
    from drrag_cli.evaluate.metrics import accuracy, exact_match, f1_score

    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset", choices=sorted(FILES), default="hotpotqa")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("-n", type=int, default=40)
    parser.add_argument("--corpus-n", type=int, default=None, help="questions whose paragraphs form the corpus")
    parser.add_argument("--strategy", default=None)
    parser.add_argument("-k", type=int, default=None)
    parser.add_argument("--model", default=None)
    parser.add_argument("--answer-mode", default=None, choices=["one-call", "decompose"])
    parser.add_argument("--file", type=Path, default=None, help="build from this shared QA file instead")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out" / "kb")
    parser.add_argument("-c", "--config", type=Path, default=None, help="a drrag config file for every ask")
    args = parser.parse_args()

    questions = load(args.dataset, args.file)
    asked = questions[args.start:args.start + args.n]
    corpus_n = max(args.corpus_n or (len(questions) if args.file else CORPUS_N[args.dataset]),
                   args.start + len(asked))
    files, names = build_notes(questions[:corpus_n])
    out = args.out / (args.file.name.split(".")[0] + "-" + args.file.parent.name if args.file else args.dataset)
    notes, ix = out / "notes", out / "ix"
    changed = sync_notes(notes, files)
    print(f"{args.dataset}: corpus of {corpus_n} questions -> {len(files)} notes ({changed} written/removed); "
          f"asking {len(asked)} from #{args.start}", flush=True)

    drrag = [sys.executable, "-P", "-m", "drrag_cli.cli.main"]
    t0 = time.perf_counter()
    # --replace: the index covers exactly this notes folder, even when the output folder was copied
    # from another one (the copied index would keep the old folder as a second root: every note twice)
    run = subprocess.run([*drrag, "index", str(notes), "--index", str(ix), "--replace", "--json"],
                         capture_output=True, text=True)
    index_s = time.perf_counter() - t0
    if run.returncode != 0:
        sys.exit(f"drrag index failed:\n{run.stderr}")
    index_info = json.loads(run.stdout)
    print(f"index {index_s:.1f}s files={index_info['files']} passages={index_info['passages_total']} "
          f"skipped={len(index_info.get('skipped_files') or {})}", flush=True)

    rows = []
    for q in asked:
        cmd = [*drrag, "ask", q["question"], "--index", str(ix), "--json"]
        if args.strategy:
            cmd += ["--strategy", args.strategy]
        if args.k:
            cmd += ["-k", str(args.k)]
        if args.model:
            cmd += ["--model", args.model]
        if args.answer_mode:
            cmd += ["--answer-mode", args.answer_mode]
        if args.config:
            cmd += ["--config", str(args.config)]
        t0 = time.perf_counter()
        run = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        try:
            data = json.loads(run.stdout) if run.returncode == 0 else {}
        except json.JSONDecodeError:
            data = {}
        cited = list(dict.fromkeys(Path(c["source"]).name for c in data.get("citations", [])))
        fed = list(dict.fromkeys(Path(d["source"]).name for d in data.get("documents", []) if d.get("fed")))
        gold = sorted({names[t] for t, _, sup in q["paragraphs"] if sup})
        gold_cited = [g for g in gold if g in cited]
        answer = data.get("answer", "")
        row = {
            "id": q["id"], "question": q["question"], "gold_answers": q["answers"], "answer": answer,
            "correct": bool(accuracy(answer, q["answers"])), "em": exact_match(answer, q["answers"]),
            "accepted": bool(accepted(answer, q["answers"], gold_forms(q["answers"], q["question"],
                                                                       [(t, x) for t, x, _ in q["paragraphs"]]))),
            "f1": round(f1_score(answer, q["answers"]), 4), "gold_notes": gold, "gold_cited": gold_cited,
            "gold_fed": [g for g in gold if g in fed], "passages_fed": sum(bool(d.get("fed")) for d in
                                                                          data.get("documents", [])),
            "both_cited": bool(gold) and len(gold_cited) == len(gold), "docs_cited": len(cited),
            "supported": data.get("supported"), "asked": data.get("asked"), "strategy": data.get("strategy"),
            "seconds": round(wall, 2),
        }
        if not data:
            row["error"] = (run.stderr or run.stdout).strip()[-500:]
        rows.append(row)
        print(f"{q['id'][:12]:>12} ok={row['correct']:d} gold={len(gold_cited)}/{len(gold)} cited={len(cited)} "
              f"sup={row['supported']} {wall:5.1f}s {answer[:60]!r} (gold {q['answers'][0][:40]!r})"
              + (f" ERROR {row['error'][-120:]!r}" if "error" in row else ""), flush=True)

    n = len(rows)
    both = sum(r["both_cited"] for r in rows)
    summary = {
        "dataset": str(args.file) if args.file else args.dataset,
        "start": args.start, "n": n, "corpus_questions": corpus_n, "notes": len(files),
        "strategy": args.strategy or (rows[0]["strategy"] if rows else None), "k": args.k,
        "model": args.model or "embedded Gemma-3-270M", "answer_mode": args.answer_mode or "config default",
        "config": str(args.config) if args.config else None,
        "rewritten": sum(bool(r["asked"]) for r in rows),
        "both_gold_cited": both, "both_gold_cited_pct": round(100 * both / n, 1) if n else 0.0,
        "correct": sum(r["correct"] for r in rows),
        "accepted": sum(r["accepted"] for r in rows),  # correct, or a form of the gold its notes settle
        "em_mean": round(sum(r["em"] for r in rows) / n, 4) if n else 0.0,
        "f1_mean": round(sum(r["f1"] for r in rows) / n, 4) if n else 0.0,
        "cited_but_wrong": sum(r["both_cited"] and not r["correct"] for r in rows),
        "not_cited": sum(not r["gold_cited"] for r in rows),
        "all_gold_fed": sum(bool(r["gold_notes"]) and len(r["gold_fed"]) == len(r["gold_notes"]) for r in rows),
        "supported": sum(r["supported"] is True for r in rows),
        "errors": sum("error" in r for r in rows),
        "mean_docs_cited": round(sum(r["docs_cited"] for r in rows) / n, 2) if n else 0.0,
        "index_s": round(index_s, 1), "index_files": index_info["files"],
        "index_skipped": index_info.get("skipped_files") or {},
        "p50_ask_s": round(statistics.median(r["seconds"] for r in rows), 2) if n else 0.0,
    }
    tag = f"{summary['strategy'] or 'default'}_{Path(args.model).stem if args.model else 'gemma-embedded'}"
    tag += f"_{args.answer_mode}" if args.answer_mode else ""
    tag += f"_{args.config.stem}" if args.config else ""
    (out / f"summary_{tag}.json").write_text(json.dumps(summary, indent=2) + "\n")
    (out / f"rows_{tag}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    width = max(len(key) for key in summary)
    for key, value in summary.items():
        if key not in ("index_files", "index_skipped") or value:
            print(f"{key:<{width}}  {value}")
    print(f"-> {out / f'summary_{tag}.json'}")


if __name__ == "__main__":
    main()
