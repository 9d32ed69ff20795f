"""`drrag index`, `drrag search`, `drrag status`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from drrag_cli.cli.common import (
    CollectionOpt,
    ConfigOpt,
    DslrThresholdOpt,
    IndexOpt,
    JsonOpt,
    RefineOpt,
    RewriteOpt,
    RewriteStrategiesOpt,
    method_overrides,
    print_json,
    settings_for,
    stderr_console,
)

if TYPE_CHECKING:
    from rich.console import Console

    from drrag_cli.config import Settings
    from drrag_cli.index.build import BuildReport


def register(app: typer.Typer) -> None:
    app.command("index", epilog=INDEX_EXAMPLES)(index)
    app.command("search", epilog=SEARCH_EXAMPLES)(search)
    app.command("status", epilog="Example: drrag status --json")(status)


INDEX_EXAMPLES = (
    "Examples: drrag index ~/notes ~/papers  |  drrag index  (re-sync the folders indexed before)"
    "  |  drrag index ~/papers  (adds ~/papers next to the folders indexed before)"
    "  |  drrag index ~/notes-copy --replace  (the index now covers only ~/notes-copy; unchanged"
    " text is not embedded again)  |  drrag index corpus.jsonl --index /tmp/ix --json"
    "  |  drrag index --rebuild notes/  |  drrag index ~/notes --watch  (stays running, re-indexes on change)"
)
SEARCH_EXAMPLES = (
    'Examples: drrag search "who leads project heron"  |  drrag search "error 42" --mode bm25 -k 10'
    '  |  drrag search "budget" --json | jq ".results[0].source"'
)

WatchOpt = Annotated[
    bool,
    typer.Option(
        "--watch",
        help="Keep running: re-index incrementally whenever files under the roots change (one line per "
        "re-index; --json: one JSON object per line). Ctrl-C stops.",
    ),
]


def index(
    paths: Annotated[
        list[str] | None, typer.Argument(help="Files or folders to index (default: the ones indexed before).")
    ] = None,
    index: IndexOpt = None,
    config: ConfigOpt = None,
    rebuild: Annotated[
        bool,
        typer.Option(
            "--rebuild",
            help="Start a fresh index of PATHS (default: the ones indexed before), e.g. after changing the "
            "embedding model.",
        ),
    ] = False,
    chunk_words: Annotated[int | None, typer.Option("--chunk-words", help="Target passage length in words.")] = None,
    replace: Annotated[
        bool,
        typer.Option(
            "--replace",
            "--only",
            help="Re-point the index to exactly PATHS: files under the folders indexed before are dropped "
            "(unchanged text is not embedded again). Without it, new PATHS are added next to them.",
        ),
    ] = False,
    json_out: JsonOpt = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List skipped files and decoding notes.")] = False,
    watch: WatchOpt = False,
) -> None:
    """Ingest files and folders into an incremental, crash-safe hybrid index.

    Unchanged files are skipped by content hash, changed ones replaced, deleted ones
    pruned. A killed run leaves the previous index usable.

    The folders given become the index's roots, which `drrag index` with no PATH re-syncs;
    a PATH not indexed before is added as a new root (said on stderr, "roots_added" in
    --json) unless --replace (or its alias --only) makes PATHS the only roots. With no
    PATH and no --index, every collection (`drrag collection add`) is re-synced too,
    after the local index when there is one.

    Formats: .md .markdown .txt .rst .html .htm .pdf, .eml .mbox mail, .json/.jsonl
    record corpora ({id?, title, text} per record), and .docx .pptx .odt .epub with
    pip install 'drrag-cli\\[office]'.
    \f
    Long: typer declares the options in the signature (~40 lines); the body is short.
    """
    from drrag_cli.index.api import Index

    settings = settings_for(config, index, index__chunk_words=chunk_words)
    if not (paths or index or watch or rebuild or replace) and _sync_collections(settings, json_out, verbose):
        return
    if watch:
        from drrag_cli.cli.watch import run_watch

        run_watch(paths or [], settings, rebuild=rebuild, replace=replace, json_out=json_out, verbose=verbose)
        return
    if json_out:  # for scripts and editors: no bar, and no rich to import (~40 ms of a one-note edit)
        print_json(Index.build(paths or [], settings, rebuild=rebuild, replace=replace).to_json())
        return
    err = stderr_console()
    if not err.is_terminal:
        report = Index.build(paths or [], settings, rebuild=rebuild, replace=replace)
    else:
        from drrag_cli.cli.progress import RichProgress

        with RichProgress() as bar:
            report = Index.build(paths or [], settings, rebuild=rebuild, replace=replace, progress=bar)
    _print_report(report, err, verbose)


def _sync_collections(settings: Settings, json_out: bool, verbose: bool) -> bool:
    """`drrag index` alone, when collections exist: the local index (if built) and then
    every collection, each its own incremental build; False when there are none. One that
    fails (a folder gone) does not stop the others; the command then fails, naming it."""
    from drrag_cli.collections import Registry
    from drrag_cli.errors import DrragError
    from drrag_cli.index import layout
    from drrag_cli.index.api import Index

    reg = Registry()
    found = reg.load()
    if not found:
        return False
    local = layout.has_index(Path(settings.index.path).expanduser())
    builds = ([(None, lambda: Index.build([], settings))] if local else []) + [
        (c.name, lambda c=c: reg.sync(c, settings)) for c in found.values()
    ]
    err, reports, failed = stderr_console(), [], []
    for name, build in builds:
        try:
            report = build()
        except DrragError as exc:
            if name is None:
                raise
            failed.append(f"{name} ({exc})")
            reports.append({"collection": name, "error": str(exc)})
            continue
        reports.append({"collection": name, **report.to_json()})
        if not json_out:
            _print_report(report, err, verbose, label=f"collection {name}" if name else None)
    reg.refresh_union(settings)
    if json_out:
        print_json(reports)
    if failed:
        raise DrragError(f"could not re-sync collection {'; '.join(failed)}; the others were synced")
    return True


def _print_report(report: BuildReport, err: Console, verbose: bool, label: str | None = None) -> None:
    from drrag_cli.cli.render import warning_lines

    f = report.to_json()["files"]
    unreadable = f", {f['unreadable']} unreadable (kept)" if f["unreadable"] else ""
    err.print(
        f"indexed {label or report.index}: {f['added']} added, {f['updated']} updated, "
        f"{f['unchanged']} unchanged, {f['removed']} removed, {f['skipped']} skipped{unreadable}; "
        f"{report.passages_embedded} passage{'' if report.passages_embedded == 1 else 's'} embedded, "
        f"{report.passages_total} total "
        f"in {report.seconds:.1f}s" + ("" if report.published else " (nothing changed)"),
        highlight=False,
        soft_wrap=True,
    )
    for line in report.repaired:  # a damaged part found and set aside: never silent
        err.print(f"  repaired: {line}", highlight=False, soft_wrap=True)
    for line in _roots_lines(report):
        err.print(line, highlight=False, soft_wrap=True)
    for line in warning_lines(report, verbose):
        err.print(line, highlight=False, soft_wrap=True)
    if verbose:
        for path, why in sorted(report.skipped_files.items()):
            err.print(f"  skipped {path}: {why}", highlight=False)
        for path, note in sorted(report.notes.items()):
            err.print(f"  note {path}: {note}", highlight=False)
    elif report.skipped_files:
        err.print(f"  ({len(report.skipped_files)} files skipped; --verbose lists them)", highlight=False)


def _roots_lines(report: BuildReport) -> list[str]:
    """What changed in the roots, and content now indexed twice: never silent."""
    from drrag_cli.cli.render import display_path

    def names(roots: list[str]) -> str:
        return ", ".join(display_path(r) for r in roots)

    lines = []
    if report.roots_added and len(report.roots) > len(report.roots_added):
        lines.append(
            f"  new root {names(report.roots_added)}: the index now covers {len(report.roots)} roots "
            f"({names(report.roots)}); add --replace to index only the PATHs given"
        )
    if report.roots_removed:
        lines.append(f"  dropped root {names(report.roots_removed)}: its files are no longer indexed")
    if report.duplicate_files:
        lines.append(
            f"  note: {report.duplicate_files} added files have the same bytes as other indexed files, "
            "so their passages are in the index twice"
        )
    return lines


def search(
    query: Annotated[str, typer.Argument(help="What to look for (any text is safe).")],
    mode: Annotated[str | None, typer.Option("--mode", "-m", help="hybrid | bm25 | dense")] = None,
    k: Annotated[int | None, typer.Option("-k", help="How many passages.")] = None,
    strategy: Annotated[
        str | None,
        typer.Option(
            "--strategy", "-s", help="A DR-RAG strategy (qdc | cfs | cis | dmqr+cfs+dslr ...): show its context."
        ),
    ] = None,
    explain: Annotated[bool, typer.Option("--explain", help="With --strategy: show every stage.")] = False,
    rewrite: RewriteOpt = None,
    rewrite_strategies: RewriteStrategiesOpt = None,
    refine: RefineOpt = None,
    dslr_threshold: DslrThresholdOpt = None,
    index: IndexOpt = None,
    collection: CollectionOpt = None,
    config: ConfigOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Retrieve passages, no LLM: hybrid (BM25 + dense, fused by RRF), bm25 or dense.

    With --strategy, the exact context a DR-RAG strategy would feed the LLM instead.
    \f
    Long: typer declares the options in the signature (~20 lines); the body is short.
    """
    overrides = method_overrides(rewrite, rewrite_strategies, refine, dslr_threshold)
    if strategy is not None or any(v is not None for v in overrides.values()):  # None: the config's strategy
        _search_strategy(query, strategy, k, (index, collection or []), config, json_out, explain, overrides)
        return
    from drrag_cli.collections import target_index
    from drrag_cli.index.api import Index
    from drrag_cli.question import checked_question

    settings = settings_for(config, index, search__mode=mode, search__k=k)
    query = checked_question(query, settings)
    idx = target_index(settings, collection or [], index is not None) or Index.open(settings)
    hits = idx.search(query, mode=settings.search.mode, k=settings.search.k)
    if json_out:
        from drrag_cli.types import hits_json

        print_json(hits_json(query, settings.search.mode, hits))
        return
    from drrag_cli.cli.render import print_hits

    print_hits(hits, query, settings.search.mode)


