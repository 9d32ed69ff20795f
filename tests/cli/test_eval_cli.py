"""`drrag eval` through the real command: JSON shape, resume, the embedded LLM, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.evaluate import tiny_multihop as tiny

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def gguf() -> Path:
    from drrag_cli.llm.llm import default_model_path

    return default_model_path()  # into the real user cache: session fixtures run before `data` moves it


@pytest.fixture()
def data(eval_cache: Path, tmp_path: Path) -> Path:
    """The tiny set in the working dir, a session-wide eval cache, one torch / two llama threads."""
    (tmp_path / "drrag.yaml").write_text("embedding:\n  threads: 1\nllm:\n  threads: 2\n", encoding="utf-8")
    return tiny.write(tmp_path / "tiny.ircot.jsonl")


def count(out: Path) -> int:
    return len((out / "per_question.jsonl").read_text(encoding="utf-8").splitlines())


def test_no_llm_json_then_resume_with_table(cli, data: Path, tmp_path: Path) -> None:  # noqa: ANN001
    out = tmp_path / "out"
    args = ("eval", str(data), "--no-llm", "-s", "bm25,hybrid", "-k", "2,3", "--out", str(out))
    code, stdout, _ = cli(*args, "--limit", "2", "--json")
    assert code == 0
    first = json.loads(stdout)
    assert first["questions"] == 2 and first["corpus_passages"] == tiny.N_PARAGRAPHS  # whole corpus, not 2 qs'
    assert [r["n"] for r in first["rows"]] == [2, 2, 2, 2] and count(out) == 8
    assert all(r["em"] is None and 0 <= r["recall"] <= 1 and r["docs_fed"] <= r["k"] for r in first["rows"])

    code, stdout, stderr = cli(*args)  # the full run resumes: only questions 3 and 4 are computed
    assert code == 0 and count(out) == 16
    assert "strategy" in stdout and "hybrid" in stdout and "recall" in stdout and "8 resumed" in stdout
    assert "wrote" in stderr
    done = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert (done["questions"], done["resumed"], done["computed"], done["complete"]) == (4, 8, 8, True)

    code, _, stderr = cli(*args[:-2], "--out", str(out), "-k", "3")  # other settings: refused
    assert code == 1 and "--force" in stderr and len(stderr.strip().splitlines()) == 1


def test_embedded_llm_on_three_questions(cli, data: Path, tmp_path: Path, gguf: Path) -> None:  # noqa: ANN001
    strategies = [s for s in tiny.strategies() if s in ("hybrid", "qdc", "cfs", "cis")]
    out = tmp_path / "out"
    code, stdout, _ = cli(
        "eval", str(data), "--limit", "3", "-s", ",".join(strategies), "-k", "2",
        "--model", str(gguf), "--out", str(out), "--json",
    )  # fmt: skip
    assert code == 0
    res = json.loads(stdout)
    assert res["model"] == str(gguf) and res["questions"] == 3 and len(res["rows"]) == len(strategies)
    for row in res["rows"]:
        assert all(0 <= row[m] <= 1 for m in ("recall", "em", "f1", "acc")), row
        assert 0 < row["llm_calls"] <= 1 and 0 < row["docs_fed"] <= 2 and row["generate_s"] > 0  # q1: maybe read
        assert row["sec_per_q"] >= row["generate_s"] and row["n"] == 3
    for rec in map(json.loads, (out / "per_question.jsonl").read_text(encoding="utf-8").splitlines()):
        read = rec.get("looked_up", {}).get("source") == "text"  # "She was born in Ghent": no model call
        assert rec["llm_calls"] == (0 if read else 1) and isinstance(rec["answer"], str) and rec["em"] in (0.0, 1.0)
    assert "| hybrid | 2 |" in (out / "results.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("make", "extra", "needle"),
    [
        (None, (), "file not found"),
        (lambda p: p.write_text('{"foo": 1}\n'), (), "unknown dataset format"),
        ("tiny", ("-s", "bm25,nope"), "unknown strategy 'nope'"),
        ("tiny", ("-k", "3,x"), "-k expects"),
        ("tiny", ("-k", "3", "--llm-k", "4"), "--llm-k"),
        ("tiny", ("--offset", "9"), "skips all 4 questions"),
    ],
)
def test_errors_are_one_line_exit_1(cli, data: Path, tmp_path: Path, make, extra, needle: str) -> None:  # noqa: ANN001
    path = data if make == "tiny" else tmp_path / "questions.jsonl"
    if callable(make):
        make(path)
    code, stdout, stderr = cli("eval", str(path), "--no-llm", *extra)
    assert code == 1 and stdout == "" and needle in stderr, stderr
    assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr


def test_help_has_examples(cli) -> None:  # noqa: ANN001
    code, stdout, _ = cli("eval", "--help")
    assert code == 0 and "Example" in stdout and "--no-llm" in stdout and "resume" in stdout


def test_method_specs_are_rows_with_tokens_and_calls(cli, data: Path, tmp_path: Path) -> None:  # noqa: ANN001
    """cfs+dslr, dmqr+cfs and note with the embedded GGUF: named rows, tokens_fed, LLM calls."""
    out = tmp_path / "out"
    specs = "cfs,cfs+dslr,dmqr+cfs,note"
    code, stdout, stderr = cli(
        "eval", str(data), "--limit", "2", "--no-llm", "-s", specs, "-k", "2", "--calibrate-dslr", "50",
        "--out", str(out), "--json",
    )  # fmt: skip
    assert code == 0, stderr
    res = json.loads(stdout)
    rows = {r["strategy"]: r for r in res["rows"]}
    assert list(rows) == specs.split(",")
    assert all(r["tokens_fed"] > 0 and r["n"] == 2 for r in rows.values())
    assert rows["cfs+dslr"]["tokens_fed"] <= rows["cfs"]["tokens_fed"]
    assert rows["cfs"]["llm_calls"] is None and rows["cfs+dslr"]["llm_calls"] is None  # no LLM asked for
    assert rows["dmqr+cfs"]["llm_calls"] >= 1  # the rewrites (cached after the first run of a question)
    assert rows["note"]["llm_calls"] >= 2 and rows["note"]["em"] is None  # a note run, answers not scored
    cal = res["dslr_calibration"]
    assert cal["percentile"] == 50 and cal["strategy"] == "cfs" and cal["sentences"] > 0
    assert res["run"]["refine"]["threshold"] == cal["threshold"]  # the run used it; the settings stay as loaded
    assert f"refine.threshold: {cal['threshold']}" in stderr
    recs = [json.loads(line) for line in (out / "per_question.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all("stop_reason" in r for r in recs if r["strategy"] == "note")
    assert all(len(r["rewrites"]) == 4 for r in recs if r["strategy"] == "dmqr+cfs")
    assert all(r["tokens_selected"] >= r["tokens_fed"] for r in recs if r["strategy"] == "cfs+dslr")


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (("-s", "cfs+qdc"), "two strategy parts"),
        (("-s", "note+dslr"), "run it alone"),
        (("-s", "cfs", "--calibrate-dslr", "50"), "needs a strategy with +dslr"),
        (("-s", "cfs+dslr", "--calibrate-dslr", "150"), "between 0 and 100"),
    ],
)
def test_method_spec_errors(cli, data: Path, extra: tuple[str, ...], needle: str) -> None:  # noqa: ANN001
    code, stdout, stderr = cli("eval", str(data), "--no-llm", *extra)
    assert code == 1 and stdout == "" and needle in stderr, stderr
    assert len(stderr.strip().splitlines()) == 1
