"""`drrag serve`: the warm :class:`~drrag_cli.serve.service.Service` as a local HTTP JSON API.

    POST /search  {query, k?, mode?, strategy?}   -> the `drrag search --json` document
    POST /ask     {question, strategy?, k?, stream?} -> the `drrag ask --json` document;
                  with "stream": true, server-sent events: `token` events ({"text": ...})
                  as the answer is generated, then one `answer` event (the document) or
                  one `error` event ({"error": ...})
    POST /document {source, lines?}            -> an indexed document (or those lines of it)
    GET  /status  -> `drrag status --json` + generation, uptime, requests, LLM queue
    GET  /health  -> {"status": "ok"} (no work, for probes)
    GET  /        -> a page to ask from a browser (serve/page.html: one file, nothing from
                  the network); it holds no data, so it needs no token; what it calls does

Starlette (not FastAPI): it is already installed as a dependency of the MCP SDK, and a few
hand-validated routes need no dependency-injection or schema layer. Every error is one
JSON line ``{"error": "..."}``, the same text the CLI prints after ``drrag: error:``:
400 for bad input (malformed JSON, a wrong or unknown field, what the CLI refuses), 401
without the bearer token (compared with :func:`hmac.compare_digest`, checked before the
body is read), 413 for a body over ``serve.max_body_bytes``, 503 when the LLM queue
wait passes ``serve.timeout``. Blocking work runs on worker threads: searches on their
own pool, so requests waiting for the LLM never hold the threads searches need.

Sockets, uvicorn and idle connections: :mod:`drrag_cli.serve.listen`.
"""

from __future__ import annotations

import hmac
import json
import logging
import math
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from drrag_cli.errors import BusyError, DrragError, InputError
from drrag_cli.serve.listen import bind, is_loopback, make_server, run, url_of  # noqa: F401 - the servers' API

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

    from drrag_cli.serve.service import Service

log = logging.getLogger("drrag.serve")
# the page runs its own inline script and style and talks to this server only
CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'"

SEARCH_THREADS = 8  # searches in flight at once (2-core machines gain nothing from more)
ASK_THREADS = 64  # asks in flight: most of them wait in the LLM queue

FIELDS: dict[str, dict[str, type]] = {
    "/search": {"query": str, "k": int, "mode": str, "strategy": str},
    "/ask": {"question": str, "strategy": str, "k": int, "stream": bool},
    "/document": {"source": str, "lines": list},
}
REQUIRED = {"/search": "query", "/ask": "question", "/document": "source"}
PAGE = "page.html"  # GET /, beside this module (package data)


class HTTPProblem(Exception):
    """A refusal with its status code and one-line reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def status_of(err: DrragError) -> int:
    if isinstance(err, BusyError):
        return 503
    if isinstance(err, InputError):
        return 400
    return 500  # a model or index that fails on the server side


def dumps(doc: Any) -> str:
    """The document as the CLI's --json prints it (valid UTF-8 JSON, NaN as null), one line."""
    from drrag_cli.jsonsafe import json_safe

    return json.dumps(json_safe(doc), ensure_ascii=False, allow_nan=False)


def json_response(doc: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    from starlette.responses import Response

    return Response(dumps(doc) + "\n", status, headers, media_type="application/json")


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    if status == 503:
        headers = {"Retry-After": "1", **(headers or {})}
    return json_response({"error": " ".join(message.split())}, status, headers)


def contained(fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn`` with a native library's panic (pyo3's PanicException is a BaseException, which
    no ``except Exception`` catches) turned into an ordinary error: a 500, not a dead worker."""

    def call() -> Any:
        try:
            return fn()
        except (KeyboardInterrupt, SystemExit, Exception):
            raise
        except BaseException as exc:
            raise RuntimeError(f"{type(exc).__name__}: {exc}") from exc

    return call


# -- request bodies ------------------------------------------------------------------------
async def read_body(request: Request, limit: int) -> dict[str, Any]:
    """The JSON object of the body, validated against the route's fields. Reading stops
    at ``limit`` bytes (413), whatever Content-Length claims."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise HTTPProblem(
            413, f"request body of {int(declared)} bytes is over the limit of {limit} (serve.max_body_bytes)"
        )
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise HTTPProblem(413, f"request body is over the limit of {limit} bytes (serve.max_body_bytes)")
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks))
    except (ValueError, UnicodeDecodeError) as exc:
        raise HTTPProblem(400, f"request body is not valid JSON ({exc}); send a JSON object") from exc
    except RecursionError:  # json's decoder recurses per level: [[[[...]]]] 100k deep is not a server fault
        raise HTTPProblem(400, "request body is nested too deeply to parse; send a flat JSON object") from None
    return checked_fields(request.url.path, data)


