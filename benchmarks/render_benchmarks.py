"""Render docs/BENCHMARKS.md from the outputs `benchmarks/run_all.sh` leaves in benchmarks/out/.

Every number in that file comes from a file here, never typed by hand: a missing output is
rendered as "not run", so a partial run still renders honestly.

    python benchmarks/render_benchmarks.py [--out benchmarks/out] [--doc docs/BENCHMARKS.md]
    python benchmarks/render_benchmarks.py machine > benchmarks/out/machine.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
COMMAND = "bash benchmarks/run_all.sh"
NOT_RUN = "not run"

# (key, label): the run_all.sh folder names; held-out sets are never tuned on
HELD_OUT = [("hotpot-q0-249", "HotpotQA dev500 q0–249"), ("musique-dev100", "MuSiQue dev100"),
            ("2wiki-dev182", "2Wiki dev182")]  # fmt: skip
TUNING = [("hotpot-q250-499", "HotpotQA dev500 q250–499"), ("musique-train100", "MuSiQue train100"),
          ("2wiki-train500", "2Wiki train500")]  # fmt: skip
STRATEGIES = [("sm", "SM (dense)"), ("qdc", "QDC"), ("cfs", "CFS")]
KS = (3, 4, 6)
MODELS = [("gemma", "Gemma-3-270M (embedded)"), ("qwen05", "Qwen2.5-Coder-0.5B"), ("qwen", "Qwen2.5-Coder-1.5B")]
# (family, label, the held-out file its questions come from): benchmarks/kb_bench.py's knowledge bases
KB_FAMILIES = [("hotpotqa", "HotpotQA-style", "dev500"), ("2wiki", "2Wiki-style", "dev182"),
               ("musique", "MuSiQue-style", "dev100")]  # fmt: skip
KB_TAGS = {"gemma": "gemma-embedded", "qwen05": "qwen2.5-coder-0.5b-instruct-awq-q4_k_m",
           "qwen": "qwen2.5-coder-1.5b-instruct-q4_k_m"}  # kb_bench's summary names; fmt: skip
# SPEC §3, Table 4 of the DR-RAG paper (its corpus and a fine-tuned retriever): CFS recall at k = 3 / 4 / 6
PAPER_CFS = {"hotpot-q0-249": (88.9, 92.3, 98.0), "musique-dev100": (66.5, 73.8, 83.0)}


def load(path: Path) -> dict[str, Any] | None:
    """A JSON output, or None when its step has not run (or was interrupted before writing it)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def pct(x: float | None) -> str:
    return "–" if x is None else f"{x * 100:.1f}"


def rows_by(result: dict[str, Any] | None) -> dict[tuple[str, int], dict[str, Any]]:
    """An eval's rows by (strategy, k); empty for a missing or interrupted run."""
    if not result or result.get("interrupted"):
        return {}
    return {(r["strategy"], r["k"]): r for r in result.get("rows", [])}


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


