"""The embedding model on ONNX Runtime: the query path without torch.

`import torch` + `import sentence_transformers` cost 5–8 s of a cold `drrag ask`, and the
sentence-transformers forward pass most of a warm hybrid search. So the configured model is
exported to ONNX once, where torch is loaded anyway (`drrag index`, `drrag models`), and
verified: on :data:`PROBES` (short, longer than the 256-token window, non-English) every ONNX
vector must match the torch vector with cosine ≥ :data:`COSINE_MIN`. Only a verified export is
ever used; the check's result is its sidecar ``check.json``. Readers then need only
``onnxruntime`` + ``tokenizers`` + numpy, and do what sentence-transformers does for a
Transformer → mean/CLS Pooling → Normalize model (:mod:`drrag_cli.index.onnx_run`).

Layout: ``<user cache>/onnx/<slug>-<key>/{model.onnx, model.data, tokenizer.json, check.json}``
(the graph, and its weights beside it, which onnxruntime maps instead of copying) where the
key hashes the model id, the content of the model's files and :data:`EXPORTER`. Finding an
export on the query path compares the files' sizes and mtimes with those recorded in
``check.json`` (hashing 90 MB would cost ~0.15 s per process); files it has not seen (a
second venv, a reinstall) are hashed once and, if their content is the export's, their
stats are recorded beside the others.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from drrag_cli.config import user_cache_dir
from drrag_cli.index.onnx_run import COSINE_MIN, PROBES, OnnxModel

# bump when the export or the runtime math changes
EXPORTER = "torch.onnx-torchscript/opset17/eager+bert-fusion/external-weights/v3"
WEIGHTS = "model.data"  # the graph's tensors, stored outside model.onnx (:func:`_externalise`)
SOURCE_FILES = (
    "model.safetensors", "pytorch_model.bin", "config.json", "tokenizer.json", "tokenizer_config.json",
    "special_tokens_map.json", "modules.json", "sentence_bert_config.json", "1_Pooling/config.json",
)


def cache_root() -> Path:
    return user_cache_dir() / "onnx"


def _sources(model_path: str) -> list[Path]:
    root = Path(model_path)
    return [root / name for name in SOURCE_FILES if (root / name).is_file()]


def source_stat(model_path: str) -> list[list[Any]]:
    """(name, size, mtime_ns) of the model's files: the cheap identity the query path checks."""
    root = Path(model_path)
    return [[str(p.relative_to(root)), p.stat().st_size, p.stat().st_mtime_ns] for p in _sources(model_path)]


def source_sha(model_path: str) -> str:
    digest = hashlib.sha256()
    root = Path(model_path)
    for p in _sources(model_path):
        digest.update(str(p.relative_to(root)).encode() + b"\0")
        with p.open("rb") as fh:
            while block := fh.read(1 << 20):
                digest.update(block)
    return digest.hexdigest()


