"""Eval runner: every question × strategy × k through one Pipeline (SPEC §7).

    from drrag_cli.evaluate import load_dataset, run_eval
    result = run_eval(load_dataset("dev500.ircot.jsonl"), settings, ["hybrid", "cfs"], [3, 4, 6], out="runs/a")
    print(result.rows)

The corpus (the union of the questions' paragraphs, or a given one) is written as a
JSONL record corpus (id = paragraph key) into ``<user cache>/eval/<sha of the keys>/``
and indexed there once; later evals of the same corpus reuse it (an unchanged file is a
no-op for ``Index.build``). It is chunked with ``chunk_words = 1000`` so that each
paragraph stays one passage, as the papers evaluate: recall then counts paragraphs, and
a fed passage maps back to its paragraph through the record id in ``Passage.source``.

Recall is measured on the documents actually fed: for a k answered by the LLM that is
the context after n_ctx trimming, otherwise the strategy's selection. One
``per_question.jsonl`` line is appended (and flushed) per question × strategy × k, so a
crash or Ctrl-C loses nothing and a re-run with the same ``out`` resumes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drrag_cli.config import Settings
from drrag_cli.errors import InputError
from drrag_cli.evaluate.askable import askable
from drrag_cli.evaluate.forms import gold_forms
from drrag_cli.evaluate.metrics import accuracy, answer_fields, recall
from drrag_cli.evaluate.result import EvalInterrupted, EvalResult, aggregate, by_type
from drrag_cli.evaluate.resume import OutDir
from drrag_cli.index.paragraphs import ONE_PASSAGE_WORDS, corpus_sha, index_paragraphs, key_of

if TYPE_CHECKING:
    from drrag_cli.index.build import BuildProgress
    from drrag_cli.pipeline import Pipeline
    from drrag_cli.plan import Plan
    from drrag_cli.types import Dataset, QAExample

EVAL_CHUNK_WORDS = ONE_PASSAGE_WORDS  # one paragraph = one passage, as the papers evaluate

# progress(done, total, record): once at the start (record None), then after each unit.
ProgressFn = Callable[[int, int, "dict[str, Any] | None"], None]


# -- one unit: a question under one strategy and k ------------------------------------------
def _run(pipeline: Pipeline, question: str, plan: Plan, k: int, with_llm: bool, dslr_threshold: float | None) -> tuple:
    """(retrieval, answer or None, passages fed, timings, tokens fed, LLM calls or None)."""
    t0 = time.perf_counter()
    if with_llm or pipeline.strategy(plan).answers:
        asked = pipeline.ask(question, plan, k=k, dslr_threshold=dslr_threshold)
        timings = {key: round(v, 4) for key, v in asked.timings.items()}
        answer = asked.answer if with_llm else None  # the note's answer is not scored in a retrieval-only run
        fed = asked.answer.passages  # tokens_fed as the papers count it: the answer's passages, read by model or code
        return asked.retrieval, answer, fed, timings, pipeline.tokens(fed), asked.llm_calls
    retrieval = pipeline.retrieve(question, plan, k=k, dslr_threshold=dslr_threshold)
    timings = {
        **{t: round(v, 4) for t, v in retrieval.timings.items()},
        "generate_s": None,
        "total_s": round(time.perf_counter() - t0, 4),
    }
    llm_calls = retrieval.llm_calls if plan.rewrite else None
    return retrieval, None, retrieval.passages, timings, pipeline.tokens(retrieval.passages), llm_calls


def evaluate_one(
    pipeline: Pipeline,
    ex: QAExample,
    qid: str,
    strategy: str,
    k: int,
    with_llm: bool,
    dslr_threshold: float | None = None,
) -> dict:
    """Run one question under ``strategy`` with ``k`` documents; one record.

    ``strategy`` is a spec of :mod:`drrag_cli.plan` run exactly as written (the config's
    rewrite / refine methods do not apply). Adaptive-Note always answers: its notes are
    LLM output, so "retrieval only" has no meaning for it.
    """
    plan = pipeline.plan(strategy, use_config=False)
    retrieval, answer, fed, timings, tokens_fed, llm_calls = _run(pipeline, ex.question, plan, k, with_llm,
                                                                  dslr_threshold)
    fed_keys = list(dict.fromkeys(key_of(p.source) for p in fed))
    record: dict[str, Any] = {
        "qid": qid,
        "strategy": strategy,
        "k": k,
        "question": ex.question,
        "qtype": ex.qtype,
        "gold": ex.gold_keys,
        "fed": fed_keys,
        "recall": recall(fed_keys, ex.gold_keys),
        # the gold answer stands in what was fed (normalised): the answer stage could have found it
        "answer_in_fed": bool(accuracy(" ".join(f"{p.title} {p.text}" for p in fed), ex.answers)),
        "docs_fed": len(fed),
        "tokens_fed": tokens_fed,
        "retrieved": len(retrieval.documents),
        "answer": None,
        "answers": ex.answers,
        "em": None,
        "f1": None,
        "acc": None,
        "accepted": None,
        "llm_calls": llm_calls,
        "timings": timings,
    }
    if retrieval.refined is not None:
        record["tokens_selected"] = retrieval.refined.tokens_before
    if retrieval.rewrites is not None:
        record["rewrites"] = [[r.strategy, r.text, r.status] for r in retrieval.rewrites.items]
    if retrieval.note is not None:
        record["stop_reason"] = retrieval.note.stop_reason
    if answer is not None:
        forms = gold_forms(ex.answers, ex.question, [(p.title, p.text) for p in ex.paragraphs])
        record.update(answer_fields(answer, ex.question, ex.answers, forms))
    return record


# -- the run ---------------------------------------------------------------------------------
def spec_parts(strategies: Sequence[str]) -> set[str]:
    """Every part any spec names: {"dmqr", "cfs", "dslr", ...}."""
    from drrag_cli.plan import parse_plan

    return {part for spec in strategies for part in parse_plan(spec).parts}


def _check_args(
    strategies: Sequence[str], ks: Sequence[int], llm_ks: Sequence[int], calibrate_dslr: float | None
) -> None:
    """Everything that can be wrong with the arguments, before anything is indexed."""
    from drrag_cli.plan import known

    if not strategies:
        raise InputError(f"no strategy given; choose from {known()}")
    parts = spec_parts(strategies)  # an unknown or malformed spec fails here
    if not ks or any(k < 1 for k in ks):
        raise InputError(f"ks (-k) need positive document counts like 3,4,6 (got {list(ks)})")
    extra = sorted(set(llm_ks) - set(ks))
    if extra:
        raise InputError(f"llm_ks (--llm-k) {extra} not among ks (-k) {list(ks)}; answers are computed for those only")
    if calibrate_dslr is not None:
        if "dslr" not in parts:
            raise InputError("calibrate_dslr (--calibrate-dslr) needs a strategy with +dslr (e.g. cfs+dslr)")
        if not 0 <= calibrate_dslr <= 100:
            raise InputError(
                f"calibrate_dslr (--calibrate-dslr) is a percentile between 0 and 100 (got {calibrate_dslr:g})"
            )


def _unique_qids(examples: Sequence[QAExample]) -> list[str]:
    """Question ids, made unique (``id#2``) so resume keys never collide."""
    seen: dict[str, int] = {}
    out = []
    for ex in examples:
        seen[ex.qid] = seen.get(ex.qid, 0) + 1
        out.append(ex.qid if seen[ex.qid] == 1 else f"{ex.qid}#{seen[ex.qid]}")
    return out


def warm_up(pipeline: Pipeline, strategies: Sequence[str]) -> float:
    """Load the lazy models (embedder, GGUF) before the clock runs, so the first question's
    seconds are not a model load; returns the seconds it took."""
    t0 = time.perf_counter()
    index = pipeline.index
    if set(strategies) != {"bm25"} or pipeline.settings.retrieval.first_stage != "bm25":
        index.embed(["warm-up"])
    index.bm25_ranked("warm up", 1)
    getattr(pipeline.generator, "model", None)  # tokens_fed is counted with its tokenizer even without --llm
    return round(time.perf_counter() - t0, 3)


def fingerprint(
    dataset: Dataset,
    settings: Settings,
    strategies: Sequence[str],
    ks: Sequence[int],
    llm: bool,
    llm_ks: Sequence[int],
    dslr_threshold: float,
) -> dict[str, Any]:
    """Everything that changes a record: a resumed ``out`` must have been made with the same."""
    from drrag_cli.plan import parse_plan
    from drrag_cli.retrieve import registry

    s = settings.to_dict()
    run: dict[str, Any] = {
        "dataset": dataset.name,
        "format": dataset.fmt,
        "corpus": corpus_sha(dataset.corpus),
        "strategies": sorted(strategies),
        "ks": sorted(ks),
        "llm": llm,
        "llm_ks": sorted(llm_ks) if llm else [],
        "embedding": settings.embedding.model,
        "chunk_words": settings.index.chunk_words,
        "search": {f: s["search"][f] for f in ("rrf_k", "candidates")},
        # every rule of the walks (named hops, chain, spare …): the strategy and k are the run's own
        "retrieval": {f: v for f, v in s["retrieval"].items() if f not in ("strategy", "k")},
    }
    parts = spec_parts(strategies)
    plans = [parse_plan(spec) for spec in strategies]
    if any(registry.get(p.strategy).uses_classifier for p in plans):
        run["classifier"] = s["classifier"]
    answering = any(registry.get(p.strategy).answers for p in plans)
    if llm or answering or parts & {"dmqr", "dmqr-adaptive", "dslr"}:  # dslr counts tokens with the LLM's tokenizer
        run["llm_settings"] = {f: s["llm"][f] for f in ("model_path", "n_ctx", "max_tokens", "temperature")}
        run["answer"] = s["answer"]  # the readers and their order, the answer mode
    if "dslr" in parts:
        run["refine"] = {
            **{f: s["refine"][f] for f in ("scorer", "empty", "min_sentences")},
            "threshold": dslr_threshold,
        }
    if parts & {"dmqr", "dmqr-adaptive"}:
        run["rewrite"] = {f: s["rewrite"][f] for f in ("strategies", "max_tokens", "original_weight")}
    if "note" in parts:
        run["note"] = s["note"]
    return run


def dataset_pipeline(
    dataset: Dataset,
    settings: Settings,
    chunk_words: int | None = EVAL_CHUNK_WORDS,
    build_progress: BuildProgress | None = None,
) -> tuple[Pipeline, int]:
    """Index the dataset's paragraphs in the eval cache (once) and open a Pipeline on it;
    returns (pipeline, passages in the index)."""
    from drrag_cli.index.api import Index
    from drrag_cli.pipeline import Pipeline

    if chunk_words is not None:
        settings = settings.replace({"index.chunk_words": chunk_words})
    path, report = index_paragraphs(dataset.corpus, settings, dataset.name, progress=build_progress)
    return Pipeline(settings, index=Index.open(settings, path)), report.passages_total


def _run_meta(
    pipeline: Pipeline, dataset: Dataset, settings: Settings, strategies: list[str], ks: list[int], llm: bool,
    llm_ks: list[int],
) -> dict[str, Any]:
    """What results.json says about the run; loads the classifier now if a strategy needs
    it, so a missing one fails at once, not after an hour."""
    from drrag_cli.plan import parse_plan

    if any(pipeline.strategy(parse_plan(s)).uses_classifier for s in strategies):
        pipeline.classifier  # noqa: B018
    asked = {ex.qid for ex in dataset.examples}
    return {
        "strategies": strategies,
        "ks": ks,
        "llm": llm,
        "llm_ks": llm_ks if llm else [],
        "model": str(getattr(pipeline.generator, "model_path", "") or "") or None,  # also the tokenizer of tokens_fed
        "index": str(pipeline.index.root),
        "settings": settings.to_dict(),
        "warnings": [w for w in dataset.warnings if w.split(": ", 1)[0] in asked],
    }


def run_eval(
    dataset: Dataset,
    settings: Settings,
    strategies: Sequence[str],
    ks: Sequence[int],
    *,
    llm: bool = True,
    llm_ks: Sequence[int] | None = None,
    out: str | Path | None = None,
    progress: ProgressFn | None = None,
    pipeline: Pipeline | None = None,
    chunk_words: int | None = EVAL_CHUNK_WORDS,
    force: bool = False,
    build_progress: BuildProgress | None = None,
    calibrate_dslr: float | None = None,
) -> EvalResult:
    """Evaluate ``dataset`` under every strategy × k; rows aggregate per (strategy, k).

    Without ``pipeline`` the corpus is indexed in the eval cache
    (:mod:`drrag_cli.index.paragraphs`; ``chunk_words`` overrides ``index.chunk_words``,
    None keeps it). A given ``pipeline`` must sit on such an index (sources ``…#<key>``).
    ``llm_ks`` limits which k get an LLM answer (default: all). With ``out`` the run
    appends to / resumes from ``out/per_question.jsonl`` and writes ``results.json``,
    ``results.md`` and a plot; ``force`` discards an ``out`` made with other settings.
    Ctrl-C raises :class:`EvalInterrupted` carrying the partial result, after writing it.
    ``calibrate_dslr`` = P sets the DSLR threshold of this run to the P-th percentile of
    the sentence scores of the first 50 questions' passages
    (:func:`drrag_cli.evaluate.calibrate.calibrate`) before anything runs; no gold labels.
    """
    from drrag_cli.plan import parse_plan

    started = time.perf_counter()
    ks = list(dict.fromkeys(ks))
    llm_ks = list(ks) if llm_ks is None else list(dict.fromkeys(llm_ks))
    _check_args(strategies, ks, llm_ks, calibrate_dslr)
    strategies = list(dict.fromkeys(parse_plan(s).name for s in strategies))  # "DMQR + cfs" -> "dmqr+cfs"
    base = pipeline.settings if pipeline is not None else settings
    if chunk_words is not None and pipeline is None:
        base = base.replace({"index.chunk_words": chunk_words})
    threshold = base.refine.threshold
    outdir = None
    if out is not None and calibrate_dslr is None:  # refuse a mismatched --out before indexing
        outdir = OutDir(Path(out), fingerprint(dataset, base, strategies, ks, llm, llm_ks, threshold), force)
    if pipeline is None:
        pipeline, passages = dataset_pipeline(dataset, settings, chunk_words, build_progress)
    else:
        passages = int(pipeline.index.manifest.get("counts", {}).get("passages", 0))
    meta: dict[str, Any] = {}
    if calibrate_dslr is not None:
        from drrag_cli.evaluate.calibrate import calibrate

        meta["dslr_calibration"] = calibrate(pipeline, dataset.examples, strategies, max(ks), calibrate_dslr)
        threshold = meta["dslr_calibration"]["threshold"]
    run = fingerprint(dataset, base, strategies, ks, llm, llm_ks, threshold)
    if out is not None and outdir is None:
        outdir = OutDir(Path(out), run, force)
    meta.update(_run_meta(pipeline, dataset, base, strategies, ks, llm, llm_ks), run=run)
    dataset = askable(dataset, pipeline, (llm and bool(llm_ks)) or "note" in spec_parts(strategies), meta)
    loop = _Loop(dataset, pipeline, strategies, ks, llm, llm_ks, threshold, outdir, passages, meta, started)
    return loop.run(progress)


class _Loop:
    """The question × strategy × k units of one run: resume, compute, record, report."""

    def __init__(
        self,
        dataset: Dataset,
        pipeline: Pipeline,
        strategies: list[str],
        ks: list[int],
        llm: bool,
        llm_ks: list[int],
        threshold: float,
        outdir: OutDir | None,
        passages: int,
        meta: dict[str, Any],
        started: float,
    ) -> None:
        self.dataset, self.pipeline, self.strategies, self.ks = dataset, pipeline, strategies, ks
        self.llm, self.llm_ks, self.threshold, self.outdir = llm, llm_ks, threshold, outdir
        self.passages, self.meta, self.started = passages, meta, started
        qids = _unique_qids(dataset.examples)
        self.units = [
            (ex, qid, s, k) for ex, qid in zip(dataset.examples, qids, strict=True) for s in strategies for k in ks
        ]
        self.done = outdir.records if outdir else {}
        self.records = [self.done[(qid, s, k)] for _ex, qid, s, k in self.units if (qid, s, k) in self.done]
        meta["resumed"] = self.resumed = len(self.records)

    def result(self, interrupted: bool = False) -> EvalResult:
        self.meta.update(
            computed=len(self.records) - self.resumed,
            complete=len(self.records) == len(self.units),
            interrupted=interrupted,
            wall_s=round(time.perf_counter() - self.started, 3),
        )
        rows = aggregate(self.records, self.strategies, self.ks)
        ds = self.dataset
        res = EvalResult(ds.name, ds.fmt, len(ds.examples), self.passages, rows, self.records, dict(self.meta),
                         by_type(self.records, self.strategies, self.ks))
        if self.outdir is not None:
            self.outdir.write_results(res)
        return res

    def run(self, progress: ProgressFn | None) -> EvalResult:
        if self.outdir is not None:
            self.result()  # writes results.json with the run's settings before the first line
        try:
            if len(self.records) < len(self.units):
                self.meta["warmup_s"] = warm_up(self.pipeline, self.strategies)
            if progress:
                progress(len(self.records), len(self.units), None)
            for ex, qid, strategy, k in self.units:
                if (qid, strategy, k) in self.done:
                    continue
                with_llm = self.llm and k in self.llm_ks
                record = evaluate_one(self.pipeline, ex, qid, strategy, k, with_llm, self.threshold)
                self.records.append(record)
                if self.outdir is not None:
                    self.outdir.append(record)
                if progress:
                    progress(len(self.records), len(self.units), record)
        except KeyboardInterrupt:
            raise EvalInterrupted(self.result(interrupted=True)) from None
        except BaseException as exc:
            self.meta["error"] = f"{type(exc).__name__}: {exc}"
            self.result(interrupted=True)  # keep what was computed, then let the error through
            raise
        finally:
            if self.outdir is not None:
                self.outdir.close()
        return self.result()