class Outputs:
    """The files one run of run_all.sh wrote, read once."""

    def __init__(self, out: Path) -> None:
        self.out = out
        sets = HELD_OUT + TUNING
        recall = {key: load(out / "recall" / key / "results.json") for key, _ in sets}
        answers = {
            (model, key): load(out / f"answers-{model}" / key / "results.json")
            for model, _ in MODELS
            for key, _ in sets
        }
        self.walls = {
            f"{step} {key}": result["wall_s"]
            for step, results in (("recall", recall), *((f"answers-{m}", {k: r for (mm, k), r in answers.items()
                                                                         if mm == m}) for m, _ in MODELS))
            for key, result in results.items()
            if result and result.get("rows") and result.get("wall_s") and not result.get("interrupted")
        }  # fmt: skip
        self.recall = {key: rows_by(result) for key, result in recall.items()}
        self.by_type = {
            key: {qtype: rows_by({"rows": rows}) for qtype, rows in (result or {}).get("by_type", {}).items()}
            for key, result in recall.items()
            if result and not result.get("interrupted")
        }
        self.answers = {unit: rows_by(result) for unit, result in answers.items()}
        self.kb = {
            (model, family): load(out / "kb" / family / f"summary_cfs_{KB_TAGS[model]}.json")
            for model, _ in MODELS
            for family, _, _ in KB_FAMILIES
        }
        self.machine = load(out / "machine.json") or {}
        self.index = load(out / "speed" / "index" / "results.json")
        self.ask = load(out / "speed" / "ask.json")
        self.cold = load(out / "speed" / "cold" / "results.json")
        self.times = {p.stem: p.read_text().strip() for p in sorted((out / "times").glob("*.txt"))}

    def recall_cell(self, key: str, strategy: str) -> str:
        rows = self.recall[key]
        if not any((strategy, k) in rows for k in KS):
            return NOT_RUN
        return " / ".join(pct(rows[(strategy, k)]["recall"]) if (strategy, k) in rows else "–" for k in KS)

    def docs_cell(self, key: str, strategy: str = "cfs") -> str:
        rows = self.recall[key]
        return " / ".join(f"{rows[(strategy, k)]['docs_fed']:.2f}" if (strategy, k) in rows else "–" for k in KS)

    def answer_row(self, model: str, key: str) -> dict[str, Any] | None:
        return self.answers[(model, key)].get(("cfs", 4))

    def answer_cell(self, model: str, key: str) -> str:
        row = self.answer_row(model, key)
        if row is None:
            return NOT_RUN
        accepted = pct(row["accepted"]) if row.get("accepted") is not None else "–"  # runs before the column: –
        return f"{pct(row['em'])} / {pct(row['f1'])} / {pct(row['acc'])} / {accepted}"

    def calls_cell(self, model: str, key: str) -> str:
        row = self.answer_row(model, key)
        return "–" if row is None or row.get("llm_calls") is None else f"{row['llm_calls']:.2f}"


def headline(o: Outputs) -> str:
    cols = [label for _, label in HELD_OUT]
    rows = [["CFS recall at k = 4 (documents fed)"] + [
        f"{pct(r['recall'])} ({r['docs_fed']:.2f})" if (r := o.recall[key].get(("cfs", 4))) else NOT_RUN
        for key, _ in HELD_OUT
    ]]  # fmt: skip
    for model, label in MODELS:
        cells = [o.answer_cell(model, key) for key, _ in HELD_OUT]
        rows.append([f"{label}: EM / F1 / Acc / Accepted (CFS, k = 4)", *cells])
    return table(["held-out sets", *cols], rows)


def type_rows(o: Outputs) -> list[list[str]]:
    """Recall at k = 4 per question type (HotpotQA bridge / comparison, MuSiQue hops, 2Wiki kinds)."""
    rows = []
    for key, label in HELD_OUT + TUNING:
        for qtype, by in sorted(o.by_type.get(key, {}).items()):
            n = next(iter(by.values()), {}).get("n", "?")
            cells = [pct(by[(s, 4)]["recall"]) if (s, 4) in by else "–" for s, _ in STRATEGIES]
            rows.append([f"{label}: {qtype} ({n})", *cells])
    return rows


def kb_rows(o: Outputs) -> list[list[str]]:
    """Per knowledge base: its size, then per model the questions with every gold note cited and the right
    answers (F1)."""
    rows = []
    for family, label, source in KB_FAMILIES:
        runs = [o.kb[(model, family)] for model, _ in MODELS]
        known = next((r for r in runs if r), None)
        size = f"{known['n']} q / {known['notes']} notes" if known else NOT_RUN
        cells = [f"{label} ({source} q0–{known['n'] - 1})" if known else f"{label} ({source})", size]
        for run in runs:
            accepted = f" / {run['accepted']}" if run and run.get("accepted") is not None else ""
            cells += [f"{run['both_gold_cited']}", f"{run['correct']}{accepted} ({100 * run['f1_mean']:.1f})"] if run \
                else [NOT_RUN, NOT_RUN]  # fmt: skip
        cells.append(f"{runs[0]['p50_ask_s']:.1f}" if runs[0] else "–")
        rows.append(cells)
    return rows


