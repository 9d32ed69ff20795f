"""What the other fed documents cost the answer: CFS (k = 4) answers with the context as
retrieved, and again with it cut to its gold paragraphs (their order kept), over the
questions whose gold paragraphs were all fed. One JSON line per question, then the totals.

    python benchmarks/gold_context.py ../shared/data/hotpotqa/dev500.ircot.jsonl [--limit 100] > out.jsonl

Indexes the whole file's corpus as `drrag eval` does (the eval cache is reused).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    from drrag_cli.config import Settings
    from drrag_cli.evaluate.datasets import load_dataset
    from drrag_cli.evaluate.metrics import exact_match, f1_score
    from drrag_cli.evaluate.runner import dataset_pipeline
    from drrag_cli.index.paragraphs import key_of
    from drrag_cli.pipeline import Pipeline

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("questions")
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()
    dataset = load_dataset(args.questions)  # the whole corpus, as eval indexes it
    pipe, _ = dataset_pipeline(dataset, Settings())
    retrieve, gold = Pipeline._retrieve, set()

    def gold_only(self: Pipeline, *a: object, **kw: object) -> object:
        result = retrieve(self, *a, **kw)
        result.documents = [d for d in result.documents if key_of(d.passage.source) in gold]
        return result

    rows = []
    for ex in dataset.examples[: args.limit]:
        gold.clear()
        full = pipe.ask(ex.question, "cfs", k=4)
        if not set(ex.gold_keys) <= {key_of(p.source) for p in full.answer.passages}:
            continue
        gold.update(ex.gold_keys)
        Pipeline._retrieve = gold_only
        try:
            cut = pipe.ask(ex.question, "cfs", k=4)
        finally:
            Pipeline._retrieve = retrieve
        row = {"question": ex.question, "gold": ex.answers[0], "all": full.answer.text, "gold_only": cut.answer.text,
               "em_all": exact_match(full.answer.text, ex.answers), "em_gold": exact_match(cut.answer.text, ex.answers),
               "f1_all": f1_score(full.answer.text, ex.answers), "f1_gold": f1_score(cut.answer.text, ex.answers)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    total = {key: round(sum(r[key] for r in rows), 1) for key in ("em_all", "em_gold", "f1_all", "f1_gold")}
    print(json.dumps({"questions": len(rows), **total}))


if __name__ == "__main__":
    main()
