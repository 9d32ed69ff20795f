"""The bridge comparisons of a 2WikiMultihopQA file answered from their gold documents, by the
``bridge-compare`` reader and by the model (docs/ANSWERS.md).

CFS (k = 4) rarely feeds a bridge comparison's two bridge documents (the films' directors'),
so ``benchmarks/readers.py`` cannot show what the reader does when they are fed. Here each
"…, A or B?" question with a bridge relation (``Question.bridge``) gets the documents its
supporting facts name (the two sides' and the two bridges', in the file's order) as the fed
passages; the reader reads them, and the embedded model answers the same with
``answer.readers: []``. No index, no retrieval: only the model is loaded.

    python benchmarks/bridge_fed.py ../shared/data/2wiki/dev182.2wiki.json -c benchmarks/bench.yaml \\
        --out benchmarks/out/readers/bridge-fed-dev182.json

Prints fired / right (EM) for the reader and the model's right on the same questions, and
the model's right on the questions the reader leaves to it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def main() -> None:
    from drrag_cli.answer.answer import generate_answer
    from drrag_cli.answer.readers import registry
    from drrag_cli.asked import parse
    from drrag_cli.config import load_settings
    from drrag_cli.evaluate.metrics import exact_match
    from drrag_cli.llm.llm import LocalLLM
    from drrag_cli.types import Passage

    parser = argparse.ArgumentParser()
    parser.add_argument("questions")
    parser.add_argument("-c", "--config", default=None)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    settings = load_settings(args.config, {"answer.readers": []})
    llm = LocalLLM(settings.llm)
    reader = registry.get("bridge-compare")
    rows: list[dict[str, Any]] = []
    for record in json.loads(Path(args.questions).read_text(encoding="utf-8")):
        question = parse(record["question"])
        if not (question.bridge and question.choice and question.cue) or "context" not in record:
            continue  # dev182 has 36 records without their paragraphs
        gold = {title for title, _ in record["supporting_facts"]}
        docs = [(title, " ".join(sentences)) for title, sentences in record["context"] if title in gold]
        passages = [Passage(t, t, x, 0, 0, len(x)) for t, x in docs]
        found = reader.read(question, docs)
        model = generate_answer(llm, record["question"], passages, max_tokens=settings.llm.max_tokens, readers=())
        rows.append({"qid": record["_id"], "question": record["question"], "answers": [record["answer"]],
                     "read": found.answer if found else None, "model": model.text, "docs": docs})
        print(f"{len(rows)} read={rows[-1]['read']!r} model={model.text!r} gold={record['answer']!r}", file=sys.stderr)
    fired = [r for r in rows if r["read"] is not None]
    left = [r for r in rows if r["read"] is None]
    summary = {
        "questions": len(rows),
        "fired": len(fired),
        "right": int(sum(exact_match(r["read"], r["answers"]) for r in fired)),
        "model_right_on_fired": int(sum(exact_match(r["model"], r["answers"]) for r in fired)),
        "left_to_model": len(left),
        "model_right_on_left": int(sum(exact_match(r["model"], r["answers"]) for r in left)),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
