"""`drrag index`: incremental, crash-safe build of a new index generation.

Files are compared to the live generation by size and modification time, then (when those
differ, or are recent) by SHA-256 of their bytes: unchanged files are skipped, changed ones
replaced, vanished ones pruned. Only passages whose text has no
vector in the embedding cache are embedded (the expensive part, ~35 passages/s on 2
cores); BM25, HNSW and the links then take the change (:mod:`.delta`), or are built from
the whole store on a first run, ``--rebuild`` or compaction, and the generation is
published atomically (see layout.py). Nothing changed → nothing written.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from drrag_cli.config import Settings
from drrag_cli.errors import InputError
from drrag_cli.index import health, layout, repair
from drrag_cli.index.backend import backend_of, write_generation
from drrag_cli.index.delta import Delta, compact_due
from drrag_cli.index.embedder import Embedder, passage_embed_text
from drrag_cli.index.space import SpaceNeed, check_generation
from drrag_cli.ingest.walk import walk

EMBED_CHUNK = 256  # passages per cache commit: a kill loses at most this much work
# A file whose size and modification time are those it was indexed with, the time older than
# this, is unchanged without being read (at 100k notes, reading and hashing all took 4.8 s)
SETTLED_S = 2.0
QUIET_FILES = 1000  # unchanged files per progress update: rich's costs ~3 µs, 0.3 s a run at 100k files
# Characters of text in one file above which its chunking reports its own progress: chunking
# reads ~0.75 MB/s on 2 cores (a 30 MB text file of short paragraphs: 41 s, spaCy loaded), all
# of it with the files bar standing still.
LONG_FILE = 1_000_000


class BuildProgress(Protocol):
    def phase(self, name: str, total: int | None) -> None: ...
    def advance(self, n: int = 1) -> None: ...
    # Within one long step of the phase (a large file's chunking): ``done`` of ``total``;
    # done == total ends it.
    def within(self, what: str, done: int, total: int) -> None: ...


class _Silent:
    def phase(self, name: str, total: int | None) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def within(self, what: str, done: int, total: int) -> None:
        pass


@dataclass
class BuildReport:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: int = 0
    unreadable: int = 0  # indexed files that could not be read this time: their passages are kept
    passages_embedded: int = 0
    passages_total: int = 0
    seconds: float = 0.0
    published: bool = False
    index: str = ""
    skipped_files: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    # What the user should hear without --verbose, one line each: text changed to be read
    # (bytes replaced, NULs removed), unreadable files kept, an index left empty.
    warnings: dict[str, str] = field(default_factory=dict)
    links: int = 0  # links between documents found (index/links.py)
    roots: list[str] = field(default_factory=list)  # what `drrag index` with no PATH re-syncs
    roots_added: list[str] = field(default_factory=list)
    roots_removed: list[str] = field(default_factory=list)
    duplicate_files: int = 0  # added files whose bytes equal another indexed file's
    repaired: list[str] = field(default_factory=list)  # damaged parts set aside (index/health.py)

    def to_json(self) -> dict[str, Any]:
        return {
            "files": {
                "added": self.added, "updated": self.updated, "unchanged": self.unchanged,
                "removed": self.removed, "skipped": self.skipped, "unreadable": self.unreadable,
            },
            "passages_embedded": self.passages_embedded,
            "passages_total": self.passages_total,
            "links": self.links,
            "roots": self.roots,
            "roots_added": self.roots_added,
            "roots_removed": self.roots_removed,
            "duplicate_files": self.duplicate_files,
            "seconds": round(self.seconds, 3),
            "index": self.index,
            "published": self.published,
            "skipped_files": self.skipped_files,
            "notes": self.notes,
            "warnings": self.warnings,
            "repaired": self.repaired,
        }


def embedding_fingerprint(settings: Settings, embedder: Embedder) -> dict[str, Any]:
    return {"model": settings.embedding.model, "model_id": embedder.model_id, "dim": embedder.dim}


def prepare_runtime(settings: Settings) -> tuple[Embedder, dict[str, Any]]:
    """The embedder for index batches and the runtime record for the manifest.

    Unless ``embedding.runtime`` is ``torch``, the verified ONNX export is found or made here
    (torch loads only to make it) and then embeds the batches too: the BERT-fused export runs
    faster than sentence-transformers on 2 cores (benchmarks/index_bench.py). Its check
    (cosine ≥ 0.9999 against torch on the probe set) is what lets vectors from either runtime
    share one index and one vector cache. A failed export is recorded; batches and queries
    then stay on torch.
    """
    emb = settings.embedding
    embedder = Embedder(emb.model, emb.threads, emb.runtime)
    record: dict[str, Any] = {"runtime": emb.runtime}
    if emb.runtime != "torch":
        check = embedder.export()
        record["onnx_export"] = {k: check.get(k) for k in ("passed", "cosine_min", "folder", "exporter", "graph",
                                                           "error") if check.get(k) is not None}
    record["passages_runtime"] = embedder.active_runtime
    return embedder, record


def _renew_export(embedding: dict[str, Any], settings: Settings) -> None:
    """Find or make the current ONNX export when the live index embedded on a verified export
    of another exporter (a newer drrag changed the export's layout): queries would find none
    and run on torch, so even a run that changes nothing makes it (once; later runs find it
    by its files' stats in milliseconds). A model that never exported, or failed to, is not
    retried on every run."""
    from drrag_cli.index.onnx_embed import EXPORTER

    export = embedding.get("onnx_export") or {}
    if settings.embedding.runtime != "torch" and export.get("passed") is True and export.get("exporter") != EXPORTER:
        Embedder(settings.embedding.model, settings.embedding.threads, settings.embedding.runtime).export()


def chunking_fingerprint(settings: Settings) -> dict[str, Any]:
    from drrag_cli.ingest.loaders import READERS

    return {"chunk_words": settings.index.chunk_words, "splitter": "spacy-sentencizer", "readers": READERS}


def build_index(
    paths: Sequence[str | Path],
    settings: Settings,
    *,
    rebuild: bool = False,
    replace: bool = False,
    progress: BuildProgress | None = None,
    path: str | Path | None = None,
) -> BuildReport:
    """Build or update the index at ``path`` (default ``index.path``) from ``paths``.

    ``paths`` are added to the roots indexed before; with ``replace`` (or ``rebuild``)
    they become the only roots and files under the others are dropped. A full disk,
    wherever it is hit, is one :class:`DiskFullError`; the live index is never touched.
    """
    if replace and not paths:
        raise InputError(
            "--replace needs the PATHs the index should cover from now on "
            "(e.g. `drrag index ~/notes --replace`)"
        )
    progress = progress or _Silent()
    started = time.perf_counter()
    root = Path(path if path is not None else settings.index.path).expanduser()
    report = BuildReport(index=str(root))
    need = SpaceNeed(root)
    with layout.disk_full_is_user_error(root, need.estimate), layout.writer_lock(root):
        _build_locked(root, paths, settings, report, need, progress, rebuild=rebuild, replace=replace)
    report.seconds = time.perf_counter() - started
    return report


def _build_locked(
    root: Path, paths: Sequence[str | Path], settings: Settings, report: BuildReport,
    need: SpaceNeed, progress: BuildProgress, *, rebuild: bool, replace: bool,
) -> None:
    """Scan to publish under the writer lock.

    Long: one transaction kept in one place so the crash-safety order (stage, embed,
    write, check, swap, prune) reads top to bottom.
    """
    from drrag_cli.index.store import PassageStore

    layout.prune_generations(root)  # whatever a killed run left behind
    live = health.inspect_live(root)  # a damaged one is rebuilt from the sources, whatever the flags
    old_gen, old_manifest = live.gen, live.manifest
    fresh = rebuild or live.damage is not None  # every file read again, no store copied
    if old_manifest and not rebuild:
        health.check_compatible(old_manifest, settings, root)
    old_roots: list[str] = repair.old_roots(root, live)
    if not paths:
        paths = old_roots
        if not paths:
            raise InputError(repair.nothing_to_index(root, live))
    walked = walk(paths, settings.index.exclude)
    need.files = walked.paths
    report.skipped_files.update(walked.skipped)
    report.skipped += len(walked.skipped)
    old_store = PassageStore(old_gen / "store.sqlite", readonly=True) if old_gen and not fresh else None
    old_files = old_store.files() if old_store else {}
    links_missing = old_store is not None and not old_store.has_links()  # written by an older drrag
    if old_store:
        old_store.close()

    readers = (old_manifest or {}).get("chunking", {}).get("readers", 1)  # older readers: read again
    reread = bool(old_manifest) and readers != chunking_fingerprint(settings)["readers"]
    changes = _scan(walked.paths, old_files, settings, report, progress, reread=reread)
    given = {str(r) for r in walked.roots}
    roots = sorted(given if rebuild or replace else given | set(old_roots))
    report.roots = roots
    report.roots_added = sorted(set(roots) - set(old_roots))
    report.roots_removed = sorted(set(old_roots) - set(roots))
    _keep_unreadable(old_files, walked, changes, report)
    gone = _vanished(old_files, walked, changes, replace=replace)
    report.removed = len(gone)
    report.duplicate_files = _duplicates(old_files, gone, changes)
    nothing_new = not changes.new and not gone and not fresh and not links_missing
    nothing_new = nothing_new and backend_of(old_manifest) == settings.index.backend  # a new backend is filled
    aside = repair.SetAside(root)
    if old_gen and nothing_new and roots == old_roots:
        report.passages_total = old_manifest["counts"]["passages"]
        emb = old_manifest["embedding"]  # the cache is checked even so: repaired from the live HNSW
        report.repaired += repair.reuse_cache(root, live, emb["model_id"], emb["dim"], aside)
        _renew_export(emb, settings)
        return

    need.plan(old_gen, old_manifest, changes)
    base = old_gen if old_gen and not fresh and _applies_change(old_gen, old_manifest, settings) else None
    with layout.staging_generation(root) as staging:
        if old_gen and not fresh:
            shutil.copy2(old_gen / "store.sqlite", staging / "store.sqlite")
        store = PassageStore(staging / "store.sqlite")
        change = Delta()
        change.remove_files(store, gone + [f for f in changes.new if f in old_files])
        now = time.time()
        for file, (sha, size, mtime, notes, docs) in changes.new.items():
            change.added += store.add_file(file, sha, size, mtime, notes, docs, now)
        for file, (size, mtime) in changes.touched.items():
            store.touch_file(file, size, mtime)
        progress.phase("finding links", None)
        links = change.relink(store, base / "bm25", list(changes.new)) if base and not links_missing else None
        report.links = links if links is not None else store.write_links()
        store.commit()
        counts = store.counts()
        if base is not None and compact_due(base, len(change.removed), counts["passages"]):
            base = None  # deletes piled up: this run builds BM25 and HNSW whole (compaction)
        rows = store.rows(change.added) if base else store.all_passages()
        store.close()
        where = ", ".join(str(p) for p in paths)
        if not counts["passages"] and old_gen is None:  # a first index: PATHS hold nothing, most likely a wrong PATH
            raise InputError(
                f"no indexable text found in {where} ({report.skipped} files skipped; "
                "supported: .md .markdown .txt .rst .html .htm .pdf .json .jsonl; --verbose lists skips)"
            )
        if not counts["passages"]:  # the files are gone (or unindexable now): the index follows
            report.warnings[str(root)] = f"no indexable text left in {where}: the index is now empty"

        embedder, runtime = prepare_runtime(settings)
        report.repaired += repair.reuse_cache(root, live, embedder.model_id, embedder.dim, aside)
        report.passages_embedded, used = _embed_missing(root, embedder, rows, settings, progress)
        runtime["passages_runtime"] = used or runtime["passages_runtime"]  # "torch-bf16" for a large run
        backend = write_generation(settings, root, staging, embedder, rows, progress)  # Milvus: synced
        if backend is None:  # local: the BM25 and HNSW files of the generation
            _write_indexes(root, staging, embedder, rows, progress, (base, change.removed) if base else None)
            check_generation(staging, counts["passages"], embedder.dim)
        health.stamp_cache(root)  # as this run leaves it: the next run need not check it whole
        manifest = {
            "stamps": health.stamps(staging),  # parts never written once published (health.as_published)
            "format_version": layout.FORMAT_VERSION,
            "embedding": embedding_fingerprint(settings, embedder) | runtime,
            "chunking": chunking_fingerprint(settings),
            "counts": counts,
            "roots": roots,
            "backend": backend or {"name": "local"},
            "created_at": (old_manifest or {}).get("created_at", now) if not rebuild else now,
            "updated_at": now,
        }
        repair.before_swap(root, live, aside)
        layout.publish(root, staging, manifest)
    report.published = True
    report.repaired += repair.after_swap(live, aside)  # published first: a kill leaves a usable index
    report.passages_total = counts["passages"]


@dataclass
class _Changes:
    # file -> (sha, size, mtime, notes, [(source, title, [(passage, content_hash)], aliases)])
    new: dict[str, tuple] = field(default_factory=dict)
    touched: dict[str, tuple[int, float]] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)


def _scan(files, old_files, settings: Settings, report: BuildReport, progress, *, reread: bool = False) -> _Changes:  # noqa: ANN001
    from drrag_cli.ingest.loaders import load_bytes, skip_reason

    changes = _Changes()
    limit = int(settings.index.max_file_mb * 1024 * 1024)
    progress.phase("reading files", len(files))
    settled = time.time() - SETTLED_S
    quiet = 0  # unchanged files not yet shown on the bar
    for key in files:
        old = old_files.get(key)
        if old and not reread and _same_stat(key, old, settled):
            changes.seen.add(key)
            report.unchanged += 1
            quiet += 1
            if quiet == QUIET_FILES:
                progress.advance(quiet)
                quiet = 0
            continue
        progress.advance(quiet + 1)
        quiet = 0
        path = Path(key)
        read = _read(path, limit, settings, old_files, report, changes)
        if read is None:
            continue
        st, data = read
        sha = hashlib.sha256(data).hexdigest()
        if old and old[0] == sha and not reread:
            changes.seen.add(key)
            report.unchanged += 1
            if (old[1], old[2]) != (st.st_size, st.st_mtime):
                changes.touched[key] = (st.st_size, st.st_mtime)
            continue
        try:
            loaded = load_bytes(path, data)
            docs = _chunked(path, loaded.documents, settings, progress)
        except Exception as exc:  # noqa: BLE001 - one file's failure never aborts the run
            report.skipped += 1
            report.skipped_files[key] = skip_reason(exc)
            continue
        notes = "; ".join([*loaded.notes, *loaded.warnings])
        if loaded.notes:
            report.notes[key] = "; ".join(loaded.notes)
        if loaded.warnings:
            report.warnings[key] = "; ".join(loaded.warnings)
        changes.new[key] = (sha, st.st_size, st.st_mtime, notes, docs)
        changes.seen.add(key)
        if old:
            report.updated += 1
        else:
            report.added += 1
    progress.advance(quiet)
    return changes


_READ_BY_ALL = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH


def _same_stat(path: str, old: tuple[str, int, float], settled: float) -> bool:
    """The file has the size and modification time it was indexed with, and that time is
    before ``settled``: unchanged without reading it (as git and rsync judge). A file changed
    within :data:`SETTLED_S` of its indexing could keep both; it is read and hashed."""
    try:
        st = os.stat(path)
    except OSError:
        return False  # _read says why
    same = (st.st_size, st.st_mtime) == (old[1], old[2]) and st.st_mtime < settled
    # one that cannot be read now is reported by _read; a file every class may read (0644) needs
    # no access() call (0.14 s at 100k files), short of an ACL that names and refuses this user
    return same and (st.st_mode & _READ_BY_ALL == _READ_BY_ALL or os.access(path, os.R_OK))


def _read(path: Path, limit: int, settings: Settings, old_files, report: BuildReport, changes: _Changes):  # noqa: ANN001, ANN202
    """``(stat, bytes)`` of one file, or None when it is skipped (too large) or unreadable; an
    unreadable file that is still on disk keeps its last indexed passages (a warning says so)."""
    from drrag_cli.ingest.loaders import SkipFile

    key = str(path)
    try:
        st = path.stat()
        if st.st_size > limit:
            raise SkipFile(f"larger than index.max_file_mb ({settings.index.max_file_mb:g} MB)")
        return st, path.read_bytes()
    except SkipFile as exc:
        report.skipped += 1
        report.skipped_files[key] = str(exc)
    except OSError as exc:
        why = f"unreadable ({exc.strerror or exc})"
        if key in old_files and _maybe_there(key):  # still on disk: its last passages stay
            changes.seen.add(key)
            report.unreadable += 1
            report.warnings[key] = f"{why}: its last indexed passages are kept"
        else:
            report.skipped += 1
            report.skipped_files[key] = why
    return None


def _chunked(path: Path, documents, settings: Settings, progress) -> list:  # noqa: ANN001
    """Each loaded document's passages with their content hashes, a long file showing its own
    progress line while it is chunked."""
    from drrag_cli.index.vectors import content_hash
    from drrag_cli.ingest.chunking import chunk_document

    docs = []
    within = _Within(progress, f"chunking {path.name}", [len(d.text) for d in documents])
    for doc in documents:
        passages = chunk_document(doc, settings.index.chunk_words, **within.kwargs())
        hashed = [(p, content_hash(passage_embed_text(p.title, p.text))) for p in passages]
        docs.append((doc.source, doc.title, hashed, doc.aliases))
        within.next_document()
    return docs


class _Within:
    """Progress inside one long file (over :data:`LONG_FILE` characters), in characters
    chunked over all its documents, passed on at most once per percent."""

    def __init__(self, progress: BuildProgress, what: str, sizes: list[int]) -> None:
        self.progress, self.what, self.sizes = progress, what, sizes
        self.total = sum(sizes)
        self.before = 0  # characters of the documents already chunked
        self.doc = 0
        self.shown = -1
        if self.total > LONG_FILE:
            self.at(0)  # at once: the sentences' first batch comes seconds later

    def kwargs(self) -> dict[str, Any]:
        """``on_progress`` for chunking a long file's current document; nothing otherwise."""
        return {"on_progress": self.at} if self.total > LONG_FILE else {}

    def at(self, done: int, _total: int = 0) -> None:
        percent = (self.before + done) * 100 // max(self.total, 1)
        if percent != self.shown:
            self.shown = percent
            self.progress.within(self.what, min(self.before + done, self.total), self.total)

    def next_document(self) -> None:
        if self.total > LONG_FILE:
            self.before += self.sizes[self.doc]
            self.at(0)
        self.doc += 1


def _keep_unreadable(old_files: dict, walked, changes: _Changes, report: BuildReport) -> None:  # noqa: ANN001
    """Indexed files that the walk could not look at, or that are under a folder it could
    not list (permission, I/O error), stay as they were, reported once per file or folder:
    nothing says they are gone, and once readable again their text need not be embedded
    anew. A file whose path no longer leads anywhere (no such file, a link loop) is gone
    all the same. (A file the walk found but could not read is kept by :func:`_scan`.)"""
    if not walked.unreadable:
        return
    keys = {str(where): key for key, where in walked.unreadable.items()}
    kept: dict[str, list[str]] = {}  # the unreadable file or folder -> the indexed files kept for it
    for file in old_files:
        if file in changes.seen:
            continue
        where = next((str(p) for p in (Path(file), *Path(file).parents) if str(p) in keys), None)
        if where is not None and _maybe_there(file):
            kept.setdefault(where, []).append(file)
    for where, files in kept.items():
        changes.seen.update(files)
        report.unreadable += len(files)
        why = report.skipped_files.pop(keys[where], None)
        if why is not None:
            report.skipped -= 1
        if files == [where]:
            report.warnings[where] = f"{why or 'unreadable'}: its last indexed passages are kept"
        else:
            which = "the file" if len(files) == 1 else f"the {len(files)} files"
            report.warnings[where] = f"{why or 'unreadable folder'}: {which} indexed under it keep their passages"


def _maybe_there(file: str) -> bool:
    """False when ``file`` is certainly gone; True when it exists or cannot be looked at."""
    import errno
    import os

    try:
        os.stat(file)
    except OSError as exc:
        return exc.errno not in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP)
    return True


def _vanished(old_files: dict, walked, changes: _Changes, *, replace: bool = False) -> list[str]:  # noqa: ANN001
    """Stored files that no longer exist, that a walked root no longer yields, or (with
    ``replace``) that this walk did not yield at all."""
    roots = [str(r) for r in walked.roots]
    folders = tuple(r.rstrip(os.sep) + os.sep for r in roots)  # as strings: Path.parents took 0.05 ms a file
    gone = []
    for file in old_files:
        if file in changes.seen:
            continue
        if replace or file in roots or file.startswith(folders) or not os.path.exists(file):
            gone.append(file)
    return sorted(gone)


def _duplicates(old_files: dict, gone: list[str], changes: _Changes) -> int:
    """Files added by this run whose bytes equal another indexed file's: a copy of a
    folder indexed as a new root doubles its passages, which the user should hear about."""
    from collections import Counter

    replaced = set(gone) | set(changes.new)
    shas = Counter(old[0] for f, old in old_files.items() if f not in replaced)
    shas.update(new[0] for new in changes.new.values())
    return sum(1 for f, new in changes.new.items() if f not in old_files and shas[new[0]] > 1)


def _embed_missing(root: Path, embedder: Embedder, rows, settings: Settings, progress) -> tuple[int, str]:  # noqa: ANN001
    """How many passages were embedded (those the vector cache lacks), and on what runtime
    ("" when none was)."""
    from drrag_cli.index.vectors import VectorCache

    cache = VectorCache(root / "vectors.sqlite", embedder.model_id, embedder.dim)
    try:
        missing = cache.missing(h for _id, _t, _x, h in rows)
        todo: dict[str, str] = {}
        for _pid, title, text, h in rows:
            if h in missing and h not in todo:
                todo[h] = passage_embed_text(title, text)
        progress.phase("embedding passages", len(todo))
        # Longest first across the whole run, not only within each chunk: batches of similar
        # length pad less (what sentence-transformers does inside one encode call).
        items = sorted(todo.items(), key=lambda item: -len(item[1]))
        emb = settings.embedding
        encode, used = embedder.bulk_encoder(len(items), emb.batch_size, emb.bf16) if items else (None, "")
        for start in range(0, len(items), EMBED_CHUNK):
            chunk = items[start : start + EMBED_CHUNK]
            cache.put([h for h, _t in chunk], encode([t for _h, t in chunk]))
            progress.advance(len(chunk))
        return len(todo), used
    finally:
        cache.close()


def _applies_change(old_gen: Path, manifest: dict[str, Any] | None, settings: Settings) -> bool:
    """Whether a run may make its generation from ``old_gen`` plus the change (.delta): a
    local one with both files, and this run local too (Milvus is synced by its backend)."""
    local = backend_of(manifest) == "local" == settings.index.backend
    return local and (old_gen / "bm25" / "meta.json").is_file() and (old_gen / "dense.hnsw").is_file()


def _write_indexes(root: Path, staging: Path, embedder: Embedder, rows, progress, change=None) -> None:  # noqa: ANN001
    """BM25 and HNSW of the staging generation from every passage (``rows``); with ``change``
    = (the previous generation, removed passage ids), the previous ones with those passages
    deleted and ``rows`` (the new passages) added (:mod:`.delta`)."""
    import numpy as np

    from drrag_cli.index.bm25 import build_bm25, update_bm25
    from drrag_cli.index.dense import build_dense, update_dense
    from drrag_cli.index.vectors import VectorCache

    progress.phase("writing indexes", None)
    cache = VectorCache(root / "vectors.sqlite", embedder.model_id, embedder.dim)
    try:
        hashes = [h for _id, _t, _x, h in rows]
        vecs, ids = cache.get_many(hashes), np.array([r[0] for r in rows], dtype=np.int64)
        if change is not None:
            base, removed = change
            update_bm25(base / "bm25", staging / "bm25", removed, rows)
            update_dense(base / "dense.hnsw", staging / "dense.hnsw", removed, ids, vecs, embedder.dim)
            return  # vectors of removed passages stay cached until a whole build prunes them
        build_bm25(staging / "bm25", rows)
        build_dense(staging / "dense.hnsw", ids, vecs)
        if hashes:  # an index left empty (a folder emptied, a drive not mounted) keeps its vectors for their return
            cache.prune(set(hashes))
    finally:
        cache.close()
