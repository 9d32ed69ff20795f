"""`drrag mcp`: serve the index to AI agents over the Model Context Protocol."""

from __future__ import annotations

from typing import Annotated

import typer

from drrag_cli.cli.common import ConfigOpt, IndexOpt, settings_for
from drrag_cli.errors import InputError


def register(app: typer.Typer) -> None:
    app.command("mcp", epilog=MCP_EXAMPLES)(mcp)


MCP_EXAMPLES = (
    "Examples: drrag mcp --index ~/notes/.drrag  (stdio: what an MCP client starts; its config: "
    '{"mcpServers": {"drrag": {"command": "drrag", "args": ["mcp", "--index", "/home/me/notes/.drrag"]}}})'
    "  |  drrag mcp --http --port 8766  (streamable HTTP at http://127.0.0.1:8766/mcp)"
    "  |  DRRAG_TOKEN=s3cret drrag mcp --http --host 0.0.0.0  (other hosts need a bearer token)"
)


def mcp(
    index: IndexOpt = None,
    config: ConfigOpt = None,
    http: Annotated[
        bool, typer.Option("--http", help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio.")
    ] = False,
    host: Annotated[
        str, typer.Option("--host", help="With --http: address to bind (loopback by default).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="With --http: port to bind (0 = any free port).")] = 8766,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            envvar="DRRAG_TOKEN",
            help="With --http: clients must send 'Authorization: Bearer TOKEN'; required to bind a "
            "non-loopback address (default: $DRRAG_TOKEN).",
        ),
    ] = None,
) -> None:
    """Serve the index to AI agents over MCP: tools search, ask,
    get_passage, get_document, status.

    The models load once, before the first request; every tool call reuses
    them, and the answer of `ask` carries numbered citations an agent can
    open with get_passage or get_document. Errors come back as MCP tool
    errors with the same one line the CLI prints. Stdio by default (stdout
    carries only the protocol; logs go to stderr).
    """
    from drrag_cli.serve.mcp_server import build_server, quiet_stdout, run_http, run_stdio
    from drrag_cli.serve.service import Service

    settings = settings_for(config, index)
    sock = None
    if http:
        from drrag_cli.serve.http import bind

        check_bind(host, token)
        sock = bind(host, port)  # a taken port is one line now, not after the models load
    service = Service(settings)
    with quiet_stdout():
        service.load()
    server = build_server(service)
    if sock is not None:
        run_http(server, sock, token)
    else:
        run_stdio(server)


def check_bind(host: str, token: str | None) -> None:
    """Anything but loopback is reachable by others: only with a token (as `drrag serve`)."""
    from drrag_cli.serve.http import is_loopback

    if not is_loopback(host) and not token:
        raise InputError(
            f"--host {host} is reachable from other machines; give --token TOKEN (or set DRRAG_TOKEN) "
            "so only clients sending it are served, or bind 127.0.0.1"
        )
