"""Render benchmarks/out/eval-*/results.json into the Markdown tables of docs/BENCHMARKS.md.

    python benchmarks/tables.py
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
PAPER = {  # SPEC §3, Table 4 of the DR-RAG paper: HotpotQA / MuSiQue recall, k = 3, 4, 6
    "hotpot": {"bm25": (64.7, 70.7, 79.9), "sm": (80.3, 85.6, 88.8), "qdc": (86.1, 90.2, 95.0),
               "cis": (79.8, 88.4, 94.8), "cfs": (88.9, 92.3, 98.0)},
    "musique": {"bm25": (37.6, 43.5, 51.7), "sm": (58.3, 66.2, 76.8), "qdc": (58.4, 70.3, 79.5),
                "cis": (57.4, 66.5, 77.1), "cfs": (66.5, 73.8, 83.0)},
}
PAPER_DOCS = {"hotpot": (2.95, 3.82, 5.69), "musique": (2.83, 3.41, 4.63)}  # CFS actual docs (Table 4)


def load(name: str) -> dict | None:
    path = OUT / name / "results.json"
    return json.loads(path.read_text()) if path.exists() else None


def fmt(x: float | None, scale: float = 100.0, nd: int = 1) -> str:
    return "–" if x is None else f"{x * scale:.{nd}f}"


def retrieval_table(name: str, paper_key: str, extra: str | None = None) -> str:
    res = load(name)
    if res is None:
        return f"(missing {name})\n"
    rows = {(r["strategy"], r["k"]): r for r in res["rows"]}
    if extra and (best := load(extra)):
        rows.update({("cfs (best rule)", r["k"]): r for r in best["rows"]})
    ks = sorted({k for _, k in rows})
    lines = ["| strategy | " + " | ".join(f"recall@{k} (docs)" for k in ks) + " | paper recall k=3/4/6 | s/q (k=4) |",
             "|---|" + "---|" * len(ks) + "---|---|"]
    for strat in ("bm25", "sm", "hybrid", "qdc", "cis", "cfs", "cfs (best rule)"):
        if not any((strat, k) in rows for k in ks):
            continue
        cells = [f"{fmt(rows[(strat, k)]['recall'])} ({rows[(strat, k)]['docs_fed']:.2f})" for k in ks]
        paper = PAPER[paper_key].get(strat)
        ptxt = " / ".join(f"{v:.1f}" for v in paper) if paper else "–"
        if strat == "cfs":
            ptxt += " (" + " / ".join(f"{d:.2f}" for d in PAPER_DOCS[paper_key]) + " docs)"
        spq = rows.get((strat, 4), {}).get("sec_per_q")
        lines.append(f"| {strat} | " + " | ".join(cells) + f" | {ptxt} | {fmt(spq, 1, 3)} |")
    head = f"{res['questions']} questions, corpus {res['corpus_passages']} passages, wall {res.get('wall_s', 0):.0f} s"
    return head + "\n\n" + "\n".join(lines) + "\n"


def _rows_table(header: str, names: list[tuple[str, str]], row: Callable[[str, dict], str]) -> str:
    """One Markdown table over several results.json: ``row(label, r)`` renders each row."""
    columns = header.count("|") - 1
    lines = [header, "|" + "---|" * columns]
    for label, name in names:
        res = load(name)
        if res is None:
            lines.append(f"| {label} | (missing {name}) |" + "|" * (columns - 2))
            continue
        lines += [row(label, r) for r in res["rows"]]
    return "\n".join(lines) + "\n"


def qa_table(names: list[tuple[str, str]]) -> str:
    def row(label: str, r: dict) -> str:
        split = " / ".join(fmt(r.get(key), 1, 2) for key in ("retrieve_s", "classify_s", "generate_s"))
        return (
            f"| {label} | {r['strategy']} | {r['k']} | {fmt(r['recall'])} | {r['docs_fed']:.2f} | {fmt(r['em'])} | "
            f"{fmt(r['f1'])} | {fmt(r['acc'])} | {r['llm_calls']:.1f} | {fmt(r['sec_per_q'], 1, 2)} ({split}) |"
        )

    header = (
        "| model | strategy | k | recall | docs fed | EM | F1 | Acc | LLM calls/q | s/q (retrieve / classify / LLM) |"
    )
    return _rows_table(header, names, row)


def methods_table(names: list[tuple[str, str]]) -> str:
    """Issue 6 rows: recall, docs and tokens fed, EM/F1/Acc, LLM calls and seconds per question."""

    def row(label: str, r: dict) -> str:
        tokens = "–" if r.get("tokens_fed") is None else f"{r['tokens_fed']:.0f}"
        calls = "–" if r.get("llm_calls") is None else f"{r['llm_calls']:.2f}"
        return (
            f"| {label} | {r['strategy']} | {fmt(r['recall'])} | {r['docs_fed']:.2f} | {tokens} | {fmt(r['em'])} | "
            f"{fmt(r['f1'])} | {fmt(r['acc'])} | {calls} | {fmt(r['sec_per_q'], 1, 2)} |"
        )

    header = "| data, model | strategy | recall | docs fed | tokens fed | EM | F1 | Acc | LLM calls/q | s/q |"
    return _rows_table(header, names, row)


def main() -> None:
    print("### HotpotQA dev500, questions 0–249\n")
    print(retrieval_table("eval-hotpot-retrieval", "hotpot", "eval-hotpot-cfs-best"))
    print("### MuSiQue dev100\n")
    print(retrieval_table("eval-musique-retrieval", "musique", "eval-musique-cfs-best"))
    print("### Answers\n")
    print(qa_table([("Gemma-3-270M (HotpotQA)", "eval-hotpot-gemma"), ("Qwen2.5-1.5B (HotpotQA)", "eval-hotpot-qwen"),
                    ("Gemma-3-270M (MuSiQue)", "eval-musique-gemma"), ("Qwen2.5-1.5B (MuSiQue)", "eval-musique-qwen")]))
    print("### DMQR, DSLR, Adaptive-Note (k = 4)\n")
    print(methods_table([("HotpotQA, Gemma", "eval-hotpot-methods"), ("MuSiQue, Gemma", "eval-musique-methods"),
                         ("HotpotQA q0–49, Qwen", "eval-hotpot-methods-qwen")]))
    print("### DSLR threshold (HotpotQA dev500 q400–499, Gemma, cfs k = 4)\n")
    for name in ("tune/base", "tune/p30", "tune/p50", "tune/p70", "tune/p90"):
        res = load(name)
        if res:
            cal = res.get("dslr_calibration") or {}
            r = res["rows"][0]
            print(f"| {cal.get('percentile', '–')} | {cal.get('threshold', '–')} | {r['tokens_fed']:.0f} | "
                  f"{fmt(r['em'])} | {fmt(r['f1'])} | {fmt(r['acc'])} |")


if __name__ == "__main__":
    main()
