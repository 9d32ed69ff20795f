"""Whether an index folder is whole and readable with the settings at hand.

A published generation never changes, so its files only break from outside: a disk error,
a copy cut short, a hand edit. Each part is opened here the way a reader opens it, and any
failure, or a count that disagrees with the manifest, becomes one
:class:`~drrag_cli.errors.IndexDamagedError` naming the file and the command that repairs
it (``drrag index ... --rebuild``); a manifest written for other settings (another
embedding model, chunk size or format) is an :class:`~drrag_cli.errors.IndexMismatchError`.

* readers (:class:`~drrag_cli.index.api.Index`) open the store, BM25 and HNSW through
  :func:`open_store`, :func:`open_bm25` and :func:`open_dense`;
* `drrag index` looks at the live generation with :func:`inspect_live` before trusting it,
  and at the embedding cache with :func:`check_cache` (SQLite's quick_check) before reusing
  it; what it then does about damage is :mod:`drrag_cli.index.repair`;
* `drrag doctor` runs every check, one line per part.
"""

from __future__ import annotations

import json
import sqlite3
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drrag_cli.errors import IndexDamagedError, IndexMismatchError, IndexMissingError
from drrag_cli.index import layout

if TYPE_CHECKING:
    from drrag_cli.config import Settings
    from drrag_cli.index.bm25 import BM25Index
    from drrag_cli.index.dense import DenseIndex
    from drrag_cli.index.store import PassageStore

STORE, BM25, DENSE, CACHE = "store.sqlite", "bm25", "dense.hnsw", "vectors.sqlite"
CACHE_STAMP = "vectors.checked"  # the cache's size and time as the last run that checked or wrote it left them
_SQLITE_MAGIC = b"SQLite format 3\x00"


# -- the live generation ----------------------------------------------------------------
def read_live(root: Path) -> tuple[Path, dict[str, Any]]:
    """The live generation and its manifest; IndexMissingError when there is no index,
    IndexDamagedError when CURRENT or the manifest cannot be read."""
    gen = layout.require_generation(root)
    return gen, read_manifest(gen)


def require_files(gen: Path, manifest: dict[str, Any]) -> None:
    """Every file of the generation is there: a search that would not open the missing one
    (BM25 only, with dense.hnsw gone) still says the index is damaged. A stat each."""
    for part, path in ((STORE, STORE), (BM25, f"{BM25}/meta.json"), (DENSE, DENSE))[: 3 if is_local(manifest) else 1]:
        if not (gen / path).is_file():
            raise layout.damaged(gen.parent, f"{gen.name}/{part} is missing")


def read_manifest(gen: Path) -> dict[str, Any]:
    """The generation's manifest, with the fields readers rely on checked. A manifest of
    another format version is returned as it is: check_compatible names the version."""
    where = f"{gen.name}/{layout.MANIFEST}"
    try:
        manifest = layout.read_manifest(gen)
    except FileNotFoundError:
        raise layout.damaged(gen.parent, f"{where} is missing") from None
    except (OSError, ValueError) as exc:  # ValueError: JSON or UTF-8
        raise layout.damaged(gen.parent, f"{where} cannot be read ({_why(exc)})") from exc
    problem = _manifest_problem(manifest)
    if problem:
        raise layout.damaged(gen.parent, f"{where} {problem}")
    return manifest


def check_compatible(manifest: dict[str, Any], settings: Settings, root: Path, *, writing: bool = True) -> None:
    """Refuse to mix embeddings or chunkings: one clear error suggesting --rebuild.

    Readers only need the same embedding model (queries must live in the passages'
    vector space); a different chunk size matters only when adding passages.
    """
    emb = manifest.get("embedding", {})
    chunk = manifest.get("chunking", {})
    if manifest.get("format_version") != layout.FORMAT_VERSION:
        raise IndexMismatchError(
            f"index at {root} has format {manifest.get('format_version')}, this drrag reads "
            f"{layout.FORMAT_VERSION}; rebuild it with `drrag index --rebuild PATH...`"
        )
    if emb.get("model") != settings.embedding.model:
        raise IndexMismatchError(
            f"index at {root} was built with embedding model {emb.get('model')!r} "
            f"(dim {emb.get('dim')}), settings ask for {settings.embedding.model!r}; "
            "re-run `drrag index --rebuild PATH...` or set embedding.model back"
        )
    if writing and chunk.get("chunk_words") != settings.index.chunk_words:
        raise IndexMismatchError(
            f"index at {root} was chunked with chunk_words={chunk.get('chunk_words')}, settings "
            f"say {settings.index.chunk_words}; re-run `drrag index --rebuild PATH...`"
        )


def _manifest_problem(manifest: Any) -> str | None:  # noqa: ANN401 - whatever the JSON held
    if not isinstance(manifest, dict):
        return f"holds a JSON {type(manifest).__name__}, not an object"
    if manifest.get("format_version") != layout.FORMAT_VERSION:
        return None
    emb, counts = manifest.get("embedding"), manifest.get("counts")
    if not isinstance(emb, dict) or not isinstance(emb.get("model"), str) or not _count(emb.get("dim")):
        return "has no usable 'embedding' (model, dim)"
    if not isinstance(counts, dict) or not all(_count(counts.get(k), 0) for k in ("files", "documents", "passages")):
        return "has no usable 'counts'"
    if not isinstance(manifest.get("chunking"), dict) or not isinstance(manifest.get("roots", []), list):
        return "has no usable 'chunking' or 'roots'"
    return None


