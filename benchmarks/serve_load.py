"""Load and hostile-client benchmark of `drrag serve` (issue 15), on loopback.

    python benchmarks/serve_load.py [--out benchmarks/out/serve_load] [--index DIR]

Starts a real `drrag serve --port 0 --token T` process over the sample corpus (built with
`drrag index sample_corpus --index DIR` unless --index is given) and measures:
  1. load: 200 concurrent POST /search + 20 concurrent POST /ask (CFS, k=4, Gemma), all at
     once; errors (anything but 200) and p50/p95 latency of each;
  2. memory: the server's RSS (VmRSS) after warm-up, after the 220, after 1,000 requests, after 2,000;
  3. warm /ask p50 (CFS, k=4, Gemma), one at a time over the QUESTIONS.md questions;
  4. `drrag ask --server URL --json`, a cold client process: wall time minus the server's
     own answer time (timings.total_s of the document it printed), median of 5;
  5. hostile clients, each while a background loop keeps searching: a 10 MB body (413),
     invalid JSON (400), a wrong token (401), 1,000 open idle connections (the server closes
     them after its keep-alive timeout) while 50 searches are served.

The machine is shared (2 cores): every time is an upper bound. Prints a Markdown table and
writes results.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
TOKEN = "bench-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
# a client must drop an idle connection before the server does (uvicorn: 5 s), or a request
# sent on it as the server closes it fails; httpx's default expiry is also 5 s
CLIENT = httpx.Limits(keepalive_expiry=2.0)
SEARCHES = ("Project Heron lead engineer", "Saltmarsh embedding model", "GPU cluster building", "Plover lead")


def drrag(*args: str) -> list[str]:
    return [sys.executable, "-P", "-m", "drrag_cli.cli.main", *args]


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def timed(client: httpx.AsyncClient, path: str, body: dict, headers: dict = AUTH) -> tuple[int | str, float]:
    """(HTTP status, or the client-side exception's name; seconds)."""
    t0 = time.perf_counter()
    try:
        r = await client.post(path, json=body, headers=headers)
        status: int | str = r.status_code
    except httpx.HTTPError as exc:
        status = type(exc).__name__
    return status, time.perf_counter() - t0


def summary(results: list[tuple[int | str, float]]) -> dict[str, Any]:
    times = [t for _, t in results]
    return {
        "n": len(results),
        "errors": sum(1 for s, _ in results if s != 200),
        "error_kinds": dict(Counter(str(s) for s, _ in results if s != 200)),
        "p50_s": round(pct(times, 0.5), 3),
        "p95_s": round(pct(times, 0.95), 3),
    }


async def load(url: str, questions: list[str]) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=400, keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as c:
        searches = [timed(c, "/search", {"query": SEARCHES[i % len(SEARCHES)], "k": 5}) for i in range(200)]
        asks = [
            timed(c, "/ask", {"question": questions[i % len(questions)], "k": 4, "strategy": "cfs"}) for i in range(20)
        ]
        t0 = time.perf_counter()
        done = await asyncio.gather(*searches, *asks)
        wall = time.perf_counter() - t0
    return {"search": summary(done[:200]), "ask": summary(done[200:]), "wall_s": round(wall, 2)}


async def many_searches(url: str, n: int, concurrency: int = 20) -> dict[str, Any]:
    """``n`` searches, ``concurrency`` at a time."""
    sem = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=url, limits=CLIENT, timeout=120) as c:

        async def one(i: int) -> tuple[int | str, float]:
            async with sem:
                return await timed(c, "/search", {"query": f"{SEARCHES[i % len(SEARCHES)]} {i}", "k": 5})

        return summary(list(await asyncio.gather(*(one(i) for i in range(n)))))


def warm_ask(url: str, questions: list[str]) -> dict[str, Any]:
    times, server = [], []
    with httpx.Client(base_url=url, timeout=600, headers=AUTH) as c:
        for q in questions:
            t0 = time.perf_counter()
            r = c.post("/ask", json={"question": q, "k": 4, "strategy": "cfs"})
            times.append(time.perf_counter() - t0)
            r.raise_for_status()
            server.append(r.json()["timings"]["total_s"])
    return {
        "n": len(times),
        "p50_s": round(pct(times, 0.5), 3),
        "p95_s": round(pct(times, 0.95), 3),
        "server_total_p50_s": round(pct(server, 0.5), 3),
    }


