"""Chunking speed on a large Markdown table (in-process, one run each).

A synthetic table of ``--rows`` rows (120,000 rows is 6.1 MB) is chunked by
`drrag_cli.ingest.chunking.chunk_document`; with ``--ref REV`` the same text is also chunked
by that git revision's `drrag_cli/ingest/chunking.py` (read with `git show`, loaded as a
module), so a change to the chunker can be timed against the code before it.

    python benchmarks/chunk_bench.py [--rows 120000] [--ref 8c0721a]
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def table(rows: int) -> str:
    lines = ["| a | b | c |", "|---|---|---|"]
    lines += [f"| r{i} | {i} | some words here for row {i} |" for i in range(rows)]
    return "\n".join(lines)


def module_at(ref: str) -> object:
    """The chunking module as it was at git revision ``ref``."""
    source = subprocess.run(
        ["git", "-C", str(REPO), "show", f"{ref}:drrag_cli/ingest/chunking.py"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    path = Path(tempfile.mkdtemp()) / f"chunking_{ref}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=120_000)
    ap.add_argument("--ref", default="", help="also time this git revision's chunker")
    args = ap.parse_args()
    from drrag_cli.ingest import chunking
    from drrag_cli.types import Document

    text = table(args.rows)
    print(f"{len(text) / 1e6:.1f} MB Markdown table, {args.rows} rows; python {sys.version.split()[0]}")
    versions = [(f"at {args.ref}", module_at(args.ref))] if args.ref else []
    for label, module in [*versions, ("this checkout", chunking)]:
        start = time.perf_counter()
        passages = module.chunk_document(Document("t.md", "t", text, first_line=1), 100)  # type: ignore[attr-defined]
        print(f"{label:<16} {len(passages):>6} passages  {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
