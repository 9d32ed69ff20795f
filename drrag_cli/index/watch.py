"""`drrag index PATH --watch`: keep the index fresh while files change.

The watcher (watchfiles) starts first, then the normal incremental build runs, so a file
saved during that build is not missed. Events are grouped until the tree has been quiet
for ``watch.debounce_ms`` (at most ``watch.max_wait_ms``), so an editor's save (write,
rename, chmod) or a ``git checkout`` of 1,000 files is one re-index, not one per event.
Each re-index is the ordinary incremental build over the index's roots: it embeds only
changed text, skips a failing file the way ``drrag index`` does and publishes a whole new
generation atomically (layout.py), so readers never see half of one. Changes made while
a re-index runs are kept by the watcher and start the next one.

Events the indexer would never read are ignored: the index folder itself, files the
``exclude`` globs or a ``.drragignore`` leave out (hidden files by default) and formats
it does not load. A ``.drragignore`` edit re-indexes, since it changes what is indexed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from drrag_cli.config import Settings
from drrag_cli.errors import DrragError, IndexBusyError
from drrag_cli.index import layout
from drrag_cli.ingest.walk import IGNORE_FILE, TEXT_EXTENSIONS, is_excluded, read_ignore_file

if TYPE_CHECKING:
    from drrag_cli.index.build import BuildProgress, BuildReport

TICK_MS = 500  # how often an idle watcher wakes: retries after a busy lock, checks `stop`


class StopFlag(Protocol):
    def is_set(self) -> bool: ...


@dataclass
class WatchRun:
    """One build of the watch loop: why it ran, what it did, or the one-line error."""

    trigger: str  # "start" (the first build), "change" or "retry" (the lock was busy)
    changed: list[str] = field(default_factory=list)  # paths whose events caused it
    report: BuildReport | None = None
    error: str | None = None
    passages_before: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "event": "error" if self.error else "index",
            "trigger": self.trigger,
            "changed": self.changed,
            "time": round(time.time(), 3),
        }
        if self.error:
            return out | {"error": self.error}
        assert self.report is not None
        delta = self.report.passages_total - self.passages_before if self.trigger != "start" else None
        return out | self.report.to_json() | {"passages_delta": delta}


class ChangeFilter:
    """Which watchfiles events can change the index (see the module docstring)."""

    def __init__(self, roots: Sequence[Path], index_root: Path, exclude: Sequence[str]) -> None:
        self.index_root = index_root
        self.exclude = tuple(exclude)
        self.folders = [r for r in roots if not is_file_root(r)]
        self.files = {r for r in roots if is_file_root(r)}
        self.refresh()

    def refresh(self) -> None:
        """Re-read each root's .drragignore (after an edit of one)."""
        self.patterns = {root: [*self.exclude, *read_ignore_file(root)] for root in self.folders}

    def __call__(self, change: Any, raw: str) -> bool:
        path = Path(raw)
        if path == self.index_root or self.index_root in path.parents:
            return False
        if path in self.files:
            return True
        for root, patterns in self.patterns.items():
            if root not in path.parents:
                continue
            rel = path.relative_to(root).parts
            if path.name == IGNORE_FILE and len(rel) == 1:
                return True
            if not is_excluded(rel, patterns) and _may_be_indexed(path, change):
                return True
        return False


def _may_be_indexed(path: Path, change: Any) -> bool:
    """A loadable format, or a folder (moved in or out, or deleted, with its files)."""
    from watchfiles import Change

    if path.suffix.lower() in TEXT_EXTENSIONS or path.is_dir():
        return True
    return change == Change.deleted and not path.suffix


def watched_paths(roots: Sequence[Path]) -> list[Path]:
    """Folders to watch: each folder root, and the folder of each file root (editors save
    by renaming a new file over the old one, which a watch on the file itself loses)."""
    out: list[Path] = []
    for root in roots:
        folder = root.parent if is_file_root(root) else root
        if folder.is_dir() and folder not in out:
            out.append(folder)
    return out


def is_file_root(root: Path) -> bool:
    """A root that is one file, even while an editor has it deleted mid-save."""
    return root.is_file() or (not root.is_dir() and root.suffix.lower() in TEXT_EXTENSIONS)


def planned_roots(paths: Sequence[str | Path], index_root: Path, *, replace: bool) -> list[Path]:
    """The roots the first build will have, known before it runs: the paths given that
    exist (a missing one makes the build raise), plus the index's roots unless replaced;
    no paths means the index's roots (as `drrag index` with no PATH re-syncs them)."""
    roots = [Path(p).expanduser().resolve() for p in paths if Path(p).expanduser().exists()]
    gen = layout.current_generation(index_root)
    if gen is not None and (not replace or not paths):
        try:
            roots += [Path(r) for r in layout.read_manifest(gen).get("roots", [])]
        except (OSError, ValueError):
            pass
    return sorted(set(roots))


