"""The collection: fields, indexes, the analyzer, the connection and generation visibility.

One row per (passage, generation that wrote it). A build never overwrites what readers
of the live generation see: it inserts its new passages with ``gen`` = its generation and
marks the passages it removes with ``dead`` = its generation; a reader of generation G
sees exactly the rows with ``gen <= G and dead > G`` (:func:`visible`). Publishing is the
local manifest swap (layout.py), so a build killed anywhere leaves readers on the old
passages of every file, never a mix; the next build deletes the orphans and revives the
rows the killed one retired. Rows retired before the previous generation are deleted.

Text is searched with BM25 by Milvus's own function over ``content``: the title's and the
text's terms as tantivy's ``en_stem`` analyzer makes them locally (simple tokenizer,
lowercase, English Snowball stemmer; CJK runs as bigrams), written space-separated
(:func:`content`). Queries get the same cut (:func:`query`). Milvus Lite 3.2 has only the
``standard`` and ``jieba`` tokenizers and ignores every filter but ``stop`` (no stemmer),
while a server's ``english`` analyzer stems and drops stop words: analysing on our side
gives both the terms the local index has, and Milvus's ``standard`` tokenizer only splits
them again.

Locally the title is its own tantivy field (boosted 2x) and a query scores each distinct
term once. Here the title's terms carry :data:`TITLE_MARK` inside the one field, so they
keep their own document frequency (a title match weighs as a rare term, as in tantivy's
title field), and a query is its distinct terms, each asked plain and marked. Left: one
length normalisation for title and text together, and no 2x boost (measured closer to
tantivy's lists without it); docs/SCALING.md has the recall this costs.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drrag_cli.config import MILVUS_EXTRA, Settings
from drrag_cli.errors import ConfigError, IndexMismatchError
from drrag_cli.index.bm25 import cjk_bigrams, query_terms

if TYPE_CHECKING:
    from pymilvus import MilvusClient

GEN_SPAN = 1 << 24  # row key = pid * GEN_SPAN + gen: one passage id may be written by several generations
ALIVE = 1 << 62  # `dead` of a row no generation has retired
ANALYZER = {"tokenizer": "standard"}  # on terms already cut by terms(): Lite and a server agree
TITLE_MARK = "t_"  # before a title's terms: en_stem never makes "_", so no text term collides; \w and UAX #29 keep it
HNSW = {"M": 32, "efConstruction": 200}  # as the local hnswlib index (index/dense.py)
EF_SEARCH = 128
BM25 = {"bm25_k1": 1.2, "bm25_b": 0.75}  # tantivy's defaults
MAX_VARCHAR = 65_535  # bytes
NONE = -1  # an absent line or page number
SCALARS = ("pid", "gen", "dead", "document_id", "ordinal", "char_start", "char_end", "line_start", "line_end", "page")
ROW_FIELDS = ["row", *SCALARS, "source", "title", "text", "content", "content_hash", "vector"]  # not BM25's output
PASSAGE_FIELDS = [
    "pid",
    "source",
    "title",
    "text",
    "ordinal",
    "char_start",
    "char_end",
    "line_start",
    "line_end",
    "page",
]


@functools.cache
def _analyzer() -> Any:  # noqa: ANN401
    import tantivy

    builder = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
    for step in (tantivy.Filter.remove_long(40), tantivy.Filter.lowercase(), tantivy.Filter.stemmer("english")):
        builder = builder.filter(step)
    return builder.build()


def terms(text: str) -> str:
    """``text`` as the local BM25 index's terms (tantivy ``en_stem``, CJK bigrams), space-separated."""
    return " ".join(_analyzer().analyze(cjk_bigrams(text)))


def content(title: str, text: str) -> str:
    """The BM25 field of a passage: its title's terms marked, then its text's."""
    marked = " ".join(TITLE_MARK + t for t in terms(title).split())
    return clip(f"{marked}\n{terms(text)}")


def query(text: str) -> str:
    """A query for :func:`content`: its distinct terms (tantivy scores a repeated term once,
    Milvus by its count), each plain and as a title term; "" when it has none."""
    distinct = dict.fromkeys(terms(" ".join(query_terms(text))).split())
    return " ".join(f"{t} {TITLE_MARK}{t}" for t in distinct)


def visible(gen: int) -> str:
    """The filter that shows generation ``gen`` its passages and nothing else."""
    return f"gen <= {gen} and dead > {gen}"


def gen_number(gen: Path) -> int:
    """``gen-000012`` (or its ``.tmp`` staging folder) → 12."""
    return int(gen.name[4:].removesuffix(".tmp"))


def clip(text: str, limit: int = MAX_VARCHAR) -> str:
    """``text`` cut to ``limit`` UTF-8 bytes (Milvus VARCHAR lengths are bytes)."""
    data = text.encode("utf-8")
    return text if len(data) <= limit else data[:limit].decode("utf-8", errors="ignore")


