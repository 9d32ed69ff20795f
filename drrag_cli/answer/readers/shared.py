"""Reader "shared": what two named sides have in common, as their opening sentences say
(:mod:`drrag_cli.answer.shared`): "What occupation do Chris Menges and Aram Avakian share?"
→ director.

Left to the model when the question offers answers, asks no "share / in common / both what",
or the two sides share nothing readable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.readers.base import Evidence, Reading
from drrag_cli.answer.shared import shared

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class Shared:
    name = "shared"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        if question.options:  # a choice or a yes/no question is the comparisons' or the model's
            return None
        found = shared(question, evidence)
        return None if found is None else Reading(found.answer, self.name, compared=found)
