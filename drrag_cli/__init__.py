"""drrag: offline multi-hop question answering over a local corpus with DR-RAG.

The library is importable on its own; the ``drrag`` command is a thin layer over it::

    from drrag_cli import Index, Pipeline, load_settings
    settings = load_settings()
    Index.build(["notes/"], settings)          # ingest, chunk, embed, publish
    hits = Index.open(settings).search("who founded X?", mode="hybrid", k=5)
    answer = Pipeline(settings).ask("who founded X?")   # DR-RAG + one local LLM call
    notes = Registry().open(["notes", "papers"], settings)  # named collections, searched as one
    answer = Pipeline(settings, index=notes).ask("who founded X?")

Heavy modules (torch, sentence-transformers, llama-cpp, spaCy) are imported lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from drrag_cli.collections import Registry
    from drrag_cli.config import Settings, load_settings
    from drrag_cli.index.api import Index
    from drrag_cli.pipeline import Pipeline

__all__ = ["Index", "Pipeline", "Registry", "Settings", "load_settings", "__version__"]


def __getattr__(name: str) -> Any:
    # Lazy re-exports keep `import drrag_cli` cheap (no tantivy/sqlite/numpy at import).
    if name == "Index":
        from drrag_cli.index.api import Index

        return Index
    if name == "Pipeline":
        from drrag_cli.pipeline import Pipeline

        return Pipeline
    if name == "Registry":
        from drrag_cli.collections import Registry

        return Registry
    if name in ("Settings", "load_settings"):
        from drrag_cli import config

        return getattr(config, name)
    raise AttributeError(name)
