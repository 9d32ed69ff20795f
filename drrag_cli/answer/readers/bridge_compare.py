"""Reader "bridge-compare": the two sides of "…, A or B?" compared through the person or thing
the question's relation names (:mod:`drrag_cli.answer.bridge`): "Which film has the director
who died first, X or Y?" over each film's director's death date.

Left to the model when the question names no bridge relation, has no two sides or no
comparative cue, a side's document or its bridge's document is not fed, a value is not read,
or the two cannot be ordered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.bridge import bridge_compare
from drrag_cli.answer.readers.base import Evidence, Reading

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class BridgeCompare:
    name = "bridge-compare"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        found = bridge_compare(question, evidence)
        return None if found is None else Reading(found.answer, self.name, compared=found)
