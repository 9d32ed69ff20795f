"""One contract for both index backends: local (tantivy + hnswlib) and milvus (index/milvus).

Milvus runs as Milvus Lite, one ``.db`` file per test module; ``DRRAG_TEST_MILVUS_URI=
http://host:19530`` runs the same suite against a Milvus server instead. Every test gets
its own collection. Real components throughout: MiniLM, the shipped classifier, tantivy,
hnswlib, Milvus.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import uuid
from pathlib import Path

import numpy as np
import pytest

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from drrag_cli.index.fusion import rrf
from drrag_cli.pipeline import Pipeline
from tests.conftest import drrag_cmd, write_corpus
from tests.retrieve.bridge_corpus import QUESTION
from tests.retrieve.bridge_corpus import write as write_bridge

SERVER = os.environ.get("DRRAG_TEST_MILVUS_URI", "")
BACKENDS = ("local", "milvus")
STRATEGIES = ("bm25", "sm", "hybrid", "qdc", "cfs", "cis")


@pytest.fixture(scope="module")
def milvus_uri(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The server under test, or one Milvus Lite file shared by this module's tests."""
    pytest.importorskip("pymilvus", reason="the milvus extra: pip install -e '.[test]'")
    return SERVER or str(tmp_path_factory.mktemp("milvus") / "contract.db")


def make_settings(backend: str, ix: Path, uri: str) -> Settings:
    return Settings().replace(
        {
            "index.path": str(ix),
            "index.backend": backend,
            "milvus.uri": uri,
            "milvus.collection": f"t_{uuid.uuid4().hex[:12]}",
        }
    )


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path, milvus_uri: str) -> Settings:
    return make_settings(request.param, tmp_path / "ix", milvus_uri)


def test_build_and_the_three_modes(backend: Settings, tmp_path: Path) -> None:
    report = Index.build([write_corpus(tmp_path / "corpus")], backend)
    index = Index.open(backend)
    assert index.status()["backend"] == backend.index.backend
    assert index.status()["passages"] == report.passages_total
    for mode in ("bm25", "dense", "hybrid"):
        hits = index.search("Where was Mara Quint born?", mode=mode, k=3)
        assert "Tromsø" in hits[0].passage.text, mode
        assert [h.rank for h in hits] == [1, 2, 3]
    assert index.bm25_ranked("?!", 5) == []  # no terms, no hits (as tantivy)
    assert len(index.dense_ranked(index.embed(["x"])[0], 500)) == report.passages_total  # k clamped


def test_passages_and_vectors_by_id_match_the_store(backend: Settings, tmp_path: Path) -> None:
    Index.build([write_corpus(tmp_path / "corpus")], backend)
    index = Index.open(backend)
    ids = [row[0] for row in index.store.all_passages()]
    assert index.passages(ids) == index.store.get(ids)  # text, title, source, lines, page, ids
    assert index.passages([max(ids) + 7]) == {}
    order = ids[::-1]
    vecs = index.vectors(order)
    assert vecs.shape == (len(ids), 384)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    texts = [f"{p.title}\n{p.text}" if p.title else p.text for p in index.passages(order[:3]).values()]
    assert np.allclose(np.sort(vecs[:3] @ index.embed(texts).T, axis=None)[-3:], 1.0, atol=1e-3)
    assert index.vectors([]).shape == (0, 384)