def speed_rows(o: Outputs) -> list[list[str]]:
    rows: list[list[str]] = []
    ix = o.index or {}
    rate = (ix.get("passages_per_s") or {}).get("index:auto")
    rows.append(["`drrag index`, HotpotQA dev500 corpus (passages/s)", f"{rate:.1f}" if rate else NOT_RUN,
                 "`python benchmarks/index_bench.py --rounds 1 --index-runtimes auto --no-txtai`"])  # fmt: skip
    raw = (ix.get("passages_per_s") or {}).get("raw:sentence_transformers")
    cell = f"{raw:.1f} (`drrag index` {rate / raw:.2f}×)" if raw and rate else NOT_RUN
    rows.append(["raw sentence-transformers on the same passages, float32 (passages/s)", cell, "same run"])
    warm_search = (ix.get("hybrid_onnx_ms") or {}).get("p50")
    rows.append(["warm hybrid search p50 (ms)", f"{warm_search:.2f}" if warm_search else NOT_RUN, "same run"])
    ask = o.ask or {}
    warm = (ask.get("warm") or {}).get("total_s", {})
    retrieve = (ask.get("warm") or {}).get("retrieve_s", {})
    ask_command = "`python benchmarks/ask_bench.py --index benchmarks/out/speed/index/ix-auto -n 30 --cold 5`"
    cell = f"{warm['p50']:.2f} / {warm['p95']:.2f}" if warm else NOT_RUN
    rows.append(["warm `ask` p50 / p95, CFS k = 4, 30 dev500 questions (s)", cell, ask_command])
    rows.append(["of which retrieval p50 (s)", f"{retrieve['p50']:.3f}" if retrieve else NOT_RUN, "same run"])
    cold_ask = (ask.get("cold_wall_s") or {}).get("median")
    rows.append(["cold `drrag ask --json` over that index, median (s)", f"{cold_ask:.2f}" if cold_ask else NOT_RUN,
                 "same run"])  # fmt: skip
    rows += cold_rows(o.cold)
    return rows


def cold_rows(cold: dict[str, Any] | None) -> list[list[str]]:
    """The sample corpus's cold commands and their peak memory (benchmarks/cold_start.py)."""
    command = "`python benchmarks/cold_start.py --runs 5 --runtimes auto`"
    auto = (cold or {}).get("auto") or {}
    if not auto:
        return [["cold `drrag ask` / `search`, sample corpus", NOT_RUN, command]]
    out = []
    for key, label in (("ask", "cold `drrag ask`, sample corpus, median (s) / peak RSS (MB)"),
                       ("ask_reader", "the same, questions a reader answers (no model call)"),
                       ("ask_model", "the same, questions the model answers"),
                       ("ask_no_kv_state", "the model's, first ask after install (no stored prompt state)"),
                       ("search_hybrid", "cold `drrag search` (hybrid), median (s) / peak RSS (MB)")):  # fmt: skip
        part = auto.get(key) or {}
        wall, rss = part.get("median_s"), part.get("peak_rss_mb")
        cell = f"{wall:.2f} / {rss:.0f}" if wall is not None and rss is not None else NOT_RUN
        out.append([label, cell, command if not out else "same run"])
    return out


def machine_lines(m: dict[str, Any]) -> str:
    if not m:
        return f"({NOT_RUN}: `{COMMAND} machine`)"
    versions = ", ".join(f"{k} {v}" for k, v in (m.get("versions") or {}).items())
    return "\n".join([
        f"* CPU: {m.get('cpu', '?')}, {m.get('cores', '?')} cores, {m.get('ram_gib', '?')} GiB RAM, no GPU used",
        f"* vector flags: {', '.join(m.get('flags') or []) or 'none of AVX2 / AVX-512'}",
        f"* {m.get('os', '?')}, Python {m.get('python', '?')}; {versions}",
        f"* code: drrag at commit {m.get('commit', '?')}",
    ])  # fmt: skip


