"""Write drrag_cli/evaluate/probes.json: what `drrag models recommend` asks each model.

The 12 sample_corpus/QUESTIONS.md questions, each with the passages CFS (k = 4) feeds the
answer stage over the sample corpus, as `drrag ask` would: a model is then measured on the
answer stage alone (the same prompt, no reader), with no index at hand.

    python benchmarks/make_probes.py [--index .drrag]    # the sample corpus's index
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))


def main() -> None:
    from sample_questions import parse_questions

    from drrag_cli.config import Settings
    from drrag_cli.pipeline import Pipeline

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--index", default=str(REPO / ".drrag"))
    args = ap.parse_args()
    pipeline = Pipeline(Settings().replace({"index.path": args.index}))
    probes = []
    for q in parse_questions(REPO / "sample_corpus" / "QUESTIONS.md"):
        passages = pipeline.retrieve(q["question"], "cfs", k=4).passages
        probes.append({"question": q["question"], "answer": q["answer"],
                       "passages": [{"title": p.title, "text": p.text} for p in passages]})
    out = REPO / "drrag_cli" / "evaluate" / "probes.json"
    out.write_text(json.dumps(probes, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(probes)} probes to {out}")


if __name__ == "__main__":
    main()
