"""`drrag mcp` driven by a real MCP client from the official SDK, on a tiny real index:
stdio (the client spawns `drrag mcp`), every tool, the error path, one streamable-HTTP
smoke test, and a file edited under `drrag index --watch` changing the server's answer."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from tests.conftest import drrag_cmd, write_corpus

pytestmark = pytest.mark.slow
TOOLS = {"search", "ask", "get_passage", "get_document", "status"}
QUESTION = "In which city was the lead engineer of Project Heron born?"
WAIT = 120.0  # bound of every wait on a slow shared machine, never a timing target


@pytest.fixture()
def ix(served: tuple[Settings, Path]) -> Path:
    """The index of the module's tiny corpus (tests/serve/conftest.py), which no test here edits."""
    return Path(served[0].index.path)


def stdio_session(index: Path, cwd: Path, body: Callable[[Any], Awaitable[None]]) -> None:
    """Spawn `drrag mcp --index INDEX` through the SDK's stdio client and run ``body(session)``."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    argv = drrag_cmd("mcp", "--index", str(index))
    params = StdioServerParameters(command=argv[0], args=argv[1:], cwd=cwd, env=dict(os.environ))

    async def main() -> None:
        with anyio.fail_after(WAIT):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                await body(session)

    anyio.run(main)


def ok(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert json.loads(result.content[0].text) == result.structured_content  # text-only clients get the same
    return result.structured_content


def error_line(result: Any) -> str:
    assert result.is_error
    text = result.content[0].text
    assert text.startswith("drrag: error: ") and "\n" not in text and "Traceback" not in text
    return text


def test_stdio_lists_every_tool_with_a_schema_and_calls_each(ix: Path, tmp_path: Path) -> None:
    async def body(session: Any) -> None:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == TOOLS
        assert all(len(t.description) > 40 for t in tools.values())
        search = tools["search"].input_schema
        assert search["required"] == ["query"] and set(search["properties"]) == {"query", "k", "mode", "strategy"}
        assert "bm25" in json.dumps(search["properties"]["mode"])
        assert tools["ask"].input_schema["required"] == ["question"]
        assert tools["get_passage"].input_schema["properties"]["passage_id"]["type"] == "integer"
        assert set(tools["get_document"].input_schema["properties"]) == {"source", "lines"}

        found = ok(await session.call_tool("search", {"query": "Mara Quint born", "mode": "bm25", "k": 2}))
        top = found["results"][0]
        assert "Tromsø" in top["text"] and len(found["results"]) <= 2
        passage = ok(await session.call_tool("get_passage", {"passage_id": top["passage_id"]}))
        assert "Tromsø" in passage["text"] and passage["source"] == top["source"]
        document = ok(await session.call_tool("get_document", {"source": top["source"]}))
        assert "Tromsø" in document["text"] and document["source"] == top["source"]
        ranged = ok(await session.call_tool("get_document", {"source": top["source"], "lines": [1, 1]}))
        assert "Tromsø" in ranged["text"]
        answer = ok(await session.call_tool("ask", {"question": QUESTION, "k": 4}))
        assert answer["answer"] and answer["citations"] and answer["llm_calls"] >= 1
        assert ok(await session.call_tool("status", {}))["passages"] > 0

        missing = error_line(await session.call_tool("get_passage", {"passage_id": 987654}))
        assert "987654" in missing
        error_line(await session.call_tool("ask", {"question": "   "}))
        error_line(await session.call_tool("search", {"query": "x", "strategy": "nonsense"}))
        error_line(await session.call_tool("get_document", {"source": "/no/such/file.md"}))
        ok(await session.call_tool("status", {}))  # the server is still fine after errors

    stdio_session(ix, tmp_path, body)


def test_stdout_carries_only_protocol_even_while_the_llm_answers(ix: Path, tmp_path: Path) -> None:
    """Raw JSON-RPC on the pipes (the SDK client would skip a stray line): every byte on
    stdout, through model loading and an `ask` (llama.cpp), is a JSON-RPC message."""
    from mcp_types.version import LATEST_HANDSHAKE_VERSION

    proc = subprocess.Popen(
        drrag_cmd("mcp", "--index", str(ix)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
    )
    assert proc.stdin is not None and proc.stdout is not None
    lines: list[str] = []

    def send(message: dict[str, Any]) -> None:
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]

    def reply(request_id: int) -> dict[str, Any]:
        while True:
            line = proc.stdout.readline()  # type: ignore[union-attr]
            assert line, f"stdout closed; it had: {lines}"
            lines.append(line)
            message = json.loads(line)  # a stray print would fail here
            if message.get("id") == request_id:
                return message

    try:
        info = {"name": "raw-test", "version": "0"}
        send(
            {
                "id": 1,
                "method": "initialize",
                "params": {"protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": {}, "clientInfo": info},
            }
        )
        assert reply(1)["result"]["serverInfo"]["name"] == "drrag"
        send({"method": "notifications/initialized"})
        send({"id": 2, "method": "tools/call", "params": {"name": "ask", "arguments": {"question": QUESTION}}})
        assert reply(2)["result"]["structuredContent"]["answer"]
        proc.stdin.close()
        assert proc.wait(timeout=WAIT) == 0
        rest = proc.stdout.read()
        assert all(json.loads(line) for line in rest.splitlines())
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_missing_index_is_one_line_before_any_protocol(tmp_path: Path) -> None:
    proc = subprocess.run(
        drrag_cmd("mcp", "--index", str(tmp_path / "nothing")),
        capture_output=True,
        text=True,
        timeout=WAIT,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("drrag: error: no index at") and len(proc.stderr.strip().splitlines()) == 1


def test_streamable_http_answers_with_the_token_and_refuses_without(ix: Path, tmp_path: Path) -> None:
    import httpx
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    proc = subprocess.Popen(
        drrag_cmd("mcp", "--http", "--port", "0", "--index", str(ix), "--token", "t0ken"),
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # Ctrl-C even if pytest runs in the background
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # once the models are loaded; the socket is already listening
        assert "streamable HTTP at http://127.0.0.1:" in line, line
        url = line.split(" at ")[1].split()[0]
        refused = httpx.post(url, json={}, timeout=WAIT)
        assert refused.status_code == 401 and "token" in refused.text

        async def main() -> None:
            client = create_mcp_http_client(headers={"Authorization": "Bearer t0ken"})
            with anyio.fail_after(WAIT):
                async with client, streamable_http_client(url, http_client=client) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        assert {t.name for t in (await session.list_tools()).tools} == TOOLS
                        found = ok(await session.call_tool("search", {"query": "Kestrel radar", "mode": "bm25"}))
                        assert "Kestrel" in found["results"][0]["text"]

        anyio.run(main)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=WAIT) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_an_edit_under_watch_changes_the_servers_answer(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    ix = tmp_path / "ix"
    Index.build([corpus], Settings().replace({"index.path": str(ix)}))
    query = {"query": "Where was Mara Quint born?", "mode": "bm25", "k": 1}

    async def body(session: Any) -> None:
        before = ok(await session.call_tool("search", query))["results"][0]["text"]
        assert "Tromsø" in before
        watcher = subprocess.Popen(
            drrag_cmd("index", str(corpus), "--watch", "--json", "--index", str(ix)),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=tmp_path,
        )
        try:
            assert watcher.stdout is not None
            await anyio.to_thread.run_sync(watcher.stdout.readline)  # the first build: the watcher is live
            (corpus / "notes" / "mara.txt").write_text("Mara Quint was born in Hammerfest, Norway.\n")
            line = json.loads(await anyio.to_thread.run_sync(watcher.stdout.readline))
            assert line["trigger"] == "change" and line["published"]
            after = ok(await session.call_tool("search", query))["results"][0]["text"]
            assert "Hammerfest" in after and "Tromsø" not in after  # the next request sees the new generation
        finally:
            watcher.terminate()
            watcher.wait(timeout=WAIT)

    stdio_session(ix, tmp_path, body)


def test_a_cancelled_ask_stops_its_generation() -> None:
    """Pure wiring, so a stand-in Service: when the client cancels `ask` (the SDK cancels
    the handler), the Service's ``cancelled()`` turns true and the LLM is let go."""
    import threading

    from drrag_cli.serve.mcp_server import build_server

    class Generating:
        def __init__(self) -> None:
            self.started, self.stopped = threading.Event(), threading.Event()

        def ask(self, question: str, strategy: str | None = None, k: int | None = None, cancelled: Any = None) -> dict:
            self.started.set()
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline:  # a generation, token after token
                if cancelled():
                    self.stopped.set()
                    break
                time.sleep(0.01)
            return {}

    service = Generating()
    server = build_server(service)  # type: ignore[arg-type]

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(server.call_tool, "ask", {"question": "Who leads Heron?"})
            assert await anyio.to_thread.run_sync(service.started.wait, WAIT)
            tg.cancel_scope.cancel()
        assert await anyio.to_thread.run_sync(service.stopped.wait, 30)  # 120 s without the cancel

    anyio.run(main)
