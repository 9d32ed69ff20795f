"""Named collections: several knowledge bases (notes, papers, work documents) side by side.

    from drrag_cli.collections import Registry
    reg = Registry()                       # $XDG_DATA_HOME/drrag/collections.json
    reg.add("notes", ["~/notes"], exclude=["drafts/*"], settings=settings)
    index = reg.open(["notes", "papers"], settings)   # their indexes, fused (MultiIndex)
    Pipeline(settings, index=index).ask("...")         # citations name the collection

Each collection is a normal drrag index (generations, CURRENT) in its own folder,
``$XDG_DATA_HOME/drrag/collections/<dir>/``, built and opened by :class:`Index` unchanged.
The registry is one JSON file, rewritten whole (tmp + fsync + os.replace) under a lock, so
readers see the old or the new registry, never half. Order of writes keeps the promise
"a registry entry always has its folder": add builds the folder before the entry is
written, remove drops the entry before the folder, rename moves the folder after the entry
names it and a reader finds it under either name.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drrag_cli.config import Settings
from drrag_cli.errors import IndexBusyError, IndexMissingError, InputError
from drrag_cli.index import layout

if TYPE_CHECKING:
    from drrag_cli.index.api import Index
    from drrag_cli.index.build import BuildProgress, BuildReport
    from drrag_cli.index.multi import MultiIndex

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
REGISTRY = "collections.json"


def user_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "drrag"


def check_name(name: str) -> str:
    if not NAME_RE.match(name):
        raise InputError(
            f"collection name {name!r} is not a short slug: use letters, digits, '-' and '_' "
            "(at most 64, starting with a letter or digit), e.g. `drrag collection add notes ~/notes`"
        )
    return name


@dataclass
class Collection:
    name: str
    paths: list[str]
    exclude: list[str] = field(default_factory=list)
    dir: str = ""  # folder name under collections/ (the name, unless a rename was cut short)
    created_at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"paths": self.paths, "exclude": self.exclude, "dir": self.dir, "created_at": self.created_at}


class Registry:
    """The collections of one user; ``base`` defaults to :func:`user_data_dir`."""

    def __init__(self, base: str | Path | None = None) -> None:
        self.base = Path(base) if base is not None else user_data_dir()
        self.file = self.base / REGISTRY

    # -- reading -------------------------------------------------------------------------
    def load(self) -> dict[str, Collection]:
        try:
            raw = json.loads(self.file.read_text(encoding="utf-8"))
            items = raw["collections"].items()
            return {name: Collection(name=name, **entry) for name, entry in items}
        except FileNotFoundError:
            return {}
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise InputError(
                f"collection registry {self.file} is unreadable ({exc}); fix or delete it, then "
                "`drrag collection add` again"
            ) from exc

    def get(self, name: str) -> Collection:
        found = self.load()
        if name not in found:
            known = ", ".join(sorted(found)) or "none yet"
            raise InputError(
                f"no collection named {name!r} (known: {known}); see `drrag collection list`, "
                "or create it with `drrag collection add NAME PATH`"
            )
        return found[name]

    def folder(self, coll: Collection) -> Path:
        """The collection's index folder; after a rename cut short, the one that exists."""
        parent = self.base / "collections"
        for name in (coll.dir or coll.name, coll.name):
            if (parent / name).is_dir():
                return parent / name
        return parent / (coll.dir or coll.name)

    def settings(self, coll: Collection, settings: Settings) -> Settings:
        """``settings`` pointed at the collection's index, with its --exclude globs added."""
        exclude = [*settings.index.exclude, *coll.exclude]
        return settings.replace({"index.path": str(self.folder(coll)), "index.exclude": exclude})

    # -- writing -------------------------------------------------------------------------
    def _save(self, found: dict[str, Collection]) -> None:
        data = {"version": 1, "collections": {n: c.to_json() for n, c in sorted(found.items())}}
        layout.write_json_atomic(self.file, data)

    @contextmanager
    def _locked(self) -> Iterator[dict[str, Collection]]:
        self.base.mkdir(parents=True, exist_ok=True)
        with open(self.base / "collections.lock", "a+") as fh:
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError as exc:
                raise IndexBusyError(
                    f"another drrag command is changing the collections in {self.base}; wait for it to finish"
                ) from exc
            yield self.load()

    def add(
        self, name: str, paths: Sequence[str], settings: Settings, *, exclude: Sequence[str] = (),
        progress: BuildProgress | None = None,
    ) -> BuildReport:
        """Register ``name`` over ``paths`` and build its index (the folder first, then
        the entry: a failed build leaves no entry)."""
        from drrag_cli.index.api import Index

        check_name(name)
        if not paths:
            raise InputError(f"collection {name}: give one or more PATHs (files or folders) to index")
        with self._locked() as found:
            if name in found:
                raise InputError(
                    f"collection {name!r} exists (over {', '.join(found[name].paths)}); "
                    f"pick another name, or `drrag collection remove {name}` first"
                )
            coll = Collection(name, [str(Path(p).expanduser().resolve()) for p in paths], list(exclude), name)
            coll.created_at = time.time()
            folder = self.folder(coll)
            if folder.exists():  # left by a crash between a build and its entry
                shutil.rmtree(folder)
            try:
                report = Index.build(coll.paths, self.settings(coll, settings), progress=progress, path=folder)
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            found[name] = coll
            self._save(found)
            self.refresh_union(settings)
        return report

    def remove(self, name: str, settings: Settings | None = None) -> Collection:
        """Drop the entry, then the folder (a crash in between leaves only an orphan folder)."""
        with self._locked() as found:
            coll = found[self.get(name).name]
            folder = self.folder(coll)
            with layout.writer_lock(folder):  # not while a `drrag index` is writing it
                del found[name]
                self._save(found)
            shutil.rmtree(folder, ignore_errors=True)
            self.refresh_union(settings or Settings())
        return coll

    def rename(self, old: str, new: str, settings: Settings | None = None) -> Collection:
        """The entry is renamed first (still naming the old folder), then the folder, then
        the entry's folder name; :meth:`folder` finds the index at every step."""
        check_name(new)
        with self._locked() as found:
            coll = found[self.get(old).name]
            if new in found:
                raise InputError(f"collection {new!r} exists; remove it first or pick another name")
            source = self.folder(coll)
            target = source.parent / new
            if target.exists():  # an orphan folder from an earlier crash
                shutil.rmtree(target)
            coll.name, coll.dir = new, source.name
            found[new] = found.pop(old)
            self._save(found)
            with layout.writer_lock(source):  # no `drrag index` is writing it while it moves
                os.replace(source, target)
            coll.dir = new
            self._save(found)
            self.refresh_union(settings or Settings())
        return coll

    # -- indexing and opening ------------------------------------------------------------
    def sync(self, coll: Collection, settings: Settings, progress: BuildProgress | None = None) -> BuildReport:
        """Re-sync one collection's roots (an incremental build)."""
        from drrag_cli.index.api import Index

        return Index.build(coll.paths, self.settings(coll, settings), progress=progress, path=self.folder(coll))

    def open(self, names: Sequence[str], settings: Settings) -> MultiIndex:
        """The collections ``names`` (all when empty) as one index whose passages name
        their collection; several are fused by RRF (:mod:`drrag_cli.index.multi`) and must
        share the embedding model."""
        from drrag_cli.index.multi import MultiIndex
        from drrag_cli.index.union import open_union

        found = self.load()
        chosen = [self.get(n) for n in dict.fromkeys(names)] if names else list(found.values())
        if not chosen:
            raise IndexMissingError("no collections yet; create one with `drrag collection add NAME PATH`")
        members = self._opened(chosen, settings)
        every = len(members) > 1 and [c.name for c in chosen] == list(found)
        return MultiIndex(members, union=open_union(self.base, members) if every else None)

    def refresh_union(self, settings: Settings) -> None:
        """(Re)build the one BM25 index over every collection (:mod:`drrag_cli.index.union`)
        after a change; a collection that cannot be opened leaves none (search then reads
        the collections one by one)."""
        from drrag_cli.errors import DrragError
        from drrag_cli.index.union import refresh_union

        try:
            members = self._opened(self.load().values(), settings)
        except DrragError:
            members = []
        refresh_union(self.base, members)

    def _opened(self, colls: Iterable[Collection], settings: Settings) -> list[tuple[str, Index]]:
        """Each collection's live index, by name."""
        from drrag_cli.index.api import Index

        return [(c.name, Index.open(self.settings(c, settings), path=self.folder(c))) for c in colls]


