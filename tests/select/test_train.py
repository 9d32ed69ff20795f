"""`train_classifier` end to end on a tiny IRCoT-style fixture (real MiniLM embedder)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from drrag_cli.errors import InputError
from drrag_cli.select import DocView, RelevanceClassifier
from drrag_cli.select.train import train_classifier

PEOPLE = [("Mara Quint", "Blue Harbor", "Tom Reyes"), ("Ivo Brandt", "Salt Roads", "Lena Okafor"),
          ("Nadia Ferro", "Glass Orchard", "Piet Vander"), ("Owen Sollis", "Night Ferry",
          "Ruth Amadi"), ("Kira Lomax", "Paper Moons", "Dev Ashworth"),
          ("Elio Marsh", "Iron Summer", "Greta Holm"), ("Yara Pell", "Quiet Coast", "Sami Eze"),
          ("Bram Okoro", "Red Lantern Hill", "Ines Vidal")]


def _record(i: int, actor: str, film: str, director: str, gold: int = 2) -> dict:
    paras = [
        (actor, f"{actor} is an actress best known for starring in the film {film}.", True),
        (film, f"{film} is a drama film directed by {director} and released in {1990 + i}.",
         gold == 2),
        (f"{director} (painter)", f"{director} is a painter from Lisbon, unrelated to film.",
         False),
        (f"{film} (song)", f"{film} is a song recorded by a rock band in {1970 + i}.", False),
    ]
    return {"question_id": f"q{i}",
            "question_text": f"Who directed the film that starred {actor}?",
            "answers_objects": [{"spans": [director]}],
            "contexts": [{"id": str(j), "title": t, "paragraph_text": x, "is_supporting": s}
                         for j, (t, x, s) in enumerate(paras)]}


def _write(path: Path, gold: int = 2) -> Path:
    lines = [json.dumps(_record(i, *p, gold=gold)) for i, p in enumerate(PEOPLE)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _cache(eval_cache: Path) -> None:
    """Training indexes each dataset's paragraphs in the (test session's) eval cache."""


@pytest.mark.slow
def test_train_classifier_on_tiny_dataset(tmp_path: Path) -> None:
    data = _write(tmp_path / "tiny.jsonl")
    messages: list[str] = []
    report = train_classifier([data], tmp_path / "model", val_fraction=0.25,
                              progress=messages.append)
    assert messages and 0 < report["threshold"] < 1
    assert report["train_positives"] > 0
    clf = RelevanceClassifier.load(tmp_path / "model")
    assert clf.meta["training_data"][0]["questions"] == len(PEOPLE)
    assert clf.meta["embedding_model"]
    from drrag_cli.index.embedder import get_embedder, passage_embed_text

    emb = get_embedder()
    docs = [("Mara Quint", "Mara Quint is an actress best known for starring in Blue Harbor."),
            ("Blue Harbor", "Blue Harbor is a drama film directed by Tom Reyes.")]
    vecs = emb.encode([passage_embed_text(t, x) for t, x in docs])
    views = [DocView(t, x, v) for (t, x), v in zip(docs, vecs, strict=True)]
    q = "Who directed the film that starred Mara Quint?"
    probs = clf.predict(q, emb.encode([q])[0], [(views[0], views[1]), (views[1], views[0])])
    assert probs.shape == (2,) and np.all((probs >= 0) & (probs <= 1))


def test_no_positive_pairs_is_input_error(tmp_path: Path) -> None:
    data = _write(tmp_path / "one_gold.jsonl", gold=1)
    with pytest.raises(InputError, match="no positive"):
        train_classifier([data], tmp_path / "m")
    assert not (tmp_path / "m").exists()


def test_tiny_data_without_validation_still_trains(tmp_path: Path) -> None:
    data = _write(tmp_path / "tiny.jsonl")
    report = train_classifier([data], tmp_path / "m.npz", val_fraction=0.0, max_questions=3)
    assert "F1 on training pairs" in report["threshold_rule"]
    assert RelevanceClassifier.load(tmp_path / "m.npz").meta["dim"] == 384


def test_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        train_classifier([], tmp_path / "m")
    with pytest.raises(InputError, match="val_fraction"):
        train_classifier([_write(tmp_path / "d.jsonl")], tmp_path / "m", val_fraction=1.5)
