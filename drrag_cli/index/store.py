"""SQLite store of documents and passages (one per generation, immutable once published).

Passage ids are SQLite rowids; they survive re-indexing for unchanged files because a
new generation starts as a copy of the previous store. The BM25 and HNSW indexes use the
same ids, so a hit from either maps straight back to its passage here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from drrag_cli.index.links import DocRef
from drrag_cli.types import Passage

SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,          -- file path, or file#record for record corpora
    file TEXT NOT NULL,            -- the file it came from (unit of change detection)
    title TEXT NOT NULL,
    sha256 TEXT NOT NULL,          -- of the file's bytes
    size INTEGER NOT NULL,
    mtime REAL NOT NULL,
    indexed_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_file ON documents(file);
CREATE TABLE IF NOT EXISTS passages (
    id INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    title TEXT NOT NULL,
    text TEXT NOT NULL,
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL,
    line_start INTEGER,
    line_end INTEGER,
    page INTEGER,
    content_hash TEXT NOT NULL     -- key into the embedding cache
);
CREATE INDEX IF NOT EXISTS passages_document ON passages(document_id);
CREATE TABLE IF NOT EXISTS links (      -- the corpus's own links (index/links.py), rebuilt each run
    passage_id INTEGER NOT NULL,
    document_id INTEGER NOT NULL,  -- the linked document
    kind TEXT NOT NULL             -- link (markdown / wiki) | mention (its title in the text)
);
CREATE INDEX IF NOT EXISTS links_passage ON links(passage_id);
CREATE TABLE IF NOT EXISTS aliases (    -- other names a wiki-link may use (front matter `aliases`)
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    alias TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS aliases_document ON aliases(document_id);
CREATE TABLE IF NOT EXISTS document_keys (  -- what a passage must hold to link a document (links.document_keys)
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    key TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS document_keys_key ON document_keys(key);
CREATE TABLE IF NOT EXISTS files (
    file TEXT PRIMARY KEY,         -- every indexed file, with the hash that was indexed
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime REAL NOT NULL,
    notes TEXT NOT NULL DEFAULT ''
);
"""

# what the link finder reads of a passage: (passage id, document id, source, text)
_LINK_ROWS = "SELECT p.id, p.document_id, d.source, p.text FROM passages p JOIN documents d ON d.id = p.document_id"

_PASSAGE_COLUMNS = (
    "p.id, d.source, p.title, p.text, p.ordinal, p.char_start, p.char_end, "
    "p.line_start, p.line_end, p.page"
)


def _row_to_passage(row: Sequence) -> Passage:
    pid, source, title, text, ordinal, c0, c1, l0, l1, page = row
    return Passage(
        source=source, title=title, text=text, ordinal=ordinal, char_start=c0, char_end=c1,
        line_start=l0, line_end=l1, page=page, passage_id=pid,
    )


