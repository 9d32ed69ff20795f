"""Reader "kin": who a kin word names, its links walked through the fed documents and the last
read in words (:mod:`drrag_cli.answer.relatives`): "Who is the paternal grandfather of Lucia
Graves?" over "Lucia Graves … the daughter of writer Robert Graves" and "Robert Graves … His
father was Alfred Perceval Graves" → Alfred Perceval Graves.

Left to the model when the question offers answers, asks a trait of the relative (its birth,
death or nationality: ``bridge-trait``) or a relation besides the kin word ("the father of the
director of film X"), when a link before the last names no fed document
(:func:`drrag_cli.answer.hop.kin.walk`), or the last document names no such relative.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.answer.hop.kin import walk
from drrag_cli.answer.readers.base import Evidence, Reading
from drrag_cli.answer.relatives import relative_named
from drrag_cli.answer.tables import Lookup
from drrag_cli.text.relations import without_aside

if TYPE_CHECKING:
    from drrag_cli.asked import Question


class Kin:
    name = "kin"

    def read(self, question: Question, evidence: Evidence) -> Reading | None:
        if not question.kin_path or question.options or question.trait or question.bridge or question.wh != "who":
            return None
        found = walk(question, evidence)
        if found is None:
            return None
        title, text = evidence[found[1]]
        name = relative_named(text, question.kin_path[-1], title)
        if name is None:
            return None
        read = Lookup(name, without_aside(title), question.kin_path[-1], found[1], source="text")
        return Reading(name, self.name, looked_up=read)
