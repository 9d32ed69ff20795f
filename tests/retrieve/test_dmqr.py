"""DMQR fusion: each query's list, RRF, dedup, the original question always first."""

from __future__ import annotations

from typing import Any

from drrag_cli.retrieve.dmqr import fused_first_stage
from drrag_cli.retrieve.rewrite import Rewrite, Rewrites


class ListIndex:
    """Pure-logic stand-in for Index.ranked/embed: a fixed ranked list per query text."""

    def __init__(self, lists: dict[str, list[int]]) -> None:
        self.lists = lists
        self.embedded: list[list[str]] = []

    def embed(self, texts: list[str]) -> list[Any]:
        self.embedded.append(list(texts))
        return [None] * len(texts)

    def ranked(self, text: str, mode: str, n: int, vec: Any = None) -> list[tuple[int, float]]:
        return [(pid, 1.0 / r) for r, pid in enumerate(self.lists[text][:n], start=1)]


def rewrites(*items: tuple[str, str, str]) -> Rewrites:
    return Rewrites("q", [Rewrite(s, t, st) for s, t, st in items], ["gqr", "kwr", "par"], ["gqr", "kwr", "par"])


def test_fusion_rewards_passages_found_by_several_queries() -> None:
    index = ListIndex({"q": [1, 2, 3], "kw": [4, 2, 5], "pa": [2, 6, 4]})
    rw = rewrites(("kwr", "kw", "ok"), ("par", "pa", "cached"), ("gqr", "", "skipped: empty output"))
    fused, trace = fused_first_stage(rw, index, mode="hybrid", depth=10, rrf_k=60)
    ids = [pid for pid, _ in fused]
    assert ids[0] == 2  # in all three lists
    assert ids[1] == 4  # in two
    assert sorted(ids) == [1, 2, 3, 4, 5, 6]  # deduplicated union
    assert [q["strategy"] for q in trace["queries"]] == ["original", "kwr", "par"]  # skipped one not retrieved
    assert index.embedded == [["q", "kw", "pa"]]  # one batched embedding call


def test_fusion_depth_and_bm25_mode_skip_embedding() -> None:
    index = ListIndex({"q": [1, 2, 3, 4], "kw": [5, 6, 7, 8]})
    fused, _ = fused_first_stage(rewrites(("kwr", "kw", "ok")), index, mode="bm25", depth=3, rrf_k=60)
    assert len(fused) == 3 and index.embedded == []
    assert [pid for pid, _ in fused][:2] == [1, 5]  # ties keep the question's list first


def test_original_weight_trusts_the_question_over_rewrites() -> None:
    index = ListIndex({"q": [1, 2], "kw": [3, 1], "pa": [3, 2]})
    rw = rewrites(("kwr", "kw", "ok"), ("par", "pa", "ok"))
    plain, _ = fused_first_stage(rw, index, mode="hybrid", depth=5, rrf_k=60)
    assert plain[0][0] == 3  # two rewrites agree on 3
    weighted, _ = fused_first_stage(rw, index, mode="hybrid", depth=5, rrf_k=60, original_weight=3.0)
    assert [pid for pid, _ in weighted][:2] == [1, 2]
