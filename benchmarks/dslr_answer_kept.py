"""Is the gold answer string still in the fed text after DSLR? (docs/BENCHMARKS.md, DSLR floor)

    .venv/bin/python benchmarks/dslr_answer_kept.py ../shared/data/hotpotqa/dev500.ircot.jsonl 100 1

Arguments: dataset, number of questions, refine.min_sentences. cfs k = 4, threshold 0.5,
retrieval only; questions with a yes/no answer are skipped.
"""

from __future__ import annotations

import sys

from drrag_cli.config import Settings
from drrag_cli.evaluate.datasets import load_dataset
from drrag_cli.evaluate.runner import dataset_pipeline
from drrag_cli.text.words import normalize_answer


def main() -> None:
    path, n, floor = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    ds = load_dataset(path)
    s = Settings().replace({"embedding.threads": 1, "refine.min_sentences": floor})
    pipe, _passages = dataset_pipeline(ds, s)
    before = after = 0
    for ex in ds.examples[:n]:
        golds = [normalize_answer(a) for a in ex.answers if normalize_answer(a) not in ("yes", "no")]
        if not golds:
            continue
        r = pipe.retrieve(ex.question, "cfs+dslr")
        orig = normalize_answer(" ".join(d.passage.text for d in r.documents))
        fed = normalize_answer(" ".join(p.text for p in r.passages))
        before += any(g in orig for g in golds)
        after += any(g in fed for g in golds)
    print(f"{path.split('/')[-1]} {n} q, min_sentences {floor}: answer string in fed text {before} -> {after}")


if __name__ == "__main__":
    main()
