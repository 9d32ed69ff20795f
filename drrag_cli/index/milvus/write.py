"""A build's sync of the Milvus collection with its staged store (see schema.py for the rows).

1. Undo what a killed build left: delete rows of generations never published, revive
   rows it retired, delete rows retired before the live generation (no reader sees them).
2. Diff by content: a store passage is kept when a visible row has its id, document,
   ordinal and content hash; otherwise it is inserted (its vector from the shared
   embedding cache, never embedded again). A visible row the store no longer has is retired.
3. Flush, and count what the new generation will see against the store: a short count
   fails the build before the manifest swap, so readers stay on the old generation.

Inserts and retirements go in batches of :data:`BATCH` rows, one request each.
"""

from __future__ import annotations

import os
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drrag_cli.index import layout
from drrag_cli.index.milvus import schema
from drrag_cli.index.milvus.schema import ALIVE, GEN_SPAN, NONE, clip, gen_number, visible

if TYPE_CHECKING:
    from pymilvus import MilvusClient

    from drrag_cli.config import Settings

BATCH = 1000
PID_WINDOW = 8000  # passage ids per query: each id has at most two rows (live and retired) a generation sees
KEY_FIELDS = ["row", "pid", "document_id", "ordinal", "content_hash"]
CRASH_ENV = "DRRAG_MILVUS_CRASH_AT"  # tests: SIGKILL this process right after the named step


def sync(settings: Settings, root: Path, staging: Path, embedder: Any, rows: list, progress: Any) -> dict[str, Any]:  # noqa: ANN401
    """Make the rows generation ``staging`` will see equal its store; returns the manifest's
    ``backend`` record (no token: that stays in the settings)."""
    from drrag_cli.index.vectors import VectorCache

    gen = gen_number(staging)
    live_gen = layout.current_generation(root)
    live = gen_number(live_gen) if live_gen is not None else 0
    uri, name = schema.resolve_uri(settings, root), schema.collection_name(settings, root)
    client = schema.connect(uri, settings)
    schema.ensure_collection(client, name, embedder.dim)
    client.load_collection(name)
    progress.phase("syncing Milvus", None)
    top = _max_pid(staging / "store.sqlite", live_gen)
    _recover(client, name, live, top)
    stored = {_key(r): r for r in _store_rows(staging / "store.sqlite")}
    present = {_key(r): r["row"] for r in _query_all(client, name, visible(live), KEY_FIELDS, top)} if live else {}
    new = [r for k, r in stored.items() if k not in present]
    gone = [row for k, row in present.items() if k not in stored]
    cache = VectorCache(root / "vectors.sqlite", embedder.model_id, embedder.dim)
    try:
        for start in range(0, len(new), BATCH):
            chunk = new[start : start + BATCH]
            vecs = cache.get_many([r["content_hash"] for r in chunk])
            client.insert(name, [_entity(r, gen, v) for r, v in zip(chunk, vecs, strict=True)])
        _crash_point("inserted")
        _retire(client, name, gone, gen)
        _crash_point("retired")
        client.flush(name)
        cache.prune({r[3] for r in rows})
    finally:
        cache.close()
    _check_count(client, name, gen, len(stored))
    client.close()
    return {
        "name": "milvus", "uri": uri, "collection": name, "schema": schema.SCHEMA, "inserted": len(new),
        "retired": len(gone),
    }


def _recover(client: MilvusClient, name: str, live: int, top: int) -> None:
    client.delete(name, filter=f"gen > {live}")
    client.delete(name, filter=f"dead < {live}")
    stale = list(_query_all(client, name, f"dead > {live} and dead < {ALIVE}", schema.ROW_FIELDS, top))
    for start in range(0, len(stale), BATCH):
        client.upsert(name, [_with_dead(r, ALIVE) for r in stale[start : start + BATCH]])


def _retire(client: MilvusClient, name: str, rows: list[int], gen: int) -> None:
    """Mark ``rows`` dead from ``gen`` on: readers of older generations still see them."""
    for start in range(0, len(rows), BATCH):
        chunk = rows[start : start + BATCH]
        found = client.query(name, filter=f"row in {chunk}", output_fields=schema.ROW_FIELDS)
        client.upsert(name, [_with_dead(r, gen) for r in found])


def _with_dead(row: dict[str, Any], dead: int) -> dict[str, Any]:
    return {**{k: row[k] for k in schema.ROW_FIELDS}, "dead": dead}  # BM25's sparse vector is recomputed


def _check_count(client: MilvusClient, name: str, gen: int, expected: int) -> None:
    found = client.query(name, filter=visible(gen), output_fields=["count(*)"])[0]["count(*)"]
    if found != expected:
        raise RuntimeError(
            f"Milvus collection {name} shows {found} passages to the new generation, its store has "
            f"{expected}; the previous index is still live, re-run `drrag index`"
        )


def _key(r: dict[str, Any]) -> tuple:
    return (int(r["pid"]), int(r["document_id"]), int(r["ordinal"]), str(r["content_hash"]))


def _store_rows(path: Path) -> Iterator[dict[str, Any]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        yield from map(
            dict,
            conn.execute(
                "SELECT p.id AS pid, p.document_id, p.ordinal, d.source, p.title, p.text, p.char_start, p.char_end, "
                "p.line_start, p.line_end, p.page, p.content_hash FROM passages p JOIN documents d "
                "ON d.id = p.document_id ORDER BY p.id"
            ),
        )
    finally:
        conn.close()


def _entity(r: dict[str, Any], gen: int, vec: Any) -> dict[str, Any]:  # noqa: ANN401
    return {
        "row": r["pid"] * GEN_SPAN + gen,
        "pid": r["pid"],
        "gen": gen,
        "dead": ALIVE,
        "document_id": r["document_id"],
        "ordinal": r["ordinal"],
        "source": clip(r["source"]),
        "title": clip(r["title"]),
        "text": clip(r["text"]),
        "title_terms": clip(schema.terms(r["title"])),
        "text_terms": clip(schema.terms(r["text"])),
        "content_hash": r["content_hash"],
        "vector": vec.tolist(),
        **{
            k: NONE if r[k] is None else int(r[k]) for k in ("char_start", "char_end", "line_start", "line_end", "page")
        },
    }


def _query_all(client: MilvusClient, name: str, where: str, fields: list[str], top: int) -> Iterator[dict[str, Any]]:
    """Every row matching ``where`` with a passage id up to ``top``, one window of ids per
    request (a query returns at most 16,384 rows; query_iterator needs an RPC Lite lacks)."""
    for lo in range(0, top + 1, PID_WINDOW):
        yield from client.query(
            name,
            filter=f"{where} and pid >= {lo} and pid < {lo + PID_WINDOW}",
            output_fields=fields,
            limit=PID_WINDOW * 2,
        )


def _max_pid(*stores: Path | None) -> int:
    """The largest passage id in these stores (the staged one and the live generation's)."""
    top = 0
    for store in stores:
        path = store if store is None or store.suffix == ".sqlite" else store / "store.sqlite"
        if path is not None and path.is_file():
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                top = max(top, conn.execute("SELECT COALESCE(MAX(id), 0) FROM passages").fetchone()[0])
            finally:
                conn.close()
    return top


def _crash_point(step: str) -> None:
    if os.environ.get(CRASH_ENV) == step:
        os.kill(os.getpid(), signal.SIGKILL)
