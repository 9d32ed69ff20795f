"""What `drrag index` does about a damaged index folder (found by :mod:`.health`).

A damaged live generation is rebuilt from the sources, with or without ``--rebuild``,
over the roots of the newest manifest still readable. The new generation is published
first and the damaged one set aside after, so a kill at any moment leaves either the
damaged state (which the next run repairs) or the repaired one. A damaged embedding cache
is set aside before the build uses it, and refilled from the live HNSW when that is whole.

Nothing damaged is deleted: :class:`SetAside` moves it into ``damaged-<n>/`` inside the
index folder, which pruning never touches. Each repair is one line the build reports.
"""

from __future__ import annotations

import os
from pathlib import Path

from drrag_cli.errors import IndexDamagedError
from drrag_cli.index import health, layout


class SetAside:
    """Moves the damaged parts a run finds into one new ``damaged-<n>/`` folder of the
    index (made on the first move), never deleting them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder: Path | None = None

    def move(self, *paths: Path) -> Path:
        folder = self._folder()
        for path in paths:
            if path.exists():
                os.replace(path, folder / path.name)
        layout.fsync_dir(self.root)
        return folder

    def keep_copy(self, path: Path) -> Path:
        """A copy of ``path`` (a small file about to be replaced atomically, e.g. CURRENT)."""
        folder = self._folder()
        if path.is_file():
            (folder / path.name).write_bytes(path.read_bytes())
        return folder

    def _folder(self) -> Path:
        if self.folder is None:
            taken = [int(p.name[8:]) for p in self.root.glob("damaged-*") if p.name[8:].isdigit()]
            self.folder = self.root / f"damaged-{max(taken, default=0) + 1}"
            self.folder.mkdir()
        return self.folder


def old_roots(root: Path, live: health.Live) -> list[str]:
    """The roots the live manifest lists; when it is the damaged part, those of the newest
    manifest still readable (the generation before is kept a round)."""
    if live.manifest is not None:
        return list(live.manifest.get("roots", []))
    return layout.known_roots(root) if live.damage is not None else []


def nothing_to_index(root: Path, live: health.Live) -> str:
    """The error when no PATH was given and no manifest names the roots."""
    if live.damage is None:
        return "nothing to index: give one or more PATHs (files or folders)"
    return (
        f"the index at {root} is damaged ({live.damage.what}) and no manifest says which folders it covered: "
        f"give them, `drrag index PATH... --index {root} --rebuild`"
    )


def reuse_cache(root: Path, live: health.Live, model_id: str, dim: int, aside: SetAside) -> list[str]:
    """Reuse the embedding cache only when SQLite vouches for it. A damaged one is set
    aside; the vectors of a whole live generation go into the new one, the rest are
    computed again. Returns the repair's line, if there was one."""
    try:
        health.check_cache(root, writer=True)
    except IndexDamagedError as err:
        folder = aside.move(*health.cache_files(root))
        kept = refill_cache(root, live, model_id, dim)
        again = "its vectors computed again"
        if kept:
            again = f"{kept} vectors taken back from the live {health.DENSE}"
        return [f"{err.what}: set aside in {folder}; {again}"]
    return []


def before_swap(root: Path, live: health.Live, aside: SetAside) -> None:
    """A damaged CURRENT is replaced by the swap: keep a copy of it first."""
    if live.damage is not None and live.gen is None:
        aside.keep_copy(root / layout.CURRENT)


def after_swap(live: health.Live, aside: SetAside) -> list[str]:
    """The damaged generation (now the previous one) goes aside whole; the repair's line."""
    if live.damage is None:
        return []
    if live.gen is not None and live.gen.is_dir():
        folder = aside.move(live.gen)
    else:
        folder = aside.folder or aside.move()
    return [f"{live.damage.what}: set aside in {folder}, the index rebuilt from the sources"]


def refill_cache(root: Path, live: health.Live, model_id: str, dim: int) -> int:
    """After a damaged cache was set aside: the vectors of a whole live generation built by
    the same model, put back into a new cache from its dense.hnsw (what the cache held for
    them, renormalised by hnswlib: within 1e-7), so a repair embeds only what is new.
    Returns how many; 0 when there is no such generation."""
    from drrag_cli.index.vectors import VectorCache

    emb = (live.manifest or {}).get("embedding", {})
    usable = live.gen is not None and live.damage is None and (emb.get("model_id"), emb.get("dim")) == (model_id, dim)
    if not usable or not health.is_local(live.manifest):
        return 0
    assert live.gen is not None and live.manifest is not None
    store = health.open_store(live.gen)
    try:
        rows = store.conn.execute("SELECT id, content_hash FROM passages ORDER BY id").fetchall()
    finally:
        store.close()
    dense = health.open_dense(live.gen, dim, len(rows))
    cache = VectorCache(root / health.CACHE, model_id, dim)
    try:
        for start in range(0, len(rows), 2000):
            chunk = rows[start : start + 2000]
            cache.put([h for _id, h in chunk], dense.vectors([pid for pid, _h in chunk]))
    finally:
        cache.close()
    return len({h for _id, h in rows})