def export_dir(model_id: str, sha: str) -> Path:
    key = hashlib.sha256(f"{model_id}\0{sha}\0{EXPORTER}".encode()).hexdigest()[:16]
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", model_id.rsplit("/", 1)[-1])[:40]
    return cache_root() / f"{slug}-{key}"


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_check(folder: Path) -> dict[str, Any] | None:
    try:
        meta = json.loads((folder / "check.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) else None


MAX_STATS = 8  # installations (venvs) of the same model files remembered per export


def _stats(meta: dict[str, Any]) -> list[Any]:
    return meta.get("source_stats") or ([meta["source_stat"]] if meta.get("source_stat") else [])


def _remember(folder: Path, meta: dict[str, Any], stat: list[list[Any]]) -> None:
    """Record ``stat`` as one more copy of the export's model files (newest first)."""
    meta["source_stats"] = [stat, *(s for s in _stats(meta) if s != stat)][:MAX_STATS]
    meta.pop("source_stat", None)
    _write_atomic(folder / "check.json", json.dumps(meta, indent=1).encode())


def find_export(model_id: str, model_path: str) -> tuple[Path, dict[str, Any]] | None:
    """The verified export of this model, or None.

    Found by the model files' stats first (no hashing); a copy of the same files elsewhere
    (a second venv, a reinstall) is found by content once (~0.15 s of hashing) and its
    stats are remembered, so two installations sharing the cache never push each other
    onto the torch path.
    """
    root = cache_root()
    if not root.is_dir():
        return None
    try:
        stat = source_stat(model_path)
    except OSError:
        return None
    for check in root.glob("*/check.json"):
        meta = read_check(check.parent)
        if (
            meta and meta.get("passed") is True and meta.get("model_id") == model_id
            and meta.get("exporter") == EXPORTER and stat in _stats(meta) and _complete(check.parent, meta)
        ):
            return check.parent, meta
    try:
        sha = source_sha(model_path)
    except OSError:
        return None
    folder = export_dir(model_id, sha)
    meta = read_check(folder)
    if not (meta and meta.get("passed") is True and meta.get("source_sha") == sha
            and meta.get("exporter") == EXPORTER and _complete(folder, meta)):
        return None
    try:
        _remember(folder, meta, stat)
    except OSError:
        pass  # a read-only cache: found by content again next time
    return folder, meta


def _complete(folder: Path, meta: dict[str, Any]) -> bool:
    onnx, weights, tok = folder / "model.onnx", folder / WEIGHTS, folder / "tokenizer.json"
    return (
        onnx.is_file() and onnx.stat().st_size == meta.get("onnx_bytes")
        and weights.is_file() and weights.stat().st_size == meta.get("weights_bytes") and tok.is_file()
    )


def ensure_export(model_id: str, model_path: str, st_model: Any) -> tuple[Path, dict[str, Any]]:  # noqa: ANN401
    """Export + verify `st_model` (a loaded SentenceTransformer) unless a verified export of
    the same content exists. Returns (folder, check). A failed check is recorded too
    (``passed: false``) and then never used; :class:`ExportError` if the model cannot be
    exported at all (an architecture this module does not mirror)."""
    found = find_export(model_id, model_path)
    if found:
        return found
    sha = source_sha(model_path)
    folder = export_dir(model_id, sha)
    meta = read_check(folder)
    if meta and meta.get("source_sha") == sha and _complete(folder, meta):
        if meta.get("passed") and source_stat(model_path) not in _stats(meta):
            _remember(folder, meta, source_stat(model_path))  # same content, touched files
        return folder, meta
    folder.mkdir(parents=True, exist_ok=True)
    spec = model_spec(st_model)
    _export(st_model, spec, folder)
    spec["graph"] = _fuse(folder, st_model)
    _externalise(folder)
    meta = {
        "model_id": model_id, "model_path": str(model_path), "source_sha": sha,
        "source_stats": [source_stat(model_path)], "exporter": EXPORTER, **spec,
        "onnx_bytes": (folder / "model.onnx").stat().st_size, "weights_bytes": (folder / WEIGHTS).stat().st_size,
    }
    meta.update(verify(folder, meta, st_model))
    _write_atomic(folder / "check.json", json.dumps(meta, indent=1).encode())
    return folder, meta


class ExportError(Exception):
    """The model is not a plain Transformer → Pooling (→ Normalize) sentence-transformers model."""


def model_spec(st_model: Any) -> dict[str, Any]:  # noqa: ANN401
    """What the ONNX runtime must mirror, read from the loaded model (not re-guessed)."""
    modules = list(st_model)
    kinds = [type(m).__name__ for m in modules]
    if len(kinds) < 2 or kinds[0] != "Transformer" or kinds[1] != "Pooling" or any(
        k != "Normalize" for k in kinds[2:]
    ):
        raise ExportError(f"unsupported module chain {kinds}")
    mode = getattr(modules[1], "pooling_mode", None) or (
        "mean" if getattr(modules[1], "pooling_mode_mean_tokens", False) else
        "cls" if getattr(modules[1], "pooling_mode_cls_token", False) else None
    )
    if mode not in ("mean", "cls"):
        raise ExportError(f"unsupported pooling {mode!r}")
    tok = st_model.tokenizer
    if getattr(tok, "backend_tokenizer", None) is None:
        raise ExportError("tokenizer has no tokenizer.json (not a fast tokenizer)")
    return {
        "pooling": mode,
        "max_seq_length": int(st_model.max_seq_length),
        "do_lower_case": bool(getattr(modules[0], "do_lower_case", False)),
        "input_names": [n for n in tok.model_input_names if n in ("input_ids", "attention_mask", "token_type_ids")],
        "pad_id": int(tok.pad_token_id if tok.pad_token_id is not None else 0),
        "pad_token": str(tok.pad_token or "[PAD]"),
        "dim": int((getattr(st_model, "get_embedding_dimension", None) or st_model.get_sentence_embedding_dimension)()),
    }


def _export(st_model: Any, spec: dict[str, Any], folder: Path) -> None:  # noqa: ANN401
    """torch.onnx.export, the TorchScript exporter (``dynamo=False``): the dynamo exporter
    needs onnxscript, and optimum-onnx pins transformers < 4.58 (we run 5.x)."""
    import warnings

    import torch

    names = spec["input_names"]
    auto = st_model[0].auto_model

    class Hidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.auto = auto

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            return self.auto(**dict(zip(names, inputs, strict=True))).last_hidden_state

    enc = st_model.tokenizer(["a probe sentence", "and a longer probe sentence for shapes"], padding=True,
                             return_tensors="pt")
    attn = getattr(auto.config, "_attn_implementation", None)
    args = tuple(enc[n] for n in names)
    axes = {n: {0: "batch", 1: "seq"} for n in [*names, "last_hidden_state"]}
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".model.onnx.")
    os.close(fd)
    try:
        with warnings.catch_warnings(), torch.inference_mode():
            warnings.simplefilter("ignore")
            _attention(auto, "eager")  # the pattern onnxruntime's BERT fusion recognises (SDPA's is not)
            torch.onnx.export(Hidden().eval(), args, tmp, input_names=names, output_names=["last_hidden_state"],
                              dynamic_axes=axes, opset_version=17, dynamo=False)
        os.replace(tmp, folder / "model.onnx")
    finally:
        if attn is not None:
            _attention(auto, attn)  # the shared torch model keeps running as before
        Path(tmp).unlink(missing_ok=True)
    tokenizer = st_model.tokenizer.backend_tokenizer.to_str()
    _write_atomic(folder / "tokenizer.json", tokenizer.encode())


def _attention(auto: Any, impl: str) -> None:  # noqa: ANN401
    setter = getattr(auto, "set_attn_implementation", None)
    if setter is not None:
        setter(impl)
    else:
        auto.config._attn_implementation = impl


def _fuse(folder: Path, st_model: Any) -> str:  # noqa: ANN401
    """Rewrite model.onnx with onnxruntime's BERT fusions (one Attention op per layer,
    EmbedLayerNormalization, SkipLayerNormalization, BiasGelu): 1.1-1.2x the batch rate of the
    plain graph on 2 cores, and above torch's. Portable (opt_level 0: no hardware-specific
    nodes). The result is checked by :func:`verify` like any export; "plain" when the
    optimizer is missing or fuses no attention (an architecture it does not know)."""
    try:
        from onnxruntime.transformers import optimizer

        config = st_model[0].auto_model.config
        heads, hidden = int(config.num_attention_heads), int(config.hidden_size)
        if getattr(config, "model_type", "") not in ("bert", "roberta", "xlm-roberta"):
            return "plain"
        model = optimizer.optimize_model(str(folder / "model.onnx"), model_type="bert", num_heads=heads,
                                         hidden_size=hidden, opt_level=0)
        if not model.get_fused_operator_statistics().get("Attention"):
            return "plain"
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".model.onnx.")
        os.close(fd)
        try:
            model.save_model_to_file(tmp)
            os.replace(tmp, folder / "model.onnx")
        finally:
            Path(tmp).unlink(missing_ok=True)
        return "bert-fused"
    except Exception:  # noqa: BLE001 — fusion is an optimisation: the plain export stays correct
        return "plain"


