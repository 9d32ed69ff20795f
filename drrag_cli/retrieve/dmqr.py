"""DMQR-RAG first stage: the question and its rewrites each retrieve a list; RRF fuses them.

    rewrites = rewrite_question(llm, question, ["gqr", "kwr", "par", "cce"], cache)
    fused, trace = fused_first_stage(rewrites, index, mode="hybrid", depth=50, rrf_k=60)
    run_strategy("cfs", question, index, settings, classifier, fused=fused)

The original question is always the first list, so a useless rewrite can dilute but never
replace it. Fusion deduplicates by passage id (RRF sums the ranks of a passage across
lists), which is the paper's "fused and deduplicated" step. The chosen DR-RAG strategy
then takes its static documents (or, for bm25/sm/hybrid, its top k) from this list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from drrag_cli.index.fusion import rrf

if TYPE_CHECKING:
    from drrag_cli.index.api import Index
    from drrag_cli.retrieve.rewrite import Rewrites

TRACE_TOP = 5  # ids shown per query list in --explain


def fused_first_stage(
    rewrites: Rewrites, index: Index, *, mode: str, depth: int, rrf_k: int, original_weight: float = 1.0
) -> tuple[list[tuple[int, float]], dict[str, Any]]:
    """(fused [(passage id, rrf score)] best first, trace of every query's list).

    ``original_weight`` scales the question's own list in the fusion (1 = the paper's
    plain fusion; more trusts the question over a weak model's rewrites).
    """
    queries = rewrites.queries
    texts = [text for _label, text in queries]
    vecs: list[Any] = list(index.embed(texts)) if mode != "bm25" else [None] * len(texts)
    lists = [index.ranked(text, mode, depth, vec=vec) for text, vec in zip(texts, vecs, strict=True)]
    weights = [original_weight] + [1.0] * (len(lists) - 1)
    fused = rrf([[pid for pid, _score in ranked] for ranked in lists], k=rrf_k, weights=weights)[:depth]
    trace = {
        "mode": mode,
        "queries": [
            {"strategy": label, "text": text, "top": [pid for pid, _ in ranked[:TRACE_TOP]]}
            for (label, text), ranked in zip(queries, lists, strict=True)
        ],
        "fused_top": [pid for pid, _ in fused[:TRACE_TOP * 2]],
    }
    return fused, trace