def _time_row(step: str, line: str) -> list[str]:
    """A step's row: its wall seconds (and the sets it ran, when ``SETS`` chose some) and commit."""
    wall, commit, *only = line.split() + ["?"] * (2 - len(line.split()))
    return [f"`{step}`", f"{wall} ({', '.join(only)} only)" if only else wall, commit]


def render(o: Outputs) -> str:
    held, tune = [label for _, label in HELD_OUT], [label for _, label in TUNING]
    recall_rows = [[label] + [o.recall_cell(key, s) for key, _ in HELD_OUT + TUNING] for s, label in STRATEGIES]
    recall_rows.append(["CFS documents fed"] + [o.docs_cell(key) for key, _ in HELD_OUT + TUNING])
    recall_rows.append(["CFS in the DR-RAG paper (its corpus)"] + [
        " / ".join(f"{v:.1f}" for v in PAPER_CFS[key]) if key in PAPER_CFS else "–" for key, _ in HELD_OUT + TUNING
    ])  # fmt: skip
    answer_rows = []
    for model, label in MODELS:
        cells = [o.answer_cell(model, key) for key, _ in HELD_OUT + TUNING]
        answer_rows.append([f"{label}: EM / F1 / Acc / Accepted", *cells])
        answer_rows.append([f"{label}: LLM calls per question"] + [o.calls_cell(model, key) for key, _ in
                                                                   HELD_OUT + TUNING])  # fmt: skip
    time_rows = [_time_row(step, line) for step, line in o.times.items()]
    parts = [
        "# Benchmarks",
        "",
        "Current numbers only, rendered from the outputs of one command (a cell that says "
        f'"{NOT_RUN}" has no output yet):',
        "",
        f"    {COMMAND}                      # every step, then this file",
        f"    {COMMAND} answers render       # only the answer evals, then this file",
        "",
        headline(o),
        "",
        "The relevance classifier trained on HotpotQA train100, dev500 q250–499 and MuSiQue train100 only, so",
        "retrieval on the held-out sets is unseen. Answer rules are tuned on the tuning halves; some older",
        "ones were written while reading failures of HotpotQA dev500 q0–99 and MuSiQue dev100, so answers",
        "there are partly fitted (2Wiki dev182 is wholly unseen). The measurements behind each design",
        "choice are in docs/RETRIEVAL.md, docs/ANSWERS.md and docs/SCALING.md; history is in git.",
        "",
        "## Retrieval recall",
        "",
        "Recall of the gold paragraphs among the documents fed to the answer stage, in %, at k = 3 / 4 / 6",
        "(`drrag eval SET --no-llm -s sm,qdc,cfs -k 3,4,6`, step `recall`; one passage per paragraph; each",
        "set's corpus is all its questions' paragraphs). SM and QDC always feed k documents; CFS may feed",
        "fewer.",
        "",
        table(["strategy", *[f"{h} (held out)" for h in held], *[f"{t} (tuning)" for t in tune]], recall_rows),
        "",
        "Recall at k = 4 by question type (questions in brackets):",
        "",
        table(["set: type", *[label for _, label in STRATEGIES]], type_rows(o)) if type_rows(o) else f"({NOT_RUN})",
        "",
        "## Answers",
        "",
        "EM / F1 / Acc / Accepted in %, CFS at k = 4 (`drrag eval SET -s cfs -k 4 [--model GGUF]`, steps",
        "`answers`, `answers-qwen05` and `answers-qwen`; a Qwen row needs `drrag models install",
        f'qwen2.5-coder-0.5b` or `qwen2.5-coder-1.5b` and says "{NOT_RUN}" without it). **Accepted**: Acc, or',
        "another form of the gold that the documents or the question settle (the name a page is titled for",
        "the one its opening sentence gives, a date's year when a year is asked, a country for its people, a",
        "plural for its singular: `drrag_cli/evaluate/forms.py`); EM, F1 and Acc are the papers' own. LLM",
        "calls per question: 0 when a reader answered from the text, 2 when the model was asked once more.",
        "",
        table(["model", *[f"{h} (held out)" for h in held], *[f"{t} (tuning)" for t in tune]], answer_rows),
        "",
        "## Knowledge bases",
        "",
        "What a user meets (step `kb`, `benchmarks/kb_bench.py`; `kb-qwen05` and `kb-qwen` with Qwen): a",
        "held-out set's first questions, their paragraphs written as one Markdown note per article (`# title`",
        "and its text), `drrag index` over the folder, then one `drrag ask --json` process per question with",
        "the default settings. **All cited**: every gold note is among the answer's citations; **right**: the",
        "gold answer or an alias stands in the answer (SQuAD-normalised), then how many are accepted (right,",
        "or another form of the gold its notes settle, as above), F1 in brackets; the ask time is a whole",
        "process's (model load included).",
        "",
        table(["knowledge base", "size", *[f"{label}: {what}" for _, label in MODELS for what in
                                            ("all cited", "right (F1)")], "ask p50 s"], kb_rows(o)),  # fmt: skip
        "",
        "## Speed and memory",
        "",
        table(["measure", "value", "command (step `speed`)"], speed_rows(o)),
        "",
        "## The machine",
        "",
        machine_lines(o.machine),
        "",
        "The machine may be shared with other work while a step runs: read times as upper bounds.",
        "",
        "## Steps and their wall time",
        "",
        "`bash benchmarks/run_all.sh [STEP...]` runs the steps named (all of them by default); each writes",
        "under `benchmarks/out/`, and `render` writes this file. The last run of each step: its wall time and",
        "the commit of the code it measured.",
        "",
        table(["step", "wall s", "commit"], time_rows) if time_rows else f"({NOT_RUN})",
        "",
        "Each eval's own wall time (`wall_s` in its results.json), in seconds:",
        "",
        table(["eval", "wall s"], [[unit, f"{wall:.0f}"] for unit, wall in o.walls.items()]) if o.walls else "–",
        "",
    ]
    return "\n".join(parts)


