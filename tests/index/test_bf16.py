"""A large index run embedded in bfloat16 on CPUs that compute it (index/bf16.py): the same vectors
to four decimals, only for runs large enough, never with `embedding.bf16: false`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from drrag_cli import cpu
from drrag_cli.config import Settings
from drrag_cli.index import bf16
from drrag_cli.index.api import Index
from drrag_cli.index.embedder import DEFAULT_MODEL, Embedder, resolve_model

TEXTS = ["Who led Project Heron?", "Die Hauptstadt von Frankreich ist Paris.", "river " * 400]
needs_bf16 = pytest.mark.skipif(not bf16.supported(), reason="this CPU computes no bfloat16 products")


def test_only_a_cpu_with_bfloat16_products_computes_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    monkeypatch.setattr(cpu, "CPUINFO", info)
    info.write_text("flags\t\t: fpu avx2 avx512f avx512_vnni\n")
    assert not bf16.supported()  # no bfloat16 instruction: torch emulates it, slower than float32
    info.write_text("flags\t\t: fpu avx512f avx512_bf16\n")
    assert bf16.supported()  # dot products (AMD Zen 4 and later, Intel Cooper Lake)
    info.write_text("flags\t\t: fpu avx512f amx_bf16 amx_tile amx_int8\n")
    assert bf16.supported()  # the matrix unit (Intel Xeon since Sapphire Rapids)
    info.unlink()
    assert not bf16.supported()  # no /proc: never


def test_without_bfloat16_products_or_an_export_there_is_no_bfloat16_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bf16, "_bert", lambda *a: pytest.fail("read the model"))
    monkeypatch.setattr(bf16, "supported", lambda: False)
    assert bf16.encoder(resolve_model(DEFAULT_MODEL)[1], object(), 1) is None  # type: ignore[arg-type]
    monkeypatch.setattr(bf16, "supported", lambda: True)
    assert bf16.encoder(resolve_model(DEFAULT_MODEL)[1], None, 1) is None  # nothing to tokenize with or check against


def test_a_model_that_is_no_bert_in_safetensors_is_left_to_the_export(tmp_path: Path) -> None:
    assert bf16._bert(tmp_path, 1) is None  # no config.json
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "xlm-roberta"}))
    assert bf16._bert(tmp_path, 1) is None
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "bert"}))
    (tmp_path / "model.safetensors").write_bytes(b"damaged")
    assert bf16._bert(tmp_path, 1) is None


@pytest.mark.slow
@needs_bf16
def test_bfloat16_vectors_are_float32_s_to_four_decimals() -> None:
    emb = Embedder(DEFAULT_MODEL, 0, "auto")
    encode = bf16.encoder(emb.path, emb._onnx_model(), 2)
    assert encode is not None
    got, torch_fp32 = encode(TEXTS), Embedder(DEFAULT_MODEL, 0, "torch").encode(TEXTS)
    assert got.dtype == np.float32 and got.shape == torch_fp32.shape
    assert (got * torch_fp32).sum(axis=1).min() >= bf16.COSINE_MIN
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


@pytest.mark.slow
@needs_bf16
def test_a_large_run_embeds_in_bfloat16_a_small_one_and_the_switch_never(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, corpus: Path, settings: Settings
) -> None:
    monkeypatch.setattr(bf16, "MIN_TEXTS", 5)  # the sample corpus passes for a large run
    ix = tmp_path / "ix"
    Index.build([corpus], settings.replace({"index.path": str(ix)}))
    manifest = json.loads(next(ix.glob("*/manifest.json")).read_text())["embedding"]
    assert manifest["passages_runtime"] == "torch-bf16"
    hits = Index.open(settings.replace({"index.path": str(ix)})).search("Where was Mara Quint born?", k=3)
    assert any("Tromsø" in h.passage.text for h in hits)

    off = tmp_path / "off"
    Index.build([corpus], settings.replace({"index.path": str(off), "embedding.bf16": False}))
    assert json.loads(next(off.glob("*/manifest.json")).read_text())["embedding"]["passages_runtime"] == "onnx"
    monkeypatch.setattr(bf16, "MIN_TEXTS", 10**6)
    small = tmp_path / "small"
    Index.build([corpus], settings.replace({"index.path": str(small)}))
    assert json.loads(next(small.glob("*/manifest.json")).read_text())["embedding"]["passages_runtime"] == "onnx"


@pytest.mark.slow
@needs_bf16
def test_weights_unlike_their_config_leave_the_run_to_the_export(tmp_path: Path) -> None:
    """A config that says 12 heads of a width the weights do not have fails inside the first
    forward pass: the check catches it, and the run embeds on the export."""
    emb = Embedder(DEFAULT_MODEL, 0, "auto")
    folder = tmp_path / "model"
    folder.mkdir()
    config = json.loads((Path(emb.path) / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "num_attention_heads": 7}))
    (folder / "model.safetensors").symlink_to(Path(emb.path) / "model.safetensors")
    assert bf16.encoder(str(folder), emb._onnx_model(), 1) is None