def cold_client(url: str, questions: list[str], cwd: Path, runs: int = 5) -> dict[str, Any]:
    env = {**os.environ, "DRRAG_TOKEN": TOKEN}
    overheads, walls = [], []
    for i in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run(
            drrag("ask", questions[i % len(questions)], "--server", url, "--json"),
            capture_output=True,
            text=True,
            cwd=cwd,
            env=env,
        )
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            sys.exit(f"drrag ask --server failed: {proc.stderr}")
        walls.append(wall)
        overheads.append(wall - json.loads(proc.stdout)["timings"]["total_s"])
    return {
        "runs": runs,
        "wall_median_s": round(statistics.median(walls), 3),
        "client_overhead_median_s": round(statistics.median(overheads), 3),
    }


async def hostile(url: str, host: str, port: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    stop = asyncio.Event()
    background: list[tuple[int, float]] = []

    async def keep_searching() -> None:
        async with httpx.AsyncClient(base_url=url, limits=CLIENT, timeout=120) as c:
            while not stop.is_set():
                background.append(await timed(c, "/search", {"query": "Heron lead", "k": 3}))

    bg = asyncio.create_task(keep_searching())
    async with httpx.AsyncClient(base_url=url, limits=CLIENT, timeout=120) as c:
        big = b'{"query": "' + b"x" * (10 * 1024 * 1024) + b'"}'
        r = await c.post("/search", content=big, headers={**AUTH, "content-type": "application/json"})
        out["10MB_body"] = {"status": r.status_code, "error": r.json().get("error")}
        r = await c.post("/search", content=b"{not json", headers=AUTH)
        out["invalid_json"] = {"status": r.status_code, "error": r.json().get("error")}
        r = await c.post("/search", json={"query": "Heron"}, headers={"Authorization": "Bearer wrong"})
        out["wrong_token"] = {
            "status": r.status_code,
            "error": r.json().get("error"),
            "leaked": "results" in r.text,
        }

    idle = []
    for _ in range(1000):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect((host, port))
        except BlockingIOError:
            pass
        idle.append(s)
    await asyncio.sleep(0.5)
    limits = httpx.Limits(max_connections=50, keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as c:
        served = await asyncio.gather(*(timed(c, "/search", {"query": "Plover lead", "k": 3}) for _ in range(50)))
    out["idle_1000"] = {"searches_during": summary(list(served))}
    t0 = time.perf_counter()
    closed = 0
    while closed < len(idle) and time.perf_counter() - t0 < 30:
        await asyncio.sleep(0.25)
        for s in list(idle):
            try:
                if s.recv(1) == b"":
                    closed += 1
                    idle.remove(s)
                    s.close()
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
                idle.remove(s)
                s.close()
    out["idle_1000"].update({"closed_by_server": closed, "closed_within_s": round(time.perf_counter() - t0, 1)})
    for s in idle:
        s.close()
    stop.set()
    await bg
    out["background_searches"] = summary(background)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out" / "serve_load")
    parser.add_argument("--index", type=Path, help="an index of sample_corpus (default: built into --out)")
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))  # 1,000 idle sockets + clients
    index = args.index.resolve() if args.index else out / "index"  # the server runs in --out
    if args.index is None:
        subprocess.run(drrag("index", str(REPO / "sample_corpus"), "--index", str(index)), check=True, cwd=out)
    sys.path.insert(0, str(REPO / "benchmarks"))
    from sample_questions import parse_questions

    questions = [q["question"] for q in parse_questions(REPO / "sample_corpus" / "QUESTIONS.md")]
    server = subprocess.Popen(
        drrag("serve", "--index", str(index), "--port", "0", "--token", TOKEN),
        stdout=subprocess.PIPE,
        text=True,
        cwd=out,
    )
    try:
        line = server.stdout.readline() if server.stdout else ""
        if not line.startswith("drrag serve: http"):
            sys.exit(f"drrag serve did not start: {line!r}")
        url = line.split()[2]
        host, port = url.removeprefix("http://").rsplit(":", 1)
        with httpx.Client(base_url=url, headers=AUTH, timeout=600) as c:  # warm-up: every path once
            c.post("/search", json={"query": "warm up", "k": 5}).raise_for_status()
            c.post("/ask", json={"question": questions[0], "k": 4}).raise_for_status()
        results: dict[str, Any] = {"url": url, "rss_mb": {"warm": round(rss_mb(server.pid), 1)}}
        results["load"] = asyncio.run(load(url, questions))
        results["rss_mb"]["after_load"] = round(rss_mb(server.pid), 1)
        results["searches_to_1000"] = asyncio.run(many_searches(url, 1000 - 220))
        results["rss_mb"]["after_1000"] = round(rss_mb(server.pid), 1)
        results["searches_to_2000"] = asyncio.run(many_searches(url, 1000))
        results["rss_mb"]["after_2000"] = round(rss_mb(server.pid), 1)
        extra = [results["searches_to_1000"], results["searches_to_2000"]]
        results["extra_search_errors"] = sum(x["errors"] for x in extra)
        results["warm_ask"] = warm_ask(url, questions)
        results["cold_client"] = cold_client(url, questions, out)
        results["hostile"] = asyncio.run(hostile(url, host, int(port)))
    finally:
        server.terminate()
        server.wait(60)
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    print(table(results))