class PassageStore:
    def __init__(self, path: Path, readonly: bool = False) -> None:
        self.path = path
        if readonly:
            # immutable=1: a published generation never changes, so skip all locking.
            uri = f"file:{path}?mode=ro&immutable=1"
            self.conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
        else:
            self.conn = sqlite3.connect(path)
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.executescript(SCHEMA)

    def close(self) -> None:
        self.conn.close()

    # -- reading ---------------------------------------------------------------------
    def files(self) -> dict[str, tuple[str, int, float]]:
        rows = self.conn.execute("SELECT file, sha256, size, mtime FROM files")
        return {f: (sha, size, mtime) for f, sha, size, mtime in rows}

    def get(self, ids: Iterable[int]) -> dict[int, Passage]:
        sql = f"SELECT {_PASSAGE_COLUMNS} FROM passages p JOIN documents d ON d.id = p.document_id WHERE p.id IN ({{}})"
        return {row[0]: _row_to_passage(row) for row in self._rows(sql, list(ids))}

    def all_passages(self) -> list[tuple[int, str, str, str]]:
        """(id, title, text, content_hash) of every passage, in id order."""
        return list(
            self.conn.execute("SELECT id, title, text, content_hash FROM passages ORDER BY id")
        )

    def has_links(self) -> bool:
        """Whether this store records links (stores of older drrag versions do not)."""
        return self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'links'").fetchone() is not None

    def linked(self, ids: Sequence[int]) -> dict[int, list[int]]:
        """Passage id → the documents it links to (in order of appearance). A store written
        before links were recorded has none."""
        out: dict[int, list[int]] = {}
        sql = "SELECT passage_id, document_id FROM links WHERE passage_id IN ({}) ORDER BY rowid"
        try:
            for pid, doc in self._rows(sql, ids):
                out.setdefault(pid, []).append(doc)
        except sqlite3.OperationalError:  # no links table: an index from an older drrag
            return {}
        return out

    def aliases(self, ids: Sequence[int]) -> dict[int, tuple[str, ...]]:
        """Passage id → its document's aliases (front matter), for those that have any. A
        store written before aliases were kept has none."""
        out: dict[int, tuple[str, ...]] = {}
        sql = "SELECT p.id, a.alias FROM passages p JOIN aliases a ON a.document_id = p.document_id WHERE p.id IN ({})"
        try:
            for pid, alias in self._rows(sql + " ORDER BY a.rowid", ids):
                out[pid] = (*out.get(pid, ()), alias)
        except sqlite3.OperationalError:  # no aliases table: an index from an older drrag
            return {}
        return out

    def siblings(self, ids: Sequence[int]) -> dict[int, list[int]]:
        """Passage id → every passage id of its document, in order."""
        out: dict[int, list[int]] = {}
        sql = "SELECT p.id, q.id FROM passages p JOIN passages q ON q.document_id = p.document_id WHERE p.id IN ({})"
        for pid, sibling in self._rows(sql + " ORDER BY p.id, q.ordinal", ids):
            out.setdefault(pid, []).append(sibling)
        return out

    def _rows(self, sql: str, ids: Sequence[int]) -> Iterator[tuple]:
        """The rows of ``sql`` (its ``IN ({})`` filled with ``ids``), 500 ids a query: SQLite
        caps the parameters of one statement."""
        for cursor in self._chunked(sql, ids):
            yield from cursor

    def _run(self, sql: str, ids: Sequence[int]) -> None:
        """``sql`` (a write, its ``IN ({})`` filled with ``ids``), 500 ids a statement."""
        for _cursor in self._chunked(sql, ids):
            pass

    def _chunked(self, sql: str, ids: Sequence[int]) -> Iterator[sqlite3.Cursor]:
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            yield self.conn.execute(sql.format(",".join("?" * len(chunk))), chunk)

    def document_passages(self, doc_ids: Sequence[int]) -> dict[int, list[int]]:
        """Document id → its passage ids, in order."""
        out: dict[int, list[int]] = {}
        sql = "SELECT document_id, id FROM passages WHERE document_id IN ({}) ORDER BY document_id, ordinal"
        for doc, pid in self._rows(sql, list(doc_ids)):
            out.setdefault(doc, []).append(pid)
        return out

    def counts(self) -> dict[str, int]:
        one = self.conn.execute
        return {
            "files": one("SELECT COUNT(*) FROM files").fetchone()[0],
            "documents": one("SELECT COUNT(*) FROM documents").fetchone()[0],
            "passages": one("SELECT COUNT(*) FROM passages").fetchone()[0],
        }

    # -- writing (staging generations only) --------------------------------------------
    def remove_file(self, file: str) -> None:
        for table in ("passages", "aliases", "document_keys"):
            self.conn.execute(
                f"DELETE FROM {table} WHERE document_id IN (SELECT id FROM documents WHERE file = ?)",
                (file,),
            )
        self.conn.execute("DELETE FROM documents WHERE file = ?", (file,))
        self.conn.execute("DELETE FROM files WHERE file = ?", (file,))

    def add_file(
        self, file: str, sha256: str, size: int, mtime: float, notes: str,
        documents: list[tuple[str, str, list[tuple[Passage, str]], tuple[str, ...]]], now: float,
    ) -> list[int]:
        """Insert a file's documents [(source, title, [(passage, content_hash)], aliases)];
        returns new passage ids."""
        self.conn.execute(
            "INSERT OR REPLACE INTO files(file, sha256, size, mtime, notes) VALUES (?,?,?,?,?)",
            (file, sha256, size, mtime, notes),
        )
        new_ids: list[int] = []
        for source, title, passages, aliases in documents:
            cur = self.conn.execute(
                "INSERT INTO documents(source, file, title, sha256, size, mtime, indexed_at) "
                "VALUES (?,?,?,?,?,?,?)",
                (source, file, title, sha256, size, mtime, now),
            )
            doc_id = cur.lastrowid
            named = [(doc_id, alias) for alias in aliases]
            self.conn.executemany("INSERT INTO aliases(document_id, alias) VALUES (?,?)", named)
            self._add_keys([DocRef(doc_id, source, title, tuple(aliases))])
            for p, content_hash in passages:
                cur = self.conn.execute(
                    "INSERT INTO passages(document_id, ordinal, title, text, char_start, char_end, "
                    "line_start, line_end, page, content_hash) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (doc_id, p.ordinal, p.title, p.text, p.char_start, p.char_end,
                     p.line_start, p.line_end, p.page, content_hash),
                )
                new_ids.append(int(cur.lastrowid))
        return new_ids

    def write_links(self) -> int:
        """Find every passage's links (:mod:`drrag_cli.index.links`) and store them, replacing
        the old ones: a new note can be mentioned by old ones. Returns the number of links."""
        from drrag_cli.index.links import find_links

        links = find_links(self._doc_refs(), self.conn.execute(_LINK_ROWS).fetchall())
        self.conn.execute("DELETE FROM links")
        self.conn.executemany("INSERT INTO links(passage_id, document_id, kind) VALUES (?,?,?)", links)
        return len(links)

    # -- a run's change, applied to the links (index/delta.py) ------------------------------
    def passage_ids(self, files: Sequence[str]) -> list[int]:
        """The passage ids of ``files``."""
        sql = "SELECT p.id FROM passages p JOIN documents d ON d.id = p.document_id WHERE d.file IN ({})"
        return [pid for (pid,) in self._rows(sql, list(files))]

    def documents_of(self, files: Sequence[str]) -> dict[int, tuple[str, str, tuple[str, ...]]]:
        """Document id → (source, title, aliases) for the documents of ``files``: what the
        link finder knows a document by."""
        ids = [doc_id for (doc_id,) in self._rows("SELECT id FROM documents WHERE file IN ({})", list(files))]
        return {ref.document_id: (ref.source, ref.title, ref.aliases) for ref in self._doc_refs(ids)}

    def park_links(self, passages: Sequence[int], documents: Sequence[int]) -> None:
        """Drop the links of ``passages`` (about to be removed) and park those to ``documents``
        (negated ids) until :meth:`repoint_links`: their ids may be given to new rows."""
        self._run("DELETE FROM links WHERE passage_id IN ({})", passages)
        self._run("UPDATE links SET document_id = -document_id WHERE document_id IN ({})", documents)

    def repoint_links(self, moved: dict[int, int]) -> set[int]:
        """Parked links to a document that came back under a new id (``moved``: old → new)
        point to it again, in place; the others are dropped. Returns the passages that lost one."""
        back = [(new, -old) for old, new in moved.items()]
        self.conn.executemany("UPDATE links SET document_id = ? WHERE document_id = ?", back)
        parked = self.conn.execute("SELECT DISTINCT passage_id FROM links WHERE document_id < 0")
        lost = {pid for (pid,) in parked}
        self.conn.execute("DELETE FROM links WHERE document_id < 0")
        return lost

    def relink(self, passages: Sequence[int]) -> int:
        """Find the links of ``passages`` anew, against the documents whose keys their texts
        hold (:func:`~.links.document_keys`: the same links as against every document);
        returns the links stored."""
        from drrag_cli.index.links import find_links, text_keys

        self._run("DELETE FROM links WHERE passage_id IN ({})", passages)
        rows = list(self._rows(_LINK_ROWS + " WHERE p.id IN ({}) ORDER BY p.id", sorted(passages)))
        if rows:
            self._keys_for_every_document()
            keys = sorted(set().union(*(text_keys(text) for *_, text in rows)))
            sql = "SELECT DISTINCT document_id FROM document_keys WHERE key IN ({})"
            docs = sorted({doc for (doc,) in self._rows(sql, keys)})
            links = find_links(self._doc_refs(docs), rows)
            self.conn.executemany("INSERT INTO links(passage_id, document_id, kind) VALUES (?,?,?)", links)
        return self.conn.execute("SELECT COUNT(*) FROM links").fetchone()[0]

    def _add_keys(self, docs: Sequence[DocRef]) -> None:
        from drrag_cli.index.links import document_keys

        rows = [(doc.document_id, key) for doc in docs for key in document_keys(doc)]
        self.conn.executemany("INSERT INTO document_keys(document_id, key) VALUES (?,?)", rows)

    def _keys_for_every_document(self) -> None:
        """A store an older drrag wrote has documents and no keys: give them theirs, once."""
        has_docs = self.conn.execute("SELECT 1 FROM documents LIMIT 1").fetchone()
        if has_docs and not self.conn.execute("SELECT 1 FROM document_keys LIMIT 1").fetchone():
            self._add_keys(self._doc_refs())

    def rows(self, ids: Sequence[int]) -> list[tuple[int, str, str, str]]:
        """(id, title, text, content_hash) of the passages ``ids``, in id order."""
        return sorted(self._rows("SELECT id, title, text, content_hash FROM passages WHERE id IN ({})", list(ids)))

    def _doc_refs(self, ids: Sequence[int] | None = None) -> list[DocRef]:
        """Every document (or those ``ids``) as the link finder sees it."""
        named: dict[int, tuple[str, ...]] = {}
        if ids is None:
            aliases = self.conn.execute("SELECT document_id, alias FROM aliases ORDER BY rowid")
            rows = list(self.conn.execute("SELECT id, source, title FROM documents"))
        else:
            aliases = self._rows("SELECT document_id, alias FROM aliases WHERE document_id IN ({}) ORDER BY rowid", ids)
            rows = list(self._rows("SELECT id, source, title FROM documents WHERE id IN ({})", ids))
        for doc_id, alias in aliases:
            named[doc_id] = (*named.get(doc_id, ()), alias)
        return [DocRef(doc_id, source, title, named.get(doc_id, ())) for doc_id, source, title in rows]

    def touch_file(self, file: str, size: int, mtime: float) -> None:
        """Same content, new mtime (e.g. `touch`): remember it so the next run skips hashing."""
        self.conn.execute("UPDATE files SET size = ?, mtime = ? WHERE file = ?", (size, mtime, file))

    def commit(self) -> None:
        self.conn.commit()
