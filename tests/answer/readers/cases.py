"""One way to run a reader's table of cases: through the registry, on a parsed question."""

from __future__ import annotations

from drrag_cli.answer.readers import registry
from drrag_cli.asked import parse

Docs = list[tuple[str, str]]


def read(name: str, question: str, docs: Docs) -> str | None:
    """The answer reader ``name`` reads for ``question`` in ``docs``, or None (the model's)."""
    found = registry.get(name).read(parse(question), docs)
    assert found is None or found.reader == name
    return None if found is None else found.answer
