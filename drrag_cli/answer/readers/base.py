"""What every answer reader is: a name and ``read(question, evidence) -> Reading | None``.

A reader answers a question in code from the fed text, with no model call, when the text
settles it (two dates compared, a table cell, a value stated after the question's verb);
otherwise it returns None and leaves the question to the next reader, then to the model.
The parsed :class:`~drrag_cli.asked.Question` is the one input readers share: none parses
the question's text again. ``evidence`` is what the model would read: the fed documents as
(title, text), best first, as the prompt numbers them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from drrag_cli.asked import Question

Evidence = Sequence[tuple[str, str]]  # the fed documents, (title, text), in prompt order


@dataclass(frozen=True)
class Reading:
    """An answer a reader read, and what it read to find it: a comparison of two sides
    (``compared``: each side's value as written) or one value and where it stands
    (``looked_up``: the fed document's number, the row or subject, the column or verb).
    The CLI shows these ("compared dates: …", "read from the table: …")."""

    answer: str
    reader: str
    compared: Any = None  # a Comparison (compare, same-origin, asked-origin, shared, both)
    looked_up: Any = None  # a Lookup (table, statement, count, release, definition, section, origin)

    def to_json(self) -> dict[str, object]:
        read = self.compared if self.compared is not None else self.looked_up
        return {"reader": self.reader, "answer": self.answer, **({"read": read.to_json()} if read else {})}


class Reader(Protocol):
    """One rule that answers in code; ``name`` is how ``answer.readers`` lists it."""

    name: str

    def read(self, question: Question, evidence: Evidence) -> Reading | None: ...