def _count(value: Any, least: int = 1) -> bool:  # noqa: ANN401
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


@dataclass
class Live:
    """The live generation as a writer finds it. ``damage`` says what is unreadable; then
    ``gen`` and ``manifest`` are whatever could still be read (None otherwise)."""

    gen: Path | None = None
    manifest: dict[str, Any] | None = None
    damage: IndexDamagedError | None = None


def inspect_live(root: Path) -> Live:
    """CURRENT, the manifest and every part of the live generation, opened and counted
    (the store with quick_check too: a writer copies it into the next generation)."""
    try:
        gen = layout.require_generation(root)
    except IndexMissingError:
        return Live()
    except IndexDamagedError as err:
        return Live(damage=err)
    try:
        manifest = read_manifest(gen)
    except IndexDamagedError as err:
        return Live(gen, damage=err)
    if manifest.get("format_version") != layout.FORMAT_VERSION:
        return Live(gen, manifest)  # another format: the build refuses or rebuilds it whole
    try:
        check_parts(gen, manifest, thorough=True)
    except IndexDamagedError as err:
        return Live(gen, manifest, err)
    return Live(gen, manifest)


def check_parts(gen: Path, manifest: dict[str, Any], *, thorough: bool = False) -> None:
    """Each part opened as a reader opens it, its count compared with the manifest's
    (raises at the first damaged one). ``thorough`` (a writer's look before it builds on the
    generation): the store's quick_check too, unless the store is as published; an HNSW
    as published (its size and time compared) is not loaded: 180 MB at 100k passages."""
    check_store(gen, manifest, thorough=thorough)
    if is_local(manifest):
        check_bm25(gen, manifest)
        if not (thorough and dense_as_published(gen, manifest)):
            check_dense(gen, manifest)


def is_local(manifest: dict[str, Any] | None) -> bool:
    """Whether the generation's BM25 and HNSW are files of its own (not Milvus)."""
    return layout.backend_of(manifest) == "local"


def check_store(gen: Path, manifest: dict[str, Any], *, thorough: bool = False) -> str:
    """The store opened and counted; ``thorough``: SQLite's quick_check too, unless the file
    is as published (:func:`as_published`; a whole check of a 100k-passage store took a
    second of every run)."""
    store = open_store(gen, manifest["counts"]["passages"])
    try:
        with _reading(gen, STORE):
            if thorough and not as_published(gen, manifest, STORE):
                _quick_check(store.conn)
            counts = store.counts()
    finally:
        store.close()
    passages, documents, files = counts["passages"], counts["documents"], counts["files"]
    return f"{gen.name}/{STORE}: {passages} passages, {documents} documents, {files} files"


def check_bm25(gen: Path, manifest: dict[str, Any]) -> str:
    index = open_bm25(gen, manifest["counts"]["passages"])
    return f"{gen.name}/{BM25}/: {index.num_docs} passages"


def check_dense(gen: Path, manifest: dict[str, Any]) -> str:
    index = open_dense(gen, manifest["embedding"]["dim"], manifest["counts"]["passages"])
    return f"{gen.name}/{DENSE}: {index.count} vectors of dim {manifest['embedding']['dim']}"


# -- the parts, opened as readers open them ---------------------------------------------------
@contextmanager
def _reading(gen: Path, part: str) -> Iterator[None]:
    """Any failure to read ``part`` of ``gen`` as one IndexDamagedError naming it."""
    try:
        yield
    except IndexDamagedError:
        raise
    except (OSError, RuntimeError, ValueError, sqlite3.Error, struct.error) as exc:
        # hnswlib raises RuntimeError, tantivy ValueError, SQLite DatabaseError
        if not (gen / part).exists():
            raise layout.damaged(gen.parent, f"{gen.name}/{part} is missing") from exc
        raise layout.damaged(gen.parent, f"{gen.name}/{part} cannot be read ({_why(exc)})") from exc


def _agrees(gen: Path, part: str, found: int, passages: int | None) -> None:
    if passages is not None and found != passages:
        raise layout.damaged(gen.parent, f"{gen.name}/{part} holds {found} passages, the manifest says {passages}")


def open_store(gen: Path, passages: int | None = None) -> PassageStore:
    from drrag_cli.index.store import PassageStore

    with _reading(gen, STORE):
        check_sqlite_file(gen / STORE)
        store = PassageStore(gen / STORE, readonly=True)
        found = store.conn.execute("SELECT COUNT(*) FROM passages").fetchone()[0]
    _agrees(gen, STORE, found, passages)
    return store


def open_bm25(gen: Path, passages: int | None = None) -> BM25Index:
    from drrag_cli.index.bm25 import BM25Index

    with _reading(gen, BM25):
        if not (gen / BM25 / "meta.json").is_file():
            raise FileNotFoundError(f"no {BM25}/meta.json")
        index = BM25Index(gen / BM25)
    _agrees(gen, BM25, index.num_docs, passages)
    return index


