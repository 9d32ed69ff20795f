"""Where CFS loses a gold paragraph: a count per cause over an eval set (retrieval only).

For each question, each gold paragraph CFS did not feed is put in one bucket:

* ``no gold static``: neither static document is gold, and the gold paragraph is in no
  walk (the first stage missed both hops);
* ``rejected``: it was in a walk and the classifier scored it below the threshold (split
  by whether that walk's static document is gold: a pair with a non-gold static document
  is rightly negative for the classifier);
* ``slot taken``: its walk had already kept a candidate before it (``not needed``), or the
  context was full;
* ``not in walk``: a static document is gold but the paragraph is not among its candidates.

    .venv/bin/python benchmarks/cfs_misses.py ../shared/data/hotpotqa/dev500.ircot.jsonl --limit 250
    .venv/bin/python benchmarks/cfs_misses.py ../shared/data/musique/dev100.musique.json [-k 4] [-c CONFIG]

``--oracle`` replaces the classifier by a perfect one (1 when the walk's document and the
candidate are both gold, else 0) everywhere CFS asks it (walks, spares, third hops): the
recall CFS's structure allows at that k, whatever the classifier. Every other rule runs as
shipped, so a named hop the static document states is still kept first.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from drrag_cli.config import load_settings  # noqa: E402
from drrag_cli.errors import InputError  # noqa: E402
from drrag_cli.evaluate.datasets import load_dataset  # noqa: E402
from drrag_cli.evaluate.runner import dataset_pipeline  # noqa: E402
from drrag_cli.index.paragraphs import key_of  # noqa: E402


def bucket(gold_key: str, gold: set[str], trace: dict) -> str:
    """The cause of one missing gold paragraph (module docstring), from a CFS trace."""
    static_key = {s["passage_id"]: key_of(s["source"]) for s in trace["static"]}
    walked = trace.get("queries", [])
    static_key.update({w["from"]: key_of(w["source"]) for w in walked if w.get("spare")})  # retrieve/spare.py
    # a third hop's walk is "from" a kept dynamic document: gold as that document is
    hop_key = {c["passage_id"]: key_of(c["source"]) for walk in walked for c in walk["candidates"]}
    seen = []  # (is the walk's static document gold, decision) for each time it was offered
    for walk in walked:
        for c in walk["candidates"]:
            if key_of(c["source"]) == gold_key:
                seen.append((static_key.get(walk["from"], hop_key.get(walk["from"])) in gold, c["decision"]))
    if not seen:
        return "not in walk" if gold & set(static_key.values()) else "no gold static"
    gold_walk = [d for is_gold, d in seen if is_gold]
    decisions = gold_walk or [d for _, d in seen]
    where = "gold static" if gold_walk else "non-gold static"
    if "below threshold" in decisions:
        return f"rejected ({where})"
    return f"slot taken ({where})"


def cfs_parser(doc: str | None) -> argparse.ArgumentParser:
    """The options of a CFS replay over an eval set (this script, rewrites.py)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("-k", type=int, default=4)
    parser.add_argument("-c", "--config", default=None)
    return parser


def cfs_set(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """(the set cut to --limit, its pipeline, the CFS plan) for :func:`cfs_parser`'s options."""
    try:
        ds = load_dataset(args.dataset)  # the corpus is every question's paragraphs, as `drrag eval` indexes it
        pipeline, _ = dataset_pipeline(ds, load_settings(args.config))
    except InputError as exc:  # a missing or malformed file or config: its one line, exit 1
        sys.exit(f"error: {exc}")
    ds = dataclasses.replace(ds, examples=ds.examples[: args.limit])
    return ds, pipeline, pipeline.plan("cfs", use_config=False)


def perfect_classifier(gold: set[str]) -> None:
    """Make every CFS walk ask a perfect classifier: C = 1 when the walk's document and the
    candidate are both in ``gold`` (the caller sets it to each question's gold keys: the
    question a walk sees may be a rewrite of the one asked)."""
    from drrag_cli.retrieve import spare, strategies

    def predict_walks(ctx: Any, static_ids: list[int], owners: list, views: dict, qstar_vecs: list) -> list[float]:
        found = ctx.fetch([static_ids[i] for i, _ in owners] + [pid for _, pid in owners])
        return [float(key_of(found[static_ids[i]].source) in gold and key_of(found[pid].source) in gold)
                for i, pid in owners]

    strategies.predict_walks = spare.predict_walks = predict_walks


def main() -> None:
    parser = cfs_parser(__doc__)
    parser.add_argument("--oracle", action="store_true", help="a perfect classifier: CFS's ceiling at k")
    args = parser.parse_args()
    ds, pipeline, plan = cfs_set(args)
    gold: set[str] = set()
    if args.oracle:
        perfect_classifier(gold)
    counts: collections.Counter[str] = collections.Counter()
    total, recalls, docs = 0, [], []
    for ex in ds.examples:
        gold.clear()
        gold.update(ex.gold_keys)
        result = pipeline.retrieve(ex.question, plan, k=args.k)
        fed = {key_of(p.source) for p in result.passages}
        total += len(gold)
        recalls.append(len(gold & fed) / max(len(gold), 1))
        docs.append(len(result.passages))
        for key in sorted(gold - fed):
            counts[bucket(key, gold, result.trace)] += 1
    missing = sum(counts.values())
    print(json.dumps({"questions": len(ds.examples), "k": args.k, "oracle": args.oracle,
                      "recall": round(100 * sum(recalls) / max(len(recalls), 1), 1),
                      "docs": round(sum(docs) / max(len(docs), 1), 2), "gold": total, "fed": total - missing,
                      "missing": dict(counts.most_common())}, indent=1))


if __name__ == "__main__":
    main()
