"""Hostile input, all of it (issue 13): counts of what went wrong, never timings.

Four parts, each a module beside this one with ``run(work) -> [check rows]``:

* ``queries``   1,000 hostile queries (invalid bytes, parser syntax, 100 KB, RTL, emoji,
  combining marks, whitespace) through ``search --mode bm25|hybrid --json`` and ``ask``;
* ``files``     a bad-files corpus (binary, UTF-16, latin-1, empty, corrupt PDF, 40 MB
  text, symlink loop, malformed JSONL lines) through ``drrag index``;
* ``crashes``   20 SIGKILLs during ``drrag index`` and a full disk, then the next run;
* ``injection`` 10 hostile notes x 3 questions through ``drrag ask``'s pipeline.

A check passes when its count is at most its limit. The exit code is 1 when any fails.

    python benchmarks/hostile.py                       # everything (~25 min on 2 cores)
    python benchmarks/hostile.py injection queries     # some parts
    python benchmarks/hostile.py --out docs/HOSTILE.md # also write the table there
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PARTS = ("queries", "files", "crashes", "injection")


def print_checks(checks: list[dict], start: float) -> None:
    """What each part prints when run on its own: a verdict line per check, then seconds."""
    for c in checks:
        verdict = "ok" if c["count"] <= c["limit"] else "FAIL"
        print(f"{verdict:<4} {c['check']}: {c['count']} (limit {c['limit']}) {c['detail']}")
    print(f"{time.perf_counter() - start:.0f} s")


INTRO = """Rendered by `{command}` ({seconds:.0f} s on 2 cores). Counts only; a check passes when its
count is at most its limit. The injection fixture is `tests/answer/hostile/` (10 notes written
without seeing the defences, 3 questions over `sample_corpus/`)."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("parts", nargs="*", help=f"parts to run: {', '.join(PARTS)} (default: all)")
    parser.add_argument("--out", type=Path, help="also write the result table (Markdown) to this file")
    args = parser.parse_args()
    unknown = [p for p in args.parts if p not in PARTS]
    if unknown:
        parser.error(f"unknown part(s) {', '.join(unknown)}; choose from {', '.join(PARTS)}")
    sys.path.insert(0, str(HERE))
    rows: list[tuple[str, dict]] = []
    seconds: dict[str, float] = {}
    for part in args.parts or PARTS:
        module = importlib.import_module(f"hostile_{part}")
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix=f"drrag-hostile-{part}-") as tmp:
            rows += [(part, row) for row in module.run(Path(tmp))]
        seconds[part] = time.perf_counter() - start
        print(f"-- {part}: {seconds[part]:.0f} s", flush=True)
    lines = ["| part | check | count | limit | verdict | detail |", "|---|---|---:|---:|---|---|"]
    for part, row in rows:
        verdict = "ok" if row["count"] <= row["limit"] else "**FAIL**"
        lines.append(f"| {part} | {row['check']} | {row['count']} | {row['limit']} | {verdict} | {row['detail']} |")
    table = "\n".join(lines)
    print(table)
    if args.out:
        command = " ".join(["python benchmarks/hostile.py", *args.parts, "--out", str(args.out)])
        total = sum(seconds.values())
        args.out.write_text(f"# Hostile input\n\n{INTRO.format(command=command, seconds=total)}\n\n{table}\n",
                            encoding="utf-8")
    return 0 if all(row["count"] <= row["limit"] for _, row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
