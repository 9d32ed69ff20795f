"""Each answer reader measured alone against the model, on the same questions (docs/ANSWERS.md).

For every question: CFS (k = 4) retrieves and the answer stage prepares what the model would
read (the question as asked, the fed documents), exactly as ``drrag eval`` does, but with a
generator that only counts tokens (no model call). Every reader of the registry then reads
those documents on its own. Where at least one fires, the embedded model answers the same
question with ``answer.readers: []`` (one real call), so each reader's precision stands
beside the model's on the questions it fired on. The default order's answer (first reader
that fires) is also checked against an earlier ``drrag eval --out`` run when ``--before``
names its per_question.jsonl (what the readers answered then, question by question).

    python benchmarks/readers.py ../shared/data/2wiki/dev182.2wiki.json -c benchmarks/bench.yaml \\
        --out benchmarks/out/readers/2wiki-dev182.json [--offset N --limit N --corpus FILE --before P --yes-no]

Prints one JSON document: per reader, fired / right (EM) / F1, and the model's right / F1 on
the same questions; the rows per question are in --out.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any


class TokensOnly:
    """A generator that counts tokens and renders prompts like the real one, and answers
    nothing: the answer stage fits the same documents, at no model cost."""

    def __init__(self, llm: Any) -> None:  # noqa: ANN401
        self.llm, self.n_ctx, self.max_tokens = llm, llm.n_ctx, llm.max_tokens

    @property
    def has_chat_template(self) -> bool:
        return self.llm.has_chat_template

    def count_tokens(self, text: str) -> int:
        return self.llm.count_tokens(text)

    def render_chat(self, messages: list[dict[str, str]]) -> str:
        return self.llm.render_chat(messages)

    def complete(self, prompt: str, **_: Any) -> str:  # noqa: ANN401
        return ""

    def chat(self, messages: list[dict[str, str]], **_: Any) -> str:  # noqa: ANN401
        return ""


def _before(path: str | None) -> dict[str, dict[str, Any]]:
    if not path:
        return {}
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    return {r["qid"]: r for r in rows if r.get("strategy") == "cfs" and r.get("k") == 4}


def main() -> None:
    from drrag_cli.answer.readers import registry
    from drrag_cli.answer.sides import titled_sides
    from drrag_cli.asked import parse
    from drrag_cli.config import AnswerSettings, load_settings
    from drrag_cli.evaluate.datasets import load_dataset
    from drrag_cli.evaluate.metrics import exact_match, f1_score
    from drrag_cli.evaluate.runner import dataset_pipeline
    from drrag_cli.pipeline import Pipeline

    parser = argparse.ArgumentParser()
    parser.add_argument("questions")
    parser.add_argument("--corpus", default=None)
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("-c", "--config", default=None)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--before", default=None, help="per_question.jsonl of a drrag eval run (cfs, k 4)")
    parser.add_argument("--from-before", action="store_true", help="read the fed documents and the question as "
                        "asked from --before's records (no retrieval; the model still answers where a reader fires)")
    parser.add_argument("--no-model", action="store_true", help="no model answers: the readers only")
    parser.add_argument("--yes-no", action="store_true", help="only the questions parsed as yes/no (after --offset "
                        "and --limit): a reader of yes/no questions fires on no other, measured in a third of the time")
    args = parser.parse_args()
    settings = load_settings(args.config, {"answer.readers": []})
    dataset = load_dataset(args.questions, args.corpus)
    examples = dataset.examples[args.offset : args.offset + args.limit if args.limit else None]
    examples = [ex for ex in examples if parse(ex.question).yes_no] if args.yes_no else examples
    dataset = dataclasses.replace(dataset, examples=examples)
    model, _ = dataset_pipeline(dataset, settings)
    counter = TokensOnly(model.generator)
    dry = Pipeline(model.settings, index=model.index, generator=counter, classifier=model.classifier)
    plan = model.plan("cfs", use_config=False)
    before = _before(args.before)
    names = registry.names()
    rows = []
    paragraphs = {p.key: p for p in dataset.corpus}
    for n, ex in enumerate(dataset.examples, start=1):
        if args.from_before:  # the eval record's fed paragraphs (one passage each) and the question as asked
            then = before[ex.qid]
            docs = [(paragraphs[key].title, paragraphs[key].text) for key in then["fed"]]
            fed = SimpleNamespace(asked=then.get("asked") or ex.question)
        else:
            fed = dry.ask(ex.question, plan, k=4).answer
            docs = [(p.title, p.text) for p in fed.passages]
        question = titled_sides(parse(fed.asked or ex.question), [title for title, _ in docs])
        read = {}
        for name in names:
            found = registry.get(name).read(question, docs)
            if found is not None:
                read[name] = found.answer
        row: dict[str, Any] = {"qid": ex.qid, "question": ex.question, "asked": fed.asked, "answers": ex.answers,
                               "read": read, "docs": docs}
        then = before.get(ex.qid, {})
        if read and args.from_before and not (then.get("compared") or then.get("looked_up")):
            row["model"] = then["answer"]  # the model answered it in that run: the same call, not asked again
        elif read and not args.no_model:
            row["model"] = model.ask(ex.question, plan, k=4).answer.text
        first = next((name for name in AnswerSettings().readers if name in read), None)
        row["default"] = first
        if ex.qid in before:
            then = before[ex.qid]
            in_code = bool(then.get("compared") or then.get("looked_up"))
            row["before"] = {"answer": then.get("answer"), "in_code": in_code}
            row["same_as_before"] = (first is not None) == row["before"]["in_code"] and (
                first is None or read[first] == then.get("answer"))
        rows.append(row)
        print(f"{n}/{len(dataset.examples)} {ex.qid} read={read} model={row.get('model')!r}", file=sys.stderr,
              flush=True)
    report = _report(rows, names, exact_match, f1_score)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": report, "rows": rows}, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps(report, indent=1))


def _report(rows: list[dict[str, Any]], names: tuple[str, ...], em: Any, f1: Any) -> dict[str, Any]:  # noqa: ANN401
    """Per reader: fired, right (EM), right by accuracy (a gold answer within the answer) and F1 when
    it answers alone, and the model's on the same questions (null under --no-model)."""
    from drrag_cli.text.words import normalize_answer, stands_in

    def acc(answer: str, golds: list[str]) -> bool:
        return any(normalize_answer(g) and stands_in(normalize_answer(g), answer) for g in golds)

    out: dict[str, Any] = {"questions": len(rows), "readers": {}}
    for name in names:
        fired = [r for r in rows if r["read"].get(name) is not None]
        asked = [r for r in fired if "model" in r]
        out["readers"][name] = {
            "fired": len(fired),
            "right": int(sum(em(r["read"][name], r["answers"]) for r in fired)),
            "right_acc": sum(acc(r["read"][name], r["answers"]) for r in fired),
            "f1": round(100 * sum(f1(r["read"][name], r["answers"]) for r in fired) / max(1, len(fired)), 1),
            "model_right": int(sum(em(r["model"], r["answers"]) for r in asked)) if asked else None,
            "model_f1": round(100 * sum(f1(r["model"], r["answers"]) for r in asked) / max(1, len(asked)), 1)
            if asked else None,
        }
    first = [r for r in rows if r["default"]]
    out["default_order"] = {
        "fired": len(first),
        "right": int(sum(em(r["read"][r["default"]], r["answers"]) for r in first)),
        "right_acc": sum(acc(r["read"][r["default"]], r["answers"]) for r in first),
    }
    checked = [r for r in rows if "same_as_before" in r]
    if checked:
        out["same_as_before"] = {"checked": len(checked), "same": sum(r["same_as_before"] for r in checked),
                                 "differ": [r["qid"] for r in checked if not r["same_as_before"]]}
    return out


if __name__ == "__main__":
    main()
