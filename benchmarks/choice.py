"""The model's choice among a question's own options, greedy against scored whole (docs/ANSWERS.md).

Reads the rows ``benchmarks/readers.py --out`` wrote (each question as asked and the documents
fed to the model, CFS k = 4). For every question that offers its answers (yes / no, or two
sides) and that no reader of the default order decides, the embedded model answers it as
``drrag ask`` would with ``answer.choice: greedy`` (the grammar's greedy pick), and each option
is scored whole after the same prompt (``drrag_cli.llm.choice``). Printed per file and kind:
questions, right for the greedy pick, for "no" always (yes/no), and for the scored choice at
each ``--bias`` given to "no" (two sides get none); with ``--fit``, the bias that is right most
often on those files.

    python benchmarks/choice.py OUT/hotpot-q250-499.json OUT/2wiki-train500.json -c benchmarks/bench.yaml --fit
    python benchmarks/choice.py OUT/2wiki-dev182.json -c benchmarks/bench.yaml --bias 1.3
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def main() -> None:
    from drrag_cli.answer.answer import _asked, _bias
    from drrag_cli.answer.prompts import DEFAULT_STYLE
    from drrag_cli.config import load_settings
    from drrag_cli.llm.llm import LocalLLM

    parser = argparse.ArgumentParser()
    parser.add_argument("rows", nargs="+", type=Path, help="benchmarks/readers.py --out files")
    parser.add_argument("-c", "--config", default=None)
    parser.add_argument("--bias", type=float, action="append", help="log-probability given to 'no' (repeatable)")
    parser.add_argument("--fit", action="store_true", help="also the bias in -6..6 (step 0.1) right most often")
    args = parser.parse_args()
    settings = load_settings(args.config)
    llm = LocalLLM(settings.llm)
    biases = args.bias or [_bias(llm, settings.answer.no_bias)]
    seen: list[dict[str, Any]] = []
    for path in args.rows:
        for row in json.loads(path.read_text(encoding="utf-8"))["rows"]:
            if row.get("default"):
                continue  # a reader decides it
            docs = [(title, text) for title, text in row["docs"]]
            asked = row["asked"] or row["question"]
            options = _asked(asked, docs, DEFAULT_STYLE).options
            if len(options) != 2:
                continue
            greedy, scores = _scores(llm, asked, docs, options)
            answers = row["answers"] if isinstance(row["answers"], list) else [row["answers"]]
            seen.append(
                {"file": path.name, "options": options, "scores": scores, "greedy": greedy, "answers": answers}
            )
    files = dict.fromkeys(s["file"] for s in seen)
    report = {name: _summary([s for s in seen if s["file"] == name], biases) for name in files}
    report["all"] = _summary(seen, biases)
    if args.fit:
        yes_no = [s for s in seen if s["options"] == ("yes", "no")]
        grid = [round(x / 10, 1) for x in range(-60, 61)]
        report["fit"] = max(grid, key=lambda b: (sum(_right(_scored(s, b), s) for s in yes_no), -abs(b)))
    print(json.dumps(report, indent=1))


def _scores(llm: Any, asked: str, docs: list[tuple[str, str]], options: tuple[str, ...]) -> tuple[str, list[float]]:  # noqa: ANN401
    """The greedy pick and each option's summed log-probability, after the prompt the answer stage
    builds: an instruct model's chat turns (its special tokens as such, the option right after the
    assistant's turn opens: LocalLLM.chat), else the completion prompt and the option after a space."""
    from drrag_cli.answer.answer import _render
    from drrag_cli.answer.prompts import DEFAULT_STYLE, chat_messages
    from drrag_cli.llm.choice import continuation_logprobs

    if llm.has_chat_template:
        messages = chat_messages(asked, docs, DEFAULT_STYLE)
        greedy = llm.chat(messages, max_tokens=llm.max_tokens, options=options).strip()
        tokens, lead = llm.chat_tokens(messages), ""
    else:
        prompt = _render(llm, asked, docs, DEFAULT_STYLE)
        greedy = llm.complete(prompt, max_tokens=llm.max_tokens, stop=["\n"], options=options).strip()
        tokens, lead = llm._tokens(prompt, bos=True), " "
    return greedy, continuation_logprobs(llm.model, tokens, [llm._tokens(lead + option) for option in options])


def _scored(seen: dict[str, Any], bias: float) -> str:
    """The option with the best score, ``bias`` added to "no"."""
    options, scores = seen["options"], seen["scores"]
    total = [score + (bias if option == "no" else 0.0) for option, score in zip(options, scores, strict=True)]
    return options[max(range(len(total)), key=lambda i: (total[i], -i))]


def _right(answer: str, seen: dict[str, Any]) -> bool:
    from drrag_cli.evaluate.metrics import exact_match
    from drrag_cli.text.words import normalize_answer, stands_in

    said = normalize_answer(answer)
    return any(exact_match(answer, g) or stands_in(normalize_answer(g), said) for g in seen["answers"])


def _summary(seen: list[dict[str, Any]], biases: list[float]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind, rows in (("yes/no", [s for s in seen if s["options"] == ("yes", "no")]),
                       ("sides", [s for s in seen if s["options"] != ("yes", "no")])):  # fmt: skip
        found: dict[str, Any] = {"questions": len(rows), "greedy": sum(_right(s["greedy"], s) for s in rows)}
        if kind == "yes/no":
            found["always no"] = sum(_right("no", s) for s in rows)
        for bias in biases if kind == "yes/no" else [0.0]:
            name = f"scored, no +{bias:g}" if kind == "yes/no" else "scored"
            found[name] = sum(_right(_scored(s, bias), s) for s in rows)
        out[kind] = found
    return out


if __name__ == "__main__":
    main()
