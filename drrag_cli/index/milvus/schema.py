"""The collection: fields, indexes, the analyzer, the connection and generation visibility.

One row per (passage, generation that wrote it). A build never overwrites what readers
of the live generation see: it inserts its new passages with ``gen`` = its generation and
marks the passages it removes with ``dead`` = its generation; a reader of generation G
sees exactly the rows with ``gen <= G and dead > G`` (:func:`visible`). Publishing is the
local manifest swap (layout.py), so a build killed anywhere leaves readers on the old
passages of every file, never a mix; the next build deletes the orphans and revives the
rows the killed one retired. Rows retired before the previous generation are deleted.

Text is searched with BM25 by Milvus's own functions, one per field as tantivy has them
locally: ``title_terms`` and ``text_terms`` hold the title's and the text's terms as tantivy's
``en_stem`` analyzer makes them (simple tokenizer, lowercase, English Snowball stemmer; CJK
runs as bigrams), written space-separated (:func:`terms`). Milvus Lite 3.2 has only the
``standard`` and ``jieba`` tokenizers and ignores every filter but ``stop`` (no stemmer),
while a server's ``english`` analyzer stems and drops stop words: analysing on our side
gives both the terms the local index has, and Milvus's ``standard`` tokenizer only splits
them again. A query is scored as tantivy scores it (:func:`query`): each distinct word once,
stemmed, so two words with one stem count twice; the two fields' BM25 scores are summed with
the title's weighted :data:`~drrag_cli.index.bm25.TITLE_BOOST` (search.py, summed.py). Left: tantivy
keeps a field's length in one byte (lengths past 40 rounded down), Milvus exactly.

:data:`SCHEMA` is recorded in the manifest: a generation written with another layout is
refused with one line (rebuild), and a build on such a collection recreates it.
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
# 1: one BM25 field with marked title terms; 2: a BM25 field each for title and text; 3: + a boosted field
# for Milvus's own hybrid; 4: without it (hybrid fused here, search.py)
SCHEMA = 4
ANALYZER = {"tokenizer": "standard"}  # on terms already cut by terms(): Lite and a server agree
# analysed text -> its BM25 output
BM25_FIELDS = {"title_terms": "title_sparse", "text_terms": "text_sparse"}
SUMMED = ("title_sparse", "text_sparse")  # their scores summed, the title's boosted (this order)
HNSW = {"M": 32, "efConstruction": 200}  # as the local hnswlib index (index/dense.py)
EF_SEARCH = 128
BM25 = {"bm25_k1": 1.2, "bm25_b": 0.75}  # tantivy's defaults
MAX_VARCHAR = 65_535  # bytes
NONE = -1  # an absent line or page number
SCALARS = ("pid", "gen", "dead", "document_id", "ordinal", "char_start", "char_end", "line_start", "line_end", "page")
ROW_FIELDS = ["row", *SCALARS, "source", "title", "text", *BM25_FIELDS, "content_hash", "vector"]  # not BM25's output
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


def query(text: str) -> str:
    """A query for the BM25 fields, weighted as tantivy weighs its terms: each distinct word of
    :func:`~drrag_cli.index.bm25.query_terms` once, stemmed (Milvus scores a term by its count in
    the query, tantivy a word per distinct word: "runs running" counts "run" twice in both);
    "" when it has none."""
    return " ".join(t for word in dict.fromkeys(query_terms(text)) for t in terms(word).split())


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
    """Create the collection with its indexes, or check an existing one has vectors of ``dim``.
    A collection of an older :data:`SCHEMA` is dropped and made anew: this drrag cannot read
    it, and the build writing to it then inserts every passage."""
    if client.has_collection(name):
        description = client.describe_collection(name)
        if not _current(description):
            client.drop_collection(name)
        else:
            found = _dim(description)
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
    for field in ("source", "title", "text"):
        schema.add_field(field, DataType.VARCHAR, max_length=MAX_VARCHAR)
    for field, sparse in BM25_FIELDS.items():
        schema.add_field(
            field, DataType.VARCHAR, max_length=MAX_VARCHAR, enable_analyzer=True, analyzer_params=ANALYZER
        )
        schema.add_field(sparse, DataType.SPARSE_FLOAT_VECTOR)
        schema.add_function(
            Function(name=f"bm25_{field}", function_type=FunctionType.BM25, input_field_names=[field],
                     output_field_names=[sparse])
        )
    schema.add_field("content_hash", DataType.VARCHAR, max_length=64)
    schema.add_field("vector", DataType.FLOAT_VECTOR, dim=dim)
    index = client.prepare_index_params()
    index.add_index(field_name="vector", index_type="HNSW", metric_type="IP", params=_both(HNSW))
    for sparse in BM25_FIELDS.values():
        index.add_index(field_name=sparse, index_type="SPARSE_INVERTED_INDEX", metric_type="BM25", params=_both(BM25))
    for field in ("pid", "gen", "dead"):
        index.add_index(field_name=field, index_type="INVERTED")  # Lite has no other scalar index
    client.create_collection(name, schema=schema, index_params=index, consistency_level="Strong")


def _both(params: dict[str, Any]) -> dict[str, Any]:
    """Index parameters as a server and Milvus Lite read them: pymilvus 3 sends them as keys of
    their own, which Lite 3.2 ignores (it reads the one JSON ``params`` key, else BM25 runs with
    k1 = 1.5 and HNSW with M = 16); a server reads both forms."""
    return {**params, "params": dict(params)}


def _current(description: dict[str, Any]) -> bool:
    """Whether a collection has this :data:`SCHEMA`'s BM25 fields, and no other."""
    names = {str(f.get("name")) for f in description.get("fields", [])}
    return {n for n in names if n.endswith("_sparse")} == set(BM25_FIELDS.values())


def check_schema(record: dict[str, Any]) -> None:
    """Refuse, in one line, a generation whose collection has another :data:`SCHEMA`."""
    found = int(record.get("schema", 1))
    if found != SCHEMA:
        raise IndexMismatchError(
            f"this index's Milvus collection {record.get('collection')} has schema {found}, this drrag reads "
            f"{SCHEMA}; rebuild it with `drrag index --rebuild PATH...`"
        )


def _dim(description: dict[str, Any]) -> int | None:
    for field in description.get("fields", []):
        if field.get("name") == "vector":
            return int(field.get("params", {}).get("dim", 0))
    return None
