"""A table cell as the bridge: "Where did [the owner of the invoice renderer] live before
Lisbon?" over a plan whose milestone table says "| Invoice renderer | Lena Fischer |" is
asked as "Where did Lena Fischer live before Lisbon?".

The description names the cell by its column and its row (:func:`~drrag_cli.answer.tables.passed_cell`),
so the bridge needs no link CFS followed: the table states it. The `table` reader leaves
such a question alone (the cell is not what it asks), and a small model answered it with
another row's person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from drrag_cli.answer.tables import passed_cell
from drrag_cli.text.tables import plain, tables

if TYPE_CHECKING:
    from drrag_cli.retrieve.context import Selected


@dataclass(frozen=True)
class CellHop:
    asked: str  # the question with the cell's description replaced by the cell
    cell: str  # "Lena Fischer"
    row: str  # the row as written, the unit that names the cell
    table: str  # the title of the document that holds the table
    source: str  # the fed document titled by the cell, else the table's


def cell_bridge(question: str, documents: Sequence[Selected]) -> CellHop | None:
    """The hop through the one cell of the fed tables that the question describes, when every
    description found names that cell; None otherwise."""
    found: dict[str, CellHop] = {}
    for d in documents:
        for headers, rows, _start, _end in tables(d.passage.text):
            for row in rows:
                name = plain(row[0])
                for j in range(1, min(len(headers), len(row))):
                    cell = plain(row[j])
                    said = passed_cell(question, plain(headers[j]), name) if cell else None
                    if said is None:
                        continue
                    source = next(
                        (e.passage.source for e in documents if e.passage.title.strip().lower() == cell.lower()),
                        d.passage.source,
                    )
                    asked = f"{question[: said.start()]}{cell}{question[said.end() :]}"
                    found.setdefault(cell.lower(), CellHop(asked, cell, " | ".join(row), d.passage.title, source))
    return next(iter(found.values())) if len(found) == 1 else None
