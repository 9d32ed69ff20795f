"""The selection core of DR-RAG: which documents QDC, CFS and CIS keep, given ranked ids
and classifier probabilities. One function per decision, used by the product
(:mod:`drrag_cli.retrieve.strategies`) and by the classifier's training and threshold
choice (:mod:`drrag_cli.select.simulate`), so the two cannot drift apart.

Everything here is pure: ids in, ids out, no index, no model.

Context is counted in *documents*: ``doc`` maps a passage id to its document (a file; a
record of a record corpus). A passage whose document is already in the context is not
added again, and two static documents never come from one file: in a personal knowledge
base a note is split into several passages, and the second hop is another note. Without
``doc`` every passage is its own document (eval corpora: one passage per paragraph).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence, Set
from dataclasses import dataclass, replace

RULES = ("first", "best")
DocOf = Callable[[int], Hashable]


def _same(pid: int) -> int:
    return pid


def distinct_docs(ranked: Sequence[int], n: int, doc: DocOf | None = None) -> list[int]:
    """The first ``n`` ids of ``ranked`` from ``n`` different documents (the static docs)."""
    doc = doc or _same
    seen: set[Hashable] = set()
    out: list[int] = []
    for pid in ranked:
        if doc(pid) not in seen:
            seen.add(doc(pid))
            out.append(pid)
            if len(out) == n:
                break
    return out


def resolve_k1(k: int, k1: int = 0) -> int:
    """k1 = ceil(k / 2) unless set: the paper's k/2, rounded so k = 3 keeps two static docs."""
    return max(1, min(k1 or math.ceil(k / 2), k))


SMALL_K = 4  # up to this k CFS keeps one positive per static document by default


def resolve_per_static(k: int, k1: int, per_static: int = 0) -> int:
    """Positives CFS may keep per static document (in turns); 0 = auto: 1 while k ≤ 4, else
    k1. A small context is read best with one hop per static document (a walk's second
    positive cost the 270M model an EM point at k = 4 and at k = 6); a larger k asks for
    breadth, and a walk may then fill the slots barren walks leave (MuSiQue recall at k = 6
    63.7 → 66.9, above QDC's 66.1). docs/BENCHMARKS.md."""
    if per_static:
        return per_static
    return 1 if k <= SMALL_K else max(1, k1)


def qstar_depth(k: int) -> int:
    """How deep QDC retrieves each q* list: enough for k picks, never under 10."""
    return max(k, 10)


def qdc_select(
    static_ids: Sequence[int], qstar_lists: Sequence[Sequence[int]], k: int, doc: DocOf | None = None
) -> list[tuple[int, int]]:
    """QDC (DR-RAG §3.2.1): round-robin over the q* lists, each adding its first id not yet
    in the context, until the context holds k documents. Returns [(id, static index)]."""
    doc = doc or _same
    context = {doc(pid) for pid in static_ids}
    picks: list[tuple[int, int]] = []
    cursors = [0] * len(qstar_lists)
    while len(context) < k and any(c < len(ranked) for c, ranked in zip(cursors, qstar_lists, strict=True)):
        for i, ranked in enumerate(qstar_lists):
            while cursors[i] < len(ranked) and doc(ranked[cursors[i]]) in context:
                cursors[i] += 1
            if cursors[i] < len(ranked) and len(context) < k:
                context.add(doc(ranked[cursors[i]]))
                picks.append((ranked[cursors[i]], i))
    return picks


