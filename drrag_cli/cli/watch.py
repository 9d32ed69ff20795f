"""`drrag index PATH --watch`: the watch loop (index/watch.py) rendered one line per build.

Humans get one line per build on stderr; ``--json`` prints one JSON object per line on
stdout (``{"event": "index" | "error", "trigger": "start" | "change" | "retry", ...}``).
Ctrl-C or SIGTERM stops it with exit code 0: a build it interrupts removes its staging
folder and the live generation stays as it was.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from drrag_cli.cli.common import stderr_console, write_out
from drrag_cli.jsonsafe import json_safe

if TYPE_CHECKING:
    from rich.console import Console

    from drrag_cli.cli.progress import RichProgress
    from drrag_cli.config import Settings
    from drrag_cli.index.watch import WatchRun


def run_watch(
    paths: Sequence[str], settings: Settings, *, rebuild: bool, replace: bool, json_out: bool, verbose: bool
) -> None:
    from drrag_cli.index.watch import watch_index

    err = stderr_console()
    bar = _first_build_bar(err, json_out)

    def on_run(run: WatchRun) -> None:
        if bar is not None and run.trigger == "start":
            bar.__exit__(None, None, None)
        if json_out:
            write_out(json.dumps(json_safe(run.to_json()), ensure_ascii=False) + "\n")
            return
        err.print(run_line(run), highlight=False, soft_wrap=True)
        if run.report is not None:
            from drrag_cli.cli.render import warning_lines

            for line in run.report.repaired:
                err.print(f"  repaired: {line}", highlight=False, soft_wrap=True)
            for line in warning_lines(run.report, verbose):
                err.print(line, highlight=False, soft_wrap=True)
        if run.report is not None and verbose:
            for path, why in sorted(run.report.skipped_files.items()):
                err.print(f"  skipped {path}: {why}", highlight=False)
        if run.trigger == "start" and run.report is not None:
            roots = ", ".join(_short(r) for r in run.report.roots)
            err.print(f"watching {roots} for changes (Ctrl-C to stop)", highlight=False, soft_wrap=True)

    stop = threading.Event()

    def interrupt(_signum: int, _frame: object) -> None:
        stop.set()  # holds even where a library swallows the KeyboardInterrupt (inside a build)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)  # a service manager's stop: same as Ctrl-C
    try:
        watch_index(paths, settings, on_run, rebuild=rebuild, replace=replace, progress=bar, stop=stop)
        stopped = stop.is_set()
    except KeyboardInterrupt:
        stopped = True
    finally:
        signal.signal(signal.SIGTERM, previous)
        if bar is not None:
            bar.__exit__(None, None, None)
    if stopped and not json_out:
        err.print("stopped watching", highlight=False)


def _first_build_bar(err: Console, json_out: bool) -> RichProgress | None:
    """The progress bar of `drrag index`, for the first build only (a terminal, no --json)."""
    if json_out or not err.is_terminal:
        return None
    from drrag_cli.cli.progress import RichProgress

    return RichProgress().__enter__()


def run_line(run: WatchRun) -> str:
    """One line: when, why, what changed in files and passages, how long."""
    stamp = time.strftime("%H:%M:%S")
    why = "indexed" if run.trigger == "start" else f"re-indexed after changes to {_names(run.changed)}"
    if run.error is not None:
        what = "" if run.trigger == "start" else f"after changes to {_names(run.changed)}: "
        return f"{stamp} index not updated {what}{run.error}"
    report = run.report
    assert report is not None
    files = report.to_json()["files"]
    delta = "" if run.trigger == "start" else f" ({report.passages_total - run.passages_before:+d})"
    return (
        f"{stamp} {why}: {files['added']} added, {files['updated']} updated, {files['removed']} removed, "
        f"{files['skipped']} skipped; {report.passages_embedded} "
        f"passage{'' if report.passages_embedded == 1 else 's'} embedded, "
        f"{report.passages_total} total{delta} in {report.seconds:.1f}s"
        + ("" if report.published else " (nothing changed)")
    )


def _names(paths: Sequence[str], shown: int = 3) -> str:
    names = [_short(p) for p in paths[:shown]]
    more = f" and {len(paths) - shown} more" if len(paths) > shown else ""
    return ", ".join(names) + more


def _short(path: str) -> str:
    from drrag_cli.cli.render import display_path

    return display_path(path)
