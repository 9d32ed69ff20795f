"""The answers a question itself allows: its two sides ("…, Heron or Plover?") or yes | no.

Read by retrieval (CFS follows both sides of a choice question, a yes/no question names
both hops) and by the answer stage (a constrained short answer, the comparison readers),
so it lives below both.
"""

from __future__ import annotations

import re

from drrag_cli.text.fence import neutralise

_AUX = ("is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "can", "could", "will", "would")
_CHOICE_RE = re.compile(r",\s*([^,?]+?)\s+or\s+([^,?]+?)\s*\??\s*$", re.IGNORECASE)
_COMPARATIVE = (
    r"older|younger|first|earlier|later|last|bigger|larger|smaller|taller|shorter|longer|higher|lower|"
    r"newer|closer|farther|further"
)  # not "more"/"less": "Who has more Grammy awards X or Y" would split as "awards X" or "Y"
# "Which film has the director born earlier, The Adventures Of Priscilla, Queen Of The Desert or Harvest: 3,000
# Years?": after a comparative and the comma that ends its clause, a side may hold commas and question marks
_LED_CHOICE_RE = re.compile(rf"\b(?:{_COMPARATIVE})\b[^,?]*?,\s*(.+?)\s+or\s+(.+?)\s*\??\s*$", re.IGNORECASE)
# "who is younger Keith Bostic or Jerry Glanville ?": the sides follow the comparative, no comma
_BARE_CHOICE_RE = re.compile(
    rf"^\s*(?:who|which)\b[^,?]*?\b(?:{_COMPARATIVE})\s+([^,?]+?)\s+or\s+([^,?]+?)\s*\??\s*$", re.IGNORECASE
)


def answer_options(question: str) -> tuple[str, ...]:
    """The answers a question itself allows, for a constrained short answer: its two sides
    ("Which reached 1.0 first, Heron or Plover?" → Heron | Plover) or yes | no ("Are both
    ...?"); () when it is open. A small model otherwise names the bridge, copies an example
    or rambles ("Heron 1.0")."""
    question = neutralise(question)
    found = _LED_CHOICE_RE.search(question) or _CHOICE_RE.search(question) or _BARE_CHOICE_RE.search(question)
    if found:
        return tuple(dict.fromkeys(side.strip(" ,") for side in found.groups()))
    words = question.lower().split()
    if words and words[0] in _AUX and " or " not in f" {question.lower()} ":
        return ("yes", "no")
    return ()
