"""Reader "compare": two values the fed text states for the two sides of "…, A or B?" compared
in code (:mod:`drrag_cli.answer.compare`): "Which model has more parameters, Saltmarsh or
Tidepool?" over "22 million" and "110 million" → Tidepool.

Left to the model when the question offers no two sides or has no comparative cue, or a
side's value is not read, or the two are equal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.compare import compare
from drrag_cli.answer.readers.base import Evidence, Reading

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class Compare:
    name = "compare"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:

        found = compare(question, evidence)
        return None if found is None else Reading(found.answer, self.name, compared=found)
