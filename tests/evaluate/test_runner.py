"""The eval runner end to end on a tiny multi-hop set (real index, MiniLM; no LLM here).

The LLM path is covered by tests/cli/test_eval_cli.py with the real Gemma GGUF.
"""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import pytest

from drrag_cli.config import Settings
from drrag_cli.errors import InputError
from drrag_cli.evaluate import load_dataset
from drrag_cli.evaluate.result import ROW_KEYS
from drrag_cli.evaluate.runner import EvalInterrupted, run_eval
from drrag_cli.index.api import Index
from drrag_cli.index.paragraphs import index_paragraphs
from drrag_cli.pipeline import Pipeline
from tests.evaluate import tiny_multihop as tiny

FAST = ["bm25", "hybrid"]


def make_settings() -> Settings:
    """Defaults with one torch thread: on 2 shared cores all-core torch is ~15x slower per query."""
    return Settings().replace({"embedding.threads": 1})


@pytest.fixture(autouse=True)
def _eval_cache(eval_cache: Path) -> None:
    """One cache for the session: the tiny corpus is indexed once, as users get it."""


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    return load_dataset(tiny.write(tmp_path_factory.mktemp("data") / "tiny.ircot.jsonl"))


def lines(out: Path) -> list[dict[str, Any]]:
    text = (out / "per_question.jsonl").read_text(encoding="utf-8")
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def test_no_llm_end_to_end(dataset, tmp_path: Path) -> None:  # noqa: ANN001
    strategies, ks, out = tiny.strategies(), [2, 3], tmp_path / "out"
    result = run_eval(dataset, make_settings(), strategies, ks, llm=False, out=out)
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert data == json.loads(json.dumps(result.to_json()))
    assert (data["dataset"], data["format"], data["questions"]) == ("tiny.ircot", "ircot", 4)
    assert data["corpus_passages"] == tiny.N_PARAGRAPHS  # deduplicated, one passage per paragraph
    assert data["settings"]["index"]["chunk_words"] == 1000
    assert data["model"].endswith(".gguf")  # tokens_fed is counted with the LLM's tokenizer
    assert data["complete"] and not data["interrupted"] and data["computed"] == 4 * len(strategies) * len(ks)
    assert [(r["strategy"], r["k"]) for r in data["rows"]] == [(s, k) for s in strategies for k in ks]
    for row in data["rows"]:
        assert tuple(row) == ROW_KEYS and row["n"] == 4
        assert 0 <= row["recall"] <= 1 and 0 < row["docs_fed"] <= row["k"]
        assert row["em"] is row["f1"] is row["acc"] is row["llm_calls"] is row["generate_s"] is None
        assert row["sec_per_q"] >= row["retrieve_s"] >= 0
    by = {(r["strategy"], r["k"]): r["recall"] for r in data["rows"]}
    for single in ("bm25", "sm", "hybrid"):  # top-3 contains top-2
        assert by[(single, 3)] >= by[(single, 2)]
    assert by[("qdc", 2)] == 1.0  # the second hop is found through the first one

    records = lines(out)
    assert len(records) == 4 * len(strategies) * len(ks)
    keys = {p.key for p in dataset.corpus}
    golds = {ex.qid: ex.gold_keys for ex in dataset.examples}
    for rec in records:
        assert set(rec["fed"]) <= keys and rec["gold"] == golds[rec["qid"]] and len(rec["gold"]) == 2
        assert rec["recall"] == len(set(rec["fed"]) & set(rec["gold"])) / 2
        assert rec["answer"] is None and set(rec["timings"]) == {"retrieve_s", "classify_s", "generate_s", "total_s"}
    assert "| qdc | 2 | 100.0 |" in (out / "results.md").read_text(encoding="utf-8")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert not (out / "recall_vs_k.png").exists() and "matplotlib" in data["notes"][0]
    else:
        assert (out / "recall_vs_k.png").stat().st_size > 0

    again = make_settings().replace({"index.chunk_words": 1000})
    path, report = index_paragraphs(dataset.corpus, again)  # the cached index is reused as is
    assert not report.published and report.passages_total == tiny.N_PARAGRAPHS
    assert str(path) == data["index"]


def test_interrupt_from_progress_keeps_partial_then_resumes(dataset, tmp_path: Path) -> None:  # noqa: ANN001
    out = tmp_path / "out"

    def progress(done: int, total: int, record: dict | None) -> None:
        assert total == 16
        if record is not None and done == 3:
            raise KeyboardInterrupt

    with pytest.raises(EvalInterrupted) as info:
        run_eval(dataset, make_settings(), FAST, [2, 3], llm=False, out=out, progress=progress)
    partial = info.value.result
    assert partial.interrupted and len(partial.records) == 3 and sum(r["n"] for r in partial.rows) == 3
    assert len(lines(out)) == 3
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert data["interrupted"] and not data["complete"] and data["computed"] == 3

    seen: list[int] = []
    result = run_eval(
        dataset, make_settings(), FAST, [2, 3], llm=False, out=out, progress=lambda d, t, r: seen.append(d)
    )
    assert seen[0] == 3 and seen[-1] == 16 and result.meta["resumed"] == 3 and result.meta["computed"] == 13
    records = lines(out)
    assert len(records) == 16 == len({(r["qid"], r["strategy"], r["k"]) for r in records})


class FlakyPipeline:
    """A real Pipeline that raises KeyboardInterrupt on its n-th retrieval (Ctrl-C mid-question)."""

    def __init__(self, inner: Pipeline, fail_at: int) -> None:
        self.inner, self.fail_at, self.calls = inner, fail_at, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def retrieve(self, question: str, strategy: str | None = None, **per_call: Any) -> Any:
        self.calls += 1
        if self.calls == self.fail_at:
            raise KeyboardInterrupt
        return self.inner.retrieve(question, strategy, **per_call)