def cpu_model() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.processor() or "?"
    match = re.search(r"^model name\s*:\s*(.+)$", text, re.M)
    return match.group(1).strip() if match else "?"


def cpu_flags() -> list[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return []
    match = re.search(r"^flags\s*:\s*(.+)$", text, re.M)
    flags = set(match.group(1).split()) if match else set()
    return [f for f in ("avx2", "avx512f", "avx512_vnni", "avx512_bf16", "fma") if f in flags]


def ram_gib() -> float:
    try:
        kb = int(re.search(r"MemTotal:\s*(\d+)", Path("/proc/meminfo").read_text()).group(1))  # type: ignore[union-attr]
    except (OSError, AttributeError):
        return 0.0
    return round(kb / 1024**2, 1)


def machine() -> dict[str, Any]:
    """What the benchmarks ran on: CPU, vector flags, cores, RAM, versions, commit."""
    versions = {}
    for name in ("drrag-cli", "llama-cpp-python", "onnxruntime", "torch", "sentence-transformers", "tantivy",
                 "hnswlib"):  # fmt: skip
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return {
        "cpu": cpu_model(),
        "flags": cpu_flags(),
        "cores": os.cpu_count(),
        "ram_gib": ram_gib(),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "versions": versions,
        "commit": commit.stdout.strip() or "?",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="?", default="doc", choices=["doc", "machine"])
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out")
    parser.add_argument("--doc", type=Path, default=REPO / "docs" / "BENCHMARKS.md")
    args = parser.parse_args()
    if args.what == "machine":
        print(json.dumps(machine(), indent=2))
        return
    text = render(Outputs(args.out))
    args.doc.write_text(text, encoding="utf-8")
    print(f"wrote {args.doc} ({len(text.splitlines())} lines)", file=sys.stderr)


if __name__ == "__main__":
    main()