def watch_index(
    paths: Sequence[str | Path],
    settings: Settings,
    on_run: Callable[[WatchRun], None],
    *,
    rebuild: bool = False,
    replace: bool = False,
    progress: BuildProgress | None = None,
    stop: StopFlag | None = None,
    path: str | Path | None = None,
) -> None:
    """Build the index from ``paths`` (as ``drrag index`` does), then re-index on every
    change under its roots until ``stop`` is set or KeyboardInterrupt (which the caller
    catches: a build it interrupts removes its staging folder, CURRENT stays as it was).
    ``on_run`` gets every build, the first one included. An error of the first build is
    raised; later ones are reported through ``on_run`` and the loop goes on."""
    from drrag_cli.index.api import Index

    index_root = Path(path if path is not None else settings.index.path).expanduser().resolve()
    roots = planned_roots(paths, index_root, replace=replace or rebuild)
    events = _events(roots, index_root, settings, stop)
    try:
        pending = next(events, set()) if roots else set()  # the watcher is live before the build
        first = Index.build(paths, settings, rebuild=rebuild, replace=replace, progress=progress, path=path)
        on_run(WatchRun("start", report=first))
        built = sorted(Path(r) for r in first.roots)
        if built != roots:  # planned wrong (or no roots before): watch what was built, catch up
            events.close()
            roots = built
            events = _events(roots, index_root, settings, stop)
            pending = next(events, set()) | {str(r) for r in roots}
        _loop(events, pending, settings, on_run, first.passages_total, path)
    finally:
        events.close()


def _loop(
    events: Iterator[set[str]],
    pending: set[str],
    settings: Settings,
    on_run: Callable[[WatchRun], None],
    total: int,
    path: str | Path | None,
) -> None:
    from drrag_cli.index.api import Index

    busy_said = False
    trigger = "change"
    while True:
        if pending:
            run = WatchRun(trigger, changed=sorted(pending), passages_before=total)
            try:
                run.report = Index.build([], settings, path=path)  # re-sync the roots
            except IndexBusyError as err:  # another `drrag index` is writing: try again
                trigger = "retry"
                if not busy_said:
                    on_run(WatchRun("retry", changed=run.changed, error=f"{err}; retrying"))
                busy_said = True
            except DrragError as err:  # e.g. a root was deleted; the next change retries
                run.error = str(err)
            if run.report is not None or run.error is not None:
                pending, busy_said, trigger = set(), False, "change"
                total = run.report.passages_total if run.report is not None else total
                on_run(run)
        try:
            pending |= next(events)
        except StopIteration:
            return


def _events(
    roots: Sequence[Path], index_root: Path, settings: Settings, stop: StopFlag | None
) -> Generator[set[str], None, None]:
    """Sets of changed paths, grouped by the debounce; an empty set on every idle tick.

    A watch is on a folder's inode: when a root folder is deleted, re-created or appears,
    the watcher starts again on the folders as they are now, and the roots count as
    changed (a re-sync then finds what happened while nothing watched)."""
    import watchfiles

    flt = ChangeFilter(roots, index_root, settings.index.exclude)
    catch_up = False  # the roots changed while nothing watched them: re-sync once the watch is live
    while stop is None or not stop.is_set():
        seen = _identities(roots)
        if not seen:  # every root is gone: look again each tick
            time.sleep(TICK_MS / 1000)
            catch_up = True
            yield set()
            continue
        with closing(
            watchfiles.watch(
                *(folder for folder, _id in seen),
                watch_filter=flt,
                step=settings.watch.debounce_ms,
                debounce=settings.watch.max_wait_ms,
                rust_timeout=TICK_MS,
                yield_on_timeout=True,
                stop_event=stop,
            )
        ) as batches:
            for changes in batches:
                changed = {p for _change, p in changes}
                if any(Path(p).name == IGNORE_FILE for p in changed):
                    flt.refresh()
                if catch_up:
                    changed |= {str(r) for r in roots}
                    catch_up = False
                if _identities(roots) != seen:
                    catch_up = True
                    yield changed
                    break
                yield changed
            else:
                return  # stopped


def _identities(roots: Sequence[Path]) -> list[tuple[Path, tuple[int, int]]]:
    """The folders to watch with their (device, inode): what tells a re-created one."""
    out = []
    for folder in watched_paths(roots):
        try:
            st = folder.stat()
        except OSError:
            continue
        out.append((folder, (st.st_dev, st.st_ino)))
    return out
