"""A static document the question names by its whole title brings its head passage
(retrieve/strategies._with_head). Pure logic over a stub context; the pipeline test
`test_a_note_named_by_its_title_brings_its_head_table` runs it with the real parts."""

from __future__ import annotations

from drrag_cli.retrieve.context import Selected
from drrag_cli.retrieve.strategies import _with_head
from drrag_cli.types import Passage


def _passage(pid: int, title: str, ordinal: int) -> Passage:
    return Passage(source=f"{title}.md", title=title, text=f"passage {ordinal}", ordinal=ordinal, char_start=0,
                   char_end=9, passage_id=pid)  # fmt: skip


class _Context:
    def __init__(self, question: str) -> None:
        self.question = question
        self.passages = {pid: _passage(pid, "Inês Carvalho", pid - 10) for pid in (10, 11, 12)}

    def document(self, group: list[int]) -> list[int]:
        return [10, 11, 12]

    def fetch(self, ids: list[int]) -> dict[int, Passage]:
        return {pid: self.passages[pid] for pid in ids}


def test_a_named_document_brings_its_head_after_its_found_passages() -> None:
    ctx = _Context("What is Inês Carvalho's Slack handle?")
    group = [Selected(ctx.passages[12], "static", 0.03), Selected(ctx.passages[11], "static", 0.02)]
    out = _with_head(ctx, group)  # type: ignore[arg-type]
    assert [d.passage.passage_id for d in out] == [12, 11, 10] and out[-1].stage == "static"
    assert _with_head(ctx, out) == out  # the head is there already
    unnamed = _Context("What is the Porto office lead's Slack handle?")
    assert _with_head(unnamed, group) == group  # type: ignore[arg-type]
    assert _with_head(ctx, []) == []  # type: ignore[arg-type]


class _Profile(_Context):
    TEXTS = ("# Tobias Lindqvist | **Role** | Engineer |", "## Background Tobias was born in Uppsala.",
             "## What he works on Ranking, indexing and evaluation.", "## Outside work Tobias skates on lakes.")

    def __init__(self, question: str) -> None:
        self.question = question
        self.passages = {10 + i: Passage(source="tobias.md", title="Tobias Lindqvist", text=text, ordinal=i,
                                         char_start=0, char_end=len(text), passage_id=10 + i)
                         for i, text in enumerate(self.TEXTS)}  # fmt: skip

    def document(self, group: list[int]) -> list[int]:
        return [10, 11, 12, 13]


def test_a_named_document_brings_the_section_whose_heading_the_question_says() -> None:
    ctx = _Profile("What does Tobias Lindqvist work on?")
    group = [Selected(ctx.passages[13], "static", 0.03), Selected(ctx.passages[11], "static", 0.02)]
    out = _with_head(ctx, group)  # type: ignore[arg-type]
    assert [d.passage.passage_id for d in out] == [13, 11, 10, 12]  # the head, then "What he works on"
    outside = _with_head(_Profile("What does Tobias Lindqvist do outside work?"), group)  # type: ignore[arg-type]
    assert [d.passage.passage_id for d in outside] == [13, 11, 10]  # "Outside work" fits best (two words): fed already
    born = _with_head(_Profile("Where was Tobias Lindqvist born?"), group)  # type: ignore[arg-type]
    assert [d.passage.passage_id for d in born] == [13, 11, 10]  # no heading says "born"


def test_a_head_that_states_the_question_s_description_is_brought() -> None:
    class _Aiko(_Profile):
        TEXTS = ("# Aiko Tanabe | | | |---|---| | **Role** | Product designer |",
                 "## Background Aiko was born in Sendai.")

        def document(self, group: list[int]) -> list[int]:
            return [10, 11]

    ctx = _Aiko("Where was the product designer born?")
    group = [Selected(ctx.passages[11], "static", 0.03)]
    assert [d.passage.passage_id for d in _with_head(ctx, group)] == [11, 10]  # type: ignore[arg-type]
    other = _Aiko("Where was the research scientist born?")
    assert _with_head(other, group) == group  # type: ignore[arg-type]


def test_prose_in_the_head_is_no_description() -> None:
    class _Report(_Profile):
        TEXTS = ("Saltmarsh Abstract We describe Saltmarsh, a compact sentence embedding model.", "Training data.")

        def document(self, group: list[int]) -> list[int]:
            return [10, 11]

    ctx = _Report("In which building is the GPU cluster that the Saltmarsh embedding model was trained on housed?")
    group = [Selected(ctx.passages[11], "static", 0.03)]
    assert _with_head(ctx, group) == group  # type: ignore[arg-type]
