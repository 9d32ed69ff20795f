"""`drrag mcp` as an agent meets it: a real SDK client spawns it over stdio (issue 15).

Measures on the sample corpus (index built first, embedded defaults):
  1. start: spawn → `initialize` answered (models load before the transport starts);
  2. warm `search` (hybrid, k=5) over the sample questions: p50 / p95 per call;
  3. warm `ask` (the configured strategy, CFS, k=4, Gemma): p50 / p95 per call.

    python benchmarks/mcp_latency.py [--rounds 3] [--out benchmarks/out/mcp]

Times include the JSON-RPC round trip over the pipes. The machine is shared, so every
time is an upper bound. Prints a Markdown table, writes results.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from drrag_cli.config import Settings  # noqa: E402
from drrag_cli.index.api import Index  # noqa: E402

QUESTIONS = (
    "In which city was the lead engineer of Project Heron born?",
    "Who led Project Heron?",
    "Which team built the storage engine?",
    "When did the pilot start?",
    "What did the meeting decide about the release?",
)


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure(ix: Path, rounds: int) -> dict:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    args = ["-P", "-m", "drrag_cli.cli.main", "mcp", "--index", str(ix)]  # -P: PYTHONPATH, not the cwd, picks drrag
    params = StdioServerParameters(command=sys.executable, args=args)
    t0 = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        start = time.perf_counter() - t0
        times: dict[str, list[float]] = {"search": [], "ask": []}
        for _ in range(rounds):
            for q in QUESTIONS:
                for tool, args in (("search", {"query": q, "mode": "hybrid", "k": 5}), ("ask", {"question": q})):
                    t = time.perf_counter()
                    result = await session.call_tool(tool, args)
                    times[tool].append(time.perf_counter() - t)
                    if result.is_error:
                        sys.exit(f"{tool} {q!r}: {result.content[0].text}")
    return {
        "start_s": start,
        **{t: {"p50_s": statistics.median(v), "p95_s": pct(v, 0.95), "n": len(v)} for t, v in times.items()},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default=str(REPO / "benchmarks" / "out" / "mcp"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="drrag-mcp-") as tmp:
        ix = Path(tmp) / "ix"
        Index.build([REPO / "sample_corpus"], Settings().replace({"index.path": str(ix)}))
        report = anyio.run(measure, ix, args.rounds)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(report, indent=2) + "\n")
    print("| drrag mcp (stdio, SDK client) | p50 (s) | p95 (s) | calls |\n|---|---:|---:|---:|")
    print(f"| start → initialize answered | {report['start_s']:.2f} | | 1 |")
    for tool in ("search", "ask"):
        r = report[tool]
        print(f"| warm `{tool}` | {r['p50_s']:.3f} | {r['p95_s']:.3f} | {r['n']} |")


if __name__ == "__main__":
    main()
