"""txtai 9 hybrid index on the passages drrag indexed: the comparison of issue 14.

Runs inside its own venv (``benchmarks/txtai/.venv``, from ``benchmarks/txtai/requirements.txt``;
not a project dependency), offline: the embeddings model is the local MiniLM folder that
drrag ships (``--model``, no hub access), ``hybrid: True`` (BM25 + dense), ``content: True``.
``benchmarks/index_bench.py`` writes the inputs and calls this script, then prints drrag's
ratios to these numbers:

    benchmarks/txtai/.venv/bin/python benchmarks/txtai_bench.py --passages P.jsonl \\
        --questions Q.json --model MINILM_DIR --out results.json

Measured: ``index_s`` = ``Embeddings(config)`` + ``index()`` in a warm process (model load,
BM25 + dense build; the import of txtai is reported apart as ``import_s``), and warm
``search(q, 5)`` latency over the questions after 10 warm-up queries.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passages", type=Path, required=True, help="JSONL of {id, text}: what drrag embedded")
    parser.add_argument("--questions", type=Path, required=True, help="JSON list of question strings")
    parser.add_argument("--model", required=True, help="local sentence-transformers folder (MiniLM)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    rows = [json.loads(line) for line in args.passages.read_text(encoding="utf-8").splitlines() if line.strip()]
    questions = json.loads(args.questions.read_text(encoding="utf-8"))

    t0 = time.perf_counter()
    import torch
    from txtai import Embeddings

    import_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    embeddings = Embeddings({"path": args.model, "hybrid": True, "content": True})
    embeddings.index((r["id"], r["text"], None) for r in rows)
    index_s = time.perf_counter() - t0

    for q in questions[:10]:
        embeddings.search(q, 5)
    lat = []
    for q in questions:
        t0 = time.perf_counter()
        embeddings.search(q, 5)
        lat.append((time.perf_counter() - t0) * 1000)
    import txtai

    results = {
        "txtai": getattr(txtai, "__version__", None) or _version("txtai"),
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "config": {"path": args.model, "hybrid": True, "content": True},
        "passages": len(rows),
        "import_s": round(import_s, 2),
        "index_s": round(index_s, 2),
        "index_passages_per_s": round(len(rows) / index_s, 2),
        "warm_search_ms": {"p50": round(statistics.median(lat), 2), "p95": round(pct(lat, 0.95), 2), "n": len(lat)},
    }
    args.out.write_text(json.dumps(results, indent=2))
    print(json.dumps(results, indent=2))


def _version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


if __name__ == "__main__":
    main()
