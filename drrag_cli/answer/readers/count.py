"""Reader "count": the number a fed sentence writes before the counted noun
(:func:`drrag_cli.answer.statements.read_count`): "How many parameters does Saltmarsh have?"
→ 22 million.

Left to the model when the question offers answers, asks no "how many", or the text states
no count (or two) of the noun.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.readers.base import Evidence, Reading
from drrag_cli.answer.statements import read_count

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class Count:
    name = "count"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        if question.options:  # a choice or a yes/no question is the comparisons' or the model's
            return None
        found = read_count(question.text, evidence)
        return None if found is None else Reading(found.answer, self.name, looked_up=found)
