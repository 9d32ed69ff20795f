"""Warm search over 5 collections together vs one of them (issue 16 target: p50 ≤ 1.5×).

Five folders of the sample corpus become five collections in a temporary data dir
(XDG_DATA_HOME; your own collections are not touched). Each query is searched warm
(models loaded, one untimed round first), in-process, through the same objects the CLI
uses: `Registry.open(names)` → `search(query, mode, k)`. Reported per mode: p50 and p90
in ms of the five together, of the largest one alone, and of one plain index of all five
folders (what the fusion costs over a single index).

    python benchmarks/collections_bench.py [--repeats 5] [--modes hybrid,bm25] [-k 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FOLDERS = ("notes", "papers", "people", "projects", "wiki")
QUERIES = (
    "who leads project heron",
    "In which city was the lead engineer of Project Heron born?",
    "budget approval steering board",
    "turbidity sensor calibration",
    "bird migration radar sponsor",
    "observatory telescope mirror",
    "what did the year review decide",
    "retrieval augmented generation multi-hop",
)


def timed(search, repeats: int) -> list[float]:  # noqa: ANN001 - a bound search method
    for q in QUERIES:  # warm: models, caches, mmaps
        search(q)
    out = []
    for _ in range(repeats):
        for q in QUERIES:
            t0 = time.perf_counter()
            search(q)
            out.append((time.perf_counter() - t0) * 1000)
    return out


def stats(ms: list[float]) -> str:
    p90 = statistics.quantiles(ms, n=10)[-1]
    return f"p50 {statistics.median(ms):6.2f} ms  p90 {p90:6.2f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--modes", default="hybrid,bm25")
    ap.add_argument("-k", type=int, default=5)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="drrag-coll-bench-"))
    os.environ["XDG_DATA_HOME"] = str(tmp / "data")
    from drrag_cli.collections import Registry
    from drrag_cli.config import Settings
    from drrag_cli.index.api import Index

    settings = Settings().replace({"index.path": str(tmp / "all")})
    reg = Registry()
    sizes = {}
    for name in FOLDERS:
        sizes[name] = reg.add(name, [str(REPO / "sample_corpus" / name)], settings).passages_total
    Index.build([str(REPO / "sample_corpus" / n) for n in FOLDERS], settings)
    largest = max(sizes, key=lambda n: sizes[n])
    print(f"collections (passages): {sizes}; one = {largest}; python {sys.version.split()[0]}")
    together, one, single = reg.open(list(FOLDERS), settings), reg.open([largest], settings), Index.open(settings)
    for mode in args.modes.split(","):
        rows = {}
        for label, ix in (("5 together", together), (f"one ({largest})", one), ("one index of all 5", single)):
            rows[label] = timed(lambda q, ix=ix, mode=mode: ix.search(q, mode=mode, k=args.k), args.repeats)
            print(f"{mode:<7} {label:<22} {stats(rows[label])}")
        ratio = statistics.median(rows["5 together"]) / statistics.median(rows[f"one ({largest})"])
        print(f"{mode:<7} 5 together / one: {ratio:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()
