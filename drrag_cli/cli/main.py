"""Entry point: the typer app, global flags, and the one place errors become exit codes.

Exit codes: 0 ok, 1 user error (bad input, missing index, bad config), 2 internal error.
User errors print one line on stderr; tracebacks only with --debug.
"""

from __future__ import annotations

import inspect
import os
import sys

import typer

from drrag_cli import __version__
from drrag_cli.cli import process as proc
from drrag_cli.cli.common import State

INTERRUPTED_EXIT = 130  # 128 + SIGINT, as a shell reports a process Ctrl-C ended

HELP = """Offline multi-hop question answering over your own files with DR-RAG.

Examples:

  drrag index ~/notes                     # build or update ./.drrag
  drrag search "project heron lead" -k 3  # retrieval only (BM25 + dense)

  drrag ask "In which city was the lead engineer of Project Heron born?"

  drrag status --json
"""

app = typer.Typer(
    name="drrag",
    help=HELP,
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"drrag {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks for errors."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
) -> None:
    State.debug = debug or os.environ.get("DRRAG_DEBUG") == "1"


def _register() -> None:
    from drrag_cli.cli import ask_cmds, eval_cmds, index_cmds, model_cmds

    index_cmds.register(app)
    ask_cmds.register(app)
    model_cmds.register(app)
    eval_cmds.register(app)
    from drrag_cli.cli import mcp_cmds

    mcp_cmds.register(app)
    from drrag_cli.cli import serve_cmds

    serve_cmds.register(app)
    from drrag_cli.cli import collection_cmds

    collection_cmds.register(app)


def reflowed(text: str | None) -> str | None:
    """A help text whose paragraphs are one line each, so rich wraps them to the terminal:
    typer keeps a docstring's single line breaks, and at 80 columns a source line of 80
    characters became a line and a one-word line ("Documents" / "are"). A paragraph whose
    lines are indented (an example block) keeps them; so does what follows the \f."""
    if not text:
        return text
    head, cut, tail = inspect.cleandoc(text).partition("\f")
    paragraphs = [
        p if p.startswith("\b") or any(line.startswith("  ") for line in p.splitlines()) else " ".join(p.split())
        for p in head.strip().split("\n\n")
    ]
    return "\n\n".join(paragraphs) + (f"\n{cut}{tail}" if cut else "")


def listed(epilog: str | None) -> str | None:
    """"Examples: a  |  b" as one example per line ("Examples:", then each indented), so a
    wrapped line never splits one command across two; a single example stays as it is."""
    if not epilog or "  |  " not in epilog:
        return epilog
    label, _, rest = epilog.partition(": ")
    return "\n".join([f"{label}:", *(f"  {example.strip()}" for example in rest.split("  |  "))])


def _reflow(group: typer.Typer) -> None:
    group.info.help = reflowed(group.info.help if isinstance(group.info.help, str) else None)
    group.info.epilog = listed(group.info.epilog if isinstance(group.info.epilog, str) else None)
    for command in group.registered_commands:
        command.help = reflowed(command.help or inspect.getdoc(command.callback))
        command.epilog = listed(command.epilog)
    for sub in group.registered_groups:
        if sub.typer_instance is not None:
            _reflow(sub.typer_instance)


_register()
_reflow(app)


def _click_exception() -> type[Exception]:
    """Click's base exception, whether typer vendors click (0.29+) or uses it directly."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def _usage_line(err: Exception) -> str:
    """A click usage error as one line: what is wrong, and where the usage is."""
    message = " ".join(err.format_message().split())  # type: ignore[attr-defined]
    ctx = getattr(err, "ctx", None)
    if ctx is None:
        return f"drrag: error: {message}"
    hint = f"see {ctx.command_path} --help"
    option = getattr(err, "option_name", None)
    if type(err).__name__ == "NoSuchOption" and option:  # `drrag search -x`: text that looks like an option
        hint = f"text that starts with '-' goes after --: {ctx.command_path} -- '{option}'; {hint}"
    return f"drrag: error: {message} ({hint})"


def _settle() -> None:
    """Wait for a model load still running on a preload thread (an answer found without
    the model is printed first), so the process ends with no thread inside llama.cpp.
    Nothing to wait for unless the LLM module was imported."""
    llm = sys.modules.get("drrag_cli.llm.llm")
    if llm is not None:
        llm.wait_for_loads()


def main(argv: list[str] | None = None) -> int:
    """Run `drrag ARGS` and return its exit code. Without ``argv`` this is the `drrag`
    process itself (the console script, ``python -m``): the command runs in a supervised
    child, so a native crash is one line and exit 2 (:mod:`.process`), and Ctrl-C at any
    moment is one line and exit 130. With ``argv`` (tests, embedding) it runs here, and
    the caller's signal handlers are left alone."""
    if argv is None:
        from drrag_cli.cli import bytecode

        bytecode.ensure()  # where Python writes none, drrag's own, once (the module docstring)
        debug = "--debug" in sys.argv[1:] or os.environ.get("DRRAG_DEBUG") == "1"
        return proc.supervised(lambda: _run(sys.argv[1:], process=True), debug=debug)
    return _run(argv, process=False)


