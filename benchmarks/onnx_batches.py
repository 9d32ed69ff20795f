"""How the ONNX export's batches are cut, timed on the dev500 texts (issue #14).

Embeds the same texts with the verified export, all cores, once per policy and
round (policies in reversed order every other round): ``N`` = fixed batches of N passages
(longest first), ``N/T`` = at most N passages and T padded tokens per onnxruntime run (what
``drrag index`` does: ``embedding.batch_size`` / ``onnx_run.TOKEN_BUDGET``). Prints
passages/s per policy and round, and the lowest cosine of each policy's vectors to the
first policy's.

    python benchmarks/onnx_batches.py [--corpus benchmarks/out/index/corpus.jsonl] \\
        [--policies 32,8,32/1024,32/2048] [--rounds 2] [--limit N]

The corpus is the JSONL that ``benchmarks/index_bench.py`` writes (one {"text": ...} per line).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=REPO / "benchmarks" / "out" / "index" / "corpus.jsonl")
    parser.add_argument("--policies", default="32,8,32/1024,32/2048")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="first N passages only (0 = all)")
    args = parser.parse_args()
    if not args.corpus.is_file():
        sys.exit(f"corpus {args.corpus} not found: run benchmarks/index_bench.py first, or pass --corpus")

    import numpy as np

    from drrag_cli.config import Settings
    from drrag_cli.errors import ModelError
    from drrag_cli.index import onnx_run
    from drrag_cli.index.embedder import Embedder

    lines = args.corpus.read_text(encoding="utf-8").splitlines()
    texts = [json.loads(line)["text"] for line in lines][: args.limit or None]
    embedder = Embedder(Settings().embedding.model, 0, "onnx")  # as index_bench.py's raw ONNX: all cores
    try:
        embedder.encode(texts[:64])  # load + warm
    except ModelError as exc:
        sys.exit(f"error: {exc}")
    policies = args.policies.split(",")
    rates: dict[str, list[float]] = {p: [] for p in policies}
    vecs: dict[str, np.ndarray] = {}
    for r in range(args.rounds):
        for policy in policies if r % 2 == 0 else policies[::-1]:
            rows, _, budget = policy.partition("/")
            onnx_run.TOKEN_BUDGET = int(budget) if budget else 10**9
            t0 = time.perf_counter()
            vecs[policy] = embedder.encode(texts, batch_size=int(rows))
            rates[policy].append(round(len(texts) / (time.perf_counter() - t0), 1))
            print(f"round {r + 1} {policy:>10}: {rates[policy][-1]} passages/s", flush=True)
    first = vecs[policies[0]]
    report = {
        p: {"passages_per_s": rates[p], "cosine_min_to_" + policies[0]: round(float((vecs[p] * first).sum(1).min()), 6)}
        for p in policies
    }
    print(json.dumps({"passages": len(texts), "policies": report}, indent=1))


if __name__ == "__main__":
    main()
