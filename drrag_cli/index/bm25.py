"""BM25 over title + text with tantivy (English stemming; CJK as overlapping bigrams).

User text never reaches tantivy's query grammar as-is: the query is reduced to its
lowercase alphanumeric terms (the same cut tantivy's tokenizer makes), so quotes, colons,
parentheses, URLs, `AND`/`OR`/`NOT` and the empty string are all plain words or nothing.

Chinese and Japanese have no spaces, so tantivy's tokenizer would make a whole run of
them one term, found only by the identical run. Both the indexed text and the query are
therefore passed through :func:`cjk_bigrams` first: every run of Han, kana or Hangul
becomes its overlapping character bigrams ("東京都" → "東京 京都"), the standard CJK
analysis for BM25 (Lucene's CJKBigramFilter), with no segmenter dependency. Latin text
is untouched, so English stemming and mixed documents work as before.

A generation made from the previous one (:func:`update_bm25`) shares its segment files
(hard links: tantivy never rewrites a segment, a commit writes new files and a new
``meta.json``), deletes the removed passages by their id and adds the new ones.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tantivy

TITLE_BOOST = 2.0
_TERM = re.compile(r"[^\W_]+")
MAX_TERMS = 256  # a pasted document as a query (QDC's q*) stays cheap


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f]+")


def _bigrams(match: re.Match[str]) -> str:
    run = match.group(0)
    grams = [run[i : i + 2] for i in range(len(run) - 1)] or [run]
    return f" {' '.join(grams)} "


def cjk_bigrams(text: str) -> str:
    """``text`` with every CJK run replaced by its overlapping bigrams, space-separated."""
    return _CJK.sub(_bigrams, text) if _CJK.search(text) else text


def query_terms(text: str) -> list[str]:
    """Lowercase alphanumeric terms; operators become ordinary words once lowercased."""
    return [t for t in _TERM.findall(cjk_bigrams(text).lower()) if len(t) <= 40][:MAX_TERMS]


def _schema() -> tantivy.Schema:
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("pid", stored=True, indexed=True)
    builder.add_text_field("title", stored=False, tokenizer_name="en_stem")
    builder.add_text_field("text", stored=False, tokenizer_name="en_stem")
    return builder.build()


def build_bm25(path: Path, rows: list[tuple[int, str, str, str]]) -> None:
    """Write a fresh tantivy index at `path` from (id, title, text, hash) rows."""
    import tantivy

    path.mkdir(parents=True, exist_ok=True)
    index = tantivy.Index(_schema(), path=str(path))
    _commit(index.writer(heap_size=128_000_000, num_threads=1), (), rows)


def _commit(writer: tantivy.IndexWriter, removed: Sequence[int], rows: list[tuple[int, str, str, str]]) -> None:
    """Delete the ``removed`` passage ids, add (id, title, text, hash) ``rows``, commit."""
    import tantivy

    for pid in removed:
        writer.delete_documents_by_term("pid", pid)
    for pid, title, text, _hash in rows:
        writer.add_document(tantivy.Document(pid=pid, title=cjk_bigrams(title), text=cjk_bigrams(text)))
    writer.commit()
    writer.wait_merging_threads()


_REWRITTEN = frozenset({"meta.json", ".managed.json"})  # replaced by a commit: copied, never shared


def update_bm25(old: Path, path: Path, removed: Sequence[int], rows: list[tuple[int, str, str, str]]) -> None:
    """Write at ``path`` the tantivy index of ``old`` with the ``removed`` passage ids
    deleted and (id, title, text, hash) ``rows`` added."""
    import tantivy

    path.mkdir(parents=True, exist_ok=True)
    for file in old.iterdir():
        if not file.is_file() or file.name.endswith(".lock"):
            continue
        if file.name in _REWRITTEN:
            shutil.copy2(file, path / file.name)
            continue
        try:
            os.link(file, path / file.name)
        except OSError:  # a file system without hard links
            shutil.copy2(file, path / file.name)
    _commit(tantivy.Index.open(str(path)).writer(heap_size=64_000_000, num_threads=1), removed, rows)


class BM25Index:
    def __init__(self, path: Path) -> None:
        import tantivy

        self.index = tantivy.Index.open(str(path))
        self.searcher = self.index.searcher()
        self.num_docs = self.searcher.num_docs  # a published generation never changes

    def search(self, text: str, n: int) -> list[tuple[int, float]]:
        """(passage id, BM25 score), best first; [] when the text has no terms."""
        query = parse_query(self.index, text) if n > 0 else None
        if query is None:
            return []
        n = min(n, max(1, self.num_docs))  # tantivy panics on a huge top-k
        hits = self.searcher.search(query, n, count=False).hits  # count=False: no second pass over matches
        doc = self.searcher.doc
        return [(int(doc(addr)["pid"][0]), float(score)) for score, addr in hits]

    def phrase_ids(self, phrase: str, limit: int) -> list[int] | None:
        """The passages whose text holds ``phrase`` (its words in a row, as the index
        tokenises them: stemmed, so a few more than hold it as written); None past ``limit``."""
        query = self._phrase_query(cjk_bigrams(phrase))
        if query is None:
            return []
        found = self.searcher.search(query, limit + 1, count=False).hits
        if len(found) > limit:
            return None
        return [int(self.searcher.doc(addr)["pid"][0]) for _score, addr in found]

    def count(self, phrase: str) -> int:
        """How many passages hold ``phrase`` (its words in a row, as the index tokenises)."""
        query = self._phrase_query(phrase)
        return 0 if query is None else int(self.searcher.search(query, 1, count=True).count)

    def _phrase_query(self, phrase: str) -> tantivy.Query | None:
        """A query for the words of ``phrase`` in a row in the text; None when it has none."""
        words = phrase_words(phrase)
        return self.index.parse_query(f'"{" ".join(words)}"', ["text"]) if words else None


def phrase_words(phrase: str) -> list[str]:
    """The words of a phrase searched as one (the Milvus backend counts the same ones)."""
    return re.findall(r"[^\W_]+", phrase)


_last: tuple[str, tantivy.Query | None] = ("", None)


def parse_query(index: tantivy.Index, text: str) -> tantivy.Query | None:
    """``text`` as a tantivy query over title (boosted) and text; None when it has no terms.

    The last text's query is kept: several collections searched together (``MultiIndex``)
    ask each of their indexes for the same text in a row, and as every index has this
    module's schema and tokenizers, one parsed query serves them all.
    """
    global _last
    key, query = _last
    if key == text and query is not None:
        return query
    terms = query_terms(text)
    if not terms:
        return None
    query = index.parse_query(" ".join(terms), ["title", "text"], field_boosts={"title": TITLE_BOOST})
    _last = (text, query)
    return query
