"""`drrag serve`'s HTTP API: a real uvicorn server on a free loopback port over the warm
Service, real HTTP requests (httpx): documents, streaming, refusals, busy LLM, a client
that leaves, a generation switch, and the command's own refusals."""

from __future__ import annotations

import json
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from drrag_cli.serve import http
from drrag_cli.serve.service import Service
from tests.conftest import drrag_cmd

TOKEN = "s3cret-token"
WAIT = 60.0  # bound of every wait on a slow shared machine, never a timing target


class Running:
    """A uvicorn server on a thread, on an OS-chosen loopback port."""

    def __init__(self, service: Service, **kwargs: Any) -> None:
        self.sock = http.bind("127.0.0.1", 0)
        self.url = http.url_of(self.sock)
        self.server = http.make_server(http.build_app(service, **kwargs))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + WAIT
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(WAIT)
        self.sock.close()


@pytest.fixture(scope="module")
def server(service: Service) -> Iterator[Running]:
    running = Running(service, max_body_bytes=4096)
    yield running
    running.stop()


@pytest.fixture()
def client(server: Running) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=WAIT) as c:
        yield c


def test_health_status_search(client: httpx.Client, service: Service) -> None:
    assert client.get("/health").json() == {"status": "ok"}
    status = client.get("/status").json()
    assert status["passages"] > 0 and status["generation"].startswith("gen-") and status["requests"] >= 1
    r = client.post("/search", json={"query": "Where was Mara Quint born?", "k": 2})
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.json() == service.search("Where was Mara Quint born?", k=2)
    r = client.post("/search", json={"query": "Heron lead", "k": 2, "strategy": "cfs", "mode": None})
    assert r.status_code == 200 and r.json()["strategy"] == "cfs"


