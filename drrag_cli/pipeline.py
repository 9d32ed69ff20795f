"""`Pipeline`: [rewrite] → retrieval strategy → [refine] → one LLM call → answer with citations.

    from drrag_cli import Pipeline, load_settings
    result = Pipeline(load_settings()).ask("In which city was Heron's lead engineer born?")
    print(result.answer, [c["source"] for c in result.citations()])
    Pipeline(settings).ask(question, "dmqr+cfs+dslr", k=6)   # any spec of drrag_cli.plan

The strategy comes from :mod:`drrag_cli.retrieve.registry` by name and runs with one
signature; per-call values (``k``, the DSLR threshold) are arguments, never written into
the settings. With DMQR the LLM is also called for the rewrites (cached on disk), and
Adaptive-Note (``note``) is a loop of LLM calls; ``AskResult.llm_calls`` counts them all.

Models (embedder, classifier, GGUF) load lazily and once per Pipeline; `eval` reuses one
Pipeline for every question. A generator or classifier can be injected (tests, other
backends) through the protocols they implement.
"""

from __future__ import annotations

import time
from functools import cached_property
from typing import TYPE_CHECKING, Any

from drrag_cli.config import Settings, user_cache_dir
from drrag_cli.errors import InputError
from drrag_cli.plan import Plan, parse_plan, with_methods
from drrag_cli.question import checked_question
from drrag_cli.results import AskResult
from drrag_cli.retrieve import registry
from drrag_cli.retrieve.context import Classifier, Params, RetrievalResult, RunContext, Strategy, linked_context
from drrag_cli.select.core import resolve_k1, resolve_per_static

if TYPE_CHECKING:
    from collections.abc import Callable

    from drrag_cli.index.api import Index
    from drrag_cli.llm.generator import Generator
    from drrag_cli.types import Passage

WHOLE_DOCUMENT_MAX = 64  # the guard reads and holds out whole documents up to this many passages
FIRST_STAGE_MODES = {"hybrid": "hybrid", "dense": "dense", "sm": "dense", "bm25": "bm25"}


