"""CFS keeps a named hop (select/bridges.py) on a tiny corpus with real tantivy, hnswlib,
MiniLM and the shipped classifier: the board update names the client, the client
register's row is about it."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from drrag_cli.pipeline import Pipeline
from tests.retrieve.bridge_corpus import indexed

QUESTION = "In which city is the client that signed the largest new contract of the third quarter headquartered?"
DOCS = {
    "board-q3.md": "# Board update, third quarter\n\nThe largest new contract of the quarter was signed by "
    "Kestrel Rail in August. Revenue grew by twelve percent and we hired two engineers.\n",
    "clients.md": "# Client register\n\n| Client | Sector | Headquarters |\n|---|---|---|\n"
    "| Kestrel Rail | Regional rail operator | Linz |\n| Nortada Ferries | Ferry operator | Aveiro |\n"
    "| Stadsarchief Aalst | Public archive | Aalst |\n",
    "contracts.md": "# Contract templates\n\nEvery new contract starts from the template in the legal folder. "
    "The largest clients sign a framework contract first.\n",
    "offices.md": "# Our offices\n\nOur headquarters are in Ghent, in a former printing house. A second office "
    "opened in the city of Porto in the third quarter.\n",
    "quarterly.md": "# Quarterly planning\n\nEach quarter we review which client signed which contract "
    "and who leads the work.\n",
    "soup.md": "# Lentil soup\n\nSimmer red lentils with cumin and lemon for twenty minutes.\n",
}


@pytest.fixture(scope="module")
def named(tmp_path_factory: pytest.TempPathFactory) -> tuple[Index, Settings]:
    return indexed(tmp_path_factory.mktemp("named"), DOCS)


def cfs(named, **dotted: object):  # noqa: ANN001, ANN201
    index, settings = named
    settings = settings.replace({f"retrieval.{key}": v for key, v in dotted.items()})
    return Pipeline(settings, index=index).retrieve(QUESTION, "cfs", k=4)


def test_cfs_keeps_the_note_about_the_name_the_first_hop_states(named) -> None:  # noqa: ANN001
    result = cfs(named)
    sources = [Path(d.passage.source).name for d in result.documents]
    assert "board-q3.md" in sources and "clients.md" in sources
    walked = [c for q in result.trace["queries"] for c in q["candidates"]]
    hop = next(c for c in walked if c.get("named"))
    assert hop["named"] == "Kestrel Rail" and Path(hop["source"]).name == "clients.md"
    assert hop["decision"] == "kept"


def test_named_hops_can_be_turned_off(named) -> None:  # noqa: ANN001
    result = cfs(named, named_hops=False)
    assert not any(c.get("named") for q in result.trace["queries"] for c in q["candidates"])


def test_the_answer_is_read_from_the_register_row(named) -> None:  # noqa: ANN001
    index, settings = named
    result = Pipeline(settings, index=index).ask(QUESTION)  # the real Gemma, if the table did not answer
    assert result.answer.asked == "Where is Kestrel Rail headquartered?"  # decompose, then "where"
    assert result.answer.text == "Linz" and result.llm_calls == 0
    read = {"row": "Kestrel Rail", "column": "Headquarters", "answer": "Linz", "source": "table"}
    assert result.to_json()["looked_up"] == read
