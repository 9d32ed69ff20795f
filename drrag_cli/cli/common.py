"""Options shared by commands, settings loading with CLI overrides, and output helpers."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from drrag_cli.config import Settings, load_settings
from drrag_cli.jsonsafe import json_safe

if TYPE_CHECKING:
    from rich.console import Console

ConfigOpt = Annotated[
    str | None,
    typer.Option("--config", "-c", help="Config file (default: ./drrag.yaml, then ~/.config/drrag/config.yaml)."),
]
IndexOpt = Annotated[str | None, typer.Option("--index", help="Index folder (default: index.path, ./.drrag).")]
CollectionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--collection",
        help="Search this collection (repeatable: several are fused). Default: the local index if built, "
        "else every collection.",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document to stdout (for scripts).")]
StrategyOpt = Annotated[
    str | None,
    typer.Option(
        "--strategy",
        "-s",
        help="bm25 | sm | hybrid | qdc | cfs | cis | note, or a combination such as dmqr+cfs+dslr.",
    ),
]
RewriteOpt = Annotated[
    str | None, typer.Option("--rewrite", help="dmqr = LLM query rewrites fused into the first stage | none.")
]
RewriteStrategiesOpt = Annotated[
    str | None,
    typer.Option("--rewrite-strategies", help="Comma-separated: gqr,kwr,par,cce, or adaptive (the LLM picks)."),
]
RefineOpt = Annotated[
    str | None, typer.Option("--refine", help="dslr = keep only sentences relevant to the question | none.")
]
DslrThresholdOpt = Annotated[
    float | None, typer.Option("--dslr-threshold", help="DSLR sentence score cutoff (refine.threshold).")
]


def method_overrides(
    rewrite: str | None, rewrite_strategies: str | None, refine: str | None, dslr_threshold: float | None
) -> dict[str, Any]:
    """settings_for(...) keyword overrides of the rewrite / refine flags."""
    names = [n.strip().lower() for n in rewrite_strategies.split(",") if n.strip()] if rewrite_strategies else None
    return {
        "rewrite__method": rewrite.lower() if rewrite else None,
        "rewrite__strategies": names,
        "refine__method": refine.lower() if refine else None,
        "refine__threshold": dslr_threshold,
    }


class State:
    debug = False


def settings_for(config: str | None, index: str | None = None, **overrides: Any) -> Settings:
    """Load config with the CLI options that were actually given (``search__k=5`` is
    ``search.k``) as overrides, validated like the file."""
    given = {dotted.replace("__", "."): value for dotted, value in overrides.items()}
    return load_settings(config, {"index.path": index, **given})


def print_json(data: Any) -> None:
    """One JSON document on stdout, always valid UTF-8 JSON: a lone surrogate (an
    undecodable byte of a file name or argument) becomes U+FFFD and NaN/inf become null,
    whatever the locale's stdout encoding and error handler."""
    text = json.dumps(json_safe(data), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stream (StringIO): it holds str, not bytes
        sys.stdout.write(text)
    else:
        sys.stdout.flush()
        buffer.write(text.encode("utf-8"))
        buffer.flush()
    sys.stdout.flush()


def stderr_console() -> Console:
    from rich.console import Console

    return Console(stderr=True)


def stdout_console() -> Console:
    from rich.console import Console

    return Console()
