"""One BM25 index over every collection: what `search` and `ask` read without --collection.

Searching five collections' tantivy indexes one after the other costs five searches, and a
search costs ~2 µs per query term and field whatever the index's size: five times one
collection's cost for a question of ten words. When every collection is searched together
(the default), one tantivy index over all of their passages answers instead, with the
passages' global ids (:mod:`drrag_cli.index.multi`) as its ``pid`` field. Its BM25 also
counts each term over all collections, so scores compare across them (per collection, a
rare word in a small collection outscored the same word in a large one).

It is a cache of the collections' own generations, never the only copy: its folder is
named by a digest of every member's name, generation and build time, written beside the
registry whenever a collection is added, removed, renamed or re-synced, and built in a
temporary folder that is renamed into place whole. A reader whose digest finds no folder
(a collection re-indexed on its own since) searches the collections one by one, as before.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drrag_cli.index.api import Index
    from drrag_cli.index.bm25 import BM25Index

FOLDER = "union"
STALE_TMP_S = 3600  # a build folder this old belongs to a process that died


def key(members: Sequence[tuple[str, Index]]) -> str | None:
    """Digest of the members' names and generations, in order; None when one of them is
    not a local index (Milvus searches its own side)."""
    parts = []
    for name, ix in members:
        if (ix.manifest.get("backend") or {}).get("name", "local") != "local":
            return None
        parts.append([name, str(ix.gen.resolve()), ix.manifest.get("updated_at")])
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:20]


def open_union(base: Path, members: Sequence[tuple[str, Index]]) -> BM25Index | None:
    """The union index of exactly these members, or None when it is not built (or cannot be
    read: a damaged cache is searched around, and the next refresh builds it again)."""
    digest = key(members)
    return _opened(base / FOLDER / digest) if digest else None


def _opened(folder: Path) -> BM25Index | None:
    from drrag_cli.index.bm25 import BM25Index

    if not (folder / "members.json").is_file():
        return None
    try:
        return BM25Index(folder)
    except (OSError, ValueError):  # tantivy: a file gone or torn
        return None


def refresh_union(base: Path, members: Sequence[tuple[str, Index]]) -> Path | None:
    """Build the union index of ``members`` unless it exists, and drop older ones; returns
    its folder (None for fewer than two members, or a non-local one)."""
    from drrag_cli.index.bm25 import build_bm25

    root = base / FOLDER
    digest = key(members) if len(members) > 1 else None
    _drop_others(root, digest)
    if digest is None:
        return None
    target = root / digest
    if _opened(target) is not None:
        return target
    shutil.rmtree(target, ignore_errors=True)  # damaged: build it again
    n = len(members)
    rows = [
        (pid * n + i, title, text, h)
        for i, (_name, ix) in enumerate(members)
        for pid, title, text, h in ix.store.all_passages()
    ]
    tmp = root / f".tmp-{digest}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    build_bm25(tmp, rows)
    (tmp / "members.json").write_text(json.dumps([name for name, _ix in members]), encoding="utf-8")
    try:
        os.replace(tmp, target)
    except OSError:  # another process put the same union in place first
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def _drop_others(root: Path, keep: str | None) -> None:
    if not root.is_dir():
        return
    now = time.time()
    for folder in root.iterdir():
        if folder.name == keep:
            continue
        if folder.name.startswith(".tmp-") and now - folder.stat().st_mtime < STALE_TMP_S:
            continue  # another process is building
        shutil.rmtree(folder, ignore_errors=True)  # open readers keep their mapped files