def test_ask_and_stream(client: httpx.Client) -> None:
    question = {"question": "Where was the lead engineer of Project Heron born?", "k": 4}
    doc = client.post("/ask", json=question).json()
    assert doc["answer"] and doc["llm_calls"] == 1 and doc["citations"]
    events = []
    with client.stream("POST", "/ask", json={**question, "stream": True}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        event = None
        for line in r.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                events.append((event, json.loads(line[6:])))
    assert events[-1][0] == "answer" and all(e == "token" for e, _ in events[:-1]) and len(events) > 1
    final = events[-1][1]
    assert "".join(d["text"] for _, d in events[:-1]).strip() == final["answer"].strip()
    assert final["answer"] == doc["answer"] and final["citations"] == doc["citations"]


@pytest.mark.parametrize(
    ("path", "body", "status", "needle"),
    [
        ("/search", b"{not json", 400, "not valid JSON"),
        ("/search", b"[1, 2]", 400, "takes a JSON object"),
        ("/search", b'{"query": "x", "limit": 3}', 400, "unknown field 'limit'"),
        ("/search", b'{"query": "x", "k": "3"}', 400, "field 'k' of /search must be an integer"),
        ("/search", b'{"query": "x", "k": true}', 400, "must be an integer, not a boolean"),
        ("/search", b'{"k": 3}', 400, "needs the field 'query'"),
        ("/search", b'{"query": "x", "k": 0}', 400, "at least 1"),
        ("/search", b'{"query": "x", "mode": "fuzzy"}', 400, "unknown search mode"),
        ("/search", b'{"query": "x", "k": 4611686018427387904}', 400, "at most 1000"),  # tantivy would panic
        ("/ask", b'{"question": "x", "k": 4611686018427387904}', 400, "at most 1000"),
        ("/ask", b'{"question": "x", "stream": "yes"}', 400, "must be true or false"),
        ("/ask", b'{"question": 3}', 400, "field 'question' of /ask must be a string"),
        ("/search", b'{"query": "' + b"x" * 5000 + b'"}', 413, "over the limit of 4096"),
        ("/search", b"[" * 2000 + b"]" * 2000, 400, "nested too deeply"),  # json recursed: a 500 RecursionError
        ("/nothing", b"{}", 404, "Not Found"),
    ],
)
def test_bad_requests_get_one_line(client: httpx.Client, path: str, body: bytes, status: int, needle: str) -> None:
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert list(r.json()) == ["error"] and needle in r.json()["error"] and "\n" not in r.json()["error"]


def test_body_limit_holds_without_content_length(client: httpx.Client) -> None:
    chunks = (b'{"query": "' + b"x" * 1024 for _ in range(64))  # chunked: no Content-Length to trust
    r = client.post("/search", content=chunks)
    assert r.status_code == 413 and "over the limit" in r.json()["error"]
    assert client.get("/health").status_code == 200
    assert client.get("/search").status_code == 405


def test_token_is_required_and_checked(service: Service) -> None:
    running = Running(service, token=TOKEN)
    try:
        with httpx.Client(base_url=running.url, timeout=WAIT) as c:
            for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
                r = c.post("/search", json={"query": "Mara"}, headers=headers)
                assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
                assert list(r.json()) == ["error"] and "Mara" not in r.text
                assert c.get("/status", headers=headers).status_code == 401
            ok = c.post("/search", json={"query": "Mara", "k": 1}, headers={"Authorization": f"Bearer {TOKEN}"})
            assert ok.status_code == 200 and ok.json()["results"]
    finally:
        running.stop()


def test_busy_llm_is_503_and_searches_go_on(client: httpx.Client, service: Service) -> None:
    assert service.queue.acquire(1.0)  # another request holds the LLM
    generator: Any = service._generator
    timeout, generator.timeout = generator.timeout, 0.3
    try:
        r = client.post("/ask", json={"question": "Why was Project Heron started?"})  # not read in code: needs the LLM
        assert r.status_code == 503 and "LLM is busy" in r.json()["error"] and r.headers["retry-after"] == "1"
        assert client.post("/search", json={"query": "Mara", "k": 1}).status_code == 200
    finally:
        generator.timeout = timeout
        service.queue.release()


def test_a_client_that_leaves_stops_its_generation(server: Running, service: Service) -> None:
    generator: Any = service._generator
    llm, tokens = generator.llm, []

    class Counting:  # counts the tokens the model really generates
        def __getattr__(self, name: str) -> Any:
            return getattr(llm, name)

        def chat(self, messages: Any, *, on_token: Any = None, **kw: Any) -> str:
            return llm.chat(messages, on_token=lambda p: (tokens.append(p), on_token and on_token(p)), **kw)

        def complete(self, prompt: str, *, on_token: Any = None, **kw: Any) -> str:
            return llm.complete(prompt, on_token=lambda p: (tokens.append(p), on_token and on_token(p)), **kw)

    generator.llm = Counting()
    try:
        with socket.create_connection(("127.0.0.1", int(server.url.rsplit(":", 1)[1])), timeout=WAIT) as s:
            body = json.dumps({"question": "Describe the Kestrel project and its sponsor.", "stream": True})
            s.sendall(
                f"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n{body}".encode()
            )
            seen = b""
            while b"event: token" not in seen:
                seen += s.recv(4096)
        deadline = time.monotonic() + WAIT  # closed after the first token: the queue frees early
        while (service.queue._busy or service.queue.waiting) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not service.queue._busy
        settled = len(tokens)
        time.sleep(0.3)
        assert 1 <= len(tokens) == settled < 20  # this question runs to the 48-token limit when not stopped
    finally:
        generator.llm = llm


def test_switches_generation_between_requests(tmp_path: Path) -> None:
    from drrag_cli.config import Settings
    from drrag_cli.index.api import Index
    from tests.conftest import write_corpus

    corpus = write_corpus(tmp_path / "corpus")
    settings = Settings().replace({"index.path": str(tmp_path / "ix")})
    Index.build([corpus], settings)
    svc = Service(settings)
    svc.load()
    running = Running(svc)
    try:
        with httpx.Client(base_url=running.url, timeout=WAIT) as c:
            query = {"query": "zzquokka colonies", "mode": "bm25", "k": 1}
            assert c.post("/search", json=query).json()["results"] == []
            (corpus / "notes" / "wren.md").write_text("# Wren\n\nProject Wren counts zzquokka colonies.\n")
            Index.build([corpus], settings)
            hits = c.post("/search", json=query).json()["results"]
            assert hits and hits[0]["source"].endswith("wren.md")
            assert c.get("/status").json()["generation_switches"] == 1
    finally:
        running.stop()


def test_serve_refuses_an_open_host_without_token(tmp_path: Path) -> None:
    r = subprocess.run(
        drrag_cmd("serve", "--host", "0.0.0.0", "--index", str(tmp_path / "none")),
        capture_output=True,
        text=True,
        timeout=WAIT,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert r.returncode == 1 and r.stdout == ""
    assert "--token" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_serve_help_has_examples(cli) -> None:  # noqa: ANN001
    code, out, _ = cli("serve", "--help")
    assert code == 0 and "Example" in out and "--token" in out and "/ask" in out


def test_a_native_panic_is_a_500_line(client: httpx.Client, service: Service, monkeypatch) -> None:  # noqa: ANN001
    class PanicException(BaseException):  # what pyo3 raises for a Rust panic: no `except Exception` sees it
        pass

    def panics(*args: Any, **kwargs: Any) -> dict:
        raise PanicException("capacity overflow")

    monkeypatch.setattr(service, "search", panics)
    r = client.post("/search", json={"query": "x"})
    assert r.status_code == 500 and r.json() == {
        "error": "internal error: RuntimeError: PanicException: capacity overflow"
    }
    monkeypatch.undo()
    assert client.post("/search", json={"query": "Mara", "k": 1}).status_code == 200
