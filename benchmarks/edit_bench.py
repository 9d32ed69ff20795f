"""What one edited note costs `drrag index` on a large vault, and whether the result equals a whole build (#58).

The vault: every paragraph of the shared QA sets (HotpotQA dev500, MuSiQue dev100, 2Wiki dev182)
as one Markdown note per title (`benchmarks/kb_bench.py`'s notes): 7,618 notes, 9,570 passages.
It is built once with `drrag index` (timed). Then, as whole processes, as a user runs them:

* *nothing changed*: `drrag index` again, ``--rounds`` times;
* *one note edited*: a sentence with a fresh token appended to one note (a different one each
  round), then `drrag index`, ``--rounds`` times; wall time, the build's own seconds from its
  JSON, and peak RSS (``/usr/bin/time -v``);
* *equal to a whole build*: the edited vault indexed again with ``--rebuild`` into another folder
  (its embedding cache copied first, so both hold the same vectors), and ``--queries`` questions
  of the shared sets searched in both (BM25, dense, hybrid top 10): how many top-10 lists are
  identical by (note, passage text), and their mean overlap; and each index's dense top 10
  against the exact one (cosine over every vector), which both HNSWs approximate.

    .venv/bin/python benchmarks/edit_bench.py [--rounds 7] [--queries 200] [--out benchmarks/out/edit]
    .venv/bin/python benchmarks/edit_bench.py --synthetic 100000 --out benchmarks/out/edit-100k

``--synthetic N`` makes the vault of N one-passage text notes instead (`benchmarks/scale_bench.py`'s
perturbed paragraphs, cut to 80 words) and fills the embedding cache with random unit vectors
for them, so that the first build embeds nothing (an edited note is embedded for real). Short
notes need no sentence splitter, so these runs leave out spaCy's import (about 1.1 s), which a
changed note with a heading or more than one passage costs.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))


def drrag(*args: str) -> list[str]:
    return [sys.executable, "-P", "-m", "drrag_cli.cli.main", *args]


def run_index(notes: Path, ix: Path, *extra: str) -> dict:
    """One `drrag index` process: its JSON report, wall seconds and peak RSS (MB)."""
    start = time.perf_counter()
    run = subprocess.run(["/usr/bin/time", "-v", *drrag("index", str(notes), "--index", str(ix), "--json", *extra)],
                         capture_output=True, text=True)
    wall = time.perf_counter() - start
    if run.returncode != 0:
        sys.exit(f"drrag index failed:\n{run.stderr[-2000:]}")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
    report = json.loads(run.stdout)
    return {"wall_s": round(wall, 3), "build_s": report["seconds"], "rss_mb": round(int(rss.group(1)) / 1024) if rss
            else None, "updated": report["files"]["updated"], "embedded": report["passages_embedded"],
            "passages": report["passages_total"]}


def vault(out: Path) -> Path:
    import kb_bench

    questions = kb_bench.load("hotpotqa") + kb_bench.load("musique") + kb_bench.load("2wiki")
    files, _names = kb_bench.build_notes(questions)
    notes = out / "notes"
    kb_bench.sync_notes(notes, files)
    return notes


def synthetic_vault(out: Path, n: int) -> Path:
    """``n`` one-passage notes and, for each, a random vector in the index's embedding cache."""
    import numpy as np
    import scale_bench

    from drrag_cli.config import Settings
    from drrag_cli.index.embedder import passage_embed_text
    from drrag_cli.index.vectors import VectorCache, content_hash
    from drrag_cli.ingest.chunking import chunk_document
    from drrag_cli.ingest.loaders import load_bytes

    notes = out / "notes"
    notes.mkdir(parents=True, exist_ok=True)
    corpus, hashes = scale_bench.Corpus(), []
    for i in range(n):
        path = notes / f"note-{i:07d}.txt"
        if not path.exists():
            title, text = corpus.passage(i)
            path.write_text(f"{title}: {' '.join(text.split()[:80])}\n", encoding="utf-8")
        for doc in load_bytes(path, path.read_bytes()).documents:
            hashes += [content_hash(passage_embed_text(p.title, p.text)) for p in chunk_document(doc, 100)]
    (out / "ix").mkdir(parents=True, exist_ok=True)
    cache = VectorCache(out / "ix" / "vectors.sqlite", _model_id(Settings().embedding.model), 384)
    try:
        rng = np.random.default_rng(0)
        for start in range(0, len(hashes), 5000):
            chunk = hashes[start : start + 5000]
            vecs = rng.standard_normal((len(chunk), 384), dtype=np.float32)
            cache.put(chunk, vecs / np.linalg.norm(vecs, axis=1, keepdims=True))
    finally:
        cache.close()
    return notes


