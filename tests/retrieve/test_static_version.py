"""When the question names a version no fed passage dates, the fed document's passage that
dates it joins the context beside that document (retrieve/context.RunContext._with_version).
Pure logic over a stub store; tests/test_pipeline.py runs it with the real parts."""

from __future__ import annotations

from drrag_cli.retrieve.context import RunContext, Selected
from drrag_cli.types import Passage

TEXTS = {
    20: "# Heron changelog ## [1.1.0] - 2023-05-02 ### Added - Usage report export.",
    21: "## [1.0.0] - 2023-03-14 First stable release. ### Added - Hybrid retrieval.",
    22: "### Changed - Configuration moved to TOML. ## [0.9.0] - 2023-01-20 ### Added - Search UI.",
    30: "# Heron overview Heron is our enterprise search product.",
}
PASSAGES = {pid: Passage(source="overview.md" if pid == 30 else "CHANGELOG.md", title="Heron", text=text,
                         ordinal=pid % 10, char_start=0, char_end=len(text), passage_id=pid)
            for pid, text in TEXTS.items()}  # fmt: skip


class _Stub:
    """What _with_version reads of a RunContext: the question, passages, their documents."""

    _with_version = RunContext._with_version

    def __init__(self, question: str) -> None:
        self.question = question

    def doc_of(self, pid: int) -> str:
        return PASSAGES[pid].source

    def document(self, group: list[int]) -> list[int]:
        return [pid for pid in PASSAGES if PASSAGES[pid].source == PASSAGES[group[0]].source]

    def fetch(self, ids: list[int]) -> dict[int, Passage]:
        return {pid: PASSAGES[pid] for pid in ids}


def _fed(question: str, ids: list[int]) -> list[int]:
    documents = [Selected(PASSAGES[pid], "dynamic", 0.5, 0.7, via=30) for pid in ids]
    return [d.passage.passage_id for d in _Stub(question)._with_version(documents)]


def test_the_passage_that_dates_the_named_version_joins_its_document() -> None:
    assert _fed("When was Heron 1.0.0 released?", [30, 22, 20]) == [30, 22, 20, 21]
    assert _fed("When was Heron 1.0 released?", [22, 20, 30]) == [22, 20, 21, 30]  # beside its document
    assert _fed("When was Heron 0.9 released?", [30, 22]) == [30, 22]  # already fed
    assert _fed("When was Heron 2.0 released?", [30, 22]) == [30, 22]  # no passage dates it
    assert _fed("When was Heron released?", [30, 22]) == [30, 22]  # no version asked
    assert _fed("When was Heron 1.0.0 released?", []) == []
