"""On-disk layout of an index folder, and how a new version is published atomically.

    .drrag/
      CURRENT          name of the live generation ("gen-000004"), replaced atomically
      lock             flock'd by the one `drrag index` allowed at a time
      vectors.sqlite   embedding cache keyed by (model, passage content hash): survives
                       crashes, so a killed run never re-embeds what it already did
      vectors.checked  the cache's size and time as the last run left it (index/health.py)
      gen-000004/      a complete, immutable index: manifest.json, store.sqlite,
                       bm25/ (tantivy; segment files hard-linked from the generation
                       before when a run applied its change, index/delta.py), dense.hnsw
                       (hnswlib) and dense.deleted.npy (its deleted elements, if any); in a
                       large index, dense.hnsw shared too, with dense.dropped.npy (its passages
                       removed since) and dense.recent.hnsw (those added since; index/dense.py)
      gen-000005.tmp/  a build in progress (deleted if found stale)
      damaged-1/       parts a repair set aside (index/health.py); never pruned, the user's to delete

A build writes a whole new generation into a `.tmp` folder, fsyncs it, renames it, then
swaps CURRENT with os.replace. Readers resolve CURRENT once and only ever see complete
generations; SIGKILL at any moment leaves the previous generation live. The previous
generation is kept one round so a search that resolved CURRENT just before the swap
can still open it.

A build that fails removes its staging folder itself; what a killed one leaves behind
(a `.tmp` folder, a renamed generation CURRENT never pointed to, a half-written
`.CURRENT.<pid>.tmp`) is removed by the next writer, under the lock. A full disk, from
whichever part hit it (SQLite, tantivy, hnswlib, a plain write), is one user error.
A CURRENT that does not name a generation is a damaged index, said with its repair:
readers get the error, writers rebuild (:mod:`drrag_cli.index.health`).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import shlex
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from drrag_cli.errors import DiskFullError, DrragError, IndexBusyError, IndexDamagedError, IndexMissingError, InputError

FORMAT_VERSION = 1
CURRENT = "CURRENT"
MANIFEST = "manifest.json"
GENERATION = re.compile(r"gen-\d{6,}")  # next_generation_name's, which grows past a million


def current_generation(root: Path) -> Path | None:
    """The live generation, or None when there is none or CURRENT is unreadable: what
    writers and "is there an index here" checks need. Readers use :func:`require_generation`,
    which says which of those it is."""
    try:
        return require_generation(root)
    except DrragError:
        return None


def has_index(root: Path) -> bool:
    """Whether an index was published at ``root``, whole or damaged: where a damaged one
    stands, the user should hear about it rather than be sent to another index."""
    return (root / CURRENT).is_file()


def require_generation(root: Path) -> Path:
    """The generation CURRENT names; one clear error when there is no index at ``root``
    (nothing built yet, or ``root`` is a file) or CURRENT does not name a generation."""
    _require_folder(root)
    try:
        raw = (root / CURRENT).read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        raise IndexMissingError(
            f"no index at {root} (run `drrag index PATH` first, or pass --index DIR)"
        ) from None
    except OSError as exc:
        raise damaged(root, f"{CURRENT} cannot be read ({exc.strerror or exc})") from exc
    name = raw.decode("utf-8", "replace").strip()
    if not GENERATION.fullmatch(name):
        shown = repr(name) if name.isprintable() and len(name) <= 40 else f"{len(raw)} bytes"
        shown = shown if name else "nothing"
        raise damaged(root, f"{CURRENT} holds {shown}, not the name of a generation")
    gen = root / name
    if not gen.is_dir():
        raise damaged(root, f"{CURRENT} names {name}, which is not there")
    return gen


def _require_folder(root: Path) -> None:
    if root.exists() and not root.is_dir():
        raise InputError(f"{root} is a file, not an index folder: give --index a folder (e.g. .drrag)")


def read_manifest(gen: Path) -> dict[str, Any]:
    with open(gen / MANIFEST, encoding="utf-8") as fh:
        return json.load(fh)


def backend_of(manifest: dict[str, Any] | None) -> str:
    """The backend a generation was written for (generations before the seam are local)."""
    return str(((manifest or {}).get("backend") or {}).get("name", "local"))


def damaged(root: Path, what: str) -> IndexDamagedError:
    """The error for a damaged part of the index at ``root``: what is wrong, and the command
    that repairs it (with the folders the index covers, when a manifest still says)."""
    return IndexDamagedError(f"the index at {root} is damaged: {what}; {rebuild_hint(root)}", what)


def rebuild_hint(root: Path) -> str:
    roots = known_roots(root)
    paths = " ".join(shlex.quote(r) for r in roots) if roots else "PATH..."
    return f"run `drrag index {paths} --index {shlex.quote(str(root))} --rebuild` to set it aside and rebuild"


def known_roots(root: Path) -> list[str]:
    """The roots in the newest readable manifest of any complete generation (the live one
    may be the damaged part; the one before it is kept a round)."""
    for gen in sorted(root.glob("gen-*"), reverse=True):
        if not GENERATION.fullmatch(gen.name):
            continue
        try:
            roots = read_manifest(gen).get("roots")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(roots, list) and roots and all(isinstance(r, str) for r in roots):
            return roots
    return []


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
        fsync_dir(Path(dirpath))


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def staging_generation(root: Path) -> Iterator[Path]:
    """A new `.tmp` generation folder, removed if anything at all goes wrong before
    :func:`publish` has made it live."""
    staging = root / (next_generation_name(root) + ".tmp")
    staging.mkdir(parents=True)
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def publish(root: Path, staging: Path, manifest: dict[str, Any]) -> Path:
    """Make `staging` the live generation; returns its final path."""
    write_json_atomic(staging / MANIFEST, manifest)
    _fsync_tree(staging)
    final = staging.with_name(staging.name.removesuffix(".tmp"))
    os.replace(staging, final)
    try:
        fsync_dir(root)
        write_text_atomic(root / CURRENT, final.name + "\n")
    except BaseException:
        live = current_generation(root)
        if live is None or live.name != final.name:  # CURRENT was not swapped: never live
            shutil.rmtree(final, ignore_errors=True)
        raise
    prune_generations(root)
    return final


def prune_generations(root: Path) -> None:
    """Keep the live generation and the one before it (a search may have resolved CURRENT
    just before the swap); remove the rest: stale `.tmp` builds, generations a killed run
    renamed but never made live, half-written `.CURRENT.<pid>.tmp` files. Writers only.
    Without a readable CURRENT, complete generations are left alone (they may be all the
    user has); the next publish prunes them."""
    live = current_generation(root)
    complete = sorted(p.name for p in root.glob("gen-*") if p.is_dir() and not p.name.endswith(".tmp"))
    if live is None:
        keep = set(complete)
    else:
        older = [name for name in complete if name < live.name]
        keep = {live.name, *older[-1:]}
    for path in root.glob("gen-*"):
        if path.name in keep:
            continue
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    for path in root.glob(".*.tmp"):
        path.unlink(missing_ok=True)


def write_text_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def write_json_atomic(path: Path, data: Any) -> None:
    write_text_atomic(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


@contextmanager
def writer_lock(root: Path) -> Iterator[None]:
    """One writer at a time; the OS releases the lock when the process dies."""
    _require_folder(root)
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


# -- a full disk, whichever part hits it ---------------------------------------------
_NO_SPACE = (errno.ENOSPC, errno.EDQUOT)
_RUST_NO_SPACE = re.compile(rf"\(os error (?:{errno.ENOSPC}|{errno.EDQUOT})\)")  # tantivy's io::Error text


def is_disk_full(exc: BaseException | None) -> bool:
    """Whether `exc` (or an exception it was raised from) means "no space left": an
    OSError with ENOSPC/EDQUOT, SQLite's SQLITE_FULL, or tantivy's wrapped io::Error."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in _NO_SPACE:
            return True
        if isinstance(exc, sqlite3.Error) and (getattr(exc, "sqlite_errorcode", 0) & 0xFF) == sqlite3.SQLITE_FULL:
            return True
        if isinstance(exc, ValueError) and _RUST_NO_SPACE.search(str(exc)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def free_bytes(path: Path) -> int:
    """Free space on the disk holding `path` (or its nearest existing parent)."""
    for candidate in (path, *path.parents):
        try:
            return shutil.disk_usage(candidate).free
        except OSError:
            continue
    return 0


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{n / 1e3:.0f} KB"


@contextmanager
def disk_full_is_user_error(root: Path, estimate: Callable[[], tuple[int, str]]) -> Iterator[None]:
    """Turn "no space left" from anywhere inside into one :class:`DiskFullError` naming
    the folder and the space needed; `estimate()` returns (bytes, how it was estimated)."""
    try:
        yield
    except Exception as exc:
        if not is_disk_full(exc):
            raise
        need, basis = estimate()
        kept = "the previous index is still live" if current_generation(root) else "nothing was written"
        raise DiskFullError(
            f"the disk holding {root} is full: this build needs about {_mb(need)} free "
            f"(an estimate from {basis}), {_mb(free_bytes(root))} are free; {kept}. "
            "Free some space, or build the index elsewhere with --index DIR"
        ) from exc
