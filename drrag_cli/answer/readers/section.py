"""Reader "section": the first sentence (or list) under the heading of a named note that the
question says (:func:`drrag_cli.answer.sections.read_section`): "What does Tobias Lindqvist
work on?" → the first sentence of "## What he works on".

Left to the model when the question offers answers, names no note by its title, or no
heading (or two) fits it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.readers.base import Evidence, Reading
from drrag_cli.answer.sections import read_section

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class Section:
    name = "section"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        if question.options:  # a choice or a yes/no question is the comparisons' or the model's
            return None
        found = read_section(question.text, evidence)
        return None if found is None else Reading(found.answer, self.name, looked_up=found)