class Pipeline:
    def __init__(
        self,
        settings: Settings,
        index: Index | None = None,
        generator: Generator | None = None,
        classifier: Classifier | None = None,
    ) -> None:
        self.settings = settings
        self._index = index
        self._generator = generator
        self._classifier = classifier

    @cached_property
    def index(self) -> Index:
        if self._index is not None:
            return self._index
        from drrag_cli.index.api import Index

        return Index.open(self.settings)

    @property
    def classifier(self) -> Classifier:
        if self._classifier is None:
            from drrag_cli.select.classifier import RelevanceClassifier

            self._classifier = RelevanceClassifier.load(self.settings.classifier.path or None)
        return self._classifier

    @property
    def generator(self) -> Generator:
        if self._generator is None:
            from drrag_cli.llm.llm import LocalLLM

            self._generator = LocalLLM(self.settings.llm)
        return self._generator

    def plan(self, strategy: str | Plan | None = None, *, use_config: bool = True) -> Plan:
        """The spec (default ``retrieval.strategy``), plus the config's rewrite / refine
        methods when ``use_config`` (ask / search; eval passes False)."""
        plan = strategy if isinstance(strategy, Plan) else parse_plan(strategy or self.settings.retrieval.strategy)
        if not use_config or isinstance(strategy, Plan):
            return plan
        rw = self.settings.rewrite
        return with_methods(plan, rw.method, tuple(rw.strategies) == ("adaptive",), self.settings.refine.method)

    def strategy(self, plan: Plan) -> Strategy:
        return registry.get(plan.strategy)

    def params(self, k: int | None = None) -> Params:
        """Per-call retrieval values: the settings, with ``k`` when given."""
        r = self.settings.retrieval
        k = r.k if k is None else k
        if k < 1:
            raise InputError(f"k must be at least 1 (got {k})")
        k1 = resolve_k1(k, r.k1)
        return Params(
            k=k,
            k1=k1,
            mode=FIRST_STAGE_MODES[r.first_stage],
            first_stage=r.first_stage,
            depth=r.depth,
            per_static=resolve_per_static(k, k1, r.per_static),
            rule=r.cfs_rule,
            threshold=self.settings.classifier.threshold,
            focus=r.qstar_focus,
            qstar_vectors=r.qstar_vectors,
            static_passages=r.static_passages,
            links=r.links,
            named_hops=r.named_hops,
            beside_named=r.beside_named,
            named_yield=r.named_yield,
            relation_yield=r.relation_yield,
            chain=r.chain,
            chain_links=r.chain_links,
            spare=r.spare,
            confident=r.confident,
            fill=r.fill,
        )

    def count_tokens(self, text: str) -> int:
        """LLM tokens of a passage text (BOS not counted)."""
        return max(0, self.generator.count_tokens(text) - 1) if text else 0

    def tokens(self, passages: list[Passage]) -> int:
        """LLM tokens of the passages' texts: what ``tokens_fed`` reports."""
        return sum(self.count_tokens(p.text) for p in passages)

    def retrieve(
        self,
        question: str,
        strategy: str | Plan | None = None,
        *,
        k: int | None = None,
        dslr_threshold: float | None = None,
        on_token: Callable[[str], None] | None = None,
    ) -> RetrievalResult:
        """Rewrite (DMQR) → strategy → refine (DSLR), as the plan says. A strategy that
        answers itself (note) is run by :meth:`ask`, not here."""
        question = checked_question(question, self.settings)
        plan = self.plan(strategy)
        if self.strategy(plan).answers:
            raise InputError(f"strategy {plan.strategy} answers with the LLM; use drrag ask (or eval), not search")
        return self._retrieve(question, plan, self.params(k), dslr_threshold, on_token)

    def _retrieve(
        self,
        question: str,
        plan: Plan,
        params: Params,
        dslr_threshold: float | None,
        on_token: Callable[[str], None] | None,
        exclude: frozenset[int] = frozenset(),
        query: str = "",
    ) -> RetrievalResult:
        """Run the plan's strategy for ``question``; ``query`` is what it searches with, the
        question in the words notes say it with (:func:`said_as`), worked out here once per
        ask (a re-run without held-out documents passes it back)."""
        strategy = self.strategy(plan)
        index: Any = self.index  # a missing index is the first thing to report
        if exclude:
            from drrag_cli.retrieve.exclude import Excluding

            index = Excluding(index, exclude)
        fused, rewrites, dmqr_trace, fuse_s = None, None, None, 0.0
        if plan.rewrite:
            rewrites, fused, dmqr_trace, fuse_s = self._rewrite(question, plan, strategy.list_mode or params.mode)
        services: dict[str, Any] = {}
        if strategy.answers:
            from drrag_cli.answer.answer import generate_answer

            services = {
                "generator": self.generator,
                "answer": generate_answer,
                "note": self.settings.note,
                "answer_max_tokens": self.settings.llm.max_tokens,
                "on_token": on_token,
            }
        from drrag_cli.answer.statements import said_as

        query = query or said_as(question)  # "Where is Aiko Tanabe from?" finds where she "was born"
        ctx = RunContext(
            query,
            index,
            params,
            classifier=self.classifier if strategy.uses_classifier else None,
            fused=fused,
            services=services,
        )
        result = strategy.run(query, ctx)
        result.strategy = plan.name
        result.trace["strategy"] = plan.name
        if rewrites is not None:
            result.rewrites = rewrites
            result.llm_calls += rewrites.llm_calls
            result.timings["retrieve_s"] += fuse_s
            result.timings["rewrite_s"] = rewrites.seconds
            result.trace["dmqr"] = {**rewrites.to_json(), **(dmqr_trace or {})}
        if plan.refine:
            threshold = self.settings.refine.threshold if dslr_threshold is None else dslr_threshold
            result.refined = self._refine(question, result.passages, threshold)
            result.timings["refine_s"] = result.refined.seconds
            result.trace["dslr"] = result.refined.to_json()
        return result

    def _rewrite(self, question: str, plan: Plan, mode: str) -> tuple[Any, Any, Any, float]:
        """DMQR: the rewrites (cached on disk) and the fused first stage of all their lists."""
        from drrag_cli.retrieve.dmqr import fused_first_stage
        from drrag_cli.retrieve.rewrite import RewriteCache, rewrite_question

        rw, search = self.settings.rewrite, self.settings.search
        cache = RewriteCache(user_cache_dir() / "rewrites" if rw.cache else None)
        names = ["adaptive"] if plan.rewrite == "dmqr-adaptive" else list(rw.strategies)
        rewrites = rewrite_question(self.generator, question, names, cache, max_tokens=rw.max_tokens)
        t0 = time.perf_counter()
        fused, trace = fused_first_stage(
            rewrites,
            self.index,
            mode=mode,
            depth=max(search.candidates, self.settings.retrieval.depth),
            rrf_k=search.rrf_k,
            original_weight=rw.original_weight,
        )
        return rewrites, fused, trace, time.perf_counter() - t0

    def _refine(self, question: str, passages: list[Passage], threshold: float) -> Any:
        from drrag_cli.refine.dslr import make_scorer, refine_dslr

        cfg = self.settings.refine
        t0 = time.perf_counter()
        refined = refine_dslr(
            question,
            passages,
            make_scorer(cfg.scorer, self.index.embed),
            threshold,
            empty=cfg.empty,
            count_tokens=self.count_tokens,
            min_sentences=cfg.min_sentences,
        )
        refined.seconds = time.perf_counter() - t0
        return refined

    def _hold_out(
        self, question: str, plan: Plan, params: Params, dslr_threshold: float | None, retrieval: RetrievalResult
    ) -> tuple[RetrievalResult, list[Any], frozenset[tuple[str, str]]]:
        """Documents with a passage that addresses the model (:mod:`drrag_cli.answer.guard`)
        are held out whole (their other passages were written by the same hand), and the
        strategy runs again without them, so the documents they displaced come back. At
        most twice: the second run may surface other hostile documents. Also the (title, text)
        of every passage found clean, so the answer stage does not check them again."""
        from drrag_cli.answer.guard import suspicions

        held: list[Any] = []
        excluded: frozenset[int] = frozenset()
        cleared: frozenset[tuple[str, str]] = frozenset()
        for _ in range(2):
            fed = [p.passage_id for p in retrieval.passages if p.passage_id is not None]
            documents = {  # fed passage -> the passages of its document (just itself in a long one)
                pid: ids if len(ids) <= WHOLE_DOCUMENT_MAX else [pid]
                for pid, ids in self.index.siblings(fed).items()
            }
            texts = self.index.passages(sorted({pid for ids in documents.values() for pid in ids}))
            found = suspicions([texts[pid] for pid in sorted(texts)])
            if not found:
                cleared = frozenset((p.title, p.text) for p in texts.values())
                break
            hostile = {s.passage.passage_id for s in found}
            held += found
            excluded |= {pid for ids in documents.values() if hostile & set(ids) for pid in ids}
            retrieval = self._retrieve(question, plan, params, dslr_threshold, None, excluded, retrieval.question)
        return retrieval, held, cleared

    def _aliases(self, documents: list[Any]) -> dict[str, tuple[str, ...]]:
        """Each fed document's source → its front matter aliases, for the links a rewrite
        may follow ("[[Marisol]]"); none is looked up when no fed text holds a wiki-link."""
        if not any("[[" in d.passage.text for d in documents):
            return {}
        found = self.index.aliases([d.passage.passage_id for d in documents if d.passage.passage_id is not None])
        return {d.passage.source: found[d.passage.passage_id] for d in documents if d.passage.passage_id in found}

    def _decomposed(
        self, question: str, retrieval: RetrievalResult, passages: list[Passage]
    ) -> tuple[str, list[Passage]]:
        """(the question about the bridge by name, the passages to answer it from), or the
        question as it is when it cannot be rewritten (:func:`~drrag_cli.answer.hop.decompose.bridged`),
        with the passages of the bridge the context passes through when it has one
        (:func:`~drrag_cli.answer.hop.decompose.passed_through`): "Who directed the film that
        was shot in Leland, and that starred Emilio Estevez?" has no description the rewrite
        can replace, but Leland's page names Maximum Overdrive: the model reads that page and
        the film's, not a third about David Leland."""
        from drrag_cli.answer.hop.decompose import bridge_context, bridged, passed_through
        from drrag_cli.answer.statements import said_as

        found = bridged(question, retrieval.documents, self._aliases(retrieval.documents))
        if not found:
            bridge = passed_through(question, retrieval.documents)
            if bridge is not None and self.settings.answer.context == "bridge":
                passages = bridge_context(bridge, passages, retrieval.documents, question)
            return question, passages
        asked, bridge = found
        passages = self._reread(said_as(asked.replace(bridge.entity, " ")), passages, bridge.source)
        if self.settings.answer.context == "bridge":
            passages = bridge_context(bridge, passages, retrieval.documents, asked)
        return asked, passages

    def _reread(self, relation: str, passages: list[Passage], source: str) -> list[Passage]:
        """After a decomposed rewrite, the bridge document's (``source``) passage that holds
        most words of what is asked of the bridge (the rewritten question without the
        entity: "In which building is housed?"), then the closest to it, joins the context
        when it was not fed, in document order among that document's fed passages (after
        the one before it). The wiki page names Brackwater in one passage and says "It is
        housed in the Vlasmarkt Annex" in the next; the original question found only the
        first, and "It" reads right only after it."""
        fed = [p.passage_id for p in passages if p.passage_id is not None and p.source == source]
        ids = self.index.siblings(fed[:1]).get(fed[0], []) if fed else []
        if not 1 < len(ids) <= WHOLE_DOCUMENT_MAX:
            return passages
        from drrag_cli.select.bridges import most_added
        from drrag_cli.text.words import roots

        found = self.index.passages(ids)
        texts = [found[i].text if i in found else "" for i in ids]
        scores = list(self.index.vectors(ids) @ self.index.embed([relation])[0])
        best = most_added(ids, scores, texts, roots(relation))
        if best in fed:
            return passages
        order = {pid: n for n, pid in enumerate(ids)}
        before = [i for i, p in enumerate(passages) if order.get(p.passage_id, len(ids)) < order[best]]
        at = before[-1] + 1 if before else min(i for i, p in enumerate(passages) if p.passage_id in order)
        return [*passages[:at], found[best], *passages[at:]]

    def ask(
        self,
        question: str,
        strategy: str | Plan | None = None,
        *,
        k: int | None = None,
        dslr_threshold: float | None = None,
        on_token: Callable[[str], None] | None = None,
    ) -> AskResult:
        """Retrieve as the plan says, then answer with one LLM call (unless the strategy
        answered itself, as Adaptive-Note does)."""
        from drrag_cli.answer.answer import generate_answer, read_in_code
        from drrag_cli.answer.prompts import where_question
        from drrag_cli.llm.llm import preloading

        question = checked_question(question, self.settings, self.count_tokens)
        plan = self.plan(strategy)
        t0 = time.perf_counter()
        certain = not self.settings.answer.reader_names  # no reader may answer first
        with preloading(self.generator, certain=certain):  # the model gets ready while we retrieve
            retrieval = self._retrieve(question, plan, self.params(k), dslr_threshold, on_token)
        held: list[Any] = []
        cleared: frozenset[tuple[str, str]] = frozenset()
        if self.settings.answer.guard and retrieval.answer is None:
            retrieval, held, cleared = self._hold_out(question, plan, self.params(k), dslr_threshold, retrieval)
        answer = retrieval.answer
        if answer is None:
            asked, passages = question, retrieval.passages
            if self.settings.answer.context == "linked":
                passages = linked_context(retrieval.documents, passages)
            readers = self.settings.answer.reader_names
            decompose = self.settings.answer.mode == "decompose"
            if decompose and not read_in_code(where_question(question), passages, readers):
                asked, passages = self._decomposed(question, retrieval, passages)
            asked = where_question(asked)  # the small model reads "where" better than "in which city"
            answer = generate_answer(
                self.generator,
                asked,
                passages,
                max_tokens=self.settings.llm.max_tokens,
                on_token=on_token,
                guard=self.settings.answer.guard,
                cleared=cleared,
                readers=readers,
                pick=self.settings.answer.compare,
                rewritten_from=question if asked != question else "",
                copy=self.settings.answer.copy,
                no_bias=self.settings.answer.no_bias if self.settings.answer.choice == "scored" else None,
            )
        answer.suspicious = held + answer.suspicious
        timings = {
            "retrieve_s": retrieval.timings["retrieve_s"],
            "classify_s": retrieval.timings["classify_s"],
            **{key: retrieval.timings[key] for key in ("rewrite_s", "refine_s") if key in retrieval.timings},
            "generate_s": answer.generate_s,
            "total_s": time.perf_counter() - t0,
        }
        fed = self.tokens(answer.passages) if answer.llm_calls else 0  # a reader's answer feeds the model nothing
        model = str(getattr(self.generator, "model_path", "") or "") if answer.llm_calls else ""
        return AskResult(question, retrieval, answer, timings, tokens_fed=fed, model=model or None)