def target_index(settings: Settings, names: Sequence[str], explicit_index: bool) -> MultiIndex | None:
    """What `search` / `ask` read; None means the ordinary index at ``index.path``.

    ``--collection`` names → those collections. Neither them nor ``--index`` → the local
    index when one is built at ``index.path``, else every collection (when there are any).
    """
    if names:
        if explicit_index:
            raise InputError("give --index DIR or --collection NAME, not both")
        return Registry().open(names, settings)
    if explicit_index or layout.has_index(Path(settings.index.path).expanduser()):
        return None
    reg = Registry()
    return reg.open([], settings) if reg.load() else None


def collection_status(reg: Registry, settings: Settings) -> list[dict[str, Any]]:
    """What `status --json` says of each collection; a collection whose index cannot be
    opened says why instead of failing the whole status."""
    from drrag_cli.errors import DrragError
    from drrag_cli.index.api import Index

    out = []
    for coll in reg.load().values():
        entry: dict[str, Any] = {"name": coll.name, "paths": coll.paths, "exclude": coll.exclude}
        try:
            info = Index.open(reg.settings(coll, settings), path=reg.folder(coll)).status()
        except DrragError as err:
            entry["error"] = str(err)
        else:
            entry.update(
                index=info["index"], files=info["files"], passages=info["passages"],
                embedding_model=info["embedding_model"], last_sync=info["updated_at"],
                size_bytes=info["size_bytes"],
            )  # fmt: skip
        out.append(entry)
    return out