def checked_fields(path: str, data: Any) -> dict[str, Any]:
    fields = FIELDS[path]
    allowed = ", ".join(fields)
    if not isinstance(data, dict):
        raise HTTPProblem(400, f"{path} takes a JSON object with the fields {allowed}, not {type(data).__name__}")
    for name, value in data.items():
        if name not in fields:
            raise HTTPProblem(400, f"unknown field {name!r} in {path} (allowed: {allowed})")
        want = fields[name]
        if value is None and name != REQUIRED[path]:
            continue
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise HTTPProblem(400, f"field {name!r} of {path} must be {_type_name(want)}, not {_json_type(value)}")
    if REQUIRED[path] not in data:
        raise HTTPProblem(400, f"{path} needs the field {REQUIRED[path]!r} (a string)")
    return data


def _type_name(t: type) -> str:
    return {str: "a string", int: "an integer", bool: "true or false", list: "an array"}[t]


def _json_type(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array"}
    return "null" if value is None else names.get(type(value), "an object")


# -- the app ---------------------------------------------------------------------------------
async def problem(request: Request, exc: Exception) -> Response:
    """Any error as its one-line JSON response (the status from its kind)."""
    if isinstance(exc, HTTPProblem):
        return error_response(exc.status, str(exc))
    if isinstance(exc, DrragError):
        return error_response(status_of(exc), str(exc))
    from starlette.exceptions import HTTPException

    if isinstance(exc, HTTPException):  # 404, 405 from the router
        return error_response(exc.status_code, f"{exc.detail}: {request.method} {request.url.path}")
    log.exception("internal error on %s", request.url.path)
    return error_response(500, f"internal error: {type(exc).__name__}: {exc}")


def build_app(service: Service, token: str | None = None, max_body_bytes: int = 1_000_000) -> Any:
    """The ASGI app: Starlette routes behind the bearer-token check (when ``token``)."""
    import anyio
    from starlette.applications import Starlette
    from starlette.routing import Route

    search_threads = anyio.CapacityLimiter(SEARCH_THREADS)
    ask_threads = anyio.CapacityLimiter(ASK_THREADS)

    async def search(request: Request) -> Response:
        body = await read_body(request, max_body_bytes)
        args = {name: body.get(name) for name in ("k", "mode", "strategy")}
        doc = await anyio.to_thread.run_sync(
            contained(lambda: service.search(body["query"], **args)),
            limiter=search_threads,
        )
        return json_response(doc)

    async def ask(request: Request) -> Any:
        body = await read_body(request, max_body_bytes)
        return AskResponse(service, body, ask_threads)

    async def document(request: Request) -> Response:
        body = await read_body(request, max_body_bytes)
        lines = _lines(body.get("lines"))
        doc = await anyio.to_thread.run_sync(
            contained(lambda: service.get_document(body["source"], lines)), limiter=search_threads
        )
        return json_response(doc)

    async def status(request: Request) -> Response:
        return json_response(await anyio.to_thread.run_sync(contained(service.status), limiter=search_threads))

    def guarded(endpoint: Callable[[Request], Any]) -> Callable[[Request], Any]:
        """Every error becomes its one-line response here, in the route: an exception left
        to Starlette's last-resort handler is re-raised after the 500, and uvicorn then
        drops the connection (a keep-alive client's next request would be reset)."""

        async def call(request: Request) -> Any:
            try:
                return await endpoint(request)
            except Exception as exc:  # noqa: BLE001 - answered, and logged when internal
                return await problem(request, exc)

        return call

    app: Starlette = Starlette(
        routes=[
            Route("/search", guarded(search), methods=["POST"]),
            Route("/ask", guarded(ask), methods=["POST"]),
            Route("/document", guarded(document), methods=["POST"]),
            Route("/status", guarded(status), methods=["GET"]),
            Route("/health", health, methods=["GET"]),
            Route("/", guarded(page), methods=["GET"]),
        ],
        exception_handlers={404: problem, 405: problem},
    )
    return BearerToken(app, token) if token else app


async def health(request: Request) -> Response:
    return json_response({"status": "ok"})


async def page(request: Request) -> Response:
    """The page (package data), allowed to run only its own script and to call this server."""
    from importlib.resources import files

    from starlette.responses import HTMLResponse

    html = files("drrag_cli.serve").joinpath(PAGE).read_text(encoding="utf-8")
    return HTMLResponse(html, headers={"Content-Security-Policy": CSP})


def _lines(lines: list[Any] | None) -> tuple[int, int] | None:
    if lines is not None and (len(lines) != 2 or not all(type(n) is int for n in lines)):
        raise HTTPProblem(400, f"field 'lines' of /document must be [first, last], two integers (got {lines})")
    return (lines[0], lines[1]) if lines else None


class AskResponse:
    """/ask as an ASGI response: the answer runs on a worker thread while a watcher waits
    for the client to disconnect; if it does, the generation stops between two tokens.
    With ``stream`` the tokens go out as server-sent events as they come."""

    def __init__(self, service: Service, body: dict[str, Any], limiter: Any) -> None:
        self.service = service
        self.body = body
        self.limiter = limiter
        self.gone = threading.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        import anyio

        async with anyio.create_task_group() as tg:

            async def watch() -> None:
                while (await receive())["type"] != "http.disconnect":
                    pass
                self.gone.set()

            tg.start_soon(watch)
            try:
                if self.body.get("stream"):
                    await self.stream(send)
                else:
                    await self.whole(send)
            except OSError:  # the client left while we wrote
                self.gone.set()
            finally:
                tg.cancel_scope.cancel()

    def run(self, on_token: Any = None) -> dict[str, Any]:
        b = self.body
        ask = self.service.ask
        return contained(
            lambda: ask(b["question"], b.get("strategy"), b.get("k"), on_token=on_token, cancelled=self.gone.is_set)
        )()

    async def whole(self, send: Any) -> None:
        import anyio

        from drrag_cli.serve.service import Cancelled

        try:
            doc = await anyio.to_thread.run_sync(self.run, limiter=self.limiter)
            response = json_response(doc)
        except Cancelled:  # nobody is listening; this only closes the exchange
            response = error_response(503, "the client disconnected; the answer was stopped")
        except DrragError as err:
            response = error_response(status_of(err), str(err))
        await response({"type": "http"}, _no_receive, send)

    async def stream(self, send: Any) -> None:
        import anyio
        import anyio.from_thread

        from drrag_cli.serve.service import Cancelled

        sender, events = anyio.create_memory_object_stream[tuple[str, Any]](math.inf)

        def on_token(piece: str) -> None:
            anyio.from_thread.run_sync(sender.send_nowait, ("token", {"text": piece}))

        async def produce() -> None:
            async with sender:
                try:
                    doc = await anyio.to_thread.run_sync(lambda: self.run(on_token), limiter=self.limiter)
                    sender.send_nowait(("answer", doc))
                except Cancelled:
                    pass
                except DrragError as err:
                    sender.send_nowait(("error", {"error": " ".join(str(err).split()), "status": status_of(err)}))
                except Exception as exc:  # noqa: BLE001 - reported in the stream, logged here
                    log.exception("internal error on /ask")
                    sender.send_nowait(("error", {"error": f"internal error: {type(exc).__name__}: {exc}"}))

        headers = [
            (b"content-type", b"text/event-stream; charset=utf-8"),
            (b"cache-control", b"no-cache"),
            (b"x-accel-buffering", b"no"),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        async with anyio.create_task_group() as tg:
            tg.start_soon(produce)
            async with events:
                async for event, data in events:
                    chunk = f"event: {event}\ndata: {dumps(data)}\n\n".encode()
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _no_receive() -> dict[str, Any]:  # a Response never reads here
    return {"type": "http.disconnect"}


class BearerToken:
    """ASGI wrapper: every HTTP request but the page (``GET /``, which holds no data) must
    carry ``Authorization: Bearer TOKEN`` (compared in constant time), else 401 and no
    data; the body is never read. The page asks for the token when a call gets a 401."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.expected = b"Bearer " + token.encode("utf-8")

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and (scope.get("method"), scope.get("path")) != ("GET", "/"):  # the page: no data
            sent = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(sent, self.expected):
                response = error_response(
                    401,
                    "missing or wrong bearer token: send 'Authorization: Bearer TOKEN' (drrag serve --token)",
                    {"WWW-Authenticate": "Bearer"},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
