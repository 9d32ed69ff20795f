"""What reading a Markdown note's front matter costs (ingest.loaders.load_bytes).

Loads 2,000 generated notes with an Obsidian-style front matter, with or without an
`aliases` line, and prints the best of five runs per note. Indexing is dominated by
embedding (~35 passages/s on 2 cores), so this is the part of `drrag index` that reading
aliases adds.

    .venv/bin/python benchmarks/front_matter_cost.py            # both kinds of note
    PYTHONPATH=<older copy of the package> .venv/bin/python benchmarks/front_matter_cost.py
"""

from __future__ import annotations

import time
from pathlib import Path

from drrag_cli.ingest.loaders import load_bytes  # the installed package, or PYTHONPATH's copy

NOTES, RUNS = 2000, 5
BODY = "# Note {i}\n\n" + "Some text about the garden club and its members. " * 20 + "\n"


def per_note_ms(aliases: bool) -> float:
    line = "aliases: [N{i}, Note number {i}]\n" if aliases else ""
    note = "---\ntitle: Note {i}\n" + line + "tags: [people, garden]\ncreated: 2024-03-02\n---\n" + BODY
    data = [(Path(f"n{i}.md"), note.format(i=i).encode()) for i in range(NOTES)]
    best = float("inf")
    for _ in range(RUNS):
        t0 = time.perf_counter()
        for path, raw in data:
            load_bytes(path, raw)
        best = min(best, time.perf_counter() - t0)
    return best * 1000 / NOTES


if __name__ == "__main__":
    for aliases in (False, True):
        print(f"front matter {'with' if aliases else 'without'} aliases: {per_note_ms(aliases):.3f} ms per note")