def _externalise(folder: Path) -> None:
    """Rewrite model.onnx as a graph whose tensors are in :data:`WEIGHTS` beside it. A session
    over a self-contained 90 MB file parses and copies every weight (0.19-0.21 s on 2 cores);
    over external weights onnxruntime maps the file and uses it in place (0.07 s), which every
    cold ``ask``, ``search`` and one-note ``index`` pays once. Both files are written into a
    hidden folder first, the weights moved before the graph that names them; ``check.json``,
    written last, records both sizes, so a crash in between leaves an export
    :func:`_complete` refuses."""
    import shutil

    import onnx

    model = onnx.load(str(folder / "model.onnx"))
    tmp = Path(tempfile.mkdtemp(dir=folder, prefix=".weights."))
    try:
        onnx.save_model(model, str(tmp / "model.onnx"), save_as_external_data=True, all_tensors_to_one_file=True,
                        location=WEIGHTS, size_threshold=1024)
        os.replace(tmp / WEIGHTS, folder / WEIGHTS)
        os.replace(tmp / "model.onnx", folder / "model.onnx")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def verify(folder: Path, meta: dict[str, Any], st_model: Any) -> dict[str, Any]:  # noqa: ANN401
    """Cosine of every probe's ONNX vector against its torch vector (same batch)."""
    import numpy as np

    ref = np.asarray(st_model.encode(list(PROBES), batch_size=len(PROBES), normalize_embeddings=True,
                                     convert_to_numpy=True, show_progress_bar=False), dtype=np.float32)
    try:
        got = OnnxModel(folder, meta).encode(list(PROBES), batch_size=len(PROBES), threads=1)
    except Exception as exc:  # noqa: BLE001 — a broken export is a failed check, not a crash
        return {"passed": False, "error": f"{type(exc).__name__}: {exc}"}
    cos = (ref * got).sum(axis=1)
    return {
        "passed": bool(cos.min() >= COSINE_MIN), "cosine_min": float(cos.min()), "cosine_threshold": COSINE_MIN,
        "probes": len(PROBES), "probe0": [float(x) for x in got[0]],
    }
