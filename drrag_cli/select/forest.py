"""Gradient-boosted trees for the relevance classifier, evaluated with numpy only.

scikit-learn's ``HistGradientBoostingClassifier`` fits the trees (:mod:`drrag_cli.select.train`);
its nodes are exported here to a few padded arrays, one row per tree, so ``drrag ask``
scores a CFS walk without importing sklearn (about a second of start-up). The margin is
the baseline plus, for each tree, the value of the leaf a row reaches; all trees walk
one level per step, so a batch of 40 pairs through 300 trees takes a few numpy calls
per level.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from drrag_cli.errors import ModelError

ARRAYS = ("feature", "threshold", "left", "right", "leaf", "missing_left", "value")
PREFIX = "T_"  # the forest's arrays in relevance.npz


@dataclass(frozen=True)
class Forest:
    """Binary gradient-boosted trees: (n_trees, n_nodes) arrays, node 0 the root."""

    feature: np.ndarray  # int: the feature a split reads (0 at leaves)
    threshold: np.ndarray  # float: x[feature] <= threshold goes left
    left: np.ndarray  # int: child node indices (a leaf points to itself)
    right: np.ndarray
    leaf: np.ndarray  # bool
    missing_left: np.ndarray  # bool: where a NaN feature goes
    value: np.ndarray  # float: a leaf's contribution to the margin
    baseline: float
    depth: int  # the deepest leaf's depth: steps a row needs to reach any leaf

    @classmethod
    def from_sklearn(cls, est: Any) -> Forest:
        """Export a fitted binary ``HistGradientBoostingClassifier``."""
        trees = [p[0].nodes for p in est._predictors]
        if est.n_trees_per_iteration_ != 1 or any(t["is_categorical"].any() for t in trees):
            raise ValueError("only binary classifiers over numeric features can be exported")
        width = max(len(t) for t in trees)
        out = {name: np.zeros((len(trees), width), dtype=kind) for name, kind in (
            ("feature", np.int32), ("threshold", np.float64), ("left", np.int32), ("right", np.int32),
            ("leaf", bool), ("missing_left", bool), ("value", np.float64))}
        for i, nodes in enumerate(trees):
            n, own = len(nodes), np.arange(len(nodes))
            is_leaf = nodes["is_leaf"].astype(bool)
            out["leaf"][i, :n], out["value"][i, :n] = is_leaf, nodes["value"]
            out["leaf"][i, n:] = True  # padding: never reached
            out["feature"][i, :n] = np.where(is_leaf, 0, nodes["feature_idx"])
            out["threshold"][i, :n] = nodes["num_threshold"]
            out["left"][i, :n] = np.where(is_leaf, own, nodes["left"])
            out["right"][i, :n] = np.where(is_leaf, own, nodes["right"])
            out["missing_left"][i, :n] = nodes["missing_go_to_left"].astype(bool)
        depth = max(int(t["depth"].max()) for t in trees)
        return cls(**out, baseline=float(np.ravel(est._baseline_prediction)[0]), depth=depth)

    def margin(self, x: np.ndarray) -> np.ndarray:
        """(n,) log-odds for a feature matrix (n, width)."""
        x = np.asarray(x, np.float64)
        n_trees, width = self.feature.shape
        flat = np.broadcast_to(np.arange(n_trees) * width, (x.shape[0], n_trees)).copy()  # node 0 of each tree
        feature, threshold = self.feature.ravel(), self.threshold.ravel()
        left, right, missing_left = self.left.ravel(), self.right.ravel(), self.missing_left.ravel()
        missing = np.isnan(x).any()
        for _ in range(self.depth):
            xv = np.take_along_axis(x, feature[flat], axis=1)
            go_left = xv <= threshold[flat]
            if missing:
                go_left = np.where(np.isnan(xv), missing_left[flat], go_left)
            flat += np.where(go_left, left[flat], right[flat]) - flat % width
        return self.baseline + self.value.ravel()[flat].sum(axis=1)

    def arrays(self) -> dict[str, np.ndarray]:
        """What ``relevance.npz`` stores (baseline and depth as 0-d arrays)."""
        out = {PREFIX + name: getattr(self, name) for name in ARRAYS}
        out[PREFIX + "baseline"] = np.array(self.baseline)
        out[PREFIX + "depth"] = np.array(self.depth)
        return out

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], width: int) -> Forest:
        """Read :meth:`arrays` back; ``width`` is the feature count the model was fitted on."""
        got = {name: np.asarray(arrays[PREFIX + name]) for name in ARRAYS}
        forest = cls(**got, baseline=float(arrays[PREFIX + "baseline"]), depth=int(arrays[PREFIX + "depth"]))
        shape = forest.feature.shape
        n_nodes = shape[1] if len(shape) == 2 else 0
        ints = all(np.issubdtype(got[name].dtype, np.integer) for name in ("feature", "left", "right"))
        if (not ints or len(shape) != 2 or any(a.shape != shape for a in got.values()) or forest.depth < 0
                or (forest.feature.size and (forest.feature.min() < 0 or forest.feature.max() >= width))
                or (forest.left.size and (min(forest.left.min(), forest.right.min()) < 0
                                          or max(forest.left.max(), forest.right.max()) >= n_nodes))):
            raise ModelError("classifier trees are malformed (array shapes or node indices); retrain it with "
                             "`drrag train-classifier` or reinstall drrag")
        return forest
