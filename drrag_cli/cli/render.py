"""Human output (rich). Scripts use --json instead; nothing here is parsed."""

from __future__ import annotations

import os
import time
from typing import Any

from drrag_cli.cli.common import stdout_console
from drrag_cli.types import Hit, Passage


def display_path(source: str) -> str:
    """Paths under the working directory are shown relative to it."""
    path, sep, frag = source.partition("#")
    try:
        rel = os.path.relpath(path)
        path = rel if not rel.startswith("..") else path
    except ValueError:
        pass
    return path + sep + frag


def location(p: Passage) -> str:
    loc = p.location
    return display_path(p.source) + loc[len(p.source):]


def snippet(text: str, width: int = 240) -> str:
    return text if len(text) <= width else text[: width - 1].rsplit(" ", 1)[0] + "…"


def print_hits(hits: list[Hit], query: str, mode: str) -> None:
    from rich.markup import escape

    console = stdout_console()
    if not hits:
        console.print(f"no results for {query!r} ({mode})", highlight=False)
        return
    for h in hits:
        p = h.passage
        console.print(
            f"[bold]{h.rank:>2}.[/bold] [cyan]{h.score:.4f}[/cyan]  [bold]{escape(p.title)}[/bold]  "
            f"[dim]{escape(location(p))}[/dim]",
            highlight=False,
        )
        console.print(f"    {escape(snippet(p.text))}", highlight=False, soft_wrap=False)


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"  # pragma: no cover


def print_status(info: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(show_header=False, box=None)
    stamp = info.get("updated_at")
    rows = [
        ("index", info["index"]),
        ("files", str(info["files"])),
        ("documents", str(info["documents"])),
        ("passages", str(info["passages"])),
        ("size on disk", _size(info["size_bytes"])),
        ("embedding model", f"{info['embedding_model']} (dim {info['embedding_dim']})"),
        ("chunk words", str(info["chunk_words"])),
        ("roots", ", ".join(display_path(r) for r in info["roots"])),
        ("last update", time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(stamp)) if stamp else "-"),
    ]
    for key, value in rows:
        table.add_row(f"[bold]{key}[/bold]", value)
    stdout_console().print(table)
