"""Reader "both": a yes/no question that asks two named sides for one property, decided side
by side from their documents' opening sentences (:func:`drrag_cli.answer.alike.alike`):
"Are Freakonomics and In the Realm of the Hackers both American documentaries?" → no.

Left to the model when the question asks no "both / same / different", does not name exactly
two fed documents by title, the property is a bridge's ("the directors of films A and B"), or
a side's check is undecided.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.alike import alike
from drrag_cli.answer.readers.base import Evidence, Reading

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class Both:
    name = "both"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        found = alike(question, evidence)
        return None if found is None else Reading(found.answer, self.name, compared=found)
