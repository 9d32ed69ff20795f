"""CFS's spare first-stage documents (``retrieval.spare``) with real tantivy, hnswlib,
MiniLM and the shipped classifier: a hiring note outranks Project Heron's overview for
the question, and its walk keeps nothing; the overview and Tobias's profile (the notes of
:mod:`tests.retrieve.bridge_corpus`), next in the first stage, are the pair it needs."""

from __future__ import annotations

import pytest

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from drrag_cli.pipeline import Pipeline
from drrag_cli.retrieve.context import RetrievalResult
from tests.retrieve.bridge_corpus import DOCS as BRIDGE
from tests.retrieve.bridge_corpus import QUESTION, indexed

DOCS = {name: BRIDGE[name] for name in ("heron.md", "tobias.md", "recipe.md")} | {
    "hiring.md": "# Hiring a lead engineer for Project Heron\n\nProject Heron will hire a second lead engineer. "
    "In which city a lead engineer was born does not matter: Heron engineers work from any city.\n",
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Index, Settings]:
    return indexed(tmp_path_factory.mktemp("spare"), DOCS)


def run(corpus: tuple[Index, Settings], spare: float, k: int = 2) -> RetrievalResult:
    index, settings = corpus
    return Pipeline(settings.replace({"retrieval.spare": spare}), index=index).retrieve(QUESTION, "cfs", k=k)


def titles(result: RetrievalResult) -> set[str]:
    return {d.passage.title for d in result.documents}


def test_a_barren_static_document_gives_its_place_to_a_spare_pair(corpus) -> None:  # noqa: ANN001
    off = run(corpus, 0.0)
    assert titles(off) == {"Hiring a lead engineer for Project Heron"}  # its walk kept nothing
    assert not any(q.get("spare") for q in off.trace["queries"])
    on = run(corpus, 0.5)
    assert titles(on) == {"Project Heron", "Tobias Lindqvist"}  # k = 2: the hiring note left
    static = [d for d in on.documents if d.stage == "static"]
    dynamic = [d for d in on.documents if d.stage == "dynamic"]
    assert len(static) == 1 and len(dynamic) == 1 and dynamic[0].via == static[0].passage.passage_id
    assert dynamic[0].classifier_prob >= 0.5
    spare = [q for q in on.trace["queries"] if q.get("spare")]
    assert [c["decision"] for q in spare for c in q["candidates"]].count("kept") == 1
    kept = next(c for q in spare for c in q["candidates"] if c["decision"] == "kept")
    assert all(c["score"] > 0 for q in spare for c in q["candidates"] if c["rank"])  # q* scores, as CFS's walks
    assert round(dynamic[0].score, 6) == kept["score"] > 0


def test_no_spare_below_its_threshold_nor_once_the_pair_is_found(corpus) -> None:  # noqa: ANN001
    assert titles(run(corpus, 0.999)) == {"Hiring a lead engineer for Project Heron"}
    full = run(corpus, 0.5, k=4)  # the overview is a static document: its walk keeps Tobias
    assert {"Project Heron", "Tobias Lindqvist", "Hiring a lead engineer for Project Heron"} <= titles(full)
    spare = [c for q in full.trace["queries"] if q.get("spare") for c in q["candidates"]]
    assert all(c["decision"] == "spare walk" for c in spare)  # the lentil soup is no second hop


def test_a_barren_document_the_first_stage_found_twice_keeps_its_place(tmp_path) -> None:  # noqa: ANN001
    """Two passages of one note in the first stage: such a note usually answers on its own
    (the sample corpus's "Which musical instrument does the Porto office lead play?": Inês
    Carvalho's table and her "plays the cello"), so a spare pair does not push it out; even
    here, where the pair held the answer. That is the rule's price."""
    hiring = DOCS["hiring.md"].rstrip() + " " + " ".join(
        f"Question {n}: in which city was the lead engineer of Project Heron born? It does not matter here."
        for n in range(12)
    )
    corpus = indexed(tmp_path, {**DOCS, "hiring.md": hiring})
    index, settings = corpus
    first = Pipeline(settings.replace({"retrieval.spare": 0.0}), index=index).retrieve(QUESTION, "cfs", k=2)
    held = [d for d in first.documents if d.passage.title.startswith("Hiring")]
    assert len(held) == 2 and titles(first) == {"Hiring a lead engineer for Project Heron"}  # found twice, barren
    assert titles(run(corpus, 0.5)) == {"Hiring a lead engineer for Project Heron"}  # no room made for the pair
