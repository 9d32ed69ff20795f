"""`drrag ask`: DR-RAG retrieval → one local LLM call → answer with numbered citations."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from drrag_cli.cli.common import (
    ConfigOpt,
    DslrThresholdOpt,
    IndexOpt,
    JsonOpt,
    RefineOpt,
    RewriteOpt,
    RewriteStrategiesOpt,
    StrategyOpt,
    method_overrides,
    print_json,
    settings_for,
    stderr_console,
)

if TYPE_CHECKING:
    from drrag_cli.config import Settings

ASK_EXAMPLES = (
    'Examples: drrag ask "In which city was the lead engineer of Project Heron born?"'
    '  |  drrag ask "..." --strategy qdc -k 6 --explain  |  drrag ask "..." --json | jq .answer'
    '  |  drrag ask "..." --model ~/models/qwen2.5-1.5b-instruct-q4_k_m.gguf --stream'
    '  |  drrag ask "..." --rewrite dmqr --refine dslr  |  drrag ask "..." -s note --explain'
)

KOpt = Annotated[int | None, typer.Option("-k", help="Documents for the LLM (CFS/CIS may feed fewer).")]
K1Opt = Annotated[int | None, typer.Option("--k1", help="Static first-stage documents (default ceil(k/2)).")]
FirstOpt = Annotated[str | None, typer.Option("--first-stage", help="hybrid | dense | bm25")]
ThresholdOpt = Annotated[float | None, typer.Option("--threshold", help="Classifier threshold (default: the model's).")]
ExplainOpt = Annotated[
    bool, typer.Option("--explain", help="Show every stage: rewrites, static docs, q*, classifier scores, DSLR, notes.")
]


def register(app: typer.Typer) -> None:
    app.command("ask", epilog=ASK_EXAMPLES)(ask)


def retrieval_settings(
    config: str | None,
    index: str | None,
    strategy: str | None,
    k: int | None,
    k1: int | None,
    first_stage: str | None,
    threshold: float | None,
    **extra: Any,
) -> Settings:
    """The settings of ask / eval with their retrieval options applied."""
    return settings_for(
        config,
        index,
        retrieval__strategy=strategy,
        retrieval__k=k,
        retrieval__k1=k1,
        retrieval__first_stage=first_stage,
        classifier__threshold=threshold,
        **extra,
    )


def ask(
    question: Annotated[str, typer.Argument(help="Your question.")],
    strategy: StrategyOpt = None,
    k: KOpt = None,
    k1: K1Opt = None,
    first_stage: FirstOpt = None,
    threshold: ThresholdOpt = None,
    rewrite: RewriteOpt = None,
    rewrite_strategies: RewriteStrategiesOpt = None,
    refine: RefineOpt = None,
    dslr_threshold: DslrThresholdOpt = None,
    model: Annotated[
        str | None, typer.Option("--model", help="A local .gguf (default: the embedded Gemma-3-270M).")
    ] = None,
    answer_mode: Annotated[
        str | None,
        typer.Option(
            "--answer-mode", help="one-call | decompose: ask the second hop about the bridge entity by name."
        ),
    ] = None,
    stream: Annotated[bool, typer.Option("--stream", help="Print the answer token by token.")] = False,
    explain: ExplainOpt = False,
    index: IndexOpt = None,
    config: ConfigOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Answer a question from your files: DR-RAG retrieval, then ONE call to a local GGUF model.

    The answer is followed by numbered sources [n] title — path:lines. Documents are
    treated as data: their text is fenced in the prompt and cannot change the output.
    --rewrite dmqr and --strategy note call the LLM more than once (rewrites are cached).
    """
    from drrag_cli.pipeline import Pipeline

    overrides = method_overrides(rewrite, rewrite_strategies, refine, dslr_threshold)
    settings = retrieval_settings(
        config, index, strategy, k, k1, first_stage, threshold, llm__model_path=model, answer__mode=answer_mode,
        **overrides,
    )
    pipeline = Pipeline(settings)
    streamed = stream and not json_out

    def on_token(tok: str) -> None:
        sys.stdout.write(tok)
        sys.stdout.flush()

    result = pipeline.ask(question, on_token=on_token if streamed else None)
    if json_out:
        print_json(result.to_json(explain=explain))
        return
    from drrag_cli.cli.render import print_answer, print_trace

    if explain:
        print_trace(result.retrieval, stderr_console())
    print_answer(result, already_streamed=streamed)