def test_reindex_upserts_changed_and_deletes_removed(backend: Settings, tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    Index.build([corpus], backend)
    (corpus / "notes" / "mara.txt").write_text("Mara Quint was born in Hammerfest, far in the north.\n")
    (corpus / "notes" / "guide.rst").unlink()
    (corpus / "notes" / "wren.md").write_text("# Wren\n\nProject Wren counts otters in the Lofoten fjords.\n")
    report = Index.build([corpus], backend)
    assert (report.updated, report.removed, report.added) == (1, 1, 1)
    index = Index.open(backend)
    for mode in ("bm25", "hybrid"):
        texts = [h.passage.text for h in index.search("Mara Quint born", mode=mode, k=20)]
        assert any("Hammerfest" in t for t in texts) and not any("Tromsø" in t for t in texts), mode
        assert not any("Calibrate" in t for t in texts)
    assert index.search("otters Lofoten", mode="bm25", k=1)[0].passage.source.endswith("wren.md")
    if backend.index.backend == "milvus":
        written = index.manifest["backend"]
        assert (written["inserted"], written["retired"]) == (2, 2)  # only what changed: 1 + 1 in, 1 + 1 out
        assert index.status()["milvus_passages"] == report.passages_total
    assert Index.build([corpus], backend).published is False  # nothing changed, nothing written


def test_backends_agree(tmp_path: Path, milvus_uri: str) -> None:
    """Same corpus, same ids: identical passages and vectors, the same dense list and the
    same matches for BM25, and Milvus's RRF fusing as the local one does."""
    corpus = write_bridge(tmp_path / "bridge")
    local, milvus = (make_settings(b, tmp_path / b, milvus_uri) for b in BACKENDS)
    Index.build([corpus], local)
    Index.build([corpus], milvus)
    a, b = Index.open(local), Index.open(milvus)
    ids = [row[0] for row in a.store.all_passages()]
    assert a.passages(ids) == b.passages(ids)
    assert np.allclose(a.vectors(ids), b.vectors(ids), atol=1e-6)
    vec = a.embed([QUESTION])[0]
    assert [p for p, _ in a.dense_ranked(vec, 5)] == [p for p, _ in b.dense_ranked(vec, 5)]
    # the same terms match (tantivy's en_stem cut on both sides); the order may differ a little:
    # tantivy keeps a field's length in one byte, Milvus exactly
    assert {p for p, _ in a.bm25_ranked(QUESTION, 50)} == {p for p, _ in b.bm25_ranked(QUESTION, 50)}
    assert {p for p, _ in a.bm25_ranked("born Uppsala", 50)} == {p for p, _ in b.bm25_ranked("borne Uppsala's", 50)}
    # hybrid on Milvus is the local RRF of its own BM25 list (title and text summed) and dense list
    depth = local.search.candidates
    fused = rrf([[p for p, _ in b.bm25_ranked(QUESTION, depth)], [p for p, _ in b.dense_ranked(vec, depth)]], k=60)
    assert b.hybrid_ranked(QUESTION, 7, vec) == fused[:7]
    assert b.hybrid_ranked("?!", 3, vec) == [(p, 1 / (60 + r)) for r, (p, _s) in enumerate(b.dense_ranked(vec, 3), 1)]
    for phrase in ("Tobias Lindqvist", "the", "Uppsala's", "no such words", "?!"):  # CFS's "too common" test
        assert a.frequency(phrase) == b.frequency(phrase), phrase
    many = b.ranked_many([QUESTION, "Tobias Lindqvist", "?!"], "hybrid", 3)  # one request for all three
    assert many[0] == b.hybrid_ranked(QUESTION, 3) and many[2] == b.ranked_many(["?!"], "hybrid", 3)[0]
    assert a.ranked_many([QUESTION], "bm25", 3) == [a.bm25_ranked(QUESTION, 3)]
    for name in STRATEGIES:  # the DR-RAG strategies run unchanged on either backend
        got = [
            [
                d.passage.title
                for d in Pipeline(s.replace({"retrieval.k1": 1}), index=ix).retrieve(QUESTION, name, k=4).documents
            ]
            for s, ix in ((local, a), (milvus, b))
        ]
        assert 1 <= len(got[1]) <= 4, name
        # dense alone is identical, and CFS feeds the same documents (BM25 ranks differ a little)
        assert got[0] == got[1] or name not in ("sm", "cfs"), name


def test_an_older_layout_is_refused_by_readers_and_rebuilt_by_a_build(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, milvus_uri: str
) -> None:
    """A schema-3 collection (a third BM25 field, for Milvus's own hybrid) and its manifest:
    `ask` and `search` refuse it in one line naming the rebuild; `drrag index` drops and
    recreates it, so the fields are this schema's and search works."""
    from drrag_cli.errors import IndexMismatchError
    from drrag_cli.index.milvus import schema

    settings = make_settings("milvus", tmp_path / "ix", milvus_uri)
    corpus = write_corpus(tmp_path / "corpus")
    Index.build([corpus], settings)
    index = Index.open(settings)
    record, client = index.manifest["backend"], index.backend.client
    with monkeypatch.context() as patch:  # the old layout, made as that drrag made it
        patch.setattr(schema, "BM25_FIELDS", {**schema.BM25_FIELDS, "boosted_terms": "boosted_sparse"})
        client.drop_collection(record["collection"])
        schema.ensure_collection(client, record["collection"], 384)
    index.backend.close()
    manifest = index.gen / "manifest.json"
    manifest.write_text(json.dumps({**index.manifest, "backend": {**record, "schema": 3}}))
    with pytest.raises(IndexMismatchError, match=r"has schema 3, this drrag reads 4; rebuild it with `drrag index"):
        Index.open(settings).search("Mara Quint", k=1)
    (corpus / "notes" / "mara.txt").write_text("Mara Quint was born in Hammerfest, far in the north.\n")
    Index.build([corpus], settings)  # not --rebuild: the build sees the old fields and starts the collection anew
    index = Index.open(settings)
    fields = {f["name"] for f in index.backend.client.describe_collection(record["collection"])["fields"]}
    assert {f for f in fields if f.endswith("_sparse")} == set(schema.BM25_FIELDS.values())
    assert "Hammerfest" in index.search("Mara Quint born", mode="hybrid", k=1)[0].passage.text
    assert index.status()["milvus_passages"] == index.status()["passages"]


@pytest.mark.skipif(bool(SERVER), reason="a Lite file of its own; against a server the suite's others run")
def test_sigkill_mid_sync_keeps_readers_on_the_old_passages(tmp_path: Path, milvus_uri: str) -> None:
    """`drrag index` SIGKILLed after it inserted the new passages of a changed file and
    retired the old ones, before the manifest swap: readers see the old file whole; the
    next run finishes the sync."""
    corpus = write_corpus(tmp_path / "corpus")
    ix, config = tmp_path / "ix", tmp_path / "milvus.yaml"
    config.write_text(f"index:\n  backend: milvus\nmilvus:\n  uri: {tmp_path / 'crash.db'}\n")
    run = [*drrag_cmd("index", str(corpus), "--index", str(ix), "--config", str(config), "--json")]
    assert subprocess.run(run, capture_output=True, text=True, timeout=300).returncode == 0
    (corpus / "notes" / "mara.txt").write_text("Mara Quint was born in Hammerfest, far in the north.\n")
    env = {**os.environ, "DRRAG_MILVUS_CRASH_AT": "retired"}
    killed = subprocess.run(run, capture_output=True, text=True, timeout=300, env=env)
    assert killed.returncode == -9, killed.stderr

    settings = make_settings("milvus", ix, str(tmp_path / "crash.db"))
    texts = [h.passage.text for h in Index.open(settings).search("Mara Quint born", mode="hybrid", k=20)]
    assert any("Tromsø" in t for t in texts) and not any("Hammerfest" in t for t in texts)
    Index.open(settings).backend.close()  # Milvus Lite: one process at a time

    done = subprocess.run(run, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["files"]["updated"] == 1
    index = Index.open(settings)
    texts = [h.passage.text for h in index.search("Mara Quint born", mode="hybrid", k=20)]
    assert any("Hammerfest" in t for t in texts) and not any("Tromsø" in t for t in texts)
    assert index.status()["milvus_passages"] == index.status()["passages"]
    index.backend.close()
    shutil.rmtree(ix, ignore_errors=True)


def test_milvus_without_the_extra_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from drrag_cli.cli.main import main
    from drrag_cli.config import load_settings
    from drrag_cli.errors import ConfigError

    monkeypatch.setattr("drrag_cli.config.milvus_installed", lambda: False)
    config = tmp_path / "m.yaml"
    config.write_text("index:\n  backend: milvus\n")
    with pytest.raises(ConfigError, match=r"pip install 'drrag-cli\[milvus\]'"):
        load_settings(config)
    assert main(["status", "--config", str(config)]) == 1
