"""The questions whose kin word has two or more links ("Who is X's paternal grandfather?"),
asked through the whole pipeline as `drrag eval` asks them (CFS, k = 4, the embedded model),
one JSON line each: the question as asked, the answer, the reader, EM / F1 / accuracy, model calls.

    python benchmarks/kin_questions.py ../shared/data/2wiki/train500.2wiki.json [-c CONFIG] [--one-link]

docs/ANSWERS.md compares these lines before and after the `kin` reader (``answer.readers``).
``--one-link`` asks the one-link "Who is X's father?" questions the reader also reads instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from drrag_cli.asked import parse  # noqa: E402
from drrag_cli.config import load_settings  # noqa: E402
from drrag_cli.errors import DrragError  # noqa: E402
from drrag_cli.evaluate.datasets import load_dataset  # noqa: E402
from drrag_cli.evaluate.metrics import answer_scores  # noqa: E402
from drrag_cli.evaluate.runner import dataset_pipeline  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("questions")
    parser.add_argument("-c", "--config", default=None)
    parser.add_argument("--one-link", action="store_true")
    args = parser.parse_args()
    try:
        dataset = load_dataset(args.questions)
        pipeline, _ = dataset_pipeline(dataset, load_settings(args.config))
    except DrragError as exc:  # a missing or malformed file or config, a busy index: its one line, exit 1
        sys.exit(f"error: {exc}")
    for ex in dataset.examples:
        asked = parse(ex.question)
        one = len(asked.kin_path) == 1 and asked.wh == "who" and not (asked.options or asked.trait or asked.bridge)
        if not (one if args.one_link else len(asked.kin_path) >= 2):
            continue
        result = pipeline.ask(ex.question, "cfs", k=4)
        answer = result.answer
        print(json.dumps({"qid": ex.qid, "question": ex.question, "asked": answer.asked, "answer": answer.text,
                          "reader": answer.reader, "gold": ex.answers, "llm_calls": result.llm_calls,
                          **answer_scores(answer.text, ex.answers)}, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
