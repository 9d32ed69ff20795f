"""On-disk layout of an index folder, and how a new version is published atomically.

    .drrag/
      CURRENT          name of the live generation ("gen-000004"), replaced atomically
      lock             flock'd by the one `drrag index` allowed at a time
      vectors.sqlite   embedding cache keyed by (model, passage content hash): survives
                       crashes, so a killed run never re-embeds what it already did
      gen-000004/      a complete, immutable index: manifest.json, store.sqlite,
                       bm25/ (tantivy), dense.hnsw (hnswlib)
      gen-000005.tmp/  a build in progress (deleted if found stale)

A build writes a whole new generation into a `.tmp` folder, fsyncs it, renames it, then
swaps CURRENT with os.replace. Readers resolve CURRENT once and only ever see complete
generations; SIGKILL at any moment leaves the previous generation live. The previous
generation is kept one round so a search that resolved CURRENT just before the swap
can still open it.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from drrag_cli.errors import IndexBusyError, IndexMissingError

FORMAT_VERSION = 1
CURRENT = "CURRENT"
MANIFEST = "manifest.json"


def current_generation(root: Path) -> Path | None:
    try:
        name = (root / CURRENT).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    gen = root / name
    return gen if gen.is_dir() else None


def require_generation(root: Path) -> Path:
    gen = current_generation(root)
    if gen is None:
        raise IndexMissingError(
            f"no index at {root} (run `drrag index PATH` first, or pass --index DIR)"
        )
    return gen


def read_manifest(gen: Path) -> dict[str, Any]:
    with open(gen / MANIFEST, encoding="utf-8") as fh:
        return json.load(fh)


def next_generation_name(root: Path) -> str:
    numbers = [0]
    for entry in root.glob("gen-*"):
        digits = entry.name[4:].removesuffix(".tmp")
        if digits.isdigit():
            numbers.append(int(digits))
    return f"gen-{max(numbers) + 1:06d}"


def _fsync_tree(path: Path) -> None:
    for dirpath, _dirs, files in os.walk(path):
        for name in files:
            fd = os.open(os.path.join(dirpath, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        _fsync_dir(Path(dirpath))


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def publish(root: Path, staging: Path, manifest: dict[str, Any]) -> Path:
    """Make `staging` the live generation; returns its final path."""
    write_json_atomic(staging / MANIFEST, manifest)
    _fsync_tree(staging)
    final = staging.with_name(staging.name.removesuffix(".tmp"))
    os.replace(staging, final)
    _fsync_dir(root)
    write_text_atomic(root / CURRENT, final.name + "\n")
    prune_generations(root, keep={final.name})
    return final


def prune_generations(root: Path, keep: set[str]) -> None:
    """Remove stale `.tmp` builds and all but the live and the previous generation."""
    gens = sorted(p for p in root.glob("gen-*") if p.is_dir())
    complete = [p for p in gens if not p.name.endswith(".tmp")]
    keep = set(keep) | {p.name for p in complete[-2:]}
    for path in gens:
        if path.name not in keep:
            shutil.rmtree(path, ignore_errors=True)


def write_text_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def write_json_atomic(path: Path, data: Any) -> None:
    write_text_atomic(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


@contextmanager
def writer_lock(root: Path) -> Iterator[None]:
    """One writer at a time; the OS releases the lock when the process dies."""
    root.mkdir(parents=True, exist_ok=True)
    fh = open(root / "lock", "a+")  # noqa: SIM115 - held for the whole build
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError as exc:
        fh.close()
        raise IndexBusyError(
            f"another `drrag index` is updating {root}; wait for it to finish"
        ) from exc
    try:
        yield
    finally:
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
        fh.close()
