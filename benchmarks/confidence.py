"""How well `"confidence"` (the lowest probability of a token the model wrote) tells a right
free answer from a wrong one, from `drrag eval` records.

    python benchmarks/confidence.py benchmarks/out/s28/h_conf/per_question.jsonl [more.jsonl ...]

Prints, over the answers that have a confidence (free answers, not grammar picks or
answers decided in code): how many are right, the ROC AUC of confidence for "right", and
for a few thresholds how many supported answers fall under it and how many of those are
right. Reads the files only: no model, no index.
"""

from __future__ import annotations

import json
import sys


def auc(pos: list[float], neg: list[float]) -> float:
    """P(a right answer's confidence > a wrong one's), ties half (the Mann-Whitney U)."""
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def main(paths: list[str]) -> None:
    rows = [json.loads(line) for path in paths for line in open(path, encoding="utf-8") if line.strip()]
    free = [r for r in rows if r.get("confidence") is not None]
    right = [r["confidence"] for r in free if r["acc"] > 0]
    wrong = [r["confidence"] for r in free if not r["acc"]]
    print(f"records {len(rows)}, free answers {len(free)}, right {len(right)}, AUC {auc(right, wrong):.3f}")
    supported = [r for r in free if r["supported"]]
    print(f"supported free answers {len(supported)}, right {sum(r['acc'] > 0 for r in supported)}")
    for threshold in (0.1, 0.15, 0.2, 0.25, 0.3):
        low = [r for r in supported if r["confidence"] < threshold]
        print(f"  under {threshold:.2f}: {len(low)} supported answers, {sum(r['acc'] > 0 for r in low)} of them right")


if __name__ == "__main__":
    main(sys.argv[1:])
