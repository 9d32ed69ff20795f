"""The relevance classifier: numpy forward pass, features, shipped weights, errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from drrag_cli.errors import ModelError
from drrag_cli.select import DocView, RelevanceClassifier
from drrag_cli.select.features import SCALAR_FEATURES, build_features
from drrag_cli.select.train import auc, fit_model


def _unit(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    v = rng.normal(size=(n, dim))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


@pytest.mark.parametrize("hidden", [(8,), (6, 4), ()])
def test_numpy_forward_matches_sklearn(hidden: tuple[int, ...]) -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(120, 5)) * [1, 10, 0.1, 3, 1] + [0, 5, 0, 0, 2]
    y = (x[:, 0] + 0.3 * x[:, 1] > 1.5).astype(int)
    clf, est, xs = fit_model(x, y, hidden=hidden, alpha=1e-3, max_iter=200,
                             meta={"vector_blocks": [], "dim": 0})
    np.testing.assert_allclose(clf.forward(x), est.predict_proba(xs)[:, 1], atol=1e-6)
    assert clf.kind == (f"MLP ({', '.join(map(str, hidden))})" if hidden else "logistic regression")


def test_features_bridge_title_in_text() -> None:
    d1 = ("Kiss and Tell (1945 film)", "Kiss and Tell is a 1945 comedy film starring "
          "Shirley Temple as Corliss Archer.")
    d2 = ("Shirley Temple", "Shirley Temple Black was an American actress and diplomat who "
          "served as Chief of Protocol of the United States.")
    q = "What government position was held by the woman who portrayed Corliss Archer in Kiss and Tell?"
    rng = np.random.default_rng(1)
    v = _unit(rng, 4, 16)
    row = build_features(q, v[0], [d1[0]], [d1[1]], v[1:2], [d2[0]], [d2[1]], v[2:3], v[3:4])[0]
    f = dict(zip(SCALAR_FEATURES, row, strict=True))
    assert f["t2_in_1"] == 1.0  # "Shirley Temple" occurs in d1's text: the bridge
    assert f["t1_in_2"] == 0.0
    assert f["t1_in_q"] == 1.0  # "(1945 film)" qualifier dropped: "Kiss and Tell" is in q
    assert f["t2_in_q"] == 0.0
    assert f["same_title"] == 0.0
    assert f["qcov12"] >= f["qcov1"]
    assert np.isclose(f["cos_q1"], v[0] @ v[1])
    assert np.isclose(f["gain2"], v[3] @ v[2] - v[0] @ v[2])
    # The order matters: swapping d1 and d2 swaps the bridge features.
    row2 = build_features(q, v[0], [d2[0]], [d2[1]], v[2:3], [d1[0]], [d1[1]], v[1:2], v[3:4])[0]
    f2 = dict(zip(SCALAR_FEATURES, row2, strict=True))
    assert (f2["t2_in_1"], f2["t1_in_2"]) == (0.0, 1.0)


def test_shipped_weights_predict_probabilities() -> None:
    clf = RelevanceClassifier.load()
    dim = int(clf.meta["dim"])
    rng = np.random.default_rng(2)
    v = _unit(rng, 7, dim).astype(np.float32)
    docs = [DocView(f"Title {i}", f"Some text about Title {(i + 1) % 6} and 1990.", v[i])
            for i in range(6)]
    pairs = [(docs[i], docs[j]) for i in range(3) for j in range(6) if i != j]
    probs = clf.predict("Who founded Title 2 in 1990?", v[6], pairs)
    assert probs.shape == (len(pairs),)
    assert np.all((probs >= 0) & (probs <= 1))
    assert 0 < clf.threshold < 1
    qstar = [v[0] if i % 2 else None for i in range(len(pairs))]
    mixed = clf.predict("Who founded Title 2 in 1990?", v[6], pairs, qstar)
    assert mixed.shape == probs.shape
    assert np.allclose(mixed[0::2], probs[0::2])  # None → the same fallback as no list
    assert clf.predict("q", v[6], []).shape == (0,)
    for key in ("threshold", "metrics", "training_data", "scalar_features"):
        assert key in clf.meta
    assert set(clf.thresholds) == {"first", "best", "cis"}
    assert clf.thresholds["first"] == clf.threshold
    assert all(0 < t < 1 for t in clf.thresholds.values())


def test_save_load_roundtrip(tmp_path) -> None:
    clf = RelevanceClassifier.load()
    clf.threshold = 0.37
    clf.save(tmp_path / "model")
    again = RelevanceClassifier.load(tmp_path / "model")
    assert again.threshold == 0.37
    x = np.random.default_rng(3).normal(size=(4, clf.mean.shape[0]))
    np.testing.assert_allclose(again.forward(x), clf.forward(x))
    clf.save(tmp_path / "named.npz")
    assert (tmp_path / "named.json").is_file()
    assert RelevanceClassifier.load(tmp_path / "named.json").threshold == 0.37


def test_missing_and_corrupt_weights_raise_model_error(tmp_path) -> None:
    with pytest.raises(ModelError, match="not found"):
        RelevanceClassifier.load(tmp_path / "nowhere")
    RelevanceClassifier.load().save(tmp_path / "m")
    npz = tmp_path / "m" / "relevance.npz"
    npz.write_bytes(b"not a zip file")
    with pytest.raises(ModelError, match="corrupt"):
        RelevanceClassifier.load(tmp_path / "m")
    RelevanceClassifier.load().save(tmp_path / "m")
    meta_path = tmp_path / "m" / "relevance.json"
    meta = json.loads(meta_path.read_text())
    meta_path.write_text("{broken")
    with pytest.raises(ModelError):
        RelevanceClassifier.load(tmp_path / "m")
    bad = dict(meta, vector_blocks=["s*d2"])  # input width no longer matches the arrays
    meta_path.write_text(json.dumps(bad))
    with pytest.raises(ModelError, match="inconsistent"):
        RelevanceClassifier.load(tmp_path / "m")
    meta_path.write_text(json.dumps(dict(meta, scalar_features=["cos_q1"])))
    with pytest.raises(ModelError, match="another feature list"):
        RelevanceClassifier.load(tmp_path / "m")


def test_wrong_embedding_dimension_is_model_error() -> None:
    clf = RelevanceClassifier.load()
    v = np.ones(8, dtype=np.float32) / np.sqrt(8)
    doc = DocView("a", "b", v)
    with pytest.raises(ModelError, match="retrain"):
        clf.predict("q", v, [(doc, doc)])


def test_auc_rank_formula() -> None:
    assert auc(np.array([0, 0, 1, 1]), np.array([0.1, 0.4, 0.35, 0.8])) == 0.75
    assert auc(np.array([1, 1]), np.array([0.1, 0.2])) == 0.5
