"""Answer-stage ablation: CFS (k = 4) contexts answered by the embedded model with the
choice/yes-no grammar and the supported-part cut each switched off (one-call questions).

    python benchmarks/answer_ablation.py ../shared/data/musique/dev100.musique.json [--limit 100]

Prints EM / F1 for: now (both on), nocut, nogrammar, neither.
"""

from __future__ import annotations

import argparse


def main() -> None:
    import drrag_cli.answer.answer as answer_module
    from drrag_cli.answer import prompts
    from drrag_cli.config import Settings
    from drrag_cli.evaluate.datasets import load_dataset
    from drrag_cli.evaluate.metrics import exact_match, f1_score
    from drrag_cli.evaluate.runner import dataset_pipeline

    parser = argparse.ArgumentParser()
    parser.add_argument("questions")
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()
    dataset = load_dataset(args.questions, limit=args.limit)
    pipe, _ = dataset_pipeline(dataset, Settings())
    cut = answer_module.supported_part
    variants = {
        "now": (prompts.DEFAULT_STYLE, cut),
        "nocut": (prompts.DEFAULT_STYLE, lambda text, _texts: text),
        "nogrammar": (prompts.PromptStyle(constrain=False), cut),
        "neither": (prompts.PromptStyle(constrain=False), lambda text, _texts: text),
    }
    totals = {name: [0.0, 0.0] for name in variants}
    for ex in dataset.examples:
        retrieval = pipe.retrieve(ex.question, "cfs", k=4)
        for name, (style, cutter) in variants.items():
            answer_module.supported_part = cutter
            text = answer_module.generate_answer(pipe.generator, ex.question, retrieval.passages, style=style).text
            totals[name][0] += exact_match(text, ex.answers)
            totals[name][1] += f1_score(text, ex.answers)
    answer_module.supported_part = cut
    n = len(dataset.examples)
    for name, (em, f1) in totals.items():
        print(f"{name:<10} EM {100 * em / n:.1f} F1 {100 * f1 / n:.1f}")


if __name__ == "__main__":
    main()
