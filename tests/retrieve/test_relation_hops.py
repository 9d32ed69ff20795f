"""A two-sided question through a relation ("Which film has the director who is older, A or
B?") reads each side's director: CFS walks from both films' notes (``_sides_first``) to the
note each one's text names as the director (retrieve/strategies.py ``_relation_hops``), with
real tantivy, hnswlib, MiniLM, the shipped classifier and the embedded model's pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from drrag_cli.pipeline import Pipeline
from drrag_cli.retrieve.context import Selected
from drrag_cli.retrieve.strategies import _relation_hops, _sides_first
from drrag_cli.types import Passage
from tests.retrieve.bridge_corpus import indexed

QUESTION = "Which film has the director who is older, Harbour Lights or Salt Meadow?"
DOCS = {
    "harbour-lights.md": "# Harbour Lights\n\nHarbour Lights is a 1961 Norwegian drama film directed by "
    "Maren Solberg and starring Ivar Dahl. It was shot in Tromsø over one winter.\n",
    "salt-meadow.md": "# Salt Meadow\n\nSalt Meadow is a 1958 Danish comedy film directed by Poul Vester, "
    "about a farmer who sells his meadow twice.\n",
    "maren-solberg.md": "# Maren Solberg\n\nMaren Solberg (born 3 May 1921 in Bergen, died 1990) was a "
    "Norwegian film maker and writer.\n",
    "poul-vester.md": "# Poul Vester\n\nPoul Vester (born 14 February 1915 in Aarhus, died 1979) was a "
    "Danish film maker.\n",
    "ivar-dahl.md": "# Ivar Dahl\n\nIvar Dahl (born 1930) was a Norwegian actor of stage and screen.\n",
    "harbour-days.md": "# Harbour Days\n\nHarbour Days is a 1963 film about the lights of a fishing harbour, "
    "remembered for its older cast.\n",
    "festival.md": "# Film festival\n\nThe festival showed films by older and younger directors, "
    "among them a drama and a comedy.\n",
}


@pytest.fixture(scope="module")
def films(tmp_path_factory: pytest.TempPathFactory) -> tuple[Index, Settings]:
    return indexed(tmp_path_factory.mktemp("films"), DOCS)


def test_cfs_walks_from_each_film_to_its_director(films) -> None:  # noqa: ANN001
    index, settings = films
    result = Pipeline(settings, index=index).retrieve(QUESTION, "cfs", k=4)
    sources = {Path(d.passage.source).name for d in result.documents}
    assert {"harbour-lights.md", "salt-meadow.md", "maren-solberg.md", "poul-vester.md"} <= sources
    named = {c["named"] for q in result.trace["queries"] for c in q["candidates"] if c.get("named")}
    assert named == {"Maren Solberg", "Poul Vester"}


def test_an_open_question_walks_to_the_relation_it_asks_for(films) -> None:  # noqa: ANN001
    index, settings = films
    result = Pipeline(settings, index=index).retrieve("Where was the director of film Salt Meadow born?", "cfs", k=4)
    hop = next(c for q in result.trace["queries"] for c in q["candidates"] if c.get("named") == "Poul Vester")
    assert hop["decision"] == "kept" and Path(hop["source"]).name == "poul-vester.md"


def test_the_older_director_is_read_in_code(films) -> None:  # noqa: ANN001
    index, settings = films
    result = Pipeline(settings, index=index).ask(QUESTION)
    assert result.answer.text == "Salt Meadow" and result.llm_calls == 0
    assert result.to_json()["reader"] == "bridge-compare"


def _passage(pid: int, title: str, text: str) -> Passage:
    return Passage(f"{pid}.md", title, text, 0, 0, len(text), passage_id=pid)


def test_no_relation_noun_no_relation_hop() -> None:
    static = _passage(1, "Salt Meadow", "Salt Meadow is a 1958 film directed by Poul Vester.")
    groups = [[Selected(static, "static", 1.0)]]
    found = {2: _passage(2, "Poul Vester", "Poul Vester was a film maker.")}
    assert _relation_hops("director", groups, [[(2, 1)]], found) == {(0, 2): ("Poul Vester", 1)}
    assert _relation_hops("", groups, [[(2, 1)]], found) == {}
    assert _relation_hops("composer", groups, [[(2, 1)]], found) == {}


def test_the_documents_a_two_sided_question_names_walk_first() -> None:
    found = {
        1: _passage(1, "Harbour Days", "Harbour Days is a 1963 film."),
        2: _passage(2, "Harbour Lights", "Harbour Lights is a 1961 film."),
        3: _passage(3, "Festival", "The festival showed films."),
        4: _passage(4, "Salt Meadow", "Salt Meadow is a 1958 film."),
    }
    assert _sides_first(QUESTION, [1, 2, 3, 4], found, 2) == [2, 4, 1, 3]
    assert _sides_first("Who directed Harbour Lights and Salt Meadow?", [1, 2, 3, 4], found, 2) == [1, 2, 3, 4]
    assert _sides_first(QUESTION, [1, 2, 3], found, 2) == [1, 2, 3]  # one side named: as ranked


def test_a_side_two_documents_answer_to_takes_one_slot() -> None:
    """"Harbour Lights (film)" and "Harbour Lights" both answer to the side "Harbour Lights":
    the one titled as the question writes it walks, and the other side keeps its slot."""
    found = {
        1: _passage(1, "Harbour Lights (film)", "Harbour Lights is a 1959 film."),
        2: _passage(2, "Harbour Lights", "Harbour Lights is a 1961 film."),
        3: _passage(3, "Salt Meadow", "Salt Meadow is a 1958 film."),
    }
    assert _sides_first(QUESTION, [1, 2, 3], found, 2) == [2, 3, 1]
    assert _sides_first(QUESTION.replace("Harbour Lights", "Harbour Lights (Film)"), [2, 1, 3], found, 2) == [1, 3, 2]
    yes_no = "Are Harbour Lights and Salt Meadow both Danish films?"  # sides yes | no: one slot per title
    assert _sides_first(yes_no, [3, 2, 1], found, 2) == [3, 2, 1]
