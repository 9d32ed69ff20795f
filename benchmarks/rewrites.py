"""Which questions `answer.mode: decompose` asks about the bridge by name, and how.

Retrieval only (no model): each question is retrieved as `drrag ask -s cfs -k 4` does, and
the rewrite the answer stage would make (:func:`drrag_cli.answer.hop.decompose.bridged`) is
printed beside the question, so a rule can be checked over a whole set in a minute
instead of a model-answered eval.

    .venv/bin/python benchmarks/rewrites.py ../shared/data/musique/dev100.musique.json
    .venv/bin/python benchmarks/rewrites.py ../shared/data/hotpotqa/dev500.ircot.jsonl --limit 100 [--json FILE]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cfs_misses import cfs_parser, cfs_set  # noqa: E402  (this folder: the same CFS replay setup)

from drrag_cli.answer.hop.decompose import bridged  # noqa: E402


def main() -> None:
    parser = cfs_parser(__doc__)
    parser.add_argument("--json", default=None, help="also write {qid: rewrite} here")
    args = parser.parse_args()
    ds, pipeline, plan = cfs_set(args)
    rewrites = {}
    for ex in ds.examples:
        found = bridged(ex.question, pipeline.retrieve(ex.question, plan, k=args.k).documents)
        if found:
            rewrites[ex.qid] = found[0]
            print(f"{ex.question}\n  -> {found[0]}   [bridge: {found[1].entity}; gold: {ex.answers[0]}]")
    print(f"{len(rewrites)} of {len(ds.examples)} questions rewritten")
    if args.json:
        Path(args.json).write_text(json.dumps(rewrites, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