def table(r: dict[str, Any]) -> str:
    ld, h = r["load"], r["hostile"]
    rows = [
        (
            "200 concurrent /search (with 20 /ask)",
            f"{ld['search']['errors']} errors; p50 {ld['search']['p50_s']} s, p95 {ld['search']['p95_s']} s",
        ),
        (
            "20 concurrent /ask (with 200 /search)",
            f"{ld['ask']['errors']} errors; p50 {ld['ask']['p50_s']} s, "
            f"p95 {ld['ask']['p95_s']} s (one LLM queue; all 220 done in {ld['wall_s']} s)",
        ),
        (
            "server RSS: warm / after the 220 / after 1,000 / after 2,000 requests",
            f"{r['rss_mb']['warm']} / {r['rss_mb']['after_load']} / {r['rss_mb']['after_1000']} / "
            f"{r['rss_mb']['after_2000']} MB ({r['extra_search_errors']} errors in the 1,780 further searches, "
            f"20 at a time: {r['searches_to_1000']['error_kinds'] | r['searches_to_2000']['error_kinds']})",
        ),
        (
            "warm /ask p50 (CFS, k=4, Gemma), one at a time",
            f"{r['warm_ask']['p50_s']} s (p95 {r['warm_ask']['p95_s']} s; server total_s p50 "
            f"{r['warm_ask']['server_total_p50_s']} s; n={r['warm_ask']['n']})",
        ),
        (
            "cold `drrag ask --server` minus answer time",
            f"{r['cold_client']['client_overhead_median_s']} s (median of {r['cold_client']['runs']}; wall "
            f"{r['cold_client']['wall_median_s']} s)",
        ),
        ("10 MB body", f"HTTP {h['10MB_body']['status']}: {h['10MB_body']['error']}"),
        ("invalid JSON", f"HTTP {h['invalid_json']['status']}: {h['invalid_json']['error']}"),
        ("wrong token", f"HTTP {h['wrong_token']['status']}, data leaked: {h['wrong_token']['leaked']}"),
        (
            "1,000 idle connections",
            f"50 searches meanwhile: {h['idle_1000']['searches_during']['errors']} errors, "
            f"p50 {h['idle_1000']['searches_during']['p50_s']} s; server closed "
            f"{h['idle_1000']['closed_by_server']} of 1,000 within {h['idle_1000']['closed_within_s']} s",
        ),
        (
            "background searches during all hostile clients",
            f"{h['background_searches']['n']} served, {h['background_searches']['errors']} errors, "
            f"p95 {h['background_searches']['p95_s']} s",
        ),
    ]
    lines = ["| measure | result |", "|---|---|"] + [f"| {a} | {b} |" for a, b in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
