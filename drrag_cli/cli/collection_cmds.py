"""`drrag collection add|list|remove|rename`: named knowledge bases, each its own index."""

from __future__ import annotations

from typing import Annotated

import typer

from drrag_cli.cli.common import ConfigOpt, JsonOpt, print_json, settings_for, stderr_console

EXAMPLES = (
    "Examples: drrag collection add notes ~/notes  |  drrag collection add papers ~/papers --exclude 'drafts/*'"
    "  |  drrag collection list --json  |  drrag collection rename papers library"
    "  |  drrag collection remove library  |  drrag index  (re-syncs every collection)"
    '  |  drrag ask "..." --collection notes --collection papers'
)

app = typer.Typer(
    name="collection",
    help="Named collections: several folders of files, each indexed on its own, searched together or "
    "one at a time (--collection NAME). They live in $XDG_DATA_HOME/drrag (~/.local/share/drrag).",
    epilog=EXAMPLES,
    no_args_is_help=True,
)


def register(root: typer.Typer) -> None:
    root.add_typer(app)


@app.command("add", epilog="Example: drrag collection add notes ~/notes ~/journal --exclude 'archive/*'")
def add(
    name: Annotated[str, typer.Argument(help="A short slug: letters, digits, '-' and '_'.")],
    paths: Annotated[list[str], typer.Argument(help="Files or folders the collection covers.")],
    exclude: Annotated[
        list[str] | None,
        typer.Option("--exclude", help="Glob of files or folders to leave out (repeatable), on top of index.exclude."),
    ] = None,
    config: ConfigOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Create a collection over PATHS and index it now."""
    from drrag_cli.collections import Registry

    report = Registry().add(name, paths, settings_for(config), exclude=exclude or [])
    if json_out:
        print_json({"collection": name, **report.to_json()})
        return
    stderr_console().print(
        f"collection {name}: {report.to_json()['files']['added']} files, {report.passages_total} passages "
        f"in {report.seconds:.1f}s",
        highlight=False,
        soft_wrap=True,
    )


@app.command("list", epilog="Example: drrag collection list --json")
def list_(config: ConfigOpt = None, json_out: JsonOpt = False) -> None:
    """The collections, their folders and --exclude globs."""
    from drrag_cli.collections import Registry

    reg = Registry()
    found = reg.load()
    rows = [
        {"name": c.name, "paths": c.paths, "exclude": c.exclude, "index": str(reg.folder(c))}
        for c in found.values()
    ]
    if json_out:
        print_json(rows)
        return
    from drrag_cli.cli.common import stdout_console
    from drrag_cli.cli.render import display_path

    console = stdout_console()
    if not rows:
        console.print("no collections yet (drrag collection add NAME PATH)", highlight=False)
    for row in rows:
        skip = f"  (exclude {', '.join(row['exclude'])})" if row["exclude"] else ""
        console.print(f"{row['name']}: {', '.join(display_path(p) for p in row['paths'])}{skip}", highlight=False)


@app.command("remove", epilog="Example: drrag collection remove papers")
def remove(name: Annotated[str, typer.Argument(help="The collection to forget.")]) -> None:
    """Forget a collection and delete its index (your files are not touched)."""
    from drrag_cli.collections import Registry

    Registry().remove(name, settings_for(None))
    stderr_console().print(f"removed collection {name} and its index (your files are untouched)", highlight=False)


@app.command("rename", epilog="Example: drrag collection rename papers library")
def rename(
    old: Annotated[str, typer.Argument(help="Its name now.")],
    new: Annotated[str, typer.Argument(help="Its new name.")],
) -> None:
    """Rename a collection (its index moves with it; nothing is re-indexed)."""
    from drrag_cli.collections import Registry

    Registry().rename(old, new, settings_for(None))
    stderr_console().print(f"renamed collection {old} to {new}", highlight=False)
