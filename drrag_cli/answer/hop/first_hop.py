"""The first hop asked on its own, for ``answer.mode: two-call``: "Where was the director of
film Ugly Me born?" asks first "Who is the director of film Ugly Me?", and its answer names
the bridge the second call is asked about ("Where was Ignacio F. Iquino born?").

``decompose`` rewrites a question only when retrieval followed a named link to the bridge's
document; the model then answers the second hop alone, and far more often right (docs/ANSWERS.md).
When no link names the bridge, the model can: the description the rewrite would replace
(:func:`~drrag_cli.answer.hop.description.bridge_question`) is asked as a question of its own
("Who is <description>?", "What is <description>?"), one more call.
"""

from __future__ import annotations

from drrag_cli.answer.hop.description import bridge_question
from drrag_cli.text.fence import neutralise

_MARK = "Qzxbridgeqzx"  # a word no question holds: where the description stood
# the heads of a description of a person: "Who is the father of X?", not "What is …"
_PERSONS = frozenset(
    "who whom whose father mother son daughter wife husband spouse brother sister uncle aunt man woman person "
    "actor actress singer player star".split()
)


def description(question: str) -> str | None:
    """The definite description a two-hop ``question`` holds ("the director of film Ugly Me"),
    as :func:`bridge_question` would replace it; None when it holds none it can rewrite."""
    marked = bridge_question(question, _MARK)
    if marked is None:
        return None
    words = neutralise(question).rstrip(" ?").split()
    done = marked.rstrip(" ?").split()
    if _MARK not in done:
        return None
    before = done.index(_MARK)
    after = len(done) - before - 1
    span = words[before : len(words) - after]
    return " ".join(span) if span else None


def first_hop(question: str) -> str | None:
    """The question of the bridge alone: "Who is <description>?" for a person ("the director
    of …", "the woman who …"), else "What is <description>?"; None without a description."""
    found = description(question)
    if found is None:
        return None
    words = found.lower().split()
    person = any(w in _PERSONS or (len(w) > 4 and w.endswith(("er", "or", "ist", "ess"))) for w in words)
    return f"{'Who' if person else 'What'} is {found}?"


def second_hop(question: str, bridge: str) -> str | None:
    """``question`` asked about ``bridge`` by name, or None when it cannot be rewritten."""
    return bridge_question(question, bridge)