def _model_id(model: str) -> str:
    from drrag_cli.index.embedder import Embedder

    return Embedder(model).model_id


def queries(n: int) -> list[str]:
    import kb_bench

    return [q["question"] for q in kb_bench.load("hotpotqa")][:n]


def top10(settings_path: Path, texts: list[str]) -> dict[str, list[list[tuple[str, str]]]]:
    from drrag_cli.config import Settings
    from drrag_cli.index.api import Index

    index = Index.open(Settings().replace({"index.path": str(settings_path)}))
    vecs = index.embed(texts)
    out: dict[str, list[list[tuple[str, str]]]] = {"bm25": [], "dense": [], "hybrid": []}
    for text, vec in zip(texts, vecs, strict=True):
        for mode in out:
            ranked = index.ranked(text, mode, 10, vec)
            found = index.passages([pid for pid, _ in ranked])
            out[mode].append([(Path(found[pid].source).name, found[pid].text) for pid, _ in ranked])
    return out


def exact_dense(settings_path: Path, texts: list[str]) -> list[list[tuple[str, str]]]:
    """The true dense top 10 (cosine over every vector, no graph): what both HNSWs approximate."""
    import numpy as np

    from drrag_cli.config import Settings
    from drrag_cli.index.api import Index

    index = Index.open(Settings().replace({"index.path": str(settings_path)}))
    ids = [row[0] for row in index.store.all_passages()]
    vecs = index.vectors(ids)
    vecs = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    out = []
    for q in index.embed(texts):
        best = np.argsort(-(vecs @ (q / np.linalg.norm(q))))[:10]
        found = index.passages([ids[i] for i in best])
        out.append([(Path(found[ids[i]].source).name, found[ids[i]].text) for i in best])
    return out


def compare(a: dict, b: dict) -> dict:
    rows = {}
    for mode in a:
        same = sum(x == y for x, y in zip(a[mode], b[mode], strict=True))
        overlap = statistics.mean(len(set(x) & set(y)) / max(len(y), 1) for x, y in zip(a[mode], b[mode], strict=True))
        rows[mode] = {"identical": same, "of": len(a[mode]), "overlap_at_10": round(overlap, 4)}
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--synthetic", type=int, default=0, help="N one-passage notes with random vectors")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out" / "edit")
    args = parser.parse_args()

    notes = synthetic_vault(args.out, args.synthetic) if args.synthetic else vault(args.out)
    ix, whole = args.out / "ix", args.out / "ix-whole"
    first = run_index(notes, ix, "--rebuild")
    print(f"whole build: {first}", flush=True)
    results: dict = {"vault": {"notes": sum(1 for _ in notes.iterdir()), "passages": first["passages"]},
                     "whole_build": first}
    results["unchanged"] = [run_index(notes, ix) for _ in range(args.rounds)]
    edits = []
    files = sorted(p for p in notes.iterdir() if p.is_file())
    for i, note in enumerate(files[:: max(1, len(files) // args.rounds)][: args.rounds]):
        edited = note.read_text(encoding="utf-8") + f"\nEdited in round {i}: token zqedit{i}.\n"
        note.write_text(edited, encoding="utf-8")
        edits.append(run_index(notes, ix))
        print(f"edit {i}: {edits[-1]}", flush=True)
    results["one_note_edit"] = edits
    whole.mkdir(parents=True, exist_ok=True)  # the same vectors: the indexes are compared, not the embedder
    shutil.copy2(ix / "vectors.sqlite", whole / "vectors.sqlite")
    results["rebuilt_for_comparison"] = run_index(notes, whole, "--rebuild")
    texts = queries(args.queries)
    changed, rebuilt = top10(ix, texts), top10(whole, texts)
    results["equal_to_whole_build"] = compare(changed, rebuilt)
    exact = {"dense": exact_dense(whole, texts)}
    results["dense_against_exact"] = {"changed": compare({"dense": changed["dense"]}, exact)["dense"],
                                      "whole": compare({"dense": rebuilt["dense"]}, exact)["dense"]}
    for key in ("unchanged", "one_note_edit"):
        runs = results[key]
        results[f"{key}_median"] = {k: statistics.median(r[k] for r in runs) for k in ("wall_s", "build_s", "rss_mb")}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps({k: v for k, v in results.items() if not isinstance(v, list)}, indent=2))


if __name__ == "__main__":
    main()