def _search_strategy(
    query: str,
    strategy: str | None,
    k: int | None,
    target: tuple[str | None, list[str]],
    config: str | None,
    json_out: bool,
    explain: bool,
    overrides: dict,
) -> None:
    from drrag_cli.collections import target_index
    from drrag_cli.pipeline import Pipeline
    from drrag_cli.results import search_json

    index, collections = target
    settings = settings_for(config, index, retrieval__strategy=strategy, retrieval__k=k, **overrides)
    retrieval = Pipeline(settings, index=target_index(settings, collections, index is not None)).retrieve(query)
    if json_out:
        print_json(search_json(retrieval, explain))
        return
    from drrag_cli.cli.render import print_context, print_trace

    if explain:
        print_trace(retrieval, stderr_console())
    print_context(retrieval)


def status(index: IndexOpt = None, config: ConfigOpt = None, json_out: JsonOpt = False) -> None:
    """Show what is indexed: files, passages, size on disk, embedding model, last update —
    and, without --index, each collection ("collections" in --json)."""
    from drrag_cli.collections import Registry, collection_status
    from drrag_cli.index import layout
    from drrag_cli.index.api import Index

    settings = settings_for(config, index)
    reg = Registry()
    collections = collection_status(reg, settings) if index is None and reg.load() else []
    local = index is not None or not collections or layout.has_index(Path(settings.index.path).expanduser())
    info = Index.open(settings).status() if local else {}
    if collections:
        info["collections"] = collections
    if json_out:
        print_json(info)
        return
    from drrag_cli.cli.render import print_collections, print_status

    if local:
        print_status(info)
    if collections:
        print_collections(collections)
