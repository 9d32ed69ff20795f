"""What the link graph adds to `drrag index`: time `Store.write_links()` (the "finding links"
phase) on a copy of an existing index's store, next to that index's total build time.

    python benchmarks/links_cost.py INDEX_DIR [--repeat 3]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path


def main() -> None:
    from drrag_cli.index.store import PassageStore

    parser = argparse.ArgumentParser()
    parser.add_argument("index", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    live = args.index / (args.index / "CURRENT").read_text().strip() / "store.sqlite"
    times, links = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "store.sqlite"
        shutil.copy(live, copy)
        store = PassageStore(copy)
        passages = store.conn.execute("SELECT COUNT(*) FROM passages").fetchone()[0]
        documents = store.conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            links = store.write_links()
            store.commit()
            times.append(time.perf_counter() - t0)
    print(f"{documents} documents, {passages} passages, {links} links: write_links "
          f"median {statistics.median(times):.2f} s (min {min(times):.2f}, max {max(times):.2f}, n={len(times)})")


if __name__ == "__main__":
    main()
