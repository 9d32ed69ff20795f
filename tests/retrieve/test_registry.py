"""A new strategy is one class and one registry line: it then runs through `ask`,
`search --strategy` and `eval` with no other edit."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from drrag_cli.retrieve import registry
from drrag_cli.retrieve.context import BaseStrategy, RetrievalResult, RunContext, Selected
from tests.evaluate import tiny_multihop as tiny
from tests.retrieve.bridge_corpus import QUESTION, write


class FirstTwo(BaseStrategy):
    """A toy: the first two documents of the first stage, whatever k says."""

    name = "firsttwo"

    def run(self, question: str, ctx: RunContext) -> RetrievalResult:
        ranked = ctx.first_stage(2)
        found = ctx.fetch([pid for pid, _ in ranked])
        return ctx.result(self.name, [Selected(found[pid], "first-stage", score) for pid, score in ranked])


@pytest.fixture()
def toy() -> Iterator[None]:
    registry.register(FirstTwo())
    yield
    registry.unregister("firsttwo")


def test_a_registered_strategy_runs_everywhere(toy, cli, tmp_path: Path, eval_cache: Path) -> None:  # noqa: ANN001
    assert cli("index", str(write(tmp_path / "c")), "--json")[0] == 0
    code, out, err = cli("search", QUESTION, "--strategy", "firsttwo", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["strategy"] == "firsttwo" and len(data["documents"]) == 2
    code, out, err = cli("ask", QUESTION, "-s", "firsttwo+dslr", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["strategy"] == "firsttwo+dslr" and data["llm_calls"] == 1 and len(data["citations"]) == 2
    questions = tiny.write(tmp_path / "tiny.ircot.jsonl")
    code, out, err = cli("eval", str(questions), "--no-llm", "-s", "firsttwo,bm25", "-k", "3", "--json")
    assert code == 0, err
    rows = {r["strategy"]: r for r in json.loads(out)["rows"]}
    assert rows["firsttwo"]["docs_fed"] == 2 and rows["bm25"]["docs_fed"] == 3


def test_unknown_and_bad_names() -> None:
    from drrag_cli.errors import InputError

    with pytest.raises(InputError, match="choose one of: bm25, sm"):
        registry.get("nope")
    with pytest.raises(ValueError, match="without '\\+'"):
        registry.register(type("Bad", (BaseStrategy,), {"name": "a+b"})())
