"""Eval reports: the per-strategy table (rich and markdown) and the recall-vs-k plot.

Fractions (recall, EM, F1, Acc) are shown in percent with one decimal, as the papers
print them; ``results.json`` keeps them in [0, 1]. The plot needs matplotlib, an
optional extra (``pip install 'drrag-cli[plot]'``); without it the plot is skipped with
a note rather than making a 40 MB library a dependency of a CLI.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.table import Table

    from drrag_cli.evaluate.result import EvalResult

PLOT = "recall_vs_k.png"
PERCENT = {"recall", "em", "f1", "acc", "accepted"}
# (row key, header, decimals)
COLUMNS = (
    ("strategy", "strategy", None),
    ("k", "k", None),
    ("recall", "recall %", 1),
    ("docs_fed", "docs fed", 2),
    ("tokens_fed", "tokens fed", 0),
    ("em", "EM %", 1),
    ("f1", "F1 %", 1),
    ("acc", "Acc %", 1),
    ("accepted", "Accepted %", 1),  # Acc, or a form of the gold the documents settle (evaluate/forms.py)
    ("llm_calls", "LLM calls", 2),
    ("sec_per_q", "s/q", 2),
    ("retrieve_s", "retrieve s", 3),
    ("classify_s", "classify s", 3),
    ("generate_s", "generate s", 3),
    ("n", "n", None),
)
DECIMALS = {key: dec for key, _h, dec in COLUMNS}


def cell(key: str, value: Any, decimals: int | None) -> str:
    if value is None:
        return "–"
    if decimals is None:
        return str(value)
    return f"{value * 100 if key in PERCENT else value:.{decimals}f}"


def cells(row: dict[str, Any]) -> list[str]:
    return [cell(key, row.get(key), dec) for key, _h, dec in COLUMNS]


def summary_line(result: EvalResult) -> str:
    meta = result.meta
    # --no-llm: no model answered (its tokenizer still counts tokens_fed; results.json names it)
    llm = f"model {Path(meta['model']).name}" if meta.get("model") and meta.get("llm", True) else "no LLM"
    parts = [f"{result.questions} questions", f"{result.corpus_passages} passages", llm,
             f"{meta.get('wall_s', 0):.1f} s wall"]
    if meta.get("resumed"):
        parts.append(f"{meta['resumed']} resumed")
    if meta.get("interrupted"):
        parts.append("INTERRUPTED: partial")
    return f"{result.dataset} ({result.fmt}): " + ", ".join(parts)


def _split(row: dict[str, Any]) -> str:
    return "/".join(cell(t, row.get(t), 2) for t in ("retrieve_s", "classify_s", "generate_s"))


def rich_table(result: EvalResult) -> Table:
    """A compact table (fits 80 columns): time split as one retrieve/classify/generate cell.

    Print :func:`summary_line` above it (a rich title would wrap to the table's width).
    """
    from rich.table import Table

    table = Table(
        caption="recall, EM, F1, Acc in %; s/q = seconds per question",
        caption_justify="left",
        box=None,  # two spaces between columns: the whole table fits 80 columns
        pad_edge=False,
        header_style="bold underline",
        highlight=False,
    )
    shown = ("strategy", "k", "recall", "docs_fed", "tokens_fed", "em", "f1", "acc", "llm_calls", "sec_per_q")
    headers = {
        "recall": "recall",
        "docs_fed": "docs",
        "tokens_fed": "tok",
        "em": "EM",
        "f1": "F1",
        "acc": "Acc",
        "llm_calls": "LLM",
    }
    for key in shown:
        header = headers.get(key, "s/q" if key == "sec_per_q" else key)
        justify = "left" if key == "strategy" else "right"
        table.add_column(header, justify=justify, no_wrap=True)
    table.add_column("retr/cls/gen s", justify="right", no_wrap=True)
    table.add_column("n", justify="right", no_wrap=True)
    for row in result.rows:
        table.add_row(*(cell(key, row.get(key), DECIMALS[key]) for key in shown), _split(row), str(row["n"]))
    return table


TYPE_SHOWN = ("strategy", "k", "recall", "docs_fed", "em", "f1", "n")


def type_rows(result: EvalResult) -> list[list[str]]:
    """One line per (question type, strategy, k) of ``result.by_type``, cells as the main table's."""
    return [
        [name, *(cell(key, row.get(key), DECIMALS[key]) for key in TYPE_SHOWN)]
        for name, rows in result.by_type.items()
        for row in rows
    ]


def type_table(result: EvalResult) -> Table:
    """Recall, documents fed, EM and F1 per question type (print only when ``result.by_type``)."""
    from rich.table import Table

    table = Table(box=None, pad_edge=False, header_style="bold underline", highlight=False,
                  title="by question type", title_justify="left")
    for header in ("type", "strategy", "k", "recall", "docs", "EM", "F1", "n"):
        table.add_column(header, justify="left" if header in ("type", "strategy") else "right", no_wrap=True)
    for line in type_rows(result):
        table.add_row(*line)
    return table


def markdown(result: EvalResult) -> str:
    headers = [h for _k, h, _d in COLUMNS]
    lines = [
        f"# drrag eval — {result.dataset}",
        "",
        summary_line(result),
        "",
        "| " + " | ".join(headers) + " |",
        "|" + "|".join("---" if k == "strategy" else "---:" for k, _h, _d in COLUMNS) + "|",
    ]
    lines += ["| " + " | ".join(cells(row)) + " |" for row in result.rows]
    if result.by_type:
        lines += ["", "## By question type", "", "| type | strategy | k | recall % | docs fed | EM % | F1 % | n |",
                  "|---|---|---:|---:|---:|---:|---:|---:|"]
        lines += ["| " + " | ".join(line) + " |" for line in type_rows(result)]
    lines += [
        "",
        "recall = gold paragraphs among those fed to the LLM; docs fed = mean passages fed; "
        "s/q = seconds per question (retrieve + classify + generate); – = not computed.",
        "",
    ]
    return "\n".join(lines)


def plot_recall(result: EvalResult, path: Path) -> str | None:
    """Write recall@k per strategy to ``path``; returns a note when it cannot."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return f"{PLOT} skipped: matplotlib is not installed (pip install 'drrag-cli[plot]')"
    fig, ax = plt.subplots(figsize=(6, 4), dpi=120)
    for strategy in dict.fromkeys(r["strategy"] for r in result.rows):
        rows = [r for r in result.rows if r["strategy"] == strategy and r["recall"] is not None]
        ax.plot([r["k"] for r in rows], [100 * r["recall"] for r in rows], marker="o", label=strategy)
    ax.set_xticks(sorted({r["k"] for r in result.rows}))
    ax.set_xlabel("k (documents for the LLM)")
    ax.set_ylabel("recall of gold documents fed (%)")
    ax.set_title(f"{result.dataset}: {result.questions} questions")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return None


def write_reports(result: EvalResult, out: Path) -> list[str]:
    """results.md and recall_vs_k.png into ``out``; returns notes about what was skipped."""
    from drrag_cli.index.layout import write_text_atomic

    write_text_atomic(out / "results.md", markdown(result))
    note = plot_recall(result, out / PLOT)
    return [note] if note else []