def _run(args: list[str], *, process: bool) -> int:
    """The one error edge: every command ends with its output or one line on stderr."""
    from drrag_cli.cli.common import flush_out
    from drrag_cli.errors import DrragError, OutputError

    State.debug = "--debug" in args or os.environ.get("DRRAG_DEBUG") == "1"
    if sys.stdout is None:  # started with stdout closed (`>&-`): print() would drop everything silently
        print("drrag: error: stdout is closed, so the output has nowhere to go; redirect it instead "
              "(> FILE, or > /dev/null to discard it)", file=sys.stderr)  # fmt: skip
        return 1
    usage_error = _click_exception()
    try:
        code = _command(args, process)
        if code == INTERRUPTED_EXIT:  # typer turns Ctrl-C into a silent return of 130
            print(proc.INTERRUPTED, file=sys.stderr)
        flush_out()  # a full disk shows here, not as "Exception ignored" at interpreter exit
        return code
    except OutputError as err:
        if err.reader_gone:  # `drrag search x | head`: the reader took what it wanted
            return 0
        print(f"drrag: error: {err}", file=sys.stderr)
        return err.exit_code
    except DrragError as err:
        if State.debug:
            raise
        print(f"drrag: error: {err}", file=sys.stderr)
        return err.exit_code
    except typer.Exit as ex:
        return ex.exit_code
    except typer.Abort as ex:
        interrupted = isinstance(ex.__cause__, KeyboardInterrupt)
        print(proc.INTERRUPTED if interrupted else "drrag: aborted", file=sys.stderr)
        return INTERRUPTED_EXIT
    except usage_error as err:  # bad option, missing argument, unknown command
        if type(err).__name__ == "NoArgsIsHelpError":  # `drrag` alone: the help is the answer
            err.show(file=sys.stderr)
        else:
            print(_usage_line(err), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(proc.INTERRUPTED, file=sys.stderr)
        return INTERRUPTED_EXIT
    except SystemExit as ex:
        if isinstance(ex.__context__, BrokenPipeError):  # rich's own console on a closed pipe (typer's --help)
            return 0
        raise
    except BrokenPipeError as exc:
        if _reader_gone():  # output written past the funnels of common.py (click's --help): same quiet end
            return 0
        return _internal(exc)
    except Exception as exc:  # noqa: BLE001 - the one place internal errors become exit 2
        return _internal(exc)
    finally:
        if process:
            proc.ending()
        _settle()


def _command(args: list[str], process: bool) -> int:
    """The command's exit code. In the `drrag` process Ctrl-C raises KeyboardInterrupt only
    while the command runs; the edge's handlers then run with it ending the process at
    once (one line): a KeyboardInterrupt inside a handler escaped them as a traceback."""
    try:
        if process:
            proc.interruptible()  # inside the try: a Ctrl-C already pending is raised by this very call
        # without standalone mode, click returns a command's exit code instead of raising
        rv = app(args=args, prog_name="drrag", standalone_mode=False)
        return rv if isinstance(rv, int) else 0
    finally:
        if process:
            proc.stop_on_interrupt()


def _internal(exc: Exception) -> int:
    if State.debug:
        raise exc
    print(f"drrag: internal error: {type(exc).__name__}: {exc} (re-run with --debug for details)", file=sys.stderr)
    return 2


def _reader_gone() -> bool:
    """Whether stdout is a pipe whose reader has closed it (poll reports an error on it)."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
