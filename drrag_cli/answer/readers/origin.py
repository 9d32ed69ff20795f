"""Reader "origin": "What nationality was Edmund Leach?" over the one fed document the question
names: its demonym (:func:`drrag_cli.answer.origin.read_origin`).

Left to the model when the question offers answers, is not "What nationality …" about one
named document, or its opening names no nation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.origin import read_origin
from drrag_cli.answer.readers.base import Evidence, Reading

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class Origin:
    name = "origin"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        if question.options:  # a choice or a yes/no question is the comparisons' or the model's
            return None
        found = read_origin(question, evidence)
        return None if found is None else Reading(found.answer, self.name, looked_up=found)