def cfs_walks(
    static_ids: Sequence[int],
    qstar_lists: Sequence[Sequence[int]],
    depth: int,
    doc: DocOf | None = None,
    linked: Sequence[Sequence[int]] | None = None,
) -> list[list[tuple[int, int]]]:
    """Each static document's walk: its q* list without the static documents, at most
    ``depth`` candidates, as [(id, rank in the q* list, 1-based)].

    With ``linked`` (the documents each static document links to, :mod:`drrag_cli.index.links`,
    in the order the caller ranks them: :func:`drrag_cli.select.features.link_order`) those come first, with their
    q* rank where the walk holds them and rank 0 where it does not: a note that names the
    bridge entity links to it, which q* may rank low or miss. Each document is offered
    once per walk."""
    doc = doc or _same
    statics = {doc(pid) for pid in static_ids}
    walks = []
    for i, ranked in enumerate(qstar_lists):
        walk = [(pid, rank) for rank, pid in enumerate(ranked, start=1) if doc(pid) not in statics][:depth]
        in_walk: dict[Hashable, tuple[int, int]] = {}
        for pid, rank in walk:
            in_walk.setdefault(doc(pid), (pid, rank))
        first: dict[Hashable, tuple[int, int]] = {}
        for pid in linked[i] if linked else ():
            if doc(pid) not in statics:
                first.setdefault(doc(pid), in_walk.get(doc(pid), (pid, 0)))
        walks.append(list(first.values()) + [(pid, r) for pid, r in walk if doc(pid) not in first])
    return walks


@dataclass(frozen=True, slots=True)
class Decision:
    """What CFS decided for one candidate of one static document's walk."""

    static: int  # index of the static document whose q* list holds the candidate
    pid: int
    rank: int
    prob: float | None
    decision: str  # kept | already in context | context full | not needed (...) | below threshold


def cfs_select(
    static_ids: Sequence[int],
    walks: Sequence[Sequence[tuple[int, int]]],
    probs: Mapping[tuple[int, int], float],
    *,
    k: int,
    threshold: float,
    rule: str = "first",
    per_static: int = 1,
    doc: DocOf | None = None,
    sure: Mapping[tuple[int, int], int] | None = None,
    beside_named: bool = False,
    named_yield: float = 0.0,
    confident: float = 0.0,
    firm: Set[tuple[int, int]] = frozenset(),  # relation hops: never yield (_walk_orders)
) -> list[list[Decision]]:
    """CFS (DR-RAG §3.2.2): walk each static document's candidates and keep the first
    ``per_static`` whose C(q, d_static, d) = ``probs[(static index, id)]`` ≥ ``threshold``,
    while the context holds fewer than k documents. With ``per_static`` > 1 the walks take
    turns: every static document's first positive before any second one (one walked to its end
    let its second crowd out the next one's first: HotpotQA EM 24 → 20 at k = 4). Rule ``best``
    walks each list in probability order instead of rank order. The (static index, id) pairs in ``sure``
    (named hops, :mod:`drrag_cli.select.bridges`, each with its order: the name's distance
    to the question's words) are walked first, in that order, and kept whatever their
    probability. With ``beside_named``, a walk whose only keep was a named hop the
    classifier scored below ``threshold`` still gets its first positive, in a slot the walks
    left free (:func:`_beside_named`). With ``named_yield``, a walk meets first its candidate
    scored at least that when its named hops all scored below ``threshold`` or :data:`YIELD_MARGIN`
    below it (:func:`_yield_to_confident`), unless the first is ``firm`` (a relation hop: "directed
    by X" read for "the director"); with ``confident``, one scored at least that before a less
    probable first keep (:func:`_confident_first`). Returns every decision, per walk; the kept
    ones have ``decision == "kept"`` (:func:`kept`)."""
    if rule not in RULES:
        raise ValueError(f"unknown CFS rule {rule!r} (choose {' or '.join(RULES)})")
    doc, named = doc or _same, sure or {}
    in_context = {doc(pid) for pid in static_ids}
    orders = _walk_orders(walks, probs, rule, named, (threshold, named_yield), confident, firm)
    steps: list[list[Decision]] = [[] for _ in orders]  # each walk's decisions so far, in its order
    for turn in range(per_static):  # each static document's first positive, then its second, ...
        for i, order in enumerate(orders):
            taken = False
            for pid, rank in order[len(steps[i]) :]:
                if taken and turn < per_static - 1:
                    break  # the rest of this walk waits for its next turn
                prob = probs.get((i, pid))
                if doc(pid) in in_context:
                    decision = "already in context"
                elif len(in_context) >= k:
                    decision = "context full"
                elif taken:
                    decision = "not needed (static doc satisfied)"
                elif _positive(prob, threshold) or (i, pid) in named:
                    decision, taken = "kept", True
                    in_context.add(doc(pid))
                else:
                    decision = "below threshold"
                steps[i].append(Decision(i, pid, rank, prob, decision))
    if beside_named:
        _beside_named(steps, named, threshold, k, in_context, doc)
    return steps


