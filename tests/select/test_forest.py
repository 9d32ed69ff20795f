"""Gradient-boosted trees: the numpy walk equals scikit-learn's, on disk and off."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from drrag_cli.errors import ModelError
from drrag_cli.select import RelevanceClassifier
from drrag_cli.select.features import SCALAR_FEATURES
from drrag_cli.select.forest import PREFIX, Forest
from drrag_cli.select.train import fit_model


@cache
def _fitted():  # one fit for the module (its arrays are only read)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(600, len(SCALAR_FEATURES)))  # the feature width a saved model must have
    x[:, 1], x[:, 4] = x[:, 1] * 10 + 5, x[:, 4] + 2
    y = (x[:, 0] + 0.3 * x[:, 1] - x[:, 3] * x[:, 4] + rng.normal(size=600) > 1.5).astype(int)
    return x, fit_model(x, y, model="gbm", meta={"vector_blocks": [], "dim": 0})


def test_numpy_trees_match_sklearn_with_and_without_missing_values() -> None:
    x, (clf, est, xs) = _fitted()
    assert clf.forest is not None and clf.layers == [] and clf.meta["model"] == "gbm"
    np.testing.assert_allclose(clf.forward(x), est.predict_proba(xs)[:, 1], atol=1e-12)
    holes = x.copy()
    holes[::7, 0] = np.nan  # a feature the caller could not compute goes where training sent it
    np.testing.assert_allclose(clf.forward(holes), est.predict_proba((holes - clf.mean) / clf.scale)[:, 1],
                               atol=1e-12)


def test_trees_round_trip_and_malformed_arrays(tmp_path) -> None:
    x, (clf, _est, _xs) = _fitted()
    clf.threshold = 0.42
    clf.save(tmp_path / "trees")
    again = RelevanceClassifier.load(tmp_path / "trees")
    assert again.forest is not None and again.threshold == 0.42
    np.testing.assert_allclose(again.forward(x), clf.forward(x))
    arrays = clf.forest.arrays()
    bad = dict(arrays, **{PREFIX + "left": np.full_like(arrays[PREFIX + "left"], 10_000)})
    with pytest.raises(ModelError, match="malformed"):
        Forest.from_arrays(bad, width=len(SCALAR_FEATURES))
    with pytest.raises(ModelError, match="malformed"):
        Forest.from_arrays(arrays, width=1)  # a split reads a feature the model does not have
    floats = dict(arrays, **{PREFIX + "feature": arrays[PREFIX + "feature"].astype(float)})
    with pytest.raises(ModelError, match="malformed"):
        Forest.from_arrays(floats, width=len(SCALAR_FEATURES))



def test_shipped_classifier_is_trees() -> None:
    clf = RelevanceClassifier.load()
    assert clf.forest is not None and clf.meta["model"] == "gbm"
    assert clf.forest.feature.shape[0] == clf.meta["trees"]["max_iter"]
    assert clf.kind == f"{clf.meta['trees']['max_iter']} gradient-boosted trees"


def test_an_mlp_still_saves_and_loads_beside_the_trees(tmp_path) -> None:
    """A model trained with an earlier drrag (layers, no tree arrays) keeps working."""
    x, _ = _fitted()
    y = (x[:, 0] > 0).astype(int)
    mlp, _est, _xs = fit_model(x, y, hidden=(4,), max_iter=50, meta={"vector_blocks": [], "dim": 0})
    mlp.save(tmp_path / "mlp")
    again = RelevanceClassifier.load(tmp_path / "mlp")
    assert again.forest is None and again.kind == "MLP (4)"
    np.testing.assert_allclose(again.forward(x), mlp.forward(x))
