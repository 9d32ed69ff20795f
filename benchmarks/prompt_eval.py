"""Measure answer-prompt variants with the local GGUF on HotpotQA dev questions.

Reader-only evaluation (no retrieval): each question gets its gold paragraphs, or its
gold paragraphs plus two distractors shuffled deterministically, and one
``generate_answer`` call per prompt variant (the production path, n_ctx trimming
included). Reports EM / F1 (SQuAD normalisation) and seconds per question.

    .venv/bin/python benchmarks/prompt_eval.py                      # dev500 q 0..39
    .venv/bin/python benchmarks/prompt_eval.py --subset yesno -n 20 # yes/no questions only

Results: a table on stdout, per-question predictions in benchmarks/out/.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import string
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from drrag_cli.answer import prompts  # noqa: E402
from drrag_cli.answer.answer import generate_answer  # noqa: E402
from drrag_cli.config import LLMSettings  # noqa: E402
from drrag_cli.llm.llm import LocalLLM  # noqa: E402
from drrag_cli.types import Passage  # noqa: E402

DEV = Path("/work/shared/data/hotpotqa/dev500.ircot.jsonl")
OUT = Path(__file__).resolve().parent / "out"

TABLE9 = (
    "You are a reading comprehension expert, and you need to complete a reading "
    "comprehension task. After reading the documents, answer the question directly "
    "with a short answer."
)
P = prompts


def _with_distractor(ex: prompts.Example, title: str, text: str) -> prompts.Example:
    """The example with an irrelevant document put first, as retrieval often does."""
    return prompts.Example(((title, text), *ex.docs), ex.question, ex.answer)


NUMBER_D = _with_distractor(P.NUMBER, "Ballina", "Ballina is a coastal town in northern New South Wales.")
BRIDGE_D = _with_distractor(P.BRIDGE, "Burgmann College", "Burgmann College is a residential college opened in 1971.")
S = prompts.PromptStyle
VARIANTS: dict[str, prompts.PromptStyle] = {
    "zs-table9": S(TABLE9, ()),
    "zs": S(P.INSTRUCTION, ()),
    "fs2": S(P.INSTRUCTION, (P.NO, P.BRIDGE)),
    "fs3": S(P.INSTRUCTION, (P.YES, P.NO, P.BRIDGE)),
    "fs4": S(P.INSTRUCTION, (P.YES, P.NO, P.WHICH, P.BRIDGE)),
    "fs4-rev": S(P.INSTRUCTION, (P.BRIDGE, P.WHICH, P.NO, P.YES)),
    "fs4-table9": S(TABLE9, (P.YES, P.NO, P.WHICH, P.BRIDGE)),
    "fs5": S(P.INSTRUCTION, (P.YES, P.NO, P.WHICH, P.NUMBER, P.BRIDGE)),
    "fs5-d": S(P.INSTRUCTION, (P.YES, P.NO, P.WHICH, NUMBER_D, BRIDGE_D)),
    "inv3": S(P.INSTRUCTION, (P.YES, P.NO, P.COMPOSE)),
    "inv4": S(P.INSTRUCTION, (P.YES, P.NO, P.COMPARE, P.COMPOSE)),
    "inv5": S(P.INSTRUCTION, (P.YES, P.NO, P.COMPARE, P.UNKNOWN, P.COMPOSE)),
}


def normalize(text: str) -> str:
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def f1(pred: str, gold: str) -> float:
    p, g = normalize(pred).split(), normalize(gold).split()
    common = sum((collections.Counter(p) & collections.Counter(g)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def load(n: int, subset: str) -> list[dict]:
    rows = []
    with DEV.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            spans = row["answers_objects"][0]["spans"]
            if subset == "yesno" and normalize(spans[0]) not in ("yes", "no"):
                continue
            rows.append(row)
            if len(rows) == n:
                break
    return rows


def contexts(row: dict, setting: str) -> list[Passage]:
    gold = [c for c in row["contexts"] if c["is_supporting"]]
    picked = gold
    if setting == "distract":
        rng = random.Random(row["question_id"])
        others = [c for c in row["contexts"] if not c["is_supporting"]]
        picked = gold + rng.sample(others, min(2, len(others)))
        rng.shuffle(picked)
    return [
        Passage(source=c["title"], title=c["title"], text=c["paragraph_text"], ordinal=0,
                char_start=0, char_end=len(c["paragraph_text"]))
        for c in picked
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=40, help="questions (from the start)")
    parser.add_argument("--subset", choices=["all", "yesno"], default="all")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--settings", default="gold,distract")
    parser.add_argument("--threads", type=int, default=1, help="1 is fastest on a busy 2-core box")
    parser.add_argument("--max-tokens", type=int, default=48)
    args = parser.parse_args()

    rows = load(args.n, args.subset)
    t0 = time.perf_counter()
    llm = LocalLLM(LLMSettings(threads=args.threads, max_tokens=args.max_tokens))
    llm.count_tokens("warm up")
    print(f"model {llm.model_path.name} loaded in {time.perf_counter() - t0:.2f}s")
    OUT.mkdir(parents=True, exist_ok=True)
    report = []
    for setting in args.settings.split(","):
        for name in args.variants.split(","):
            ems, f1s, secs, tokens, preds, trimmed = [], [], [], [], [], 0
            for row in rows:
                answer = generate_answer(llm, row["question_text"], contexts(row, setting), style=VARIANTS[name])
                pred = answer.text
                golds = row["answers_objects"][0]["spans"]
                ems.append(max(float(normalize(pred) == normalize(g)) for g in golds))
                f1s.append(max(f1(pred, g) for g in golds))
                secs.append(answer.generate_s)
                tokens.append(answer.prompt_tokens)
                trimmed += bool(answer.trimmed) or answer.truncated
                preds.append({"q": row["question_text"], "gold": golds, "pred": pred})
            result = {
                "setting": setting,
                "variant": name,
                "n": len(rows),
                "em": 100 * sum(ems) / len(rows),
                "f1": 100 * sum(f1s) / len(rows),
                "s_per_q": sum(secs) / len(rows),
                "prompt_tokens_mean": sum(tokens) / len(rows),
                "prompt_tokens_max": max(tokens),
                "questions_trimmed": trimmed,
            }
            report.append(result)
            print(
                f"{setting:9} {name:11} EM {result['em']:5.1f}  F1 {result['f1']:5.1f}  "
                f"{result['s_per_q']:.2f} s/q  tokens mean {result['prompt_tokens_mean']:.0f} "
                f"max {result['prompt_tokens_max']}  trimmed {trimmed}",
                flush=True,
            )
            out = OUT / f"prompt_eval_{args.subset}{len(rows)}_{setting}_{name}.json"
            out.write_text(json.dumps({**result, "predictions": preds}, indent=1))
    (OUT / f"prompt_eval_{args.subset}{len(rows)}_summary.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
