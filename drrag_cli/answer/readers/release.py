"""Reader "release": the date a changelog writes after the version asked about
(:func:`drrag_cli.answer.statements.read_release`): "When was Heron 1.0.0 released?" →
2023-03-14.

Left to the model when the question offers answers, is no "When …" naming one version, or no
(or two) dates follow it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.readers.base import Evidence, Reading
from drrag_cli.answer.statements import read_release

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class Release:
    name = "release"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        if question.options:  # a choice or a yes/no question is the comparisons' or the model's
            return None
        found = read_release(question.text, evidence)
        return None if found is None else Reading(found.answer, self.name, looked_up=found)