def collection_name(settings: Settings, root: Path) -> str:
    """``milvus.collection`` for the index at ``index.path``; any other index folder (eval's
    cache, named collections) gets a hash of its path added, so two folders never share rows."""
    base = settings.milvus.collection
    main = Path(settings.index.path).expanduser().resolve()
    if root.expanduser().resolve() == main:
        return base
    return f"{base}_{hashlib.sha1(str(root.expanduser().resolve()).encode()).hexdigest()[:10]}"


def resolve_uri(settings: Settings, root: Path) -> str:
    """Where the collection lives: a server URL as given, or a Milvus Lite file as an
    absolute path ("" = ``milvus.db`` inside the index folder)."""
    uri = settings.milvus.uri
    if uri and not uri.endswith(".db"):
        return uri
    path = Path(uri).expanduser() if uri else root.expanduser() / "milvus.db"
    return str(path.resolve())


def connect(uri: str, settings: Settings) -> MilvusClient:
    """A client for ``uri``; a missing extra or an unreachable server is one clear error."""
    try:
        from pymilvus import MilvusClient
    except ImportError as exc:
        raise ConfigError(
            f"this index is stored in Milvus ({uri}); its client is not installed: {MILVUS_EXTRA}"
        ) from exc
    import logging

    for name in ("pymilvus", "milvus_lite"):  # their errors reach us as exceptions; the CLI prints one line
        logging.getLogger(name).setLevel(logging.CRITICAL)
    token = settings.milvus.token or os.environ.get("DRRAG_MILVUS_TOKEN", "")
    if uri.endswith(".db"):
        Path(uri).parent.mkdir(parents=True, exist_ok=True)
    try:
        return MilvusClient(uri=uri, token=token)
    except Exception as exc:  # noqa: BLE001 - pymilvus raises its own and grpc's errors
        if uri.endswith(".db") and _locked(Path(uri) / "LOCK"):
            raise ConfigError(
                f"the Milvus Lite file {uri} is open in another process (a `drrag serve`, `--watch` or another "
                "drrag?); Milvus Lite serves one process at a time: stop that one, or use a Milvus server "
                "(milvus.uri: http://host:19530)"
            ) from exc
        reason = " ".join(str(getattr(exc, "message", None) or exc).split())[:200]
        raise ConfigError(
            f"cannot open Milvus at {uri} ({reason}); start the server or fix milvus.uri / milvus.token"
        ) from exc


def release(uri: str) -> None:
    """Stop this process's Milvus Lite server for ``uri`` (a no-op for a server): its file lock
    goes, so another process may open the file."""
    if uri.endswith(".db"):
        from milvus_lite.server_manager import server_manager_instance

        server_manager_instance.release_server(uri)


def _locked(lock: Path) -> bool:
    import fcntl

    try:
        with open(lock, "a") as fh:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


def ensure_collection(client: MilvusClient, name: str, dim: int) -> None:
    """Create the collection with its indexes, or check an existing one has vectors of ``dim``."""
    if client.has_collection(name):
        found = _dim(client.describe_collection(name))
        if found != dim:
            raise IndexMismatchError(
                f"Milvus collection {name} holds {found}-d vectors, the embedding model makes {dim}-d; "
                "drop it, or set milvus.collection to a new name"
            )
        return
    from pymilvus import DataType, Function, FunctionType

    schema = client.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("row", DataType.INT64, is_primary=True)
    for field in SCALARS:
        schema.add_field(field, DataType.INT64)
    schema.add_field("source", DataType.VARCHAR, max_length=MAX_VARCHAR)
    schema.add_field("title", DataType.VARCHAR, max_length=MAX_VARCHAR)
    schema.add_field("text", DataType.VARCHAR, max_length=MAX_VARCHAR)
    schema.add_field(
        "content", DataType.VARCHAR, max_length=MAX_VARCHAR, enable_analyzer=True, analyzer_params=ANALYZER
    )
    schema.add_field("content_hash", DataType.VARCHAR, max_length=64)
    schema.add_field("vector", DataType.FLOAT_VECTOR, dim=dim)
    schema.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
    schema.add_function(
        Function(
            name="bm25", function_type=FunctionType.BM25, input_field_names=["content"], output_field_names=["sparse"]
        )
    )
    index = client.prepare_index_params()
    index.add_index(field_name="vector", index_type="HNSW", metric_type="IP", params=HNSW)
    index.add_index(field_name="sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25", params=BM25)
    for field in ("pid", "gen", "dead"):
        index.add_index(field_name=field, index_type="INVERTED")  # Lite has no other scalar index
    client.create_collection(name, schema=schema, index_params=index, consistency_level="Strong")


def _dim(description: dict[str, Any]) -> int | None:
    for field in description.get("fields", []):
        if field.get("name") == "vector":
            return int(field.get("params", {}).get("dim", 0))
    return None
