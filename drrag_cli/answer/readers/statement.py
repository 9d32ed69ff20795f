"""Reader "statement": the value a fed sentence about the named subject states after the
question's verb (:func:`drrag_cli.answer.statements.read_statement`): "Where was Inês
Carvalho born?" over "Inês was born in Braga …" → Braga.

Left to the model when the question offers answers, is not "Where / When / Who was <Name>
<verb>?" or "… did <Name> <verb>?", or no sentence (or two that differ) states the value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.readers.base import Evidence, Reading
from drrag_cli.answer.statements import read_statement

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class Statement:
    name = "statement"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        if question.options:  # a choice or a yes/no question is the comparisons' or the model's
            return None
        found = read_statement(question.text, evidence)
        return None if found is None else Reading(found.answer, self.name, looked_up=found)
