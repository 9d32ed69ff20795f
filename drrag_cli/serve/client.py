"""`drrag ask --server URL`: the question goes to a running `drrag serve`; the answer
comes back as the `drrag ask --json` document and is printed exactly as a local ask
prints it.

Light on purpose: stdlib ``urllib`` and the CLI's own renderers, never numpy, torch,
llama_cpp or onnxruntime, so a cold client costs a Python start plus one request.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

from drrag_cli.errors import BusyError, DrragError, InputError, ServerDownError, ServerError
from drrag_cli.types import Passage

TIMEOUT_S = 600.0  # a whole answer, queue wait included; the server refuses sooner (503)


def ask_remote(
    url: str,
    question: str,
    *,
    strategy: str | None = None,
    k: int | None = None,
    on_token: Callable[[str], None] | None = None,
    token: str | None = None,
    timeout: float = TIMEOUT_S,
) -> dict[str, Any]:
    """POST /ask; with ``on_token`` the answer streams (server-sent events) into it."""
    url = checked_url(url)
    body = {"question": question, "strategy": strategy, "k": k, "stream": on_token is not None}
    request = urllib.request.Request(
        url.rstrip("/") + "/ask",
        data=json.dumps({key: v for key, v in body.items() if v is not None}).encode("utf-8"),
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - the user's URL
            if on_token is None:
                return json.loads(response.read())
            for event, data in _events(response):
                if event == "token":
                    on_token(data["text"])
                elif event == "answer":
                    return data
                elif event == "error":
                    raise _error(int(data.get("status", 500)), data["error"], url)
            raise ServerError(f"the drrag server at {url} closed the stream before the answer; retry")
    except urllib.error.HTTPError as err:
        raise _error(err.code, _message(err), url) from None
    except (TimeoutError, urllib.error.URLError, ConnectionError, ValueError) as err:
        reason = getattr(err, "reason", err)
        raise ServerDownError(
            f"no drrag server answers at {url} ({reason}); start one with `drrag serve`, "
            "or add --fallback-local to answer here"
        ) from None


def checked_url(url: str) -> str:
    """``url`` when it can name a server (http or https, a host, a numeric port if any); else
    an :class:`InputError` (exit 1): urllib raised a bare ValueError for "not a url", which
    the CLI reported as an internal error."""
    url = url.strip()
    parts = urllib.parse.urlsplit(url)
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:  # "http://host:abc" or a port over 65535
        port_ok = False
    if parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        raise InputError(
            f"--server / DRRAG_SERVER {url!r} is not a server URL; give the address `drrag serve` printed, "
            "e.g. http://127.0.0.1:8765"
        )
    return url


def _events(response: Any) -> Iterator[tuple[str, Any]]:
    """(event, data) of a server-sent event stream."""
    event, data = "message", []
    for raw in response:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield event, json.loads("\n".join(data))
            event, data = "message", []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))


def _message(err: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(err.read())["error"])
    except (ValueError, KeyError, TypeError, OSError):
        return f"HTTP {err.code} {err.reason}"


def _error(status: int, message: str, url: str) -> DrragError:
    """The server's one line as the error a local ask would raise."""
    if status == 503:
        return BusyError(message)
    if status == 401:
        return InputError(f"{message} (set DRRAG_TOKEN to the server's token)")
    if 400 <= status < 500:
        return InputError(message)
    return ServerError(f"the drrag server at {url} failed: {message}")


def server_token() -> str | None:
    return os.environ.get("DRRAG_TOKEN") or None


# -- the ask --json document as what cli.render.print_answer reads ------------------------------
def _passage(d: dict[str, Any]) -> Passage:
    lines = d.get("lines") or [None, None]
    return Passage(
        source=d["source"],
        title=d.get("title", ""),
        text=d.get("text", ""),
        ordinal=0,
        char_start=0,
        char_end=0,
        line_start=lines[0],
        line_end=lines[1],
        page=d.get("page"),
        passage_id=d.get("passage_id"),
        collection=d.get("collection"),
    )


def answer_view(doc: dict[str, Any]) -> Any:
    """An object with the attributes of :class:`~drrag_cli.results.AskResult` that
    :func:`~drrag_cli.cli.render.print_answer` reads, built from the JSON document."""
    fed = [_passage(c) for c in doc.get("citations", [])]
    known = {p["passage_id"]: p for p in [*doc.get("documents", []), *doc.get("citations", [])]}
    suspicious = [
        SimpleNamespace(passage=_passage({**s, **known.get(s.get("passage_id"), {})}))
        for s in doc.get("suspicious_passages", [])
    ]
    answer = SimpleNamespace(
        text=doc.get("answer") or "",
        asked=doc.get("asked", ""),
        reader=doc.get("reader"),
        compared=doc.get("compared"),
        looked_up=doc.get("looked_up"),
        picked=doc.get("picked"),
        reasked=doc.get("reasked", ""),
        suspicious=suspicious,
        withheld=doc.get("withheld_answer", ""),
        supported=doc.get("supported", False),
        verdict=SimpleNamespace(supported=doc.get("supported", False), why=doc.get("why_unsupported", "")),
        strayed=doc.get("strayed", False),
        evidence=doc.get("evidence"),
        passages=fed,
        trimmed=doc.get("trimmed", []),
    )
    rw, ref, note = doc.get("rewrites"), doc.get("refine"), doc.get("note")
    rewrites = None
    if rw is not None:
        items = [
            SimpleNamespace(strategy=r["strategy"], usable=r["status"] in ("ok", "cached")) for r in rw["rewrites"]
        ]
        rewrites = SimpleNamespace(items=items, llm_calls=rw["llm_calls"], fallbacks=rw.get("fallbacks", []))
    refined = None
    if ref is not None:
        refined = SimpleNamespace(
            tokens_before=ref["tokens_before"],
            tokens_after=ref["tokens_after"],
            threshold=ref["threshold"],
            notes=ref.get("notes", []),
        )
    return SimpleNamespace(
        question=doc.get("question", ""),
        answer=answer,
        fed=fed,
        retrieval=SimpleNamespace(rewrites=rewrites, refined=refined),
        note=None if note is None else SimpleNamespace(**note),
        llm_calls=doc.get("llm_calls", 0),
    )
