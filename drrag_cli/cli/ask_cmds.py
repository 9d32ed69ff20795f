"""`drrag ask`: DR-RAG retrieval → one local LLM call → answer with numbered citations."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from drrag_cli.cli.common import (
    CollectionOpt,
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
    write_out,
)
from drrag_cli.errors import InputError, ServerDownError

if TYPE_CHECKING:
    from collections.abc import Callable

    from drrag_cli.config import Settings

ASK_EXAMPLES = (
    'Examples: drrag ask "In which city was the lead engineer of Project Heron born?"'
    '  |  drrag ask "..." --strategy qdc -k 6 --explain  |  drrag ask "..." --json | jq .answer'
    '  |  drrag ask "..." --model ~/models/qwen2.5-1.5b-instruct-q4_k_m.gguf --stream'
    '  |  drrag ask "..." --rewrite dmqr --refine dslr  |  drrag ask "..." -s note --explain'
    '  |  drrag ask "..." --server http://127.0.0.1:8765  (a running `drrag serve` answers; or set DRRAG_SERVER)'
)

KOpt = Annotated[int | None, typer.Option("-k", help="Documents for the LLM (CFS/CIS may feed fewer).")]
K1Opt = Annotated[int | None, typer.Option("--k1", help="Static first-stage documents (default ceil(k/2)).")]
FirstOpt = Annotated[str | None, typer.Option("--first-stage", help="hybrid | dense | bm25")]
ThresholdOpt = Annotated[float | None, typer.Option("--threshold", help="Classifier threshold (default: the model's).")]
ExplainOpt = Annotated[
    bool, typer.Option("--explain", help="Show every stage: rewrites, static docs, q*, classifier scores, DSLR, notes.")
]
ServerOpt = Annotated[
    str | None,
    typer.Option(
        "--server",
        envvar="DRRAG_SERVER",
        help="URL of a running `drrag serve` to answer (warm); its token from $DRRAG_TOKEN. Default: $DRRAG_SERVER.",
    ),
]
FallbackOpt = Annotated[
    bool, typer.Option("--fallback-local", help="With --server: if no server answers, answer here (said on stderr).")
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
    collection: CollectionOpt = None,
    config: ConfigOpt = None,
    json_out: JsonOpt = False,
    server: ServerOpt = None,
    fallback_local: FallbackOpt = False,
) -> None:
    """Answer a question from your files: DR-RAG retrieval, then ONE call to a local GGUF model.

    The answer is followed by numbered sources \\[n] title — path:lines. Documents are
    treated as data: their text is fenced in the prompt and cannot change the output.

    --rewrite dmqr and --strategy note call the LLM more than once (rewrites are cached).
    With --server (or DRRAG_SERVER) a running `drrag serve` answers, with its own index and settings.
    \f
    Long: typer declares the options in the signature (~30 lines); the body is short.
    """
    if server:
        local_only = {
            "--k1": k1, "--first-stage": first_stage, "--threshold": threshold, "--rewrite": rewrite,
            "--rewrite-strategies": rewrite_strategies, "--refine": refine, "--dslr-threshold": dslr_threshold,
            "--model": model, "--answer-mode": answer_mode, "--explain": explain or None,
        }  # fmt: skip
        if not fallback_local:  # with it, they say where a local answer would come from
            local_only.update({"--index": index, "--config": config, "--collection": collection or None})
        _refuse_local_only(local_only)
        if _ask_server(server, question, strategy, k, stream, json_out, fallback_local):
            return
    from drrag_cli.collections import target_index
    from drrag_cli.pipeline import Pipeline

    overrides = method_overrides(rewrite, rewrite_strategies, refine, dslr_threshold)
    settings = retrieval_settings(
        config, index, strategy, k, k1, first_stage, threshold, llm__model_path=model, answer__mode=answer_mode,
        **overrides,
    )
    pipeline = Pipeline(settings, index=target_index(settings, collection or [], index is not None))
    streamed = stream and not json_out

    pieces, on_token = _stdout_stream()

    result = pipeline.ask(question, on_token=on_token if streamed else None)
    if json_out:
        print_json(result.to_json(explain=explain))
        return
    from drrag_cli.cli.render import print_answer, print_trace

    if explain:
        print_trace(result.retrieval, stderr_console())
    print_answer(result, already_streamed=streamed, streamed_text="".join(pieces))


def _stdout_stream() -> tuple[list[str], Callable[[str], None]]:
    """--stream's token callback, which writes each token to stdout as it comes, and the
    list it keeps them in (print_answer shows the short answer when it differs)."""
    pieces: list[str] = []

    def on_token(tok: str) -> None:
        pieces.append(tok)
        write_out(tok)

    return pieces, on_token


def _refuse_local_only(options: dict[str, object]) -> None:
    given = [name for name, value in options.items() if value is not None]
    if given:
        raise InputError(
            f"{', '.join(given)} cannot be sent to a server (it answers with its own index and settings); "
            "drop them, or run without --server / DRRAG_SERVER"
        )


def _ask_server(
    url: str, question: str, strategy: str | None, k: int | None, stream: bool, json_out: bool, fallback: bool
) -> bool:
    """Ask the server and print what a local ask prints; False when it is down and
    ``fallback`` says to answer locally instead."""
    from drrag_cli.serve.client import answer_view, ask_remote, server_token

    streamed = stream and not json_out

    pieces, on_token = _stdout_stream()

    try:
        doc = ask_remote(
            url, question, strategy=strategy, k=k, on_token=on_token if streamed else None, token=server_token()
        )
    except ServerDownError as err:
        if not fallback:
            raise
        print(f"drrag: {str(err).split(';')[0]}; answering locally (--fallback-local)", file=sys.stderr)
        return False
    if json_out:
        print_json(doc)
        return True
    from drrag_cli.cli.render import print_answer

    print_answer(answer_view(doc), already_streamed=streamed, streamed_text="".join(pieces))
    return True