def fill_barren(
    steps: list[list[Decision]], linked: Set[tuple[int, Hashable]], fill: float, k: int,
    in_context: set[Hashable], doc: DocOf | None = None, walks: Set[int] | None = None,
) -> list[Decision]:
    """After every other keep (spares, third hops), each walk that kept nothing (of those in
    ``walks``, default all) keeps, in a slot left free, its most probable candidate that the
    static document links to (``linked``: (walk, document) pairs) scored at least ``fill``
    (0 = none). A walk's first positive is its best guess when the classifier is sure; when
    it is sure of none, the document the static one names is still the likeliest second hop
    ("Animorphs" names "The Hork-Bajir Chronicles", scored 0.32 against a threshold of 0.4).
    ``steps`` and ``in_context`` are updated; returns the new keeps."""
    doc = doc or _same
    added = []
    for i, walk in enumerate(steps):
        if len(in_context) >= k:
            break
        if (walks is not None and i not in walks) or any(d.decision == "kept" for d in walk):
            continue
        options = [  # (probability, -position): the best is the max
            (d.prob, -j)
            for j, d in enumerate(walk)
            if d.prob is not None and 0 < fill <= d.prob
            and (d.static, doc(d.pid)) in linked and doc(d.pid) not in in_context
        ]
        if options:
            added.append(_keep(walk, -max(options)[1], in_context, doc))
    return added


def _keep(walk: list[Decision], j: int, in_context: set[Hashable], doc: DocOf) -> Decision:
    """Turn the walk's j-th decision into a keep, after the walks (:func:`fill_barren`,
    :func:`_beside_named`); its document joins ``in_context``. Returns the new decision."""
    d = walk[j] = replace(walk[j], decision="kept")
    in_context.add(doc(d.pid))
    return d


def _beside_named(
    steps: list[list[Decision]], named: Mapping[tuple[int, int], int], threshold: float, k: int,
    in_context: set[Hashable], doc: DocOf,
) -> None:
    """A named hop is kept whatever the classifier says, and so took the walk's slot from
    a positive later in the walk (HotpotQA q0-249 at k = 4: 2 gold paragraphs recovered,
    recall 80.4 -> 80.8, docs/BENCHMARKS.md). Where a walk kept only sub-threshold named
    hops, its first positive left "not needed" is kept too, while the context holds fewer
    than k documents; the walks' own keeps went first, so this only fills slots they left free."""
    for walk in steps:
        keeps = [d for d in walk if d.decision == "kept"]
        if not keeps or any((d.static, d.pid) not in named or _positive(d.prob, threshold) for d in keeps):
            continue
        for j, d in enumerate(walk):
            if len(in_context) >= k:
                return
            if d.decision.startswith("not needed") and _positive(d.prob, threshold):
                if doc(d.pid) not in in_context:
                    _keep(walk, j, in_context, doc)
                    break


def _positive(prob: float | None, threshold: float) -> bool:
    """The classifier accepted the pair (an unscored candidate is not accepted)."""
    return prob is not None and prob >= threshold


def _walk_orders(
    walks: Sequence[Sequence[tuple[int, int]]], probs: Mapping[tuple[int, int], float], rule: str,
    named: Mapping[tuple[int, int], int], yielding: tuple[float, float] = (0.0, 0.0), confident: float = 0.0,
    firm: Set[tuple[int, int]] = frozenset(),
) -> list[list[tuple[int, int]]]:
    """Each walk in the order CFS meets its candidates: rank order (``best``: probability
    order), named hops first by their order, unless they yield (``yielding``: the threshold
    and ``named_yield``, :func:`_yield_to_confident`; a walk led by a ``firm`` hop never yields)."""
    orders = []
    for i, walk in enumerate(walks):
        order = list(walk)
        if rule == "best":  # stable: equal probabilities keep rank order
            order.sort(key=lambda item, i=i: -probs.get((i, item[0]), -1.0))
        order.sort(key=lambda item, i=i: named.get((i, item[0]), math.inf))  # stable
        if yielding[1] and not (order and (i, order[0][0]) in firm):
            _yield_to_confident(order, i, probs, named, *yielding)
        if confident:
            _confident_first(order, i, probs, named, yielding[0], confident)
        orders.append(order)
    return orders


