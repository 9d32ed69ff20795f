"""A table cell the question describes, as the bridge (answer/hop/cell.py)."""

from __future__ import annotations

from drrag_cli.answer.hop.cell import cell_bridge
from drrag_cli.answer.hop.decompose import Bridge, bridged
from tests.answer.hop.test_decompose import selected

PLAN = (
    "# Project Alder\n\n| Milestone | Owner | Due |\n|---|---|---|\n"
    "| Schema migration | Tomas Berg | 2025-06-30 |\n| Invoice renderer | **Lena Fischer** | 2025-09-15 |\n"
)


def test_the_cell_a_description_names_is_the_bridge() -> None:
    plan = selected(1, "alder.md", "Project Alder", PLAN)
    lena = selected(2, "lena.md", "Lena Fischer", "Lena Fischer moved from Berlin to Lisbon in 2023.", via=1)
    question = "Where did the owner of the invoice renderer live before Lisbon?"
    assert bridged(question, [plan, lena]) == (
        "Where did Lena Fischer live before Lisbon?",
        Bridge("Lena Fischer", "Invoice renderer | **Lena Fischer** | 2025-09-15", "Project Alder", "lena.md"),
    )
    # without her note, the table's document is the bridge's
    hop = cell_bridge("Which company did the owner of the schema migration work at?", [plan])
    assert hop is not None and (hop.asked, hop.source) == ("Which company did Tomas Berg work at?", "alder.md")


def test_a_cell_the_question_asks_for_is_no_bridge() -> None:
    plan = selected(1, "alder.md", "Project Alder", PLAN)
    assert cell_bridge("Who is the owner of the invoice renderer?", [plan]) is None  # the table reader's
    assert cell_bridge("Who owns the invoice renderer?", [plan]) is None
    assert cell_bridge("Where did the owner of the new parser live?", [plan]) is None  # no such row


def test_two_tables_that_disagree_give_no_bridge() -> None:
    plan = selected(1, "alder.md", "Project Alder", PLAN)
    other = selected(2, "old.md", "Old plan", PLAN.replace("Lena Fischer", "Ola Nordmann"))
    assert cell_bridge("Where does the owner of the invoice renderer live?", [plan, other]) is None
