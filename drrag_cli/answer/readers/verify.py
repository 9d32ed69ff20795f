"""Reader "verify": a yes/no question about one named subject, checked against what its
documents state (:mod:`drrag_cli.answer.verify`): "Was Harbour Lights directed by Maren
Solberg?" → the readers of one stated value read "Who was Harbour Lights directed by?" →
Maren Solberg → yes; "Is Maren Solberg Austrian?" over "… is a Norwegian film director" → no.

Left to the model when the question is not "Was / Did <Name> <verb> <preposition> <value>?"
or "Is <one fed title> <property>?", no reader reads the open question's value, or the
property is undecided.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.readers.base import Evidence, Reading
from drrag_cli.answer.trait import own_trait
from drrag_cli.answer.verify import OPEN_READERS, checked_property, checked_value, open_question
from drrag_cli.asked import parse

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class Verify:
    name = "verify"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        from drrag_cli.answer.readers.registry import first

        asked = open_question(question)
        if asked is None:
            found = checked_property(question, evidence)
        else:
            opened = parse(asked[0])
            reading = first(opened, evidence, OPEN_READERS)
            own = own_trait(opened, evidence) if reading is None else None  # "(born 1951 in Tromsø)"
            found = checked_value(asked, evidence, reading.answer if reading else own.answer if own else None)
        return None if found is None else Reading(found.answer, self.name, compared=found)
