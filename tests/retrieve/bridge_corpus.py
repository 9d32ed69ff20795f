"""A tiny corpus whose second hop is reachable only through QDC.

Question: "In which city was the lead engineer of Project Heron born?"
* heron.md names the lead engineer (Tobias Lindqvist) — the bridge entity — but not a city;
* tobias.md gives his birthplace; it shares no words with the question but his name;
* distractors talk about lead engineers, projects and birthplaces, so plain similarity
  (SM) ranks them above tobias.md;
* recipe.md is irrelevant to everything (CIS must drop it when it gets in).
"""

from __future__ import annotations

from pathlib import Path

from drrag_cli.config import Settings
from drrag_cli.index.api import Index

QUESTION = "In which city was the lead engineer of Project Heron born?"
ANSWER = "Uppsala"

DOCS = {
    "heron.md": "# Project Heron\n\nProject Heron is a search prototype for field notes. "
    "Its lead engineer is Tobias Lindqvist, who designed the ranking pipeline.\n",
    "tobias.md": "# Tobias Lindqvist\n\nTobias Lindqvist grew up by the Fyris river. "
    "He was born in Uppsala in 1988 and later studied computer science in Lund.\n",
    "kestrel.md": "# Project Kestrel\n\nThe lead engineer of Project Kestrel was born in Lisbon, "
    "a city she still calls home. Kestrel is a mapping project.\n",
    "plover.md": "# Project Plover\n\nProject Plover's lead engineer was born in the city of Porto. "
    "Plover ingests sensor data for engineers.\n",
    "tern.md": "# Project Tern\n\nProject Tern is a ferry booking project. Its engineers were hired "
    "in the city of Ghent, where the project was born.\n",
    "heron-budget.md": "# Heron budget\n\nThe Project Heron budget for engineering was approved in March; "
    "no city office was opened for the project.\n",
    "recipe.md": "# Lentil soup\n\nSimmer red lentils with cumin, garlic and lemon for twenty minutes. "
    "Serve with bread.\n",
}


def write(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in DOCS.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def indexed(root: Path, docs: dict[str, str]) -> tuple[Index, Settings]:
    """``docs`` (file name → text) written under ``root``/corpus and indexed into ``root``/ix."""
    (root / "corpus").mkdir(parents=True, exist_ok=True)
    for name, text in docs.items():
        (root / "corpus" / name).write_text(text, encoding="utf-8")
    settings = Settings().replace({"index.path": str(root / "ix")})
    Index.build([root / "corpus"], settings)
    return Index.open(settings), settings
