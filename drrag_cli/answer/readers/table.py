"""Reader "table": a table cell the question names by row and column, a key-value table's
value, or a timeline's date (:func:`drrag_cli.answer.tables.lookup`): "In which city is
Kestrel Rail headquartered?" → Linz, Austria.

Left to the model when the question offers answers, names no row or key, or two rows
disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.readers.base import Evidence, Reading
from drrag_cli.answer.tables import lookup

if TYPE_CHECKING:
    from drrag_cli.asked import Question

_ASKS = frozenset(("what", "which", "who", "whom", "where", "when"))  # a cell answers these, not "how" or "why"


class Table:
    name = "table"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        if question.options or question.wh not in _ASKS:  # "Is Kestrel Rail in Linz?" is the model's
            return None
        found = lookup(question.text, evidence)
        return None if found is None else Reading(found.answer, self.name, looked_up=found)
