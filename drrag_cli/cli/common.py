"""Options shared by commands, settings loading with CLI overrides, and output helpers."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from drrag_cli.config import Settings, load_settings

ConfigOpt = Annotated[
    str | None,
    typer.Option("--config", "-c", help="Config file (default: ./drrag.yaml, then ~/.config/drrag/config.yaml)."),
]
IndexOpt = Annotated[str | None, typer.Option("--index", help="Index folder (default: index.path, ./.drrag).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document to stdout (for scripts).")]


class State:
    debug = False


def settings_for(config: str | None, index: str | None = None, **overrides: Any) -> Settings:
    """Load config, then apply CLI overrides (`search.k=...`) that were actually given."""
    settings = load_settings(config)
    if index is not None:
        settings.set("index.path", index)
    for dotted, value in overrides.items():
        if value is not None:
            settings.set(dotted.replace("__", "."), value)
    return settings


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def stderr_console():  # noqa: ANN201 - rich Console, imported lazily
    from rich.console import Console

    return Console(stderr=True)


def stdout_console():  # noqa: ANN201
    from rich.console import Console

    return Console()
