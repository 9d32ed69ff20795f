"""Reader "asked-origin": "What nationality were Alfred Gell and Edmund Leach?" over the two
fed documents the question names: their shared demonym, else both
(:func:`drrag_cli.answer.origin.asked_origin`).

Left to the model when the question is not "What nationality …" about two named documents.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.origin import asked_origin
from drrag_cli.answer.readers.base import Evidence, Reading

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class AskedOrigin:
    name = "asked-origin"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:

        found = asked_origin(question, evidence)
        return None if found is None else Reading(found.answer, self.name, compared=found)
