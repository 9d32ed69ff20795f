"""Reader "definition": what a fed sentence says the asked name is
(:func:`drrag_cli.answer.statements.read_definition`): "What is Saltmarsh?" → "the dense
retriever in our search product"; "Who is Maren Okafor?" → her Role row.

Left to the model when the question offers answers, is not "What / Who is <Name>?", or no
sentence says what the name is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.readers.base import Evidence, Reading
from drrag_cli.answer.statements import read_definition

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class Definition:
    name = "definition"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        if question.options:  # a choice or a yes/no question is the comparisons' or the model's
            return None
        found = read_definition(question.text, evidence)
        return None if found is None else Reading(found.answer, self.name, looked_up=found)
