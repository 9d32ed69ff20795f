"""A choice question ("…, Heron or Plover?") reads a document about each side: when both
static documents are about Heron, CFS keeps the walk's candidate titled Plover whatever
the classifier says of it (real tantivy, hnswlib, MiniLM and the shipped classifier)."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from drrag_cli.pipeline import Pipeline
from drrag_cli.retrieve.context import Selected
from drrag_cli.retrieve.strategies import _side_hops
from drrag_cli.types import Passage

QUESTION = "Which reached version 1.0 first, Heron or Plover?"
DOCS = {
    "heron/launch.md": "# Heron 1.0 launch planning\n\nWhich version ships first? Heron 1.0 is the first "
    "stable version; the release window for version 1.0 is mid-March, after the go/no-go meeting.\n",
    "heron/CHANGELOG.md": "# Changelog\n\nAll notable changes to Heron.\n\n## [1.0.0] - 2023-03-14\n\n"
    "First stable release of Heron: version 1.0 reached.\n",
    "plover.md": "# Plover\n\nPlover is the telemetry pipeline we run for a water authority. "
    "Its v1.0 shipped on 2 November 2022, covering 212 pumping stations.\n",
    "soup.md": "# Lentil soup\n\nSimmer red lentils with cumin and lemon for twenty minutes.\n",
    "style.md": "# Writing style\n\nWrite version numbers without a leading v in prose.\n",
}


@pytest.fixture(scope="module")
def sides(tmp_path_factory: pytest.TempPathFactory) -> tuple[Index, Settings]:
    root = tmp_path_factory.mktemp("sides")
    for name, text in DOCS.items():
        (root / "corpus" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "corpus" / name).write_text(text, encoding="utf-8")
    settings = Settings().replace({"index.path": str(root / "ix")})
    Index.build([root / "corpus"], settings)
    return Index.open(settings), settings


def test_both_sides_are_fed_when_the_static_documents_name_one(sides) -> None:  # noqa: ANN001
    index, settings = sides
    result = Pipeline(settings, index=index).retrieve(QUESTION, "cfs", k=4)
    statics = [Path(d.passage.source).name for d in result.documents if d.stage == "static"]
    fed = [Path(d.passage.source).name for d in result.documents]
    assert statics == ["launch.md", "CHANGELOG.md"] and "plover.md" in fed
    walked = [c for q in result.trace["queries"] for c in q["candidates"]]
    hop = next(c for c in walked if c.get("named") == "Plover" and c["decision"] == "kept")
    assert hop["classifier_prob"] < result.trace["threshold"]  # the classifier alone would not keep it


def _selected(pid: int, title: str) -> Selected:
    return Selected(Passage("x.md", title, "text", 0, 0, 4, passage_id=pid), "static", 1.0)


def test_side_hops_name_only_the_side_no_static_title_names() -> None:
    groups = [[_selected(1, "Heron 1.0 launch planning")], [_selected(2, "heron › Changelog")]]
    found = {pid: _selected(pid, title).passage for pid, title in
             [(3, "Plover"), (4, "Plover on-call runbook"), (5, "Heron: overview"), (6, "Ploverish")]}
    walks = [[(5, 1), (3, 2)], [(4, 1), (6, 2)]]
    assert _side_hops(("Heron", "Plover"), groups, walks, found) == {(0, 3): ("Plover", 0), (1, 4): ("Plover", 0)}
    assert _side_hops(("yes", "no"), groups, walks, found) == {}
    groups.append([_selected(7, "Plover")])
    assert _side_hops(("Heron", "Plover"), groups, walks, found) == {}
