"""Each DR-RAG strategy on a tiny corpus with real tantivy, hnswlib, MiniLM and the shipped classifier."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.errors import ConfigError, InputError
from drrag_cli.index.api import Index
from drrag_cli.pipeline import Pipeline
from drrag_cli.retrieve import registry
from drrag_cli.retrieve.context import RetrievalResult
from drrag_cli.select.core import resolve_k1
from tests.retrieve.bridge_corpus import QUESTION, write

STRATEGIES = ("bm25", "sm", "hybrid", "qdc", "cfs", "cis")


@pytest.fixture(scope="module")
def bridge(tmp_path_factory: pytest.TempPathFactory) -> tuple[Index, Settings]:
    root = tmp_path_factory.mktemp("bridge")
    settings = Settings().replace({"index.path": str(root / "ix")})
    Index.build([write(root / "corpus")], settings)
    return Index.open(settings), settings


def titles(result) -> list[str]:  # noqa: ANN001
    return [d.passage.title for d in result.documents]


def run(bridge, name: str, k: int, k1: int = 0, **dotted: object) -> RetrievalResult:  # noqa: ANN001
    """Strategy ``name`` at ``k`` through the Pipeline (settings given as retrieval.* keys)."""
    index, settings = bridge
    settings = settings.replace({"retrieval.k1": k1, **{f"retrieval.{key}": v for key, v in dotted.items()}})
    return Pipeline(settings, index=index).retrieve(QUESTION, name, k=k)


def test_second_hop_only_through_qdc_and_cfs(bridge) -> None:  # noqa: ANN001
    # k1 = 1: q* from the Heron page names Tobias Lindqvist
    assert "Tobias Lindqvist" not in titles(run(bridge, "sm", 4, 1))
    assert "Tobias Lindqvist" not in titles(run(bridge, "bm25", 4, 1))
    qdc = run(bridge, "qdc", 4, 1)
    assert "Tobias Lindqvist" in titles(qdc)
    tobias = next(d for d in qdc.documents if d.passage.title == "Tobias Lindqvist")
    assert tobias.stage == "dynamic" and tobias.via is not None
    cfs = run(bridge, "cfs", 4, 1)
    assert "Project Heron" in titles(cfs) and "Tobias Lindqvist" in titles(cfs)
    assert len(cfs.documents) <= 4
    kept = next(d for d in cfs.documents if d.passage.title == "Tobias Lindqvist")
    assert kept.classifier_prob is not None and kept.classifier_prob >= cfs.trace["threshold"]


def test_cfs_walks_past_negatives_where_qdc_takes_the_first(bridge) -> None:  # noqa: ANN001
    # k = 3, k1 = 2: QDC takes the first new q* result (a distractor)
    assert "Tobias Lindqvist" not in titles(run(bridge, "qdc", 3))
    cfs = run(bridge, "cfs", 3, links=False, named_hops=False)  # the q* walk alone: links and names offer Tobias first
    assert "Tobias Lindqvist" in titles(cfs)
    walked = [c for q in cfs.trace["queries"] for c in q["candidates"]]
    assert any(c["decision"] == "below threshold" for c in walked)  # it said no to something first
    assert all(c["classifier_prob"] is None or 0 <= c["classifier_prob"] <= 1 for c in walked)


def test_cfs_offers_the_linked_profile_first(bridge) -> None:  # noqa: ANN001
    # the Heron page names Tobias Lindqvist, a note's title: the link is walked before q*
    cfs = run(bridge, "cfs", 3)
    assert "Tobias Lindqvist" in titles(cfs)
    walks = [q["candidates"] for q in cfs.trace["queries"]]
    assert any(w and w[0]["title"] == "Tobias Lindqvist" and w[0]["decision"] == "kept" for w in walks)


def test_composed_qstar_walks_to_the_second_hop_without_the_encoder(bridge) -> None:  # noqa: ANN001
    """retrieval.qstar_vectors: composed builds q*'s vector from q's and the static document's
    stored vectors: the encoder embeds the question alone, and the q* walk still reaches
    the bridge's page."""
    index, _ = bridge
    encoded: list[str] = []
    embed = index.embed
    index.embed = lambda texts: encoded.extend(texts) or embed(texts)  # every text the encoder embeds
    try:
        cfs = run(bridge, "cfs", 3, links=False, named_hops=False, qstar_vectors="composed")
    finally:
        del index.embed
    assert "Tobias Lindqvist" in titles(cfs)
    assert encoded == [QUESTION]


def test_cis_drops_the_planted_irrelevant_passage(bridge) -> None:  # noqa: ANN001
    # k = 7: the QDC context is the whole corpus, lentil soup included. The configured
    # classifier.threshold replaces the model's recall-minded CIS threshold here (the
    # shipped model gives (lentil soup, Heron) 0.55: the question's words are all in Heron).
    assert "Lentil soup" in titles(run(bridge, "qdc", 7))
    index, settings = bridge
    strict = settings.replace({"classifier.threshold": 0.6})
    cis = Pipeline(strict, index=index).retrieve(QUESTION, "cis", k=7)
    assert "Lentil soup" not in titles(cis)
    assert {"Project Heron", "Tobias Lindqvist"} <= set(titles(cis))
    assert any(d["title"] == "Lentil soup" for d in cis.trace["dropped"])


