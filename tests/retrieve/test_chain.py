"""CFS's third hop (``retrieval.chain``) on a three-hop corpus, with real tantivy, hnswlib,
MiniLM and the shipped classifier: Project Heron names Tobias Lindqvist, whose profile
names the university he attended, whose page says when it was founded."""

from __future__ import annotations

import pytest

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from drrag_cli.pipeline import Pipeline
from drrag_cli.retrieve.context import RetrievalResult
from tests.retrieve.bridge_corpus import indexed

QUESTION = "In which year was the university attended by the lead engineer of Project Heron founded?"
DOCS = {
    "heron.md": "# Project Heron\n\nProject Heron is a search prototype for field notes. "
    "Its lead engineer is Tobias Lindqvist, who designed the ranking pipeline.\n",
    "tobias.md": "# Tobias Lindqvist\n\nTobias Lindqvist grew up by the Fyris river. "
    "He was born in Uppsala in 1988 and studied computer science at Lund University.\n",
    "lund.md": "# Lund University\n\nLund University is a public research university in southern Sweden. "
    "It was founded in 1666 and is one of the oldest universities in Scandinavia.\n",
    "kestrel.md": "# Project Kestrel\n\nThe lead engineer of Project Kestrel studied at a university in Lisbon, "
    "a city she still calls home. Kestrel is a mapping project.\n",
    "plover.md": "# Project Plover\n\nProject Plover's lead engineer studied in the city of Porto. "
    "Plover ingests sensor data for engineers.\n",
    "recipe.md": "# Lentil soup\n\nSimmer red lentils with cumin, garlic and lemon for twenty minutes.\n",
}


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> tuple[Index, Settings]:
    return indexed(tmp_path_factory.mktemp("chain"), DOCS)


def run(chain: tuple[Index, Settings], threshold: float, k: int = 4, links: int = 3) -> RetrievalResult:
    index, settings = chain
    settings = settings.replace({"retrieval.chain": threshold, "retrieval.chain_links": links})
    return Pipeline(settings, index=index).retrieve(QUESTION, "cfs", k=k)


def titles(result: RetrievalResult) -> list[str]:
    return [d.passage.title for d in result.documents]


def test_the_third_hop_is_walked_from_the_second_and_kept_in_a_free_slot(chain) -> None:  # noqa: ANN001
    # the shipped classifier scores Lund University ~0.01 after Tobias's profile: below the
    # default 0.8, so a low threshold shows the mechanism
    off = run(chain, 0.0)
    assert "Tobias Lindqvist" in titles(off) and "Lund University" not in titles(off)
    assert not any(q.get("third_hop") for q in off.trace["queries"])
    on = run(chain, 0.001)
    assert set(titles(off)) < set(titles(on)) and "Lund University" in titles(on)  # only added to
    tobias = next(d for d in on.documents if d.passage.title == "Tobias Lindqvist")
    lund = next(d for d in on.documents if d.passage.title == "Lund University")
    assert lund.stage == "dynamic" and lund.via == tobias.passage.passage_id
    third = [q for q in on.trace["queries"] if q.get("third_hop")]
    assert [q["from"] for q in third] == [tobias.passage.passage_id]
    assert third[0]["candidates"][-1]["title"] == "Lund University"
    assert third[0]["candidates"][-1]["decision"] == "kept"
    assert len({d.passage.source for d in on.documents}) <= 4


def test_no_third_hop_in_a_full_context_or_below_the_threshold(chain) -> None:  # noqa: ANN001
    full = run(chain, 0.001, k=2)  # the static document and Tobias fill k = 2
    assert "Lund University" not in titles(full)
    default = run(chain, Settings().retrieval.chain)
    third = [q for q in default.trace["queries"] if q.get("third_hop")]
    assert all(c["decision"] == "below threshold" for q in third for c in q["candidates"])
    assert "Lund University" not in titles(default)


def test_a_question_with_enough_links_takes_one_slot_beyond_k(chain) -> None:  # noqa: ANN001
    # the question's links are "which" and "by the": two, below three
    assert "Lund University" not in titles(run(chain, 0.001, k=2))
    wider = run(chain, 0.001, k=2, links=2)
    assert "Lund University" in titles(wider) and len({d.passage.source for d in wider.documents}) == 3
    assert "Lund University" not in titles(run(chain, 0.001, k=2, links=0))  # 0: never
