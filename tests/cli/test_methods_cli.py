"""`drrag ask` / `search` with --rewrite, --refine and -s note through the real commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.retrieve.bridge_corpus import QUESTION, write


@pytest.fixture()
def indexed(cli, tmp_path: Path) -> Path:  # noqa: ANN001
    (tmp_path / "drrag.yaml").write_text("rewrite:\n  cache: false\nnote:\n  t_ci: 1\n  max_tokens: 60\n")
    assert cli("index", str(write(tmp_path / "c")), "--json")[0] == 0
    return tmp_path


def test_ask_with_flags_json_and_explain(cli, indexed: Path) -> None:  # noqa: ANN001
    code, out, err = cli("ask", QUESTION, "--rewrite", "dmqr", "--rewrite-strategies", "kwr,cce", "--refine", "dslr",
                         "--json")  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    answer_calls = 0 if data.get("looked_up") else 1  # a birthplace the text states is read in code
    assert data["strategy"] == "dmqr+cfs+dslr" and data["llm_calls"] == 2 + answer_calls
    assert [r["strategy"] for r in data["rewrites"]["rewrites"]] == ["kwr", "cce"]
    assert data["refine"]["tokens_after"] <= data["refine"]["tokens_before"] and "passages" not in data["refine"]
    code, out, err = cli("ask", QUESTION, "-s", "dmqr+qdc+dslr", "--explain")
    assert code == 0, err
    assert "dmqr requested gqr,kwr,par,cce" in err and "original" in err and "dslr threshold" in err
    assert "Sources" in out and "dmqr:" in out and "dslr:" in out and "tokens" in out


def test_ask_note_json(cli, indexed: Path) -> None:  # noqa: ANN001
    code, out, err = cli("ask", QUESTION, "-s", "note", "--json", "--explain")
    assert code == 0, err
    data = json.loads(out)
    assert data["strategy"] == "note" and data["llm_calls"] == data["note"]["llm_calls"] >= 3
    assert data["note"]["stop_reason"] and data["note"]["steps"][0]["step"] == "init"
    code, out, err = cli("ask", QUESTION, "-s", "note", "--explain")
    assert code == 0 and "adaptive-note" in err and "note:" in err and "LLM calls" in out


@pytest.mark.parametrize("strategy", ["cfs", "cis"])
def test_ask_with_a_bm25_first_stage_answers(cli, indexed: Path, strategy: str) -> None:  # noqa: ANN001
    """The classifier reads q's embedding whatever the first stage: it once got None
    ("classifier expects 384-d embeddings, got 1-d", issue 53)."""
    code, out, err = cli("ask", QUESTION, "--first-stage", "bm25", "-s", strategy, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["answer"] and data["strategy"] == strategy
    assert "Tobias Lindqvist" in {d["title"] for d in data["documents"]}


def test_search_shows_the_refined_context(cli, indexed: Path) -> None:  # noqa: ANN001
    code, out, err = cli("search", QUESTION, "-s", "cfs+dslr", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert "answer" not in data and data["refine"]["tokens_before"] >= data["refine"]["tokens_after"]
    assert all(len(d["refined_text"]) <= len(d["text"]) for d in data["documents"])
    code, out, err = cli("search", QUESTION, "--refine", "dslr")  # the config's strategy (cfs), refined
    assert code == 0 and "dslr:" in out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("search", QUESTION, "-s", "note"), "use drrag ask"),
        (("ask", QUESTION, "--rewrite", "hyde"), "'rewrite.method' in command-line options: must be one of none, dmqr"),
        (("ask", QUESTION, "--rewrite", "dmqr", "--rewrite-strategies", "kwr,xyz"), "(got 'xyz')"),
        (("ask", QUESTION, "--refine", "dlsr"), "'refine.method' in command-line options: must be one of none, dslr"),
        (("ask", QUESTION, "-s", "cfs+cis"), "two strategy parts"),
    ],
)
def test_bad_method_flags_one_line(cli, indexed: Path, args: tuple[str, ...], needle: str) -> None:  # noqa: ANN001
    code, out, err = cli(*args)
    assert code == 1 and needle in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
