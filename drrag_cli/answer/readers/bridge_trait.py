"""Reader "bridge-trait": what an open question asks of the person its relation leads to,
read in that person's document (:func:`drrag_cli.answer.trait.bridged_trait`): "Where was
the director of film Ugly Me born?" over "Ugly Me … directed by Ignacio F. Iquino" and
"Ignacio F. Iquino (25 May 1910, Valls – 26 January 1994, Barcelona)" → Valls.

Left to the model when the question offers answers, asks no birth, death, place of birth
or death or nationality, names no relation, or the side's document, the bridge's or the
trait is not fed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.readers.base import Evidence, Reading
from drrag_cli.answer.tables import Lookup
from drrag_cli.answer.trait import bridged_trait

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class BridgeTrait:
    name = "bridge-trait"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        found = bridged_trait(question, evidence)
        if found is None:
            return None
        read = Lookup(found.answer, found.person, found.trait, found.document, source="text")
        return Reading(found.answer, self.name, looked_up=read)