def open_dense(gen: Path, dim: int, passages: int | None = None) -> DenseIndex:
    from drrag_cli.index.dense import DenseIndex

    with _reading(gen, DENSE):
        if not (gen / DENSE).is_file():
            raise FileNotFoundError(f"no {DENSE}")
        index = DenseIndex(gen / DENSE, dim)
    _agrees(gen, DENSE, index.count, passages)
    return index


def check_sqlite_file(path: Path) -> None:
    """Raise ValueError unless ``path`` starts like an SQLite database and is as long as
    its header says: a read-only (immutable) connection would otherwise open a cut-short
    file without a word and fail on the first query that reaches the missing pages."""
    with open(path, "rb") as fh:
        header = fh.read(100)
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        raise ValueError("not an SQLite database")
    page_size = struct.unpack(">H", header[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    change, pages, valid_for = (struct.unpack(">I", header[i : i + 4])[0] for i in (24, 28, 92))
    size = path.stat().st_size
    if change == valid_for and pages and size < pages * page_size:  # the header's size is trusted
        raise ValueError(f"cut short: {size} bytes of {pages * page_size}")


def _quick_check(conn: sqlite3.Connection) -> None:
    lines = [line for (row,) in conn.execute("PRAGMA quick_check(3)") for line in str(row).splitlines()]
    if lines != ["ok"]:
        found = [line for line in lines if not line.startswith("*** in database")]  # a heading, not a finding
        raise sqlite3.DatabaseError(f"quick_check: {'; '.join(found or lines)}")


def _why(exc: BaseException) -> str:
    """An exception as a few words: its text's first line, at most 120 characters."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror
    return text[:117] + "..." if len(text) > 120 else text


# -- the embedding cache ------------------------------------------------------------------
def cache_files(root: Path) -> list[Path]:
    """The cache and its WAL files, the WAL first: set aside in that order, a kill between
    two moves never leaves a WAL beside a database it does not belong to."""
    db = root / CACHE
    return [db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm"), db]


def check_cache(root: Path, *, writer: bool = False) -> str:
    """The embedding cache opens and passes quick_check; IndexDamagedError otherwise.
    A missing cache is fine (the next build makes one). A ``writer`` (a build about to reuse
    it) skips the quick_check when the cache is as the last run that checked or wrote it left
    it (:func:`stamp_cache`), with no WAL left behind (a killed run leaves another size or
    time, or a WAL), and records it as checked; ``drrag doctor`` always checks it whole."""
    path = root / CACHE
    if not path.exists():
        return f"{CACHE}: none yet"
    try:
        conn = sqlite3.connect(path, timeout=30)
        try:
            if not (writer and _cache_as_left(root)):
                _quick_check(conn)
            rows = conn.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise layout.damaged(root, f"the embedding cache {CACHE} cannot be read ({_why(exc)})") from exc
    if writer:
        stamp_cache(root)
    return f"{CACHE}: {rows} vectors"


def as_published(gen: Path, manifest: dict[str, Any], part: str) -> bool:
    """``part`` of ``gen`` keeps the size and time the manifest recorded when the generation
    was published (whose parts are never written again): checked then, still the same."""
    found = stamp(gen / part)
    return found is not None and (manifest.get("stamps") or {}).get(part) == found


def dense_as_published(gen: Path, manifest: dict[str, Any]) -> bool:
    """The HNSW and every file beside it (deleted and dropped lists, the recent graph) as
    published, none gone and none new: a main graph shared with older generations keeps its
    stamp while the recent graph beside it changes."""
    recorded = {part for part in manifest.get("stamps") or {} if part.startswith("dense.")}
    present = _dense_parts(gen)
    return bool(present) and present == recorded and all(as_published(gen, manifest, part) for part in present)


def _dense_parts(gen: Path) -> set[str]:
    from drrag_cli.index.dense import part_files

    return {file.name for file in part_files(gen / DENSE) if file.exists()}


def stamps(gen: Path) -> dict[str, list[int] | None]:
    """What :func:`as_published` compares, for a generation about to be published."""
    return {part: stamp(gen / part) for part in (STORE, *sorted(_dense_parts(gen))) if (gen / part).exists()}


def stamp(path: Path) -> list[int] | None:
    """[size, modification time in ns] of ``path`` (None when it cannot be read): a file that
    keeps both was not written in between."""
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def stamp_cache(root: Path) -> None:
    """Record the embedding cache as checked or written now, its connections closed."""
    found = stamp(root / CACHE)
    if found is not None:
        layout.write_text_atomic(root / CACHE_STAMP, json.dumps(found) + "\n")


def _cache_as_left(root: Path) -> bool:
    wal = stamp(root / (CACHE + "-wal"))
    if wal is not None and wal[0] > 0:
        return False
    try:
        return json.loads((root / CACHE_STAMP).read_text(encoding="utf-8")) == stamp(root / CACHE)
    except (OSError, ValueError):
        return False
