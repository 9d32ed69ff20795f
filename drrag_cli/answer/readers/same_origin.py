"""Reader "same-origin": a yes/no question about two named sides' nationality decided from
their documents' opening sentences (:func:`drrag_cli.answer.origin.same_origin`): "Were
Scott Derrickson and Ed Wood of the same nationality?" → yes.

Left to the model when the question is not yes/no, does not name exactly two fed documents
by title, or a nationality is not read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.origin import same_origin
from drrag_cli.answer.readers.base import Evidence, Reading

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class SameOrigin:
    name = "same-origin"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:

        found = same_origin(question, evidence)
        return None if found is None else Reading(found.answer, self.name, compared=found)