def test_every_strategy_returns_a_trace_and_timings(bridge) -> None:  # noqa: ANN001
    for name in STRATEGIES:
        result = run(bridge, name, 3)
        assert result.strategy == name and 1 <= len(result.documents) <= 3
        assert result.trace["kept"] == [d.passage.passage_id for d in result.documents]
        assert set(result.timings) == {"retrieve_s", "classify_s"}
        assert len({d.passage.passage_id for d in result.documents}) == len(result.documents)


def test_bm25_first_stage_and_errors(bridge) -> None:  # noqa: ANN001
    assert "Tobias Lindqvist" in titles(run(bridge, "qdc", 4, 1, first_stage="bm25"))
    for name in ("cfs", "cis"):  # the classifier gets q's embedding all the same (issue 53)
        result = run(bridge, name, 4, first_stage="bm25")
        assert result.trace["first_stage"] == "bm25" and "Project Heron" in titles(result)
        assert any(d.classifier_prob is not None for d in result.documents)
    with pytest.raises(InputError, match="unknown strategy"):
        run(bridge, "magic", 4)
    with pytest.raises(ConfigError, match="first_stage"):
        run(bridge, "qdc", 4, first_stage="psychic")


def test_cfs_best_rule_and_bad_rule(bridge) -> None:  # noqa: ANN001
    cfs = run(bridge, "cfs", 3, cfs_rule="best")
    assert "Tobias Lindqvist" in titles(cfs) and cfs.trace["rule"] == "best"
    with pytest.raises(ConfigError, match="cfs_rule"):
        run(bridge, "cfs", 3, cfs_rule="psychic")


def test_cis_reads_the_threshold_training_chose_for_it(bridge) -> None:  # noqa: ANN001
    from drrag_cli.select.classifier import RelevanceClassifier

    cis = run(bridge, "cis", 7)
    assert cis.trace["threshold"] == RelevanceClassifier.load().thresholds["cis"]
    assert cis.trace["threshold"] != run(bridge, "cfs", 7).trace["threshold"]  # not the CFS one any more


def test_k1_defaults_to_half_of_k_rounded_up() -> None:
    assert [resolve_k1(k) for k in (1, 2, 3, 4, 6)] == [1, 1, 2, 2, 3]
    assert resolve_k1(4, 9) == 4


def test_registry_names_every_strategy() -> None:
    assert set(STRATEGIES) | {"note"} <= set(registry.names())
    for name in STRATEGIES:
        strategy = registry.get(name)
        assert strategy.name == name and callable(strategy.run)


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


def test_hop_order_puts_each_static_before_what_it_found() -> None:
    from drrag_cli.retrieve.context import Selected, hop_order
    from drrag_cli.types import Passage

    def sel(pid: int, source: str, stage: str, via: int | None = None) -> Selected:
        p = Passage(source=source, title=source, text=source, ordinal=0, char_start=0, char_end=1, passage_id=pid)
        return Selected(p, stage, 1.0, via=via)

    s1, s1b, s2 = sel(1, "a.md", "static"), sel(2, "a.md", "static"), sel(3, "b.md", "static")
    d2, d1 = sel(4, "c.md", "dynamic", via=3), sel(5, "d.md", "dynamic", via=1)
    ordered = hop_order([s1, s1b, s2, d2, d1])
    assert [d.passage.passage_id for d in ordered] == [1, 2, 5, 3, 4]
    ranked = [sel(7, "x.md", "first-stage"), sel(8, "y.md", "first-stage"), sel(9, "x.md", "first-stage")]
    assert hop_order(ranked) == ranked  # a single ranked list keeps its order


def test_linked_context_keeps_the_hops_cfs_linked() -> None:
    from drrag_cli.retrieve.context import Selected, linked_context
    from drrag_cli.types import Passage

    def sel(pid: int, source: str, via: int | None = None) -> Selected:
        p = Passage(source=source, title=source, text=source, ordinal=0, char_start=0, char_end=1, passage_id=pid)
        return Selected(p, "static" if via is None else "dynamic", 1.0, via=via)

    a1, a2, b, found = sel(1, "a.md"), sel(2, "a.md"), sel(3, "b.md"), sel(4, "c.md", via=2)
    docs = [a1, a2, b, found]
    passages = [d.passage for d in docs]
    assert [p.passage_id for p in linked_context(docs, passages)] == [1, 2, 4]  # b.md led nowhere
    assert linked_context([a1, b], passages[:1] + passages[2:3]) == passages[:1] + passages[2:3]  # no pair: all