def test_interrupt_inside_pipeline_and_torn_line(dataset, tmp_path: Path) -> None:  # noqa: ANN001
    settings, out = make_settings().replace({"index.chunk_words": 1000}), tmp_path / "out"
    path, _ = index_paragraphs(dataset.corpus, settings)
    flaky = FlakyPipeline(Pipeline(settings, index=Index.open(settings, path)), fail_at=5)
    with pytest.raises(EvalInterrupted):
        run_eval(dataset, settings, FAST, [2, 3], llm=False, out=out, pipeline=flaky)
    assert len(lines(out)) == 4 and settings.retrieval.k == 4  # k is per call: the settings never change
    with (out / "per_question.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"qid": "q3", "strategy": "hyb')  # killed mid-write
    result = run_eval(dataset, settings, FAST, [2, 3], llm=False, out=out, pipeline=flaky)
    assert result.meta["resumed"] == 4 and result.meta["complete"] and len(lines(out)) == 16


def test_out_made_with_other_settings_is_refused_unless_forced(dataset, tmp_path: Path) -> None:  # noqa: ANN001
    out = tmp_path / "out"
    few = dataclasses.replace(dataset, examples=dataset.examples[:1])
    run_eval(few, make_settings(), ["bm25"], [2], llm=False, out=out)
    with pytest.raises(InputError, match=r"ks: \[2\] then, \[3\] now.*--force"):
        run_eval(few, make_settings(), ["bm25"], [3], llm=False, out=out)
    result = run_eval(few, make_settings(), ["bm25"], [3], llm=False, out=out, force=True)
    assert result.meta["resumed"] == 0 and [r["k"] for r in lines(out)] == [3]


@pytest.mark.parametrize(
    ("strategies", "ks", "llm_ks", "needle"),
    [(["bm26"], [2], None, "unknown strategy 'bm26'"), (["bm25"], [0], None, "-k"), (["bm25"], [2], [4], "--llm-k")],
)
def test_bad_plan_fails_before_indexing(dataset, strategies, ks, llm_ks, needle: str) -> None:  # noqa: ANN001
    with pytest.raises(InputError, match=needle):
        run_eval(dataset, make_settings(), strategies, ks, llm_ks=llm_ks)


class TitleOracle:
    """A stand-in classifier (the shipped one is trained separately): C(q, d1, d2) = both gold for q."""

    threshold = 0.5
    thresholds: dict[str, float] = {}  # one threshold for every use

    def __init__(self, gold: dict[str, set[str]]) -> None:
        self.gold = gold

    def predict(self, question: str, q_vec: Any, pairs: list, qstars: list) -> list[float]:
        time.sleep(0.002)  # measurable, so the classify_s column is seen to be filled
        return [float(a.title in self.gold[question] and b.title in self.gold[question]) for a, b in pairs]


def test_cfs_cis_report_classifier_time_and_actual_docs(dataset, tmp_path: Path) -> None:  # noqa: ANN001
    settings = make_settings().replace({"index.chunk_words": 1000})
    path, _ = index_paragraphs(dataset.corpus, settings)
    oracle = TitleOracle({ex.question: set(ex.gold_titles) for ex in dataset.examples})
    pipeline = Pipeline(settings, index=Index.open(settings, path), classifier=oracle)
    result = run_eval(dataset, settings, ["cfs", "cis"], [4], llm=False, pipeline=pipeline)
    rows = {r["strategy"]: r for r in result.rows}
    assert rows["cfs"]["recall"] == 1.0 and rows["cfs"]["docs_fed"] < 4  # CFS may feed fewer than k
    assert rows["cis"]["recall"] == 1.0 and rows["cis"]["docs_fed"] < 4  # CIS drops the non-gold ones
    assert all(r["classify_s"] > 0 for r in rows.values())


def test_rows_by_question_type(tmp_path: Path) -> None:
    """A set whose records say their type gets a row per type too (results.json, results.md)."""
    path = tiny.write(tmp_path / "typed.ircot.jsonl")
    recs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for rec in recs:
        rec["type"] = "comparison" if rec["question_id"] == "q4" else "bridge"
    path.write_text("".join(json.dumps(rec) + "\n" for rec in recs), encoding="utf-8")
    out = tmp_path / "out"
    result = run_eval(load_dataset(path), make_settings(), ["bm25"], [2], llm=False, out=out)
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert {name: [(r["strategy"], r["n"]) for r in rows] for name, rows in data["by_type"].items()} == {
        "bridge": [("bm25", 3)], "comparison": [("bm25", 1)]}
    assert data["by_type"] == json.loads(json.dumps(result.by_type))
    assert [r["qtype"] for r in lines(out)] == ["bridge", "bridge", "bridge", "comparison"]
    assert "| comparison | bm25 | 2 |" in (out / "results.md").read_text(encoding="utf-8")


def test_the_fingerprint_holds_every_walk_rule_and_the_answer_readers(dataset) -> None:  # noqa: ANN001
    """A resumed --out folder made with another walk rule (retrieval.chain_links) or another
    reader order must be refused, not mixed into one result."""
    from drrag_cli.evaluate.runner import fingerprint

    base = make_settings()
    chain = base.replace({"retrieval.chain_links": 3})
    readers = base.replace({"answer.readers": ["compare"]})

    def run(settings: Settings, llm: bool) -> dict[str, Any]:
        return fingerprint(dataset, settings, ["cfs"], [4], llm, [4], 0.0)

    assert run(base, False) != run(chain, False)
    assert run(base, False) == run(readers, False)  # no answers, no readers read
    assert run(base, True) != run(readers, True)
    assert run(base, False) == run(base.replace({"retrieval.k": 6}), False)  # k is the run's own
