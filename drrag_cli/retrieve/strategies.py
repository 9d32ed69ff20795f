"""The DR-RAG retrieval strategies (SPEC §3), one small class each, one signature:

    result = registry.get("cfs").run(question, ctx)     # ctx: retrieve.context.RunContext

* bm25 / sm / hybrid: the top k of one ranked list.
* qdc: k1 static docs from the first stage; for each, q*_i = q + d_i retrieves a list and
  the first result not yet in the context joins it (round-robin until k documents).
* cfs: like qdc, but each q*_i list is walked (≤ depth) and a candidate d_j joins only if
  the relevance classifier says C(q, d_i, d_j) ≥ threshold; the first ``per_static``
  positives per d_i are kept (rule ``first``, the paper's). Rule ``best`` walks each list
  in probability order instead (with the model's ``best`` threshold). May feed fewer
  than k documents — by design. A slot left free goes to a third hop: a kept d_j walked
  as a static document, its first candidate with C(q, d_j, d) ≥ ``chain`` (:func:`_chain`).
* cis: the qdc context, then every pair scored by C; a document whose pairs with all the
  others are below the classifier's ``cis`` threshold is dropped.

Which documents each keeps is decided in :mod:`drrag_cli.select.core`, the same code
the classifier's training replays. The q* lists use the first-stage retriever (hybrid by
default): BM25 over q* sees the bridge entity's name, which dense-only q* often misses.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from drrag_cli.retrieve.context import BaseStrategy, RetrievalResult, RunContext, Selected
from drrag_cli.retrieve.spare import spare_static
from drrag_cli.retrieve.walks import adds_of, predict_walks, views_of, walk_lists
from drrag_cli.select import core


class SingleList(BaseStrategy):
    """bm25 / sm / hybrid: the top k of one retriever (or of the DMQR fused list)."""

    def __init__(self, name: str, list_mode: str) -> None:
        self.name, self.list_mode = name, list_mode

    def run(self, question: str, ctx: RunContext) -> RetrievalResult:
        ranked = ctx.first_stage(ctx.k, mode=self.list_mode)
        found = ctx.fetch([pid for pid, _ in ranked])
        docs = [Selected(found[pid], "first-stage", s) for pid, s in ranked if pid in found]
        ctx.trace["candidates"] = [d.passage.to_json(score=round(d.score, 6)) for d in docs]
        return ctx.result(self.name, docs)


BM25 = SingleList("bm25", "bm25")
SM = SingleList("sm", "dense")
HYBRID = SingleList("hybrid", "hybrid")


STATIC_POOL = 10  # first-stage passages searched for k1 static docs from different files
SPARE = 2  # first-stage documents after the static ones that a barren walk may call on (retrieve/spare.py)


def static_docs(ctx: RunContext, spare: int = 0, sides: bool = False) -> list[list[Selected]]:
    """The k1 static documents: the top of the first stage, one document each (with
    ``sides``, CFS's, the documents a two-sided question names first: :func:`_sides_first`).
    A document brings up to ``static_passages`` of its passages found there (the best one
    leads): a note's table row naming the bridge entity is often not its best-ranked passage.
    ``spare`` more documents follow them (the next of the first stage; not traced)."""
    ranked = ctx.first_stage(ctx.params.k1 + spare + STATIC_POOL)
    found = ctx.fetch([pid for pid, _ in ranked])
    ranked = [(pid, s) for pid, s in ranked if pid in found]
    leads = core.distinct_docs([pid for pid, _ in ranked], len(ranked), ctx.doc_of)
    leads = (_sides_first(ctx.question, leads, found, ctx.params.k1) if sides else leads)[: ctx.params.k1 + spare]
    groups = [
        _with_head(ctx, [Selected(found[pid], "static", s) for pid, s in ranked if ctx.doc_of(pid) == ctx.doc_of(lead)][
            : ctx.params.static_passages
        ])
        for lead in leads
    ]
    ctx.trace["k1"] = ctx.params.k1
    ctx.trace["static"] = [d.passage.to_json(score=round(d.score, 6)) for g in groups[: ctx.params.k1] for d in g]
    return groups


def _sides_first(question: str, leads: list[int], found: dict, k1: int) -> list[int]:
    """``leads`` (one passage per document, in first-stage order) with the documents a
    two-sided question names by their whole titles first (at most ``k1``, one per side):
    "Which film whose director was born first, Hans in Every Street or Halloween 4: The Return
    of Michael Myers?" walks from both films, not from one and the look-alike the first stage
    ranked second ("Halloween: The Curse of Michael Myers"); each side's walk then reaches its
    director (:func:`_relation_hops`). A side two documents answer to ("My Cousin from Warsaw"
    and "My Cousin from Warsaw (film)") takes one slot, not both: the one whose title is the
    side as written, else the first ranked. Left as they are when the question offers no sides
    (:attr:`~drrag_cli.asked.Question.options`) or names fewer than two titles."""
    from drrag_cli.asked import parse
    from drrag_cli.select.bridges import names_title
    from drrag_cli.text.words import content

    options = parse(question).options
    if not options:
        return leads
    sides = [content(option) for option in options]  # yes | no names none: one slot per title then
    written = {option.casefold() for option in options}
    best: dict[int | str, tuple[bool, int]] = {}  # side -> (title not the side as written, lead position)
    for pos, pid in enumerate(leads):
        title = found[pid].title
        if not names_title(question, title):
            continue
        words = content(title)
        shared = [len(words & side) for side in sides]
        side = shared.index(max(shared)) if max(shared) else title.casefold()  # the side it shares most with
        rank = (title.casefold() not in written, pos)
        if side not in best or rank < best[side]:
            best[side] = rank
    named = [leads[pos] for _, pos in sorted(best.values(), key=lambda r: r[1])][:k1]
    return leads if len(named) < 2 else named + [pid for pid in leads if pid not in named]


def _with_head(ctx: RunContext, group: list[Selected]) -> list[Selected]:
    """A static document the question names by its whole title ("When did Inês Carvalho
    join?") also brings its first passage, after the ones the first stage found: a note's
    head holds its metadata table (Joined, Role, Slack), which the first stage can rank
    below its prose; so does one whose head states the question's description
    (:func:`_described`). A named one also brings the section the question asks about
    (:func:`_section`)."""
    from drrag_cli.select.bridges import names_title

    if not group:
        return group
    named = names_title(ctx.question, group[0].passage.title) or _defines(ctx.question, group[0])
    if not named and (any(d.passage.ordinal == 0 for d in group) or not _THE.search(ctx.question)):
        return group  # its head is fed already, or the question gives no description: no siblings read
    ids = ctx.document([group[0].passage.passage_id])
    have = {d.passage.passage_id for d in group}
    if not named:
        head = None if ids[0] in have else ctx.fetch(ids[:1])[ids[0]]
        described = head is not None and _described(ctx.question, head.text)
        return [*group, Selected(head, "static", group[-1].score)] if head is not None and described else group
    add = [pid for pid in (ids[0], _section(ctx, group[0].passage.title, ids)) if pid is not None and pid not in have]
    found = ctx.fetch(add)
    return [*group, *(Selected(found[pid], "static", group[-1].score) for pid in dict.fromkeys(add))]


_THE = re.compile(r"\bthe\s+((?:[a-z][\w-]*\s+){1,2}[a-z][\w-]*)", re.IGNORECASE)


def _described(question: str, head: str) -> bool:
    """A note's head passage has a key-value row (its metadata table or bold list) whose
    value states every content word of a description the question gives after "the" (two
    or three words): "Where was the product designer born?" and Aiko Tanabe's "| **Role** |
    Product designer |", when the first stage found only her prose; fed, the answer stage
    asks the question about her (answer/hop/decompose.py). Prose does not count: the
    Saltmarsh report's abstract says "embedding model", and fed beside its other passages
    it pushed the infrastructure page out of QUESTIONS.md Q2's context."""
    from drrag_cli.text.tables import key_values
    from drrag_cli.text.words import content_words

    said = [content_words(value) for _key, value, _kind in key_values(head)]
    for found in _THE.finditer(question):
        words = found.group(1).split()
        for n in (3, 2):
            cues = content_words(" ".join(words[:n]))
            if len(cues) >= 2 and any(cues <= unit for unit in said):
                return True
    return False


_WHAT_IS = re.compile(r"^\s*(?:what|who)\s+(?:is|are|was|were)\s+(.+?)\s*\??\s*$", re.IGNORECASE)


def _defines(question: str, lead: Selected) -> bool:
    """"What is Saltmarsh?" asks what the report titled "Saltmarsh: Compact Sentence
    Embeddings …" is about: its title's part before the colon is the asked name."""
    from drrag_cli.index.links import core_title
    from drrag_cli.text.words import content

    asked = _WHAT_IS.match(question)
    return bool(asked) and content(asked.group(1)) == content(core_title(lead.passage.title)) != set()


def _section(ctx: RunContext, title: str, ids: list[int]) -> int | None:
    """The passage of a named note whose heading fits the question best, when one does
    (:func:`~drrag_cli.text.sections.heading_fit`): "What does Tobias Lindqvist work
    on?" → "## What he works on"; "... do outside work?" → "## Outside work" (two words
    fit, against one)."""
    from drrag_cli.text.sections import fitting_section

    found = fitting_section(ctx.question, ((pid, title, p.text) for pid, p in ctx.fetch(ids).items()))
    return found[0] if found is not None else None


def _side_hops(
    options: tuple[str, ...], groups: list[list[Selected]], walks: list, found: dict
) -> dict[tuple[int, int], tuple[str, int]]:
    """A choice question's side that no static document's title names, and the candidates
    whose titles name it: that side's hops ("Which reached 1.0 first, Heron or Plover?"
    with two Heron notes as static documents must still read Plover's overview, which the
    classifier scored 0.23). {} for a yes/no question."""
    if options == ("yes", "no"):
        return {}
    names = {side: re.compile(rf"(?<!\w){re.escape(side)}(?!\w)", re.IGNORECASE) for side in options}
    missing = [side for side in options if not any(names[side].search(g[0].passage.title) for g in groups)]
    out = {}
    for i, walk in enumerate(walks):
        for pid, _ in walk:
            side = next((side for side in missing if names[side].search(found[pid].title)), None)
            if side is not None:
                out[(i, pid)] = (side, 0)
    return out


def _relation_hops(
    noun: str, groups: list[list[Selected]], walks: list, found: dict
) -> dict[tuple[int, int], tuple[str, int]]:
    """Each walk's candidate that its static document names as the question's relation
    ``noun`` (:attr:`~drrag_cli.asked.Question.hop`: the bridge, else the kin path's first link): "Which film has the
    director who is older, Stadium Nuts or Lady for a Day?" walks from "Stadium Nuts … directed
    by Claude Zidi" to Claude Zidi's page, which the classifier, trained on HotpotQA and MuSiQue
    pairs, scored 0.01 (:func:`drrag_cli.text.relations.related`); so does "Where was the director
    of film Ugly Me born?". At distance 1, not 0: a missing side's own document, and a name
    right beside the question's words, come first. {} without a relation noun."""
    from drrag_cli.text.relations import related

    out: dict[tuple[int, int], tuple[str, int]] = {}
    if not noun:
        return out
    for i, (group, walk) in enumerate(zip(groups, walks, strict=True)):
        pids = [pid for pid, _ in walk]
        text = " ".join(d.passage.text for d in group)
        j = related(group[0].passage.title, text, noun, [found[pid].title for pid in pids])
        if j is not None:
            out[(i, pids[j])] = (found[pids[j]].title, 1)
    return out


def _qdc(ctx: RunContext) -> tuple[list[Selected], dict[int, Any]]:
    """The QDC context, and the q* embedding of each static document (CIS reuses them)."""
    groups = static_docs(ctx)
    static_ids, texts, vecs, lists = walk_lists(ctx, groups, core.qstar_depth(ctx.k))
    picks = core.qdc_select(static_ids, [[pid for pid, _ in ranked] for ranked in lists], ctx.k, ctx.doc_of)
    score_of = [dict(ranked) for ranked in lists]
    docs = [d for g in groups for d in g]
    adds = adds_of(ctx, groups)
    docs += [
        Selected(ctx.answering(pid, adds[i]), "dynamic", score_of[i][pid], via=static_ids[i]) for pid, i in picks
    ]
    ctx.trace["queries"] = [
        {"from": static_ids[i], "text": texts[i], "picked": [pid for pid, j in picks if j == i]}
        for i in range(len(groups))
    ]
    return docs, dict(zip(static_ids, vecs, strict=True))


class QDC(BaseStrategy):
    name = "qdc"

    def run(self, question: str, ctx: RunContext) -> RetrievalResult:
        return ctx.result(self.name, _qdc(ctx)[0])


class CFS(BaseStrategy):
    name = "cfs"
    uses_classifier = True

    def run(self, question: str, ctx: RunContext) -> RetrievalResult:
        p = ctx.params
        groups = static_docs(ctx, SPARE if p.spare else 0, sides=p.named_hops)
        groups, spares = groups[: p.k1], groups[p.k1 :]
        static_ids, texts, qstar_vecs, lists = walk_lists(ctx, groups, p.depth + p.k1 * p.static_passages)
        linked = ctx.linked([[d.passage.passage_id for d in g] for g in groups], lists)
        walks = core.cfs_walks(
            static_ids, [[pid for pid, _ in ranked] for ranked in lists], p.depth, ctx.doc_of, linked
        )
        ids = sorted({pid for walk in walks for pid, _ in walk} | set(static_ids))
        found = ctx.fetch(ids)
        views = views_of(ctx, ids, groups)
        owners = [(i, pid) for i, walk in enumerate(walks) for pid, _ in walk]
        probs = ctx.timed("classify_s", lambda: predict_walks(ctx, static_ids, owners, views, qstar_vecs))
        prob_of = {owner: float(prob) for owner, prob in zip(owners, probs, strict=True)}
        threshold = ctx.threshold(p.rule)
        adds = adds_of(ctx, groups)
        named, relation = self._named(ctx, groups, walks, found, adds) if p.named_hops else ({}, set())
        decisions = core.cfs_select(
            static_ids, walks, prob_of, k=p.k, threshold=threshold, rule=p.rule, per_static=p.per_static,
            doc=ctx.doc_of, sure={owner: gap for owner, (_, gap) in named.items()}, beside_named=p.beside_named,
            named_yield=p.named_yield, confident=p.confident, firm=set() if p.relation_yield else relation,
        )
        score_of = [dict(ranked) for ranked in lists]
        hop = partial(_hop, ctx, static_ids, (adds, score_of, named))
        docs = [d for g in groups for d in g] + [hop(d) for d in core.kept(decisions)]
        docs, spared = spare_static(ctx, docs, decisions, static_ids, spares, threshold)
        chained, third = _chain(ctx, docs, p.chain) if p.chain else ([], [])
        docs += chained
        if p.fill:
            docs += [hop(d) for d in _fill(ctx, docs, decisions, static_ids, linked)]
        ctx.trace.update(threshold=threshold, rule=p.rule)
        ctx.trace["queries"] = [
            {
                "from": static_ids[i],
                "text": texts[i],
                "candidates": [
                    {
                        **found[d.pid].to_json(score=round(score_of[i].get(d.pid, 0.0), 6)),
                        "rank": d.rank,  # 0: linked from the static document, not in its q* list
                        "classifier_prob": None if d.prob is None else round(d.prob, 4),
                        "decision": d.decision,
                        **({"named": named[(i, d.pid)][0]} if (i, d.pid) in named else {}),
                    }
                    for d in walk
                ],
            }
            for i, walk in enumerate(decisions)
        ] + spared + third
        return ctx.result(self.name, docs)

    @staticmethod
    def _named(
        ctx: RunContext, groups: list[list[Selected]], walks: list, found: dict, adds: list[frozenset[str]]
    ) -> tuple[dict[tuple[int, int], tuple[str, int]], set[tuple[int, int]]]:
        """(static index, candidate id) → the name by which the static document leads to
        the candidate and its distance to the question's words
        (:func:`drrag_cli.select.bridges.names_hop`; ``adds``: :func:`~drrag_cli.retrieve.walks.adds_of`);
        and the relation hops among them (:func:`_relation_hops`), which a confident candidate
        does not displace: the classifier scores a film's director 0.01 from the film's page."""
        from drrag_cli.asked import parse
        from drrag_cli.select import bridges

        asked = parse(ctx.question)  # "the director of film X", "X's father": the relation names the hop
        out = _relation_hops(asked.hop, groups, walks, found)
        relation = set(out)
        options = asked.options
        if options:  # "A or B?", yes/no: the question names both sides, and perhaps the relation between hops
            return out | _side_hops(options, groups, walks, found), relation
        seen: dict[str, bool] = {}  # one phrase count per name, not one per candidate

        def common(name: str) -> bool:
            if name not in seen:
                seen[name] = bridges.common(ctx.index.frequency(name))
            return seen[name]

        for i, (group, walk) in enumerate(zip(groups, walks, strict=True)):
            title, texts = group[0].passage.title, [d.passage.text for d in group]
            units = bridges.pointed_units(ctx.question, title, texts)
            linking = any("[[" in u or "](" in u for u in units)  # a link may name no title: [[Marisol]]
            aliases = ctx.index.aliases([pid for pid, _ in walk]) if linking else {}
            for pid, _ in walk:
                p = found[pid]
                hops = [bridges.names_hop(ctx.question, units, adds[i], p.title, p.text, common)]
                if linking:
                    hops.append(bridges.linked_gap(ctx.question, units, p.source, p.title, aliases.get(pid, ())))
                hop = min((h for h in hops if h), key=lambda h: h[1], default=None)
                if hop and (i, pid) not in out:
                    out[(i, pid)] = hop
        return out, relation


class CIS(BaseStrategy):
    name = "cis"
    uses_classifier = True

    def run(self, question: str, ctx: RunContext) -> RetrievalResult:
        from drrag_cli.select.classifier import DocView

        docs, qstar_of = _qdc(ctx)
        if len(docs) < 2:
            return ctx.result(self.name, docs)
        ids = [d.passage.passage_id for d in docs]
        qstar_vecs = [qstar_of.get(pid) for pid in ids]
        missing = [i for i, v in enumerate(qstar_vecs) if v is None]
        if missing and ctx.params.mode != "bm25":  # dynamic docs: embed their q* too
            texts = [ctx.qstar_text([docs[i].passage]) for i in missing]
            for i, v in zip(missing, ctx.timed("retrieve_s", lambda: ctx.index.embed(texts)), strict=True):
                qstar_vecs[i] = v
        views = [DocView(d.passage.title, d.passage.text, v) for d, v in zip(docs, ctx.vectors(ids), strict=True)]
        order = [(m, n) for m in range(len(docs)) for n in range(len(docs)) if m != n]
        assert ctx.classifier is not None
        probs = ctx.timed(
            "classify_s",
            lambda: ctx.classifier.predict(  # type: ignore[union-attr]
                question, ctx.q_vec, [(views[m], views[n]) for m, n in order], [qstar_vecs[m] for m, _ in order]
            ),
        )
        threshold = ctx.threshold("cis")
        keep, best = core.cis_select(len(docs), dict(zip(order, map(float, probs), strict=True)), threshold)
        kept = [Selected(docs[i].passage, docs[i].stage, docs[i].score, round(best[i], 4), docs[i].via) for i in keep]
        ctx.trace["threshold"] = threshold
        ctx.trace["pairs"] = [
            {"a": ids[m], "b": ids[n], "classifier_prob": round(float(p), 4)}
            for (m, n), p in zip(order, probs, strict=True)
        ]
        ctx.trace["dropped"] = [
            {**d.passage.to_json(), "best_pair_prob": round(b, 4), "reason": "negative with every other document"}
            for i, (d, b) in enumerate(zip(docs, best, strict=True))
            if i not in keep
        ]
        return ctx.result(self.name, kept)


def _hop(
    ctx: RunContext, static_ids: list[int], per_walk: tuple[list[frozenset[str]], list[dict[int, float]], dict],
    d: core.Decision,
) -> Selected:
    """A kept candidate as the dynamic document it feeds: its answering passage, its q*
    score and probability, the static document it came through. ``per_walk``: each walk's
    added words and q* scores, and the named hops (:meth:`CFS._named`)."""
    adds, score_of, named = per_walk
    name = named.get((d.static, d.pid), ("",))[0]
    return Selected(
        ctx.answering(d.pid, adds[d.static], name), "dynamic", score_of[d.static].get(d.pid, 0.0), d.prob,
        via=static_ids[d.static],
    )


def _fill(
    ctx: RunContext, docs: list[Selected], decisions: list[list[core.Decision]], static_ids: list[int],
    linked: list[list[int]],
) -> list[core.Decision]:
    """A barren walk's likeliest linked candidate, in a slot still free after the spares and
    the third hops (:func:`~drrag_cli.select.core.fill_barren`, ``retrieval.fill``), for the
    walks whose static document a spare did not replace; ``decisions`` are updated for the
    trace. Returns the new keeps."""
    in_context = {ctx.doc_of(d.passage.passage_id) for d in docs}
    present = {i for i, pid in enumerate(static_ids) if ctx.doc_of(pid) in in_context}
    pairs = {(i, ctx.doc_of(pid)) for i, pids in enumerate(linked) for pid in pids}
    return core.fill_barren(decisions, pairs, ctx.params.fill, ctx.params.k, in_context, ctx.doc_of, present)


def _chain(ctx: RunContext, docs: list[Selected], threshold: float) -> tuple[list[Selected], list[dict[str, Any]]]:
    """A third hop in a slot CFS left free: each kept dynamic document, in the order CFS
    kept them, is walked as a static one (its q* list without the context's documents, the
    classifier on (q, that document, candidate)), and its first candidate scored at least
    ``threshold`` is kept, while the context holds fewer than k documents, or k + 1 when the
    question has ``chain_links`` links or more (:attr:`~drrag_cli.asked.Question.links`: "the
    country where the composer of X was a citizen" asks through three documents). A three-hop
    MuSiQue chain whose first two paragraphs were found otherwise lacks the third, where
    its answer is. Returns the kept documents and their walks, as the trace's queries."""
    from drrag_cli.asked import parse

    p = ctx.params
    links = parse(ctx.question).links
    limit = p.k + (0 < p.chain_links <= links)  # a chain of three documents is asked: one slot more
    in_context = {ctx.doc_of(d.passage.passage_id) for d in docs}
    kept: list[Selected] = []
    walks: list[dict[str, Any]] = []
    for hop in [d for d in docs if d.via is not None]:
        if len(in_context) >= limit:
            break
        texts, vecs, lists = ctx.qstar_lists([[hop.passage]], p.depth + 1)
        ranked = enumerate(lists[0], start=1)
        walk = [(pid, score, rank) for rank, (pid, score) in ranked if ctx.doc_of(pid) not in in_context][: p.depth]
        views = views_of(ctx, [hop.passage.passage_id, *(pid for pid, _, _ in walk)])
        owners = [(0, pid) for pid, _, _ in walk]
        probs = ctx.timed("classify_s", partial(predict_walks, ctx, [hop.passage.passage_id], owners, views, vecs))
        candidates = []
        for (pid, score, rank), prob in zip(walk, probs, strict=True):
            decision = "kept" if float(prob) >= threshold else "below threshold"
            candidates.append(
                {**ctx.fetch([pid])[pid].to_json(score=round(score, 6)), "rank": rank,
                 "classifier_prob": round(float(prob), 4), "decision": decision}
            )  # fmt: skip
            if decision == "kept":
                kept.append(Selected(ctx.answering(pid), "dynamic", score, float(prob), via=hop.passage.passage_id))
                in_context.add(ctx.doc_of(pid))
                break
        walks.append({"from": hop.passage.passage_id, "text": texts[0], "third_hop": True, "candidates": candidates})
    return kept, walks
