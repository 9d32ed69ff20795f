"""The relevance classifier C(q, d1, d2) of DR-RAG (SPEC §3), numpy-only at inference.

Gradient-boosted trees (:mod:`drrag_cli.select.forest`, the shipped model), a small
feed-forward network, or a logistic regression (an MLP with no hidden layer) over the
pair features of :mod:`drrag_cli.select.features`. Training uses scikit-learn
(:mod:`drrag_cli.select.train`); the model is exported to ``relevance.npz`` and
``relevance.json`` (feature list, threshold, metrics, training data) and its forward pass
is re-implemented here, so ``drrag ask`` never imports sklearn or torch for it.

A model lives in a folder (``<dir>/relevance.npz`` + ``<dir>/relevance.json``) or at an
explicit ``name.npz`` / ``name.json`` pair; ``load(None)`` is the shipped default.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from drrag_cli.errors import ModelError
from drrag_cli.select.features import SCALAR_FEATURES, VECTOR_BLOCKS, build_features, qstar_fallback
from drrag_cli.select.forest import PREFIX, Forest

FORMAT_VERSION = 1
WEIGHTS_DIR = Path(__file__).parent / "weights"
STEM = "relevance"
_ACTIVATIONS = {
    "relu": lambda x: np.maximum(x, 0.0),
    "tanh": np.tanh,
    "logistic": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "identity": lambda x: x,
}


@dataclass(slots=True)
class DocView:
    """What the classifier sees of one passage."""

    title: str
    text: str
    vec: np.ndarray  # (dim,) normalised: encode(passage_embed_text(title, text))


def model_paths(path: str | Path | None) -> tuple[Path, Path]:
    """(npz, json) for a model folder, an ``.npz``/``.json`` file, or None (shipped)."""
    p = WEIGHTS_DIR if path is None else Path(path).expanduser()
    if p.suffix in (".npz", ".json"):
        return p.with_suffix(".npz"), p.with_suffix(".json")
    return p / f"{STEM}.npz", p / f"{STEM}.json"


def _sigmoid(z: np.ndarray) -> np.ndarray:
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    ez = np.exp(z[~pos])
    out[~pos] = ez / (1.0 + ez)
    return out


class RelevanceClassifier:
    """C(q, d1, d2) → probability that both passages are needed to answer q.

    ``predict`` is batched: one call scores every pair of a CFS walk step or of a CIS
    context. Pairs are ordered: d1 is the static document whose q* produced d2.
    """

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], mean: np.ndarray,
                 scale: np.ndarray, meta: dict, forest: Forest | None = None) -> None:
        self.forest = forest  # trees instead of layers (then ``layers`` is empty)
        self.layers = [(np.asarray(w, np.float64), np.asarray(b, np.float64)) for w, b in layers]
        self.mean = np.asarray(mean, np.float64)
        self.scale = np.asarray(scale, np.float64)
        self.meta = meta
        self.threshold = float(meta.get("threshold", 0.5))
        self.blocks: list[str] = list(meta.get("vector_blocks", []))
        self.activation = str(meta.get("activation", "relu"))
        self.fallback = list(meta.get("qstar_fallback", [0.5, 0.5]))
        self._check()

    def _check(self) -> None:
        names = self.meta.get("scalar_features")
        if names is not None and list(names) != list(SCALAR_FEATURES):
            raise ModelError("classifier was trained with another feature list; retrain it "
                             "with `drrag train-classifier` for this drrag version")
        unknown = [b for b in self.blocks if b not in VECTOR_BLOCKS]
        if unknown or self.activation not in _ACTIVATIONS:
            raise ModelError(f"classifier meta names unknown blocks/activation: "
                             f"{unknown or self.activation}")
        if self.forest is None and (not self.layers or self.layers[-1][0].shape[1] != 1):
            raise ModelError("classifier weights are malformed (no single output unit)")
        width = self.mean.shape[0]
        for w, b in self.layers:
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise ModelError("classifier weights are malformed (layer shapes do not chain)")
            width = w.shape[1]
        if self.scale.shape != self.mean.shape:
            raise ModelError("classifier weights are malformed (scale/mean shapes differ)")
        if names is None:  # a bare network (tests, export checks): no feature contract
            return
        dim = self.meta.get("dim")
        expected = len(SCALAR_FEATURES) + (int(dim) if dim else 0) * len(self.blocks)
        if self.blocks and not dim or self.mean.shape[0] != expected:
            raise ModelError(f"classifier input width {self.mean.shape[0]} does not match its "
                             f"feature list ({expected}); the files are inconsistent")

    # ----------------------------------------------------------------- persistence
    @classmethod
    def load(cls, path: str | Path | None = None) -> RelevanceClassifier:
        """Load a saved model; None → the weights shipped in ``drrag_cli/select/weights``."""
        npz_path, json_path = model_paths(path)
        for p in (npz_path, json_path):
            if not p.is_file():
                raise ModelError(f"classifier file {p} not found; pass a folder or .npz written "
                                 "by `drrag train-classifier`, or omit it for the default")
        try:
            meta = json.loads(json_path.read_text(encoding="utf-8"))
            with np.load(npz_path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
            n = int(meta["n_layers"])
            layers = [(arrays[f"W{i}"], arrays[f"b{i}"]) for i in range(n)]
            forest = None
            if any(k.startswith(PREFIX) for k in arrays):
                forest = Forest.from_arrays(arrays, width=int(arrays["mean"].shape[0]))
            return cls(layers, arrays["mean"], arrays["scale"], meta, forest)
        except ModelError:
            raise
        except (OSError, ValueError, KeyError, TypeError, AttributeError,
                zipfile.BadZipFile) as err:
            raise ModelError(f"classifier at {npz_path.parent} is unreadable or corrupt "
                             f"({type(err).__name__}: {err}); retrain it or reinstall drrag") \
                from None

    def save(self, path: str | Path) -> None:
        """Write ``relevance.npz`` + ``relevance.json`` (folder) or ``name.npz``/``.json``."""
        npz_path, json_path = model_paths(path)
        npz_path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {"mean": self.mean, "scale": self.scale}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"W{i}"], arrays[f"b{i}"] = w, b
        if self.forest is not None:
            arrays.update(self.forest.arrays())
        with npz_path.open("wb") as fh:
            np.savez_compressed(fh, **arrays)
        meta = dict(self.meta, format_version=FORMAT_VERSION, n_layers=len(self.layers),
                    threshold=self.threshold, vector_blocks=self.blocks,
                    activation=self.activation, qstar_fallback=self.fallback,
                    scalar_features=list(SCALAR_FEATURES))
        json_path.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        self.meta = meta

    # ------------------------------------------------------------------- inference
    def forward(self, features: np.ndarray) -> np.ndarray:
        """Probabilities for a raw feature matrix (n, width): standardise, trees or MLP, sigmoid."""
        x = (np.asarray(features, np.float64) - self.mean) / self.scale
        if self.forest is not None:
            return _sigmoid(self.forest.margin(x))
        act = _ACTIVATIONS[self.activation]
        for w, b in self.layers[:-1]:
            x = act(x @ w + b)
        w, b = self.layers[-1]
        return _sigmoid((x @ w + b)[:, 0])

    def features(self, question: str, q_vec: np.ndarray,
                 pairs: Sequence[tuple[DocView, DocView]],
                 qstar_vecs: Sequence[np.ndarray | None] | None = None) -> np.ndarray:
        """The feature matrix `predict` feeds the network (exposed for training/eval)."""
        q = np.asarray(q_vec, np.float64).reshape(-1)
        v1 = np.stack([np.asarray(a.vec, np.float64).reshape(-1) for a, _ in pairs])
        v2 = np.stack([np.asarray(b.vec, np.float64).reshape(-1) for _, b in pairs])
        if v1.shape[1] != q.shape[0] or v2.shape[1] != q.shape[0]:
            raise ValueError("question and passage embeddings differ in dimension")
        s = qstar_fallback(q, v1, self.fallback)
        if qstar_vecs is not None:
            if len(qstar_vecs) != len(pairs):
                raise ValueError("qstar_vecs must have one entry (or None) per pair")
            for i, sv in enumerate(qstar_vecs):
                if sv is not None:
                    s[i] = np.asarray(sv, np.float64).reshape(-1)
        return build_features(
            question, q,
            [a.title for a, _ in pairs], [a.text for a, _ in pairs], v1,
            [b.title for _, b in pairs], [b.text for _, b in pairs], v2,
            s, self.blocks,
        )

    def predict(self, question: str, q_vec: np.ndarray,
                pairs: Sequence[tuple[DocView, DocView]],
                qstar_vecs: Sequence[np.ndarray | None] | None = None) -> np.ndarray:
        """(n,) probabilities that d1 and d2 of each pair are both needed for `question`.

        ``qstar_vecs[i]`` is the embedding of ``concat_query(question, d1.title, d1.text)``
        for pair i (QDC computes it anyway). Where it is None (or ``qstar_vecs`` is None)
        it is approximated by normalise(a·q_vec + b·d1.vec) with (a, b) fitted at
        training time (``meta["qstar_fallback"]``) — somewhat less accurate, see the card.
        """
        if len(pairs) == 0:
            return np.zeros(0, dtype=np.float64)
        dim = self.meta.get("dim")
        if dim and np.asarray(q_vec).size != int(dim):
            raise ModelError(f"classifier expects {dim}-d embeddings, got "
                             f"{np.asarray(q_vec).size}-d; retrain it for this embedding model")
        return self.forward(self.features(question, q_vec, pairs, qstar_vecs))

    @property
    def kind(self) -> str:
        """What the model is, for `drrag doctor`: "300 gradient-boosted trees", "MLP (32)"."""
        if self.forest is not None:
            return f"{self.forest.feature.shape[0]} gradient-boosted trees"
        hidden = [w.shape[1] for w, _ in self.layers[:-1]]
        return f"MLP ({', '.join(map(str, hidden))})" if hidden else "logistic regression"

    @property
    def thresholds(self) -> dict[str, float]:
        """Threshold per selection rule, each chosen by replaying it on held-out data:

        * ``first`` — CFS as in the paper: keep the first candidate of a q* walk ≥ it
          (this is :attr:`threshold`);
        * ``best`` — CFS scoring the whole walk in one batch and keeping its top
          candidate if ≥ it (better recall, see the model card);
        * ``cis`` — CIS: drop a document whose best pair (either order) is below it.
        """
        given = self.meta.get("thresholds") or {}
        out = {"first": self.threshold, "best": self.threshold, "cis": min(0.1, self.threshold)}
        out.update({k: float(v) for k, v in given.items() if k in ("best", "cis")})
        return out

    def decide(self, probs: np.ndarray) -> np.ndarray:
        """Boolean positives at the model's threshold."""
        return np.asarray(probs) >= self.threshold
