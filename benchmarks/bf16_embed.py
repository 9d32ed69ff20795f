"""Index-batch embedding in bfloat16 (drrag_cli/index/bf16.py) against float32, side by side.

The first --n distinct HotpotQA dev500 passages (title + text, as `drrag index` embeds them),
in one process, all cores, each embedder --rounds times in turn (the best round counts):
sentence-transformers in float32 (the raw baseline of benchmarks/index_bench.py), the verified
ONNX export, and the bfloat16 encoder at each --batches size. Prints passages/s, the ratio to
sentence-transformers, the lowest and mean cosine to its vectors, and peak RSS.

    python benchmarks/bf16_embed.py [--n 1200] [--rounds 2] [--batches 16,32,64]

Needs a CPU with AMX-BF16 or AVX-512 BF16 (the encoder is None elsewhere) and the export (`drrag index` makes it).
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "hotpotqa" / "dev500.ircot.jsonl"


def passages(n: int) -> list[str]:
    from drrag_cli.index.embedder import passage_embed_text

    seen: dict[str, None] = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        for c in json.loads(line)["contexts"]:
            seen.setdefault(passage_embed_text(c["title"], c["paragraph_text"]), None)
    return sorted(list(seen)[:n], key=len, reverse=True)  # longest first, as `drrag index` sends them


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1200)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--batches", default="16,32,64")
    args = ap.parse_args()
    from drrag_cli.index import bf16
    from drrag_cli.index.embedder import DEFAULT_MODEL, Embedder

    texts = passages(args.n)
    torch_fp32, auto = Embedder(DEFAULT_MODEL, 0, "torch"), Embedder(DEFAULT_MODEL, 0, "auto")
    export, cores = auto._onnx_model(), auto._threads_for(len(texts))
    runs = {"sentence-transformers fp32": lambda t: torch_fp32.encode(t, batch_size=32),
            "ONNX export fp32": lambda t: auto.encode(t, batch_size=32)}  # fmt: skip
    for size in (int(b) for b in args.batches.split(",")):
        bf16.BATCH = size
        encode = bf16.encoder(auto.path, export, cores)
        if encode is None:
            raise SystemExit(
                "no bfloat16 encoder here (a CPU without bfloat16, or no verified export: `drrag index` makes it)"
            )
        runs[f"bfloat16, batch {size}"] = lambda t, size=size, encode=encode: _at(bf16, size, encode, t)
    best: dict[str, float] = {}
    vectors = {}
    for _ in range(args.rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            vectors[name] = run(texts)
            best[name] = min(best.get(name, float("inf")), time.perf_counter() - start)
    base = vectors["sentence-transformers fp32"]
    rate_st = len(texts) / best["sentence-transformers fp32"]
    print(f"{len(texts)} passages, {cores} threads, best of {args.rounds}\n")
    print("| embedder | passages/s | × sentence-transformers | cosine min / mean |\n|---|---|---|---|")
    for name in runs:
        cos = (vectors[name] * base).sum(axis=1)
        rate = len(texts) / best[name]
        print(f"| {name} | {rate:.1f} | {rate / rate_st:.2f} | {cos.min():.6f} / {cos.mean():.6f} |")
    print(f"\npeak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def _at(module, size: int, encode, texts: list[str]):  # noqa: ANN001, ANN202
    module.BATCH = size
    return encode(texts)


if __name__ == "__main__":
    main()
