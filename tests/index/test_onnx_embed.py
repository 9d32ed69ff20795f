"""The ONNX export of the real MiniLM: verified against torch, used only when verified, and
a missing or corrupt export silently means the torch path (issue 14)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from drrag_cli.config import Settings
from drrag_cli.index import onnx_embed
from drrag_cli.index.api import Index
from drrag_cli.index.embedder import DEFAULT_MODEL, Embedder, resolve_model

pytestmark = pytest.mark.slow
TEXTS = ["Who led Project Heron?", "Die Hauptstadt von Frankreich ist Paris.", "river " * 400]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One real export per module, into a private XDG cache (copied by the tests that break it)."""
    cache = tmp_path_factory.mktemp("onnx-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(cache))
        check = Embedder(DEFAULT_MODEL, 1, "torch").export()
    assert check["passed"], check
    return cache


def _use(cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path | None = None) -> Path:
    if tmp_path is not None:  # a private copy to break
        shutil.copytree(cache, tmp_path / "cache")
        cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return next((cache / "drrag" / "onnx").glob("*/check.json")).parent


def _torch_vectors() -> np.ndarray:
    return Embedder(DEFAULT_MODEL, 1, "torch").encode(TEXTS)


def test_export_matches_torch_on_the_probes_and_records_it(exported: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _use(exported, monkeypatch)
    check = json.loads((folder / "check.json").read_text())
    model_id, path = resolve_model(DEFAULT_MODEL)
    assert check["passed"] is True and check["cosine_min"] >= onnx_embed.COSINE_MIN
    assert check["probes"] == len(onnx_embed.PROBES) and check["model_id"] == model_id
    assert check["max_seq_length"] == 256 and check["pooling"] == "mean"
    assert check["graph"] == "bert-fused"  # onnxruntime's fused Attention, checked like the plain graph
    st = Embedder(DEFAULT_MODEL, 1, "torch")._load()
    assert st[0].auto_model.config._attn_implementation != "eager"  # exported eager, shared model restored
    assert folder == onnx_embed.export_dir(model_id, onnx_embed.source_sha(path))  # keyed by content
    assert not list(folder.glob(".*"))  # no temp files left behind
    assert check["weights_bytes"] == (folder / onnx_embed.WEIGHTS).stat().st_size > 80_000_000
    assert (folder / "model.onnx").stat().st_size < 1_000_000  # the graph alone: its tensors are mapped

    emb = Embedder(DEFAULT_MODEL, 0, "auto")
    assert emb.active_runtime == "onnx"
    got = emb.encode(TEXTS)  # one text over the 256-token window: truncation as torch does it
    assert got.dtype == np.float32 and np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    assert (got * _torch_vectors()).sum(axis=1).min() >= onnx_embed.COSINE_MIN
    batch = emb.encode(TEXTS * 3, batch_size=2)  # all-cores session, padded batches
    assert (batch[:3] * got).sum(axis=1).min() >= onnx_embed.COSINE_MIN


def test_a_second_export_call_reuses_the_verified_one(exported: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _use(exported, monkeypatch)
    before = (folder / "model.onnx").stat().st_mtime_ns
    emb = Embedder(DEFAULT_MODEL, 1, "auto")
    assert emb.export()["folder"] == str(folder)
    assert (folder / "model.onnx").stat().st_mtime_ns == before
    assert emb._model is None  # found by file stats: torch not even loaded


def test_two_installations_of_the_model_share_one_export(
    exported: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A second venv has the same model files at another path (other mtimes): it finds
    the export by content once, and after that both find it by stats, neither falling
    back to torch (they used to overwrite each other's recorded stats)."""
    folder = _use(exported, monkeypatch, tmp_path)
    model_id, path = resolve_model(DEFAULT_MODEL)
    other = tmp_path / "other-venv" / "model"
    shutil.copytree(path, other)
    for venv in (str(other), path, str(other), path):
        found = onnx_embed.find_export(model_id, venv)
        assert found is not None and found[0] == folder
    stats = json.loads((folder / "check.json").read_text())["source_stats"]
    assert onnx_embed.source_stat(str(other)) in stats and onnx_embed.source_stat(path) in stats
    (other / "config.json").write_text("{}")  # different content: not this export
    assert onnx_embed.find_export(model_id, str(other)) is None


def test_no_export_means_torch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    emb = Embedder(DEFAULT_MODEL, 1, "auto")
    assert emb.active_runtime == "torch"
    assert (emb.encode(TEXTS[:1]) * _torch_vectors()[:1]).sum() >= onnx_embed.COSINE_MIN


@pytest.mark.parametrize(
    "damage", ["truncated", "graph-truncated", "flipped", "failed-check", "no-tokenizer", "bad-json"]
)
def test_a_corrupt_export_falls_back_to_torch(
    damage: str, exported: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _use(exported, monkeypatch, tmp_path)
    weights = folder / onnx_embed.WEIGHTS
    if damage == "truncated":
        weights.write_bytes(weights.read_bytes()[: 1 << 20])
    elif damage == "graph-truncated":
        graph = folder / "model.onnx"
        graph.write_bytes(graph.read_bytes()[:1000])
    elif damage == "flipped":  # same size: only the self-check on load (probe 0 vs its recorded
        # vector) can tell. It covers every layer weight (the last half of the file); a flip in the
        # rows of the word-embedding table that probe 0 does not use would pass (no 90 MB hash per query).
        data = bytearray(weights.read_bytes())
        at = len(data) * 3 // 4
        data[at : at + 4096] = b"\x7f" * 4096
        weights.write_bytes(bytes(data))
    elif damage == "failed-check":
        check = json.loads((folder / "check.json").read_text())
        (folder / "check.json").write_text(json.dumps({**check, "passed": False}))
    elif damage == "no-tokenizer":
        (folder / "tokenizer.json").unlink()
    else:
        (folder / "check.json").write_text("{not json")
    emb = Embedder(DEFAULT_MODEL, 1, "auto")
    assert emb.active_runtime == "torch"
    assert (emb.encode(TEXTS) * _torch_vectors()).sum(axis=1).min() >= onnx_embed.COSINE_MIN


def test_runtime_torch_never_uses_the_export(exported: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _use(exported, monkeypatch)
    assert Embedder(DEFAULT_MODEL, 1, "torch").active_runtime == "torch"


def test_index_batches_run_on_the_verified_export_unless_torch(exported: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from drrag_cli.config import Settings
    from drrag_cli.index.build import prepare_runtime

    _use(exported, monkeypatch)
    embedder, record = prepare_runtime(Settings())
    assert record["passages_runtime"] == "onnx" and record["onnx_export"]["graph"] == "bert-fused"
    assert embedder._model is None  # found by file stats: indexing never loads torch
    got = embedder.encode(TEXTS * 4, batch_size=4)  # the all-cores session, several padded batches
    assert (got[:3] * _torch_vectors()).sum(axis=1).min() >= onnx_embed.COSINE_MIN
    embedder, record = prepare_runtime(Settings().replace({"embedding.runtime": "torch"}))
    assert record == {"runtime": "torch", "passages_runtime": "torch"}


def test_an_index_built_on_an_older_export_gets_the_current_one_from_a_run_that_changes_nothing(
    exported: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, corpus: Path, settings: Settings
) -> None:
    """After an upgrade that changes the export's layout, the cache holds only the old one:
    queries would run on torch until the next change, so an unchanged `drrag index` makes it."""
    folder = _use(exported, monkeypatch, tmp_path)
    Index.build([corpus], settings)
    live = next(Path(settings.index.path).glob("gen-*/manifest.json"))
    manifest = json.loads(live.read_text())
    manifest["embedding"]["onnx_export"]["exporter"] = "an older exporter"
    live.write_text(json.dumps(manifest))
    shutil.rmtree(folder)  # the old export is another folder, which this drrag does not find
    report = Index.build([corpus], settings)
    assert report.unchanged == 6 and not report.published
    assert onnx_embed.find_export(*resolve_model(DEFAULT_MODEL)) is not None
    assert Embedder(DEFAULT_MODEL, 1, "auto").active_runtime == "onnx"
