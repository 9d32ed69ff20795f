"""A tiny IRCoT-style multi-hop set: 4 questions over 9 distinct paragraphs.

Three bridge questions (entity in paragraph 1, answer in paragraph 2) and one comparison
question whose two gold paragraphs are shared with the bridge questions, so the corpus
union must deduplicate them. Shared by the runner and the CLI eval tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import drrag_cli.select

VEXLA = ("Vexla Robotics", "Vexla Robotics is a maker of warehouse robots. It was founded in 2004 by Ilse Marwood.")
ILSE = ("Ilse Marwood", "Ilse Marwood (born 1961) is an engineer and entrepreneur. She was born in Ghent, Belgium.")
ODO = ("Odo Frenk", "Odo Frenk (born 1970) is a landscape painter. He grew up in the village of Larsby.")
LARSBY = ("Larsby", "Larsby is a village in the north. The Umber river flows through Larsby and its mills.")
TALLOW = ("Tallow Suite", "The Tallow Suite is a piece for chamber orchestra composed by Piet Ameln in 1921.")
PIET = ("Piet Ameln", "Piet Ameln was a composer and musician who played the oboe in the city orchestra.")
DISTRACTORS = [
    ("Kestrel Motors", "Kestrel Motors was founded in Lisbon by a group of engineers who were born in Porto."),
    ("Fennel Creek", "Fennel Creek is a small river; painters from many villages came to paint its banks."),
    ("Harbour Overture", "The Harbour Overture is an orchestral piece; its composer played the violin."),
]


def _ctx(gold: list[tuple[str, str]], other: list[tuple[str, str]]) -> list[dict]:
    items = [(p, True) for p in gold] + [(p, False) for p in other]
    return [
        {"idx": i, "title": t, "paragraph_text": text, "is_supporting": sup}
        for i, ((t, text), sup) in enumerate(items)
    ]


QUESTIONS = [
    ("q1", "In which city was the founder of Vexla Robotics born?", ["Ghent"], [VEXLA, ILSE], DISTRACTORS[:1]),
    ("q2", "Which river flows through the village where painter Odo Frenk grew up?", ["Umber", "Umber river"],
     [ODO, LARSBY], DISTRACTORS[1:2]),
    ("q3", "Which instrument did the composer of the Tallow Suite play?", ["oboe"], [TALLOW, PIET],
     DISTRACTORS[2:]),
    ("q4", "Who was born first, Ilse Marwood or Odo Frenk?", ["Ilse Marwood"], [ILSE, ODO], [VEXLA]),
]  # fmt: skip
N_PARAGRAPHS = 9


def write(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        {
            "question_id": qid,
            "question_text": question,
            "answers_objects": [{"number": "", "spans": answers}],
            "contexts": _ctx(gold, other),
        }
        for qid, question, answers, gold, other in QUESTIONS
    ]
    path.write_text("".join(json.dumps(rec) + "\n" for rec in lines), encoding="utf-8")
    return path


def classifier_shipped() -> bool:
    """cfs/cis need the shipped relevance classifier (trained separately)."""
    return (Path(drrag_cli.select.__file__).parent / "weights" / "relevance.npz").is_file()


def strategies() -> list[str]:
    return ["bm25", "sm", "hybrid", "qdc"] + (["cfs", "cis"] if classifier_shipped() else [])
