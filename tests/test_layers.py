"""A layer never imports the one above it: the data's way (ingest -> index -> retrieve ->
select -> answer; cli on top) read from the source, every import counted (lazy ones and
``TYPE_CHECKING`` ones too), as in tests/test_structure.py."""

from __future__ import annotations

import pytest

from tests.test_structure import imports, modules

BELOW_THE_ANSWER = ("ingest", "index", "retrieve", "select", "refine", "llm", "text")


def _graph() -> dict[str, set[str]]:
    mods = modules()
    return {name: imports(path, name, set(mods)) for name, path in mods.items()}


def _stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _climbs(source: tuple[str, ...], target: str) -> list[str]:
    return sorted(
        f"{a} -> {b}" for a, found in _graph().items() if _stage(a) in source for b in found if _stage(b) == target
    )


@pytest.mark.parametrize("stage", BELOW_THE_ANSWER)
def test_no_stage_below_the_answer_imports_it(stage: str) -> None:
    assert _climbs((stage,), "answer") == []


def test_nothing_imports_the_cli() -> None:
    outside = tuple({_stage(m) for m in modules()} - {"cli"})
    assert _climbs(outside, "cli") == []


def test_the_answer_stage_does_not_import_evaluation() -> None:
    assert _climbs(("answer",), "evaluate") == []


def test_text_imports_nothing_of_the_package() -> None:
    """drrag_cli/text is the floor every stage stands on."""
    found = {f"{a} -> {b}" for a, names in _graph().items() if _stage(a) == "text" for b in names}
    assert sorted(edge for edge in found if _stage(edge.split(" -> ")[1]) != "text") == []