YIELD_MARGIN = 0.4  # how much surer than a positive named hop a candidate must be to go before it


def _yield_to_confident(
    order: list[tuple[int, int]], i: int, probs: Mapping[tuple[int, int], float],
    named: Mapping[tuple[int, int], int], threshold: float, confident: float,
) -> None:
    """Walk ``i``'s first candidate scored at least ``confident`` moves before its named hops
    when the classifier scored each of those below ``threshold``, or each at least
    :data:`YIELD_MARGIN` below that candidate. A name the static document states near the
    question's words is often a country or a people in MuSiQue ("Arizona", 0.21, ahead of
    the county paragraph at 0.86); yielding to any positive instead lost more walks than it
    won, and a positive named hop stays before a candidate only somewhat surer (the README
    demo's Tobias Lindqvist, 0.71, before Priya Raman's profile, 0.92). The margin lets
    "Yeah! (Fuel song)", 0.50, make way for "I Don't Wanna Know", 0.97 (docs/BENCHMARKS.md)."""
    hops = [pid for pid, _ in order if (i, pid) in named]
    if not hops:  # most walks: no scan for a candidate
        return
    first = next(
        (item for item in order if (i, item[0]) not in named and _positive(probs.get((i, item[0])), confident)), None
    )
    if first is None:
        return
    doubted = probs[(i, first[0])] - YIELD_MARGIN
    if all(not _positive(probs.get((i, pid)), threshold) or (probs.get((i, pid)) or 0.0) <= doubted for pid in hops):
        order.remove(first)
        order.insert(0, first)


CONFIDENT_MARGIN = 0.05  # how much more probable than the first keep a confident candidate must be


def _confident_first(
    order: list[tuple[int, int]], i: int, probs: Mapping[tuple[int, int], float],
    named: Mapping[tuple[int, int], int], threshold: float, confident: float,
) -> None:
    """Walk ``i``'s most probable candidate moves before the walk's first keep (a named hop
    or the first positive) when it scored at least ``confident`` and beats that keep by
    :data:`CONFIDENT_MARGIN`: "Boots (album)" at 0.48 came before Lee Hazlewood at 0.95
    for "Who was the writer of These Boots Are Made for Walkin'?". A named hop gives way
    only to another named hop: in notes the name beside the question's words is surer than
    a classifier trained on Wikipedia (the README demo's "Lead engineer | Tobias
    Lindqvist", 0.71, before Priya Raman's profile, 0.92)."""
    scored = [item for item in order if (i, item[0]) in probs]
    if not scored:
        return
    top = max(scored, key=lambda item: probs[(i, item[0])])
    keeps = (item for item in order if (i, item[0]) in named or _positive(probs.get((i, item[0])), threshold))
    first = next(keeps, None)
    if first is None or first == top or probs[(i, top[0])] < confident:
        return
    if (i, first[0]) in named and (i, top[0]) not in named:
        return
    if probs[(i, top[0])] >= probs.get((i, first[0]), 0.0) + CONFIDENT_MARGIN:
        order.remove(top)
        order.insert(order.index(first), top)


def kept(decisions: Sequence[Sequence[Decision]]) -> list[Decision]:
    """The kept candidates, in the order CFS kept them."""
    return [d for walk in decisions for d in walk if d.decision == "kept"]


def cis_select(
    n_docs: int, pair_probs: Mapping[tuple[int, int], float], threshold: float
) -> tuple[list[int], list[float]]:
    """CIS (DR-RAG §3.2.3): each document's best pair probability with any other (either
    order); keep those ≥ ``threshold``. Never returns nothing: with no document kept, the
    first (best-ranked) stays. Returns (kept indices ascending, best probability per doc)."""
    best = [0.0] * n_docs
    for (m, n), p in pair_probs.items():
        best[m] = max(best[m], float(p))
        best[n] = max(best[n], float(p))
    keep = [i for i, b in enumerate(best) if b >= threshold]
    return (keep or ([0] if n_docs else [])), best
