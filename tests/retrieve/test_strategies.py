"""Each DR-RAG strategy on a tiny corpus with real tantivy, hnswlib, MiniLM and the shipped classifier."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.errors import InputError
from drrag_cli.index.api import Index
from drrag_cli.retrieve.strategies import STRATEGIES, resolve_k1, run_strategy
from tests.retrieve.bridge_corpus import QUESTION, write


@pytest.fixture(scope="module")
def bridge(tmp_path_factory: pytest.TempPathFactory) -> tuple[Index, Settings]:
    root = tmp_path_factory.mktemp("bridge")
    settings = Settings()
    settings.index.path = str(root / "ix")
    Index.build([write(root / "corpus")], settings)
    return Index.open(settings), settings


def titles(result) -> list[str]:  # noqa: ANN001
    return [d.passage.title for d in result.documents]


def with_k(settings: Settings, k: int, k1: int = 0) -> Settings:
    import copy

    s = copy.deepcopy(settings)
    s.retrieval.k, s.retrieval.k1 = k, k1
    return s


def test_second_hop_only_through_qdc_and_cfs(bridge) -> None:  # noqa: ANN001
    index, settings = bridge
    s = with_k(settings, 4, k1=1)  # q* from the Heron page names Tobias Lindqvist
    assert "Tobias Lindqvist" not in titles(run_strategy("sm", QUESTION, index, s))
    assert "Tobias Lindqvist" not in titles(run_strategy("bm25", QUESTION, index, s))
    qdc = run_strategy("qdc", QUESTION, index, s)
    assert "Tobias Lindqvist" in titles(qdc)
    tobias = next(d for d in qdc.documents if d.passage.title == "Tobias Lindqvist")
    assert tobias.stage == "dynamic" and tobias.via is not None
    cfs = run_strategy("cfs", QUESTION, index, s)
    assert "Project Heron" in titles(cfs) and "Tobias Lindqvist" in titles(cfs)
    assert len(cfs.documents) <= 4
    kept = next(d for d in cfs.documents if d.passage.title == "Tobias Lindqvist")
    assert kept.classifier_prob is not None and kept.classifier_prob >= cfs.trace["threshold"]


def test_cfs_walks_past_negatives_where_qdc_takes_the_first(bridge) -> None:  # noqa: ANN001
    index, settings = bridge
    s = with_k(settings, 3)  # k1 = 2: QDC takes the first new q* result (a distractor)
    assert "Tobias Lindqvist" not in titles(run_strategy("qdc", QUESTION, index, s))
    cfs = run_strategy("cfs", QUESTION, index, s)
    assert "Tobias Lindqvist" in titles(cfs)
    walked = [c for q in cfs.trace["queries"] for c in q["candidates"]]
    assert any(c["decision"] == "below threshold" for c in walked)  # it said no to something first
    assert all(c["classifier_prob"] is None or 0 <= c["classifier_prob"] <= 1 for c in walked)


def test_cis_drops_the_planted_irrelevant_passage(bridge) -> None:  # noqa: ANN001
    index, settings = bridge
    s = with_k(settings, 7)  # the QDC context is the whole corpus, lentil soup included
    assert "Lentil soup" in titles(run_strategy("qdc", QUESTION, index, s))
    cis = run_strategy("cis", QUESTION, index, s)
    assert "Lentil soup" not in titles(cis)
    assert {"Project Heron", "Tobias Lindqvist"} <= set(titles(cis))
    assert any(d["title"] == "Lentil soup" for d in cis.trace["dropped"])


def test_every_strategy_returns_a_trace_and_timings(bridge) -> None:  # noqa: ANN001
    index, settings = bridge
    for name in STRATEGIES:
        result = run_strategy(name, QUESTION, index, with_k(settings, 3))
        assert result.strategy == name and 1 <= len(result.documents) <= 3
        assert result.trace["kept"] == [d.passage.passage_id for d in result.documents]
        assert set(result.timings) == {"retrieve_s", "classify_s"}
        assert len({d.passage.passage_id for d in result.documents}) == len(result.documents)


def test_bm25_first_stage_and_errors(bridge) -> None:  # noqa: ANN001
    index, settings = bridge
    s = with_k(settings, 4, k1=1)
    s.retrieval.first_stage = "bm25"
    assert "Tobias Lindqvist" in titles(run_strategy("qdc", QUESTION, index, s))
    with pytest.raises(InputError, match="unknown strategy"):
        run_strategy("magic", QUESTION, index, settings)
    s.retrieval.first_stage = "psychic"
    with pytest.raises(InputError, match="first stage"):
        run_strategy("qdc", QUESTION, index, s)


def test_cfs_best_rule_and_bad_rule(bridge) -> None:  # noqa: ANN001
    index, settings = bridge
    s = with_k(settings, 3)
    s.retrieval.cfs_rule = "best"
    cfs = run_strategy("cfs", QUESTION, index, s)
    assert "Tobias Lindqvist" in titles(cfs) and cfs.trace["rule"] == "best"
    s.retrieval.cfs_rule = "psychic"
    with pytest.raises(InputError, match="cfs_rule"):
        run_strategy("cfs", QUESTION, index, s)


def test_k1_defaults_to_half_of_k_rounded_up() -> None:
    s = Settings()
    assert [resolve_k1(with_k(s, k)) for k in (1, 2, 3, 4, 6)] == [1, 1, 2, 2, 3]
    assert resolve_k1(with_k(s, 4, k1=9)) == 4


def test_strategy_search_cli(cli, tmp_path: Path) -> None:  # noqa: ANN001
    import json

    corpus = write(tmp_path / "c")
    assert cli("index", str(corpus), "--json")[0] == 0
    code, out, _ = cli("search", QUESTION, "--strategy", "cfs", "-k", "3", "--json", "--explain")
    assert code == 0
    data = json.loads(out)
    assert data["strategy"] == "cfs" and "trace" in data and data["documents"][0]["stage"] == "static"
    code, out, err = cli("search", QUESTION, "--strategy", "qdc", "--explain")
    assert code == 0 and "q*" in err and "static" in out
