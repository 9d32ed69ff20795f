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

import copy
import dataclasses
import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drrag_cli.config import Settings, user_cache_dir
from drrag_cli.errors import IndexMismatchError, InputError
from drrag_cli.evaluate.metrics import answer_scores, recall, summarise
from drrag_cli.evaluate.resume import OutDir

if TYPE_CHECKING:
    from drrag_cli.evaluate.datasets import Dataset, Paragraph, QAExample
    from drrag_cli.index.build import BuildProgress, BuildReport
    from drrag_cli.pipeline import Pipeline

EVAL_CHUNK_WORDS = 1000  # one paragraph = one passage (multi-hop paragraphs are < 1000 words)
PER_RECORD = ("recall", "docs_fed", "tokens_fed", "tokens_selected", "em", "f1", "acc", "llm_calls")
METRICS = (*PER_RECORD, "sec_per_q", "retrieve_s", "classify_s", "generate_s")
ROW_KEYS = ("strategy", "k", *METRICS, "n")

# progress(done, total, record): once at the start (record None), then after each unit.
ProgressFn = Callable[[int, int, "dict[str, Any] | None"], None]


@dataclass
class EvalResult:
    dataset: str
    fmt: str
    questions: int
    corpus_passages: int
    rows: list[dict[str, Any]]
    records: list[dict[str, Any]] = field(default_factory=list)  # per question × strategy × k
    meta: dict[str, Any] = field(default_factory=dict)  # settings, model, wall time, notes, ...

    @property
    def interrupted(self) -> bool:
        return bool(self.meta.get("interrupted"))

    def to_json(self) -> dict[str, Any]:
        """What ``results.json`` holds and ``drrag eval --json`` prints."""
        return {
            "dataset": self.dataset,
            "format": self.fmt,
            "questions": self.questions,
            "corpus_passages": self.corpus_passages,
            "rows": self.rows,
            **self.meta,
        }


class EvalInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_eval`; ``.result`` holds the partial result (already written to ``out``)."""

    def __init__(self, result: EvalResult) -> None:
        super().__init__("evaluation interrupted")
        self.result = result


# -- corpus and index --------------------------------------------------------------------
def corpus_sha(paragraphs: Sequence[Paragraph]) -> str:
    """Sha256 (16 hex) of the sorted paragraph keys: names the cached index folder."""
    keys = sorted({p.key for p in paragraphs})
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()[:16]


def eval_cache_dir(paragraphs: Sequence[Paragraph]) -> Path:
    return user_cache_dir() / "eval" / corpus_sha(paragraphs)


def prepare_index(
    dataset: Dataset, settings: Settings, *, progress: BuildProgress | None = None
) -> BuildReport:
    """Write the corpus as JSONL into the eval cache and index it there (once).

    Points ``settings.index.path`` at that index. Each embedding model / chunk size gets
    its own index folder beside the one corpus file, so switching back is free too.
    """
    from drrag_cli.index.api import Index

    if not dataset.corpus:
        raise InputError(f"dataset {dataset.name!r} has no paragraphs to index; pass its corpus with --corpus")
    folder = eval_cache_dir(dataset.corpus)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "corpus.jsonl"
    if not path.is_file():
        records = ({"id": p.key, "title": p.title, "text": p.text} for p in dataset.corpus)
        tmp = folder / f".corpus.{time.time_ns()}.tmp"
        tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        tmp.replace(path)
    variant = f"{settings.embedding.model}|{settings.index.chunk_words}"
    settings.index.path = str(folder / f"index-{hashlib.sha1(variant.encode()).hexdigest()[:10]}")
    try:
        return Index.build([path], settings, progress=progress)
    except IndexMismatchError:  # a cache made by an older index format: just rebuild it
        return Index.build([path], settings, rebuild=True, progress=progress)


def paragraph_key_of(source: str) -> str:
    """``/cache/eval/…/corpus.jsonl#<key>`` → ``<key>`` (the record id is the paragraph key)."""
    return source.rsplit("#", 1)[1] if "#" in source else source


# -- one unit: a question under one strategy and k ------------------------------------------
def evaluate_one(pipeline: Pipeline, ex: QAExample, qid: str, strategy: str, k: int, with_llm: bool) -> dict:
    """Run one question with ``settings.retrieval.k`` already set to ``k``; one record.

    ``strategy`` is a spec of :mod:`drrag_cli.plan` run exactly as written (the config's
    rewrite / refine methods do not apply). Adaptive-Note always answers: its notes are
    LLM output, so "retrieval only" has no meaning for it.
    """
    t0 = time.perf_counter()
    plan = pipeline.plan(strategy, use_config=False)
    llm_calls: int | None = None
    if with_llm or plan.strategy == "note":
        asked = pipeline.ask(ex.question, plan)
        retrieval, answer = asked.retrieval, asked.answer
        fed = answer.passages
        timings = {k_: round(v, 4) for k_, v in asked.timings.items()}
        tokens_fed, llm_calls = asked.tokens_fed, asked.llm_calls
        if not with_llm:
            answer = None  # the note's answer is not scored in a retrieval-only run
    else:
        retrieval = pipeline.retrieve(ex.question, plan)
        answer, fed = None, retrieval.passages
        timings = {
            **{t: round(v, 4) for t, v in retrieval.timings.items()},
            "generate_s": None,
            "total_s": round(time.perf_counter() - t0, 4),
        }
        tokens_fed = pipeline.tokens(fed)
        llm_calls = retrieval.llm_calls if plan.rewrite else None
    fed_keys = list(dict.fromkeys(paragraph_key_of(p.source) for p in fed))
    record: dict[str, Any] = {
        "qid": qid,
        "strategy": strategy,
        "k": k,
        "question": ex.question,
        "gold": ex.gold_keys,
        "fed": fed_keys,
        "recall": recall(fed_keys, ex.gold_keys),
        "docs_fed": len(fed),
        "tokens_fed": tokens_fed,
        "retrieved": len(retrieval.documents),
        "answer": None,
        "answers": ex.answers,
        "em": None,
        "f1": None,
        "acc": None,
        "llm_calls": llm_calls,
        "timings": timings,
    }
    if retrieval.refined is not None:
        record["tokens_selected"] = retrieval.refined.tokens_before
    if retrieval.rewrites is not None:
        record["rewrites"] = [[r.strategy, r.text, r.status] for r in retrieval.rewrites.items]
    if plan.strategy == "note":
        record["stop_reason"] = retrieval.trace.get("stop_reason")
    if answer is not None:
        record.update(answer=answer.text, trimmed=len(answer.trimmed))
        record.update(answer_scores(answer.text, ex.answers))
    return record


def aggregate(records: Sequence[dict[str, Any]], strategies: Sequence[str], ks: Sequence[int]) -> list[dict]:
    """One row per (strategy, k) that has records: means, ``None`` where not computed."""
    by_unit: dict[tuple[str, int], list[dict]] = {}
    for r in records:
        by_unit.setdefault((r["strategy"], r["k"]), []).append(r)
    rows = []
    for strategy in strategies:
        for k in ks:
            recs = by_unit.get((strategy, k))
            if not recs:
                continue
            flat = [
                {
                    **{m: r.get(m) for m in PER_RECORD},
                    "sec_per_q": r["timings"].get("total_s"),
                    **{t: r["timings"].get(t) for t in ("retrieve_s", "classify_s", "generate_s")},
                }
                for r in recs
            ]
            means = summarise(flat)
            row: dict[str, Any] = {"strategy": strategy, "k": k}
            row.update({m: round(means[m], 4) if m in means else None for m in METRICS})
            row["n"] = len(recs)
            rows.append(row)
    return rows


# -- the run ---------------------------------------------------------------------------------
def spec_parts(strategies: Sequence[str]) -> set[str]:
    """Every part any spec names: {"dmqr", "cfs", "dslr", ...}."""
    from drrag_cli.plan import parse_plan

    return {part for spec in strategies for part in parse_plan(spec).parts}


def _check_plan(strategies: Sequence[str], ks: Sequence[int], llm_ks: Sequence[int]) -> None:
    from drrag_cli.plan import known

    if not strategies:
        raise InputError(f"no strategy given; choose from {known()}")
    spec_parts(strategies)  # an unknown or malformed spec fails here, before indexing
    if not ks or any(k < 1 for k in ks):
        raise InputError(f"-k needs positive document counts like 3,4,6 (got {list(ks)})")
    extra = sorted(set(llm_ks) - set(ks))
    if extra:
        raise InputError(f"--llm-k {extra} not among -k {list(ks)}; LLM answers are computed for evaluated k only")


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


def fingerprint(dataset: Dataset, settings: Settings, strategies, ks, llm: bool, llm_ks) -> dict[str, Any]:  # noqa: ANN001
    """Everything that changes a record: a resumed ``out`` must have been made with the same."""
    s = settings
    run: dict[str, Any] = {
        "dataset": dataset.name,
        "format": dataset.fmt,
        "corpus": corpus_sha(dataset.corpus),
        "strategies": sorted(strategies),
        "ks": sorted(ks),
        "llm": llm,
        "llm_ks": sorted(llm_ks) if llm else [],
        "embedding": s.embedding.model,
        "chunk_words": s.index.chunk_words,
        "search": {"rrf_k": s.search.rrf_k, "candidates": s.search.candidates},
        "retrieval": {f: getattr(s.retrieval, f) for f in ("k1", "first_stage", "depth", "per_static")},
    }
    parts = spec_parts(strategies)
    if {"cfs", "cis"} & parts:
        run["classifier"] = dataclasses.asdict(s.classifier)
    if llm or parts & {"dmqr", "dmqr-adaptive", "note", "dslr"}:  # dslr counts tokens with the LLM's tokenizer
        run["llm_settings"] = {f: getattr(s.llm, f) for f in ("model_path", "n_ctx", "max_tokens", "temperature")}
    if "dslr" in parts:
        run["refine"] = {f: getattr(s.refine, f) for f in ("scorer", "threshold", "empty", "min_sentences")}
    if parts & {"dmqr", "dmqr-adaptive"}:
        run["rewrite"] = {f: getattr(s.rewrite, f) for f in ("strategies", "max_tokens", "original_weight")}
    if "note" in parts:
        run["note"] = dataclasses.asdict(s.note)
    return run


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

    Without ``pipeline`` the corpus is indexed in the eval cache (see module docstring)
    with a copy of ``settings`` (``chunk_words`` overrides ``index.chunk_words``; None
    keeps it). A given ``pipeline`` must sit on such an index (sources ``…#<key>``); its
    ``settings.retrieval.k`` is set per k and restored afterwards. ``llm_ks`` limits which
    k get an LLM answer (default: all). With ``out`` the run appends to / resumes from
    ``out/per_question.jsonl`` and writes ``results.json``, ``results.md`` and a plot;
    ``force`` discards an ``out`` made with other settings. Ctrl-C raises
    :class:`EvalInterrupted` carrying the partial result, after writing it.
    ``calibrate_dslr`` = P sets ``refine.threshold`` to the P-th percentile of the
    sentence scores of the first 50 questions' passages (see
    :func:`drrag_cli.refine.calibrate.calibrate`) before anything runs; no gold labels.
    """
    started = time.perf_counter()
    strategies, ks = list(dict.fromkeys(strategies)), list(dict.fromkeys(ks))
    llm_ks = list(ks) if llm_ks is None else list(dict.fromkeys(llm_ks))
    _check_plan(strategies, ks, llm_ks)
    from drrag_cli.plan import parse_plan

    strategies = list(dict.fromkeys(parse_plan(s).name for s in strategies))  # "DMQR + cfs" -> "dmqr+cfs"
    if pipeline is None:
        settings = copy.deepcopy(settings)
        if chunk_words is not None:
            settings.set("index.chunk_words", chunk_words)
    else:
        settings = pipeline.settings
    calibration = None
    if calibrate_dslr is not None and "dslr" not in spec_parts(strategies):
        raise InputError("--calibrate-dslr needs a strategy with +dslr (e.g. -s cfs+dslr)")
    run = fingerprint(dataset, settings, strategies, ks, llm, llm_ks)
    outdir = None
    if out is not None and calibrate_dslr is None:
        outdir = OutDir(Path(out), run, force)  # refuse before indexing
    if pipeline is None:
        from drrag_cli.pipeline import Pipeline

        passages = prepare_index(dataset, settings, progress=build_progress).passages_total
        pipeline = Pipeline(settings)
    else:
        passages = int(pipeline.index.manifest.get("counts", {}).get("passages", 0))
    if calibrate_dslr is not None:
        from drrag_cli.refine.calibrate import calibrate

        calibration = calibrate(pipeline, dataset.examples, strategies, max(ks), calibrate_dslr)
        settings.refine.threshold = calibration["threshold"]
        run = fingerprint(dataset, settings, strategies, ks, llm, llm_ks)
        outdir = OutDir(Path(out), run, force) if out is not None else None
    if {"cfs", "cis"} & spec_parts(strategies):
        pipeline.classifier  # noqa: B018 - a missing classifier fails now, not after an hour
    model = str(getattr(pipeline.generator, "model_path", "") or "") or None  # also the tokenizer of tokens_fed
    qids = _unique_qids(dataset.examples)
    asked = {ex.qid for ex in dataset.examples}
    units = [(ex, qid, s, k) for ex, qid in zip(dataset.examples, qids, strict=True) for s in strategies for k in ks]
    done = outdir.records if outdir else {}
    records = [done[(qid, s, k)] for _ex, qid, s, k in units if (qid, s, k) in done]
    resumed = len(records)
    meta: dict[str, Any] = {
        "strategies": strategies,
        "ks": ks,
        "llm": llm,
        "llm_ks": llm_ks if llm else [],
        "model": model,
        "index": settings.index.path,
        "settings": {n: v for n, v in dataclasses.asdict(settings).items() if n != "source"},
        "run": run,
        "warnings": [w for w in dataset.warnings if w.split(": ", 1)[0] in asked],
        "resumed": resumed,
    }
    if calibration is not None:
        meta["dslr_calibration"] = calibration

    def result(interrupted: bool = False) -> EvalResult:
        meta.update(
            computed=len(records) - resumed,
            complete=len(records) == len(units),
            interrupted=interrupted,
            wall_s=round(time.perf_counter() - started, 3),
        )
        rows = aggregate(records, strategies, ks)
        res = EvalResult(dataset.name, dataset.fmt, len(dataset.examples), passages, rows, records, dict(meta))
        if outdir is not None:
            outdir.write_results(res)
        return res

    if outdir is not None:
        result()  # writes results.json with the run's settings before the first line
    original_k = settings.retrieval.k
    try:
        if len(records) < len(units):
            meta["warmup_s"] = warm_up(pipeline, strategies)
        if progress:
            progress(len(records), len(units), None)
        for ex, qid, strategy, k in units:
            if (qid, strategy, k) in done:
                continue
            settings.retrieval.k = k
            record = evaluate_one(pipeline, ex, qid, strategy, k, llm and k in llm_ks)
            records.append(record)
            if outdir is not None:
                outdir.append(record)
            if progress:
                progress(len(records), len(units), record)
    except KeyboardInterrupt:
        raise EvalInterrupted(result(interrupted=True)) from None
    except BaseException as exc:
        meta["error"] = f"{type(exc).__name__}: {exc}"
        result(interrupted=True)  # keep what was computed, then let the error through
        raise
    finally:
        settings.retrieval.k = original_k
        if outdir is not None:
            outdir.close()
    return result()
