"""`drrag serve`: a local HTTP JSON API over one warm drrag."""

from __future__ import annotations

import sys
import time
from typing import Annotated

import typer

from drrag_cli.cli.common import ConfigOpt, IndexOpt, settings_for, write_out
from drrag_cli.errors import InputError

SERVE_EXAMPLES = (
    "Examples: drrag serve --index ~/notes/.drrag  (http://127.0.0.1:8765)"
    '  |  curl -s localhost:8765/search -d \'{"query": "heron lead", "k": 3}\''
    '  |  curl -sN localhost:8765/ask -d \'{"question": "Where was the Heron lead born?", "stream": true}\''
    '  |  drrag ask "Where was the Heron lead born?" --server http://127.0.0.1:8765'
    "  |  DRRAG_TOKEN=s3cret drrag serve --host 0.0.0.0  (other hosts need a bearer token)"
)


def register(app: typer.Typer) -> None:
    app.command("serve", epilog=SERVE_EXAMPLES)(serve)


def serve(
    index: IndexOpt = None,
    config: ConfigOpt = None,
    host: Annotated[str | None, typer.Option("--host", help="Address to bind (serve.host, default 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option("--port", help="Port to bind (serve.port, default 8765).")] = None,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            envvar="DRRAG_TOKEN",
            help="Clients must send 'Authorization: Bearer TOKEN'; required to bind a non-loopback "
            "address (default: $DRRAG_TOKEN).",
        ),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option("--timeout", help="Seconds a request may wait for the local LLM before a 503 (serve.timeout)."),
    ] = None,
    max_body: Annotated[int | None, typer.Option("--max-body", help="Largest request body in bytes (else 413)")] = None,
) -> None:
    """Serve the index as a local HTTP JSON API: POST /search, POST /ask
    (stream: true for server-sent events), GET /status, GET /health.

    The models load once, before the URL is printed; answers are the
    documents that `drrag search --json` and `drrag ask --json` print.
    Searches run side by side; LLM calls wait their turn in one queue.
    A new index generation (`drrag index`, --watch) is picked up between
    requests. Errors are one JSON line {"error": "..."}.
    """
    from drrag_cli.serve import http
    from drrag_cli.serve.service import Service

    settings = settings_for(
        config, index, serve__host=host, serve__port=port, serve__timeout=timeout, serve__max_body_bytes=max_body
    )
    cfg = settings.serve
    if not http.is_loopback(cfg.host) and not token:
        raise InputError(
            f"--host {cfg.host} is reachable from other machines; give --token TOKEN (or set DRRAG_TOKEN) "
            "so only clients sending it are served, or bind 127.0.0.1"
        )
    sock = http.bind(cfg.host, cfg.port)
    t0 = time.perf_counter()
    service = Service(settings)
    service.load()
    url = http.url_of(sock)
    status = service.status()
    write_out(
        f"drrag serve: {url}  (index {status['index']}, {status['generation']}, {status['passages']} passages; "
        f"models loaded in {time.perf_counter() - t0:.1f}s{'; bearer token required' if token else ''}; "
        "Ctrl-C stops)\n"
    )
    app = http.build_app(service, token=token, max_body_bytes=cfg.max_body_bytes)
    try:
        http.run(app, sock)
    finally:
        sock.close()
    sys.stdout.flush()
