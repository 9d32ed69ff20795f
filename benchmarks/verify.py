"""Yes/no questions about one subject, the reader "verify" against the model (docs/ANSWERS.md).

The shared multi-hop sets ask almost no yes/no question about one subject ("Was X directed by
Y?", "Is X Austrian?"), but their gold facts are such questions. Each 2WikiMultihopQA
evidence triple (subject, relation, object) whose relation has a phrasing below becomes a
"yes" question, and the same question with another question's object of that relation a
"no" question (seeded, so the set is the same every run). The model reads what it would
read with its evidence in front of it: the subject's paragraph, the object's when the
context has one, then the question's other paragraphs up to four.

For each question: what "verify" answers (or that it declines), and what the embedded model
answers with no reader at each ``--bias`` given to "no" (``answer.no_bias``). Printed: per
relation and in all, questions, fired, right when fired, and the model right on all and
on those the reader fired on.

    python benchmarks/verify.py ../shared/data/2wiki/train500.2wiki.json -c benchmarks/bench.yaml --bias 0 --bias 1.3
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

# relation → the question's wording ({s}: the subject, {o}: the object as the question names it)
PHRASES = {
    "director": "Was {s} directed by {o}?",
    "performer": "Was {s} performed by {o}?",
    "composer": "Was {s} composed by {o}?",
    "producer": "Was {s} produced by {o}?",
    "publisher": "Was {s} published by {o}?",
    "founded by": "Was {s} founded by {o}?",
    "place of birth": "Was {s} born in {o}?",
    "place of death": "Did {s} die in {o}?",
    "date of birth": "Was {s} born in {o}?",
    "date of death": "Did {s} die in {o}?",
    "country of citizenship": "Is {s} {o}?",
    "country": "Is {s} from {o}?",
}


def questions(rows: list[dict[str, Any]], seed: int = 0) -> list[dict[str, Any]]:
    """The yes and no questions of ``rows``' evidence triples, with the paragraphs to feed."""
    from drrag_cli.answer.origin import COUNTRY_OF, demonym

    pool: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        for _s, rel, obj in row["evidences"]:
            pool[rel].append(obj)
    rng, out = random.Random(seed), []
    demonyms = set(COUNTRY_OF.values())
    for row in rows:
        context = [(title, " ".join(sentences)) for title, sentences in row.get("context", [])]
        for subject, rel, obj in row["evidences"]:
            own = next(((t, x) for t, x in context if t == subject or t.startswith(f"{subject} (")), None)
            if rel not in PHRASES or own is None:
                continue
            other = [o for o in pool[rel] if _key(o, rel) != _key(obj, rel)]
            if rel == "country of citizenship":  # asked by its demonym: "Is X Austrian?"
                other = [o for o in other if o in demonyms]
                if obj not in demonyms:
                    continue
            if not other:
                continue
            for value, gold in ((obj, "yes"), (rng.choice(other), "no")):
                said = demonym(value) if rel == "country of citizenship" else _shown(value, rel)
                fed = [own, *[(t, x) for t, x in context if t == value], *[p for p in context if p != own]]
                fed = list(dict.fromkeys(fed))[:4]
                text = PHRASES[rel].format(s=subject, o=said)
                out.append({"question": text, "answer": gold, "relation": rel, "docs": fed})
    return out


def _key(value: str, rel: str) -> str:
    """What makes two objects the same: a country's every form ("U.S.", "United States") one."""
    from drrag_cli.answer.origin import COUNTRY_OF

    return COUNTRY_OF.get(value, value) if rel.startswith("country") else _shown(value, rel)


def _shown(value: str, rel: str) -> str:
    """A date as its year ("Was X born in 1951?"), any other value as it is."""
    return value.split()[-1] if rel.startswith("date") else value


def main() -> None:
    from drrag_cli.answer.answer import _bias, generate_answer
    from drrag_cli.answer.readers.registry import get
    from drrag_cli.asked import parse
    from drrag_cli.config import load_settings
    from drrag_cli.llm.llm import LocalLLM
    from drrag_cli.types import Passage

    parser = argparse.ArgumentParser()
    parser.add_argument("data", type=Path, help="a 2WikiMultihopQA file (list of rows with evidences)")
    parser.add_argument("-c", "--config", default=None)
    parser.add_argument("--bias", type=float, action="append", help="log-probability given to 'no' (repeatable)")
    parser.add_argument("--no-model", action="store_true", help="the reader only")
    parser.add_argument("--limit", type=int, default=None, help="the first N questions only")
    args = parser.parse_args()
    settings = load_settings(args.config)
    llm = None if args.no_model else LocalLLM(settings.llm)
    biases = args.bias or [_bias(llm, settings.answer.no_bias)]
    verify = get("verify")
    per: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for q in questions(json.loads(args.data.read_text(encoding="utf-8")))[: args.limit]:
        read = verify.read(parse(q["question"]), q["docs"])
        said = {"reader": read.answer if read else None}
        passages = [Passage(t, t, x, 0, 0, len(x)) for t, x in q["docs"]]
        for bias in biases if llm else []:
            said[f"model@{bias}"] = generate_answer(llm, q["question"], passages, readers=(), no_bias=bias).text
        for key in (q["relation"], "all"):
            _count(per[key], said, q["answer"])
    print(json.dumps(per, indent=1))


def _count(tally: dict[str, int], said: dict[str, str | None], gold: str) -> None:
    tally["questions"] += 1
    tally[f"gold {gold}"] += 1
    fired = said["reader"] is not None
    tally["fired"] += fired
    tally["fired right"] += said["reader"] == gold
    for key, answer in said.items():
        if key != "reader":
            tally[f"{key} right"] += answer == gold
            tally[f"{key} right where fired"] += fired and answer == gold


if __name__ == "__main__":
    main()
