"""Answer-sentence retention of DSLR variants (threshold, per-passage floor), tuning half.

    .venv/bin/python benchmarks/dslr_floor_scan.py ../shared/data/hotpotqa/dev500.ircot.jsonl 400 100

Scores every sentence of the cfs k = 4 passages against the question (and question + title)
and counts the questions whose answer-bearing sentence survives. Uses gold answers: run it
on the tuning half only.
"""
import sys

import numpy as np

from drrag_cli.config import Settings
from drrag_cli.evaluate.datasets import load_dataset
from drrag_cli.evaluate.runner import dataset_pipeline
from drrag_cli.refine.dslr import split_sentences
from drrag_cli.text.words import normalize_answer

path, off, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ds = load_dataset(path)
p, _passages = dataset_pipeline(ds, Settings().replace({"embedding.threads": 1}))
emb = p.index.embed
rows = []
for ex in ds.examples[off:off+n]:
    golds = [normalize_answer(a) for a in ex.answers if normalize_answer(a) not in ("yes", "no")]
    if not golds:
        continue
    r = p.retrieve(ex.question, "cfs")
    ps = r.passages
    sents = [split_sentences(x.text) or [x.text] for x in ps]
    flat = [t for ss in sents for t in ss]
    v = emb([ex.question] + flat + [f"{ex.question} {x.title}" for x in ps])
    q, sv = v[0], v[1 : 1 + len(flat)]
    qs = sv @ q
    # q + title per passage
    qt = v[1+len(flat):]
    owner = [i for i, ss in enumerate(sents) for _ in ss]
    qts = np.array([sv[j] @ qt[owner[j]] for j in range(len(flat))])
    has = [any(g in normalize_answer(t) for g in golds) for t in flat]
    rows.append((owner, qs, qts, has, len(ps)))
def keep(scores, owner, thr, topm):
    kept = set(i for i, sc in enumerate(scores) if sc >= thr)
    for pi in set(owner):
        idx = sorted([i for i in range(len(scores)) if owner[i] == pi], key=lambda i: -scores[i])[:topm]
        kept |= set(idx)
    return kept
for name, which in (("q", 1), ("q+title", 2)):
    for thr in (0.3, 0.4, 0.5):
        for topm in (1, 2):
            ok = tot = ksum = nsum = 0
            for row in rows:
                owner, has, sc = row[0], row[3], row[which]
                if not any(has):
                    continue
                k = keep(sc, owner, thr, topm)
                ok, tot = ok + any(has[i] for i in k), tot + 1
                ksum, nsum = ksum + len(k), nsum + len(has)
            print(f"{name:8} thr {thr} top{topm}: answer kept {ok}/{tot}  sentences kept {ksum}/{nsum}")
