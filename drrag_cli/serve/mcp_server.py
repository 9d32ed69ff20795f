"""`drrag mcp`: the index as MCP tools, on the official SDK (``mcp.server.mcpserver``).

Five tools, all backed by ONE warm :class:`~drrag_cli.serve.service.Service` (models load
once, before the transport starts): ``search``, ``ask``, ``get_passage``, ``get_document``
and ``status``. Each returns the document the matching CLI command prints with ``--json``,
as structured content (and the same JSON as text, for clients that only read text).

A user error becomes an MCP tool error (``isError: true``) whose text is the CLI's one
line (``drrag: error: ...``), so an agent reads what a shell user would. The SDK runs each
tool on a worker thread; the Service serialises LLM calls and lets searches run together.

Transports: stdio (the SDK points fd 1 at stderr while it serves, and :func:`quiet_stdout`
does the same while the models load, so llama.cpp or a progress bar can never write into
the protocol) or streamable HTTP on loopback.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import partial, wraps
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from drrag_cli import __version__
from drrag_cli.errors import DrragError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from drrag_cli.serve.service import Service

log = logging.getLogger("drrag.mcp")

INSTRUCTIONS = (
    "drrag answers questions from the user's own local files (notes, papers, wikis) with DR-RAG: "
    "multi-hop retrieval that also finds the documents a first hit leads to, then one call to a small "
    "local model. Use `search` to find passages (cheap, no LLM), `ask` for an answer with numbered "
    "citations, `get_passage` / `get_document` to read a cited source in full, `status` to see what is "
    "indexed. Citations carry `passage_id`, `source` and `lines`."
)

Mode = Literal["hybrid", "bm25", "dense"]
StrategyArg = Annotated[
    str | None,
    Field(
        description="DR-RAG strategy: cfs (default: follows a first hit to the document it leads to), qdc, cis, "
        "sm, bm25, hybrid, note, or a combination like dmqr+cfs+dslr. Omit for the configured default."
    ),
]


def error_result(tool: str, err: DrragError) -> Any:
    """An MCP tool error (``isError``) whose text is the line the CLI prints for ``err``."""
    from mcp.types import CallToolResult, TextContent

    line = f"drrag: error: {' '.join(str(err).split())}"
    log.info("%s: %s", tool, line)
    return CallToolResult(content=[TextContent(type="text", text=line)], is_error=True)


def tool_errors(fn: Callable[..., dict[str, Any]]) -> Callable[..., Any]:
    """A :class:`DrragError` becomes :func:`error_result`; anything else is left to the
    SDK (a generic tool error; the traceback stays in the server log)."""

    @wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except DrragError as err:
            return error_result(fn.__name__, err)

    return call


def async_tool_errors(fn: Callable[..., Awaitable[dict[str, Any]]]) -> Callable[..., Awaitable[Any]]:
    """:func:`tool_errors` for a coroutine tool."""

    @wraps(fn)
    async def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return await fn(*args, **kwargs)
        except DrragError as err:
            return error_result(fn.__name__, err)

    return call


async def cancellable(call: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    """Run a Service call that takes ``cancelled=`` on a worker thread. When the client
    cancels the request (or goes away), the SDK cancels this task: the flag is set and the
    Service stops the generation at its next token, or leaves the LLM queue, instead of
    holding the one LLM for an answer nobody reads."""
    import anyio

    gone = threading.Event()
    try:
        return await anyio.to_thread.run_sync(partial(call, cancelled=gone.is_set), abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        gone.set()
        raise


def build_server(service: Service) -> MCPServer:
    """The MCP server with the five :class:`Tools` bound to ``service``."""
    from mcp.server.mcpserver import MCPServer
    from mcp.types import ToolAnnotations

    server: MCPServer = MCPServer(
        "drrag",
        title="drrag (DR-RAG over local files)",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)  # none writes: safe to retry
    tools = Tools(service)
    for name in TOOLS:
        server.add_tool(getattr(tools, name), name=name, annotations=read_only, structured_output=True)
    return server


TOOLS = ("search", "ask", "get_passage", "get_document", "status")


class Tools:
    """The tools as an agent sees them: the signatures are the input schemas, the
    docstrings the descriptions. Each returns the CLI's ``--json`` document."""

    def __init__(self, service: Service) -> None:
        self.service = service

    @tool_errors
    def search(
        self,
        query: Annotated[str, Field(description="What to look for, in words (any text is safe).")],
        k: Annotated[int | None, Field(ge=1, le=100, description="How many passages (default 5).")] = None,
        mode: Annotated[
            Mode | None, Field(description="hybrid (BM25 + dense, default), bm25 (exact words) or dense.")
        ] = None,
        strategy: StrategyArg = None,
    ) -> dict[str, Any]:
        """Find passages in the user's indexed files, without calling an LLM. Returns ranked results with
        passage_id, source, lines and text. With `strategy`, returns the exact context that DR-RAG strategy
        would give the model (multi-hop: documents a first hit leads to are included)."""
        return self.service.search(query, k=k, mode=mode, strategy=strategy)

    @async_tool_errors
    async def ask(
        self,
        question: Annotated[str, Field(description="A question about the user's files, in natural language.")],
        strategy: StrategyArg = None,
        k: Annotated[int | None, Field(ge=1, le=50, description="Documents given to the model (default 4).")] = None,
    ) -> dict[str, Any]:
        """Answer a question from the user's indexed files: DR-RAG retrieval (multi-hop), then a local model.
        Returns `answer`, numbered `citations` (passage_id, source, lines), `llm_calls`, `supported` (the
        answer stands in the cited text), `evidence` (the citation number and the sentence stating it) and
        `confidence` (the lowest probability of a token the model wrote; a weak signal, null when decided).
        Slower than `search` (seconds); answers are short and only as good as the retrieved text, so check
        citations."""
        return await cancellable(partial(self.service.ask, question, strategy=strategy, k=k))

    @tool_errors
    def get_passage(
        self,
        passage_id: Annotated[int, Field(ge=0, description="A passage_id from search, ask citations or status.")],
    ) -> dict[str, Any]:
        """Read one passage in full: its text with source, title and lines."""
        return self.service.get_passage(passage_id)

    @tool_errors
    def get_document(
        self,
        source: Annotated[str, Field(description="A `source` as search or ask returned it (a file path).")],
        lines: Annotated[
            list[int] | None,
            Field(
                min_length=2,
                max_length=2,
                description="[first, last] line to return, 1-based, inclusive. Omit for the whole document.",
            ),
        ] = None,
    ) -> dict[str, Any]:
        """Read an indexed document (or a line range of it) as indexed: text with source and lines."""
        return self.service.get_document(source, tuple(lines) if lines else None)  # type: ignore[arg-type]

    @tool_errors
    def status(self) -> dict[str, Any]:
        """What is indexed: files, passages, roots, embedding model, generation and last update."""
        return self.service.status()


@contextmanager
def quiet_stdout() -> Iterator[None]:
    """Point fd 1 (and sys.stdout) at stderr: what a library prints while the models load
    (llama.cpp, a progress bar) must not reach an MCP client reading stdout."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def run_stdio(server: MCPServer) -> None:
    server.run("stdio")


def run_http(server: MCPServer, sock: socket.socket, token: str | None = None) -> None:
    """Streamable HTTP at URL/mcp on uvicorn, on the socket :func:`drrag_cli.serve.http.bind`
    made (a taken port was one clear error before any model loaded); with a token, a request
    without ``Authorization: Bearer TOKEN`` gets 401 and nothing else. Ctrl-C / SIGTERM:
    uvicorn finishes in-flight requests, then this returns (exit 0)."""
    import uvicorn

    from drrag_cli.serve.http import BearerToken, url_of  # the one token check, shared with `drrag serve`
    from drrag_cli.serve.listen import serve_until_stopped

    app: Any = server.streamable_http_app(host=sock.getsockname()[0])
    if token:
        app = BearerToken(app, token)
    print(f"drrag mcp: streamable HTTP at {url_of(sock)}/mcp (Ctrl-C stops)", file=sys.stderr, flush=True)
    serve_until_stopped(uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False)), sock)
