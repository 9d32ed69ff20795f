"""A labelled dataset's paragraphs as an index: what `drrag eval` and classifier training
retrieve from.

The paragraphs are written as a JSONL record corpus (id = paragraph key) into
``<user cache>/eval/<sha of the keys>/`` and indexed there once; later runs over the same
paragraphs reuse it (an unchanged file is a no-op for ``Index.build``). Each embedding
model / chunk size gets its own index folder beside the one corpus file. A passage maps
back to its paragraph through the record id in ``Passage.source`` (:func:`key_of`).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from drrag_cli.config import Settings, user_cache_dir
from drrag_cli.errors import IndexMismatchError, InputError

if TYPE_CHECKING:
    from drrag_cli.index.build import BuildProgress, BuildReport
    from drrag_cli.types import Paragraph

ONE_PASSAGE_WORDS = 1000  # chunk_words that keep each paragraph one passage (multi-hop paragraphs are < 1000 words)


def corpus_sha(paragraphs: Sequence[Paragraph]) -> str:
    """Sha256 (16 hex) of the sorted paragraph keys: names the cached index folder."""
    keys = sorted({p.key for p in paragraphs})
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()[:16]


def cache_dir(paragraphs: Sequence[Paragraph]) -> Path:
    return user_cache_dir() / "eval" / corpus_sha(paragraphs)


def key_of(source: str) -> str:
    """``/cache/eval/…/corpus.jsonl#<key>`` → ``<key>`` (the record id is the paragraph key)."""
    return source.rsplit("#", 1)[1] if "#" in source else source


def index_paragraphs(
    paragraphs: Sequence[Paragraph], settings: Settings, name: str = "dataset", *, progress: BuildProgress | None = None
) -> tuple[Path, BuildReport]:
    """Index ``paragraphs`` in the cache (once); returns (index path, build report)."""
    from drrag_cli.index.api import Index

    if not paragraphs:
        raise InputError(f"dataset {name!r} has no paragraphs to index; give its corpus (drrag eval --corpus)")
    folder = cache_dir(paragraphs)
    folder.mkdir(parents=True, exist_ok=True)
    corpus = folder / "corpus.jsonl"
    if not corpus.is_file():
        records = ({"id": p.key, "title": p.title, "text": p.text} for p in paragraphs)
        tmp = folder / f".corpus.{time.time_ns()}.tmp"
        tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        tmp.replace(corpus)
    variant = f"{settings.embedding.model}|{settings.index.chunk_words}"
    path = folder / f"index-{hashlib.sha1(variant.encode()).hexdigest()[:10]}"
    try:
        report = Index.build([corpus], settings, progress=progress, path=path)
    except IndexMismatchError:  # a cache made by an older index format: just rebuild it
        report = Index.build([corpus], settings, rebuild=True, progress=progress, path=path)
    return path, report
