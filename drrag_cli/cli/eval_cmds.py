"""`drrag eval`: a multi-hop QA file end to end, one table row per strategy × k."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

import typer

from drrag_cli.cli.ask_cmds import FirstOpt, K1Opt, ThresholdOpt, retrieval_settings
from drrag_cli.cli.common import (
    ConfigOpt,
    DslrThresholdOpt,
    JsonOpt,
    RewriteStrategiesOpt,
    method_overrides,
    print_json,
    stderr_console,
    stdout_console,
)
from drrag_cli.errors import DrragError, InputError

EVAL_EXAMPLES = (
    "Examples: drrag eval dev500.ircot.jsonl --no-llm -s bm25,hybrid,qdc,cfs -k 3,4,6 --out runs/dev500"
    "  |  drrag eval musique.json --limit 100 --llm-k 4 --out runs/mq  (Ctrl-C, then the same command resumes)"
    "  |  drrag eval questions.json --corpus corpus.json --json | jq '.rows[] | [.strategy, .k, .recall]'"
    "  |  drrag eval dev500.ircot.jsonl --limit 100 -s cfs,cfs+dslr,dmqr+cfs,dmqr-adaptive+cfs+dslr,note -k 4"
    "  |  drrag eval dev500.ircot.jsonl --limit 100 -s cfs+dslr -k 4 --calibrate-dslr 50"
)
ALL_STRATEGIES = "bm25,sm,hybrid,qdc,cis,cfs"


class EvalStopped(DrragError):
    """Ctrl-C: the partial table is printed; the CLI edge prints this line and exits 130."""

    exit_code = 130


def register(app: typer.Typer) -> None:
    app.command("eval", epilog=EVAL_EXAMPLES)(eval_)


def _names(text: str) -> list[str]:
    return [s.strip().lower() for s in text.split(",") if s.strip()]


def _ints(text: str, option: str) -> list[int]:
    try:
        values = [int(s) for s in _names(text)]
    except ValueError:
        values = []
    if not values or any(v < 1 for v in values):
        raise InputError(f"{option} expects comma-separated positive integers like 3,4,6 (got {text!r})")
    return values


class _Bar:
    """One rich progress display on stderr for the index build and then the questions."""

    def __init__(self) -> None:
        from drrag_cli.cli.progress import RichProgress

        self.rich = RichProgress()
        self.eval_task: Any = None

    def __enter__(self) -> _Bar:
        self.rich.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.rich.__exit__(*exc)

    def phase(self, name: str, total: int | None) -> None:  # index build (BuildProgress)
        self.rich.phase(name, total)

    def advance(self, n: int = 1) -> None:
        self.rich.advance(n)

    def within(self, what: str, done: int, total: int) -> None:
        self.rich.within(what, done, total)

    def __call__(self, done: int, total: int, record: dict[str, Any] | None) -> None:  # eval (ProgressFn)
        if self.eval_task is None:
            self.rich.phase("evaluating", total)
            self.eval_task = self.rich.task
            # resumed units count as done from the start, not as speed (the ETA stays honest)
            self.rich.progress.reset(self.eval_task, total=total, completed=done)
        label = f"eval {record['strategy']} k={record['k']}" if record else "evaluating"
        self.rich.progress.update(self.eval_task, completed=done, description=label)


def eval_(
    questions: Annotated[
        str,
        typer.Argument(
            help="Multi-hop QA file: raw HotpotQA / 2Wiki JSON, IRCoT JSONL, MuSiQue JSON(L), "
            "or questions whose supporting_facts name titles of --corpus. Format auto-detected."
        ),
    ],
    corpus: Annotated[
        str | None, typer.Option("--corpus", help="Separate corpus: JSON(L) of {title, text}, or {title: sentences}.")
    ] = None,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            "-s",
            help="Comma-separated: bm25 sm hybrid qdc cis cfs note dmqr dmqr-adaptive, and + combinations "
            "such as cfs+dslr, dmqr+cfs, dmqr-adaptive+cfs+dslr (each row is named as written).",
        ),
    ] = ALL_STRATEGIES,
    k: Annotated[str, typer.Option("-k", help="Comma-separated documents-for-the-LLM values.")] = "3,4,6",
    limit: Annotated[
        int | None,
        typer.Option("--limit", help="Evaluate only the first N questions (the corpus stays all paragraphs)."),
    ] = None,
    offset: Annotated[int, typer.Option("--offset", help="Skip the first N questions (shard a run).")] = 0,
    llm: Annotated[
        bool, typer.Option("--llm/--no-llm", help="Answer with the LLM (EM/F1/Acc), or retrieval only.")
    ] = True,
    llm_k: Annotated[
        str | None, typer.Option("--llm-k", help="Only these k get an LLM answer (generation dominates time).")
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", help="A local .gguf (default: the embedded Gemma-3-270M).")
    ] = None,
    out: Annotated[
        str | None,
        typer.Option("--out", help="Folder for results.json/.md, per_question.jsonl, plot; re-running resumes."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Discard an --out made with other settings and start over.")
    ] = False,
    chunk_words: Annotated[
        int, typer.Option("--chunk-words", help="Passage size for the eval index (1000 = one paragraph each).")
    ] = 1000,
    k1: K1Opt = None,
    first_stage: FirstOpt = None,
    threshold: ThresholdOpt = None,
    dslr_threshold: DslrThresholdOpt = None,
    calibrate_dslr: Annotated[
        float | None,
        typer.Option(
            "--calibrate-dslr",
            help="Set the DSLR threshold to this percentile (0-100) of sentence scores over the first 50 "
            "questions' passages (no labels used), then evaluate.",
        ),
    ] = None,
    rewrite_strategies: RewriteStrategiesOpt = None,
    config: ConfigOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Evaluate retrieval strategies (and answers) on a labelled multi-hop QA file.

    The corpus (the questions' paragraphs, deduplicated, or --corpus) is
    indexed once into ~/.cache/drrag/eval/ with one passage per paragraph
    (--chunk-words 1000, as the papers evaluate) and reused by later runs.

    Per strategy and k: recall of gold paragraphs among those fed to the LLM,
    documents fed, LLM tokens of their text, EM / F1 / Acc, Accepted (Acc, or a
    form of the gold its documents give: a page's title for the full name its
    opening sentence gives), LLM calls (rewrites, notes and the answer), and
    seconds per question (retrieve / classify / generate).
    A set whose questions carry a type (HotpotQA's bridge / comparison, MuSiQue's
    2- / 3- / 4-hop) also gets these per type.

    Ctrl-C prints the partial table; with --out the same command resumes.
    \f
    Long: typer declares the options in the signature (~70 lines); the body is short.
    """
    from drrag_cli.evaluate.datasets import load_dataset
    from drrag_cli.evaluate.report import rich_table, summary_line, type_table
    from drrag_cli.evaluate.runner import EvalInterrupted, run_eval

    strategies, ks = _names(strategy), _ints(k, "-k")
    llm_ks = _ints(llm_k, "--llm-k") if llm_k is not None else None
    if limit is not None and limit < 1:
        raise InputError(f"--limit must be at least 1 (got {limit})")
    if offset < 0:
        raise InputError(f"--offset must be 0 or more (got {offset})")
    overrides = method_overrides(None, rewrite_strategies, None, dslr_threshold)
    settings = retrieval_settings(
        config, None, None, None, k1, first_stage, threshold, llm__model_path=model, **overrides
    )
    dataset = load_dataset(questions, corpus)
    selected = dataset.examples[offset : offset + limit if limit else None]
    if not selected:
        raise InputError(f"--offset {offset} skips all {len(dataset.examples)} questions of {questions}")
    dataset = dataclasses.replace(dataset, examples=selected)
    err = stderr_console()
    kwargs: dict[str, Any] = {
        "llm": llm,
        "llm_ks": llm_ks,
        "out": out,
        "chunk_words": chunk_words,
        "force": force,
        "calibrate_dslr": calibrate_dslr,
    }
    try:
        if err.is_terminal:
            with _Bar() as bar:
                result = run_eval(dataset, settings, strategies, ks, progress=bar, build_progress=bar, **kwargs)
        else:
            result = run_eval(dataset, settings, strategies, ks, **kwargs)
    except EvalInterrupted as stop:
        result = stop.result
    if json_out:
        print_json(result.to_json())
    else:
        console = stdout_console()
        if not console.is_terminal:  # piped: no terminal width to respect, keep every column whole
            console.width = max(console.width, 120)
        console.print(summary_line(result), highlight=False, markup=False)
        console.print(rich_table(result))
        if result.by_type:
            console.print(type_table(result))
    _footer(err, result, out)
    if result.interrupted:
        hint = "re-run the same command to resume" if out else "use --out DIR to make runs resumable"
        raise EvalStopped(f"interrupted after {len(result.records)} question × strategy × k units; {hint}")


def _footer(err: Any, result: Any, out: str | None) -> None:
    def say(text: str) -> None:
        err.print(text, highlight=False, markup=False)

    meta = result.meta
    if meta.get("warnings"):
        say(f"note: {len(meta['warnings'])} gold titles not found in the corpus (see results.json)")
    if skipped := meta.get("skipped_questions"):  # listed in results.json / --json
        say(f"note: skipped {len(skipped)} question(s) that cannot be asked, e.g. {skipped[0]}")
    for note in meta.get("notes", []):
        say(f"note: {note}")
    cal = meta.get("dslr_calibration")
    if cal:
        say(
            f"dslr threshold {cal['threshold']} = percentile {cal['percentile']:g} of {cal['sentences']} sentence "
            f"scores ({cal['questions']} questions, {cal['strategy']} k={cal['k']}); "
            f"keep it with refine.threshold: {cal['threshold']}"
        )
    if out:
        say(f"wrote {out}/results.json, results.md, per_question.jsonl")
