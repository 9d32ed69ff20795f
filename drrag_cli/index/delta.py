"""The change one `drrag index` run makes, applied to the previous generation's parts.

A run that edits a few notes of a large vault used to rebuild BM25, HNSW and the link graph
from every passage. Now the new generation starts from the previous one (its store is
copied as before) and takes only the change: the passages of removed and changed files are
deleted, the new ones added, in tantivy (:func:`~.bm25.update_bm25`: the old segments
shared, one small segment and a delete list written) and in hnswlib
(:func:`~.dense.update_dense`: the removed elements marked deleted, the new ones inserted;
in a large index beside the old graph, which is shared). Every promise of the layout holds:
the work happens in the staging generation, the previous one is never written (shared segment
and graph files are immutable), and a kill leaves it live.

Links (:mod:`.links`) are found anew only where they can differ: the new passages; passages
that linked to a document whose name went away; and passages that hold a name a new
document brings, found by a phrase search of the previous BM25 (stemmed, so a superset).
A changed note that keeps its title, aliases and path keeps its incoming links, pointed at
its new document id in place.

Compaction: hnswlib keeps deleted elements in the graph, so once they would pass
:data:`COMPACT` of the live passages, or on ``--rebuild``, the run builds BM25 and HNSW from
every passage instead (and drops unused cached vectors).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drrag_cli.index.store import PassageStore

COMPACT = 0.2  # deleted HNSW elements, as a share of live passages, past which a run rebuilds whole
MENTION_LIMIT = 2000  # passages one new name may be mentioned in before the links are all found anew

Key = tuple[str, str, tuple[str, ...]]  # what the link finder knows a document by: source, title, aliases


@dataclass
class Delta:
    """What one run removed from and added to the store."""

    removed: list[int] = field(default_factory=list)  # passage ids of removed and changed files
    added: list[int] = field(default_factory=list)  # passage ids written by this run
    documents: dict[int, Key] = field(default_factory=dict)  # the removed documents, by their old ids

    def remove_files(self, store: PassageStore, files: Sequence[str]) -> None:
        """Remove ``files`` from ``store``, remembering their passages and documents."""
        self.removed += store.passage_ids(files)
        self.documents.update(store.documents_of(files))
        store.park_links(self.removed, list(self.documents))
        for file in files:
            store.remove_file(file)

    def relink(self, store: PassageStore, bm25: Path, added_files: Sequence[str]) -> int | None:
        """Find the links that can differ after this change (module docstring); returns the
        links stored, or None when a new name is too common to look for (find them all)."""
        from drrag_cli.index.bm25 import BM25Index

        new = store.documents_of(added_files)
        by_key = {key: doc for doc, key in new.items()}
        lost = store.repoint_links({old: by_key[key] for old, key in self.documents.items() if key in by_key})
        changed = set(new.values()) ^ set(self.documents.values())
        mentioning: set[int] = set()
        if changed:
            index = BM25Index(bm25)
            for name in {name for key in changed for name in _names(key)}:
                found = index.phrase_ids(name, MENTION_LIMIT)
                if found is None:
                    return None
                mentioning.update(found)
        return store.relink(sorted(set(self.added) | lost | mentioning))


def compact_due(base: Path, removed: int, live: int) -> bool:
    """Whether the HNSW of generation ``base``, with ``removed`` more elements deleted beside
    ``live`` ones, is to be rebuilt whole."""
    from drrag_cli.index.dense import dead_count

    return dead_count(base / "dense.hnsw") + removed > COMPACT * max(live, 1)


def _names(key: Key) -> set[str]:
    """The names a passage may mention or link a document by: its title's core, its
    aliases, its file's stem (a Markdown or wiki-link by path)."""
    from drrag_cli.index.links import core_title

    source, title, aliases = key
    stem = Path(source.split("#", 1)[0]).stem
    return {name for name in (core_title(title), title, *aliases, stem) if name.strip()}
