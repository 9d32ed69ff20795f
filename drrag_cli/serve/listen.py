"""Sockets and uvicorn for the servers (`drrag serve`, `drrag mcp --http`).

The socket is bound before any model loads, so a taken port is one clear error and
``--port 0`` can print its URL. uvicorn closes a keep-alive connection after
``KEEP_ALIVE_S`` idle, and :func:`idle_closing_h11` does the same for a connection that
never sends a request (uvicorn alone keeps those forever), so 1,000 idle sockets cost file
descriptors for seconds, not the server. ``LIMIT_CONCURRENCY`` sits above such a flood;
beyond it uvicorn answers 503.
"""

from __future__ import annotations

import socket
import sys
from typing import Any

from drrag_cli.errors import InputError

KEEP_ALIVE_S = 5  # idle seconds before a connection is closed
LIMIT_CONCURRENCY = 2048  # open connections + tasks before uvicorn answers 503


def idle_closing_h11() -> type:
    """uvicorn's h11 protocol, closing a connection that sends no request for KEEP_ALIVE_S."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class IdleClosingH11(H11Protocol):
        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.timeout_keep_alive_task = self.loop.call_later(
                self.timeout_keep_alive, self.timeout_keep_alive_handler
            )

    return IdleClosingH11


def bind(host: str, port: int) -> socket.socket:
    """The listening socket (port 0 = any free port), bound before uvicorn starts so the
    URL is known and a taken port is one clear error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror}; choose another --port or --host") from exc
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def raise_fd_limit(want: int = LIMIT_CONCURRENCY + 256) -> None:
    """Room for LIMIT_CONCURRENCY sockets: raise the soft open-files limit toward the hard one."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def make_server(app: Any, log_level: str = "warning") -> Any:
    import uvicorn

    config = uvicorn.Config(
        app,
        http=idle_closing_h11(),
        lifespan="off",
        log_level=log_level,
        timeout_keep_alive=KEEP_ALIVE_S,
        limit_concurrency=LIMIT_CONCURRENCY,
        access_log=False,
    )
    return uvicorn.Server(config)


def serve_until_stopped(server: Any, sock: socket.socket) -> None:  # noqa: ANN401 - a uvicorn.Server
    """Run ``server`` on ``sock`` until Ctrl-C / SIGTERM: uvicorn finishes in-flight
    requests, then this returns (exit 0). uvicorn re-raises the signal it caught once it
    has stopped; the handlers set here take that signal as the stop it already was."""
    import signal

    stops = (signal.SIGINT, signal.SIGTERM)
    saved = {sig: signal.signal(sig, lambda *_: None) for sig in stops}
    try:
        server.run(sockets=[sock])
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def run(app: Any, sock: socket.socket) -> None:
    """`drrag serve`: :func:`make_server` until Ctrl-C / SIGTERM."""
    raise_fd_limit()
    serve_until_stopped(make_server(app), sock)
    print("drrag serve: stopped", file=sys.stderr, flush=True)


def is_loopback(host: str) -> bool:
    import ipaddress

    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
