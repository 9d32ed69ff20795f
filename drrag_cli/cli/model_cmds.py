"""`drrag train-classifier`, `drrag models`, `drrag doctor`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from drrag_cli.cli.common import ConfigOpt, IndexOpt, JsonOpt, print_json, settings_for, stderr_console

TRAIN_EXAMPLES = (
    "Examples: drrag train-classifier my_qa.jsonl --out ~/models/relevance"
    "  |  drrag train-classifier hotpot_train.json musique_train.jsonl --out clf --max-questions 500"
    "  (then set classifier.path: clf in drrag.yaml)"
)


def register(app: typer.Typer) -> None:
    app.command("train-classifier", epilog=TRAIN_EXAMPLES)(train_classifier)
    app.command("models", epilog="Example: drrag models --json")(models)
    app.command("doctor", epilog="Example: drrag doctor")(doctor)


def train_classifier(
    data: Annotated[list[str], typer.Argument(help="Labelled multi-hop QA files (HotpotQA, 2Wiki, IRCoT, MuSiQue).")],
    out: Annotated[str, typer.Option("--out", "-o", help="Where to write the model (relevance.npz + .json).")],
    max_questions: Annotated[
        int | None, typer.Option("--max-questions", help="Use at most N questions per file.")
    ] = None,
    val_fraction: Annotated[float, typer.Option("--val-fraction", help="Share of questions held out.")] = 0.2,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    config: ConfigOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Train the relevance classifier C(q, d1, d2) on your own labelled data and save it.

    Each file's paragraphs are indexed once (in the eval cache) and pairs are mined with
    the same retrieval CFS runs; whole questions are held out for validation, and the
    thresholds are chosen by replaying CFS. Use the result with `classifier.path`.
    """
    from drrag_cli.errors import InputError
    from drrag_cli.select.train import train_classifier as train

    for path in data:
        if not Path(path).is_file():
            raise InputError(f"dataset {path} not found")
    err = stderr_console()
    report = train(
        data,
        out,
        settings_for(config),
        val_fraction=val_fraction,
        seed=seed,
        max_questions=max_questions,
        progress=None if json_out else (lambda msg: err.print(f"[dim]{msg}[/dim]", highlight=False)),
    )
    if json_out:
        print_json(report)
        return
    err.print(f"saved classifier to {out}", highlight=False)
    val = report.get("validation") or {}
    if val:
        err.print(
            "held-out: " + ", ".join(f"{k}={v:.3f}" for k, v in val.items() if isinstance(v, float)), highlight=False
        )


def models(config: ConfigOpt = None, json_out: JsonOpt = False) -> None:
    """Which embedding model, GGUF and relevance classifier are in use, and where they live."""
    from drrag_cli.doctor import model_info

    info = model_info(settings_for(config))
    if json_out:
        print_json(info)
        return
    from rich.console import Console
    from rich.pretty import Pretty

    Console().print(Pretty(info))


def doctor(index: IndexOpt = None, config: ConfigOpt = None, json_out: JsonOpt = False) -> None:
    """Check the environment: Python, packages, models load, the index opens. Exit 1 if something is wrong."""
    from drrag_cli.doctor import run_checks
    from drrag_cli.errors import DrragError

    report = run_checks(lambda: settings_for(config, index))
    if json_out:
        print_json(report.to_json())
    else:
        from rich.console import Console
        from rich.markup import escape

        console = Console()
        for c in report.checks:
            mark = "[green]ok[/green]  " if c.ok else "[red]FAIL[/red]"
            console.print(f"{mark} {c.name:<22} {escape(c.detail)}", highlight=False)
    if not report.ok:
        raise DrragError(f"doctor found problems: {', '.join(report.failed)}")
