"""Reader "table": a table cell the question names by row and column, a key-value table's value, or a timeline's date (:func:`drrag_cli.generate.tables.lookup`): "In which city is Kestrel Rail headquartered?" → Linz, Austria.

Left to the model when the question offers answers, names no row or key, or two rows disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.readers.base import Evidence, Reading
from drrag_cli.generate.tables import lookup

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class Table:
    name = "table"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        if question.options:  # a choice or a yes/no question is the comparisons' or the model's
            return None
        found = lookup(question, evidence)
        return None if found is None else Reading(found.answer, self.name, looked_up=found)
