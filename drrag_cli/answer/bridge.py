"""Two-sided comparisons whose values are one hop away, decided in code: "Which film has
the director who died first, The Prairie King or Confessions of an Opium Eater?"

The sides' own documents do not state the value compared; each names the person (or thing)
the question's bridge relation asks for (:attr:`~drrag_cli.asked.Question.bridge`:
director, composer, author, founder, father …), and that one's document states it. For
each side: its document (titled by the side), then in it the statement that uses the
relation ("directed by B. Reeves Eason") and names a fed document's title, the nearest
after the relation word; then in that document the value: a birth or death date
(:mod:`.lifespan`) when the question asks about a life, else the statement with a value of
the cue's kind that shares most words with the question (:mod:`.compare`). One mechanism
for any relation noun (:mod:`drrag_cli.text.relations`, which CFS also walks by): a noun's
verb stem ("director" → "direct") and a few irregular ones ("author" → "wrote", "father" →
"son of") are what a side's document uses to name it. Only when both sides' values are read,
comparable and different does this decide; otherwise :func:`bridge_compare` returns None and
the model answers.
"""

from __future__ import annotations

from collections.abc import Sequence

from drrag_cli.answer.compare import CUES, Comparison, side_value, tokens
from drrag_cli.answer.lifespan import comparable, life_dates
from drrag_cli.asked import Question
from drrag_cli.text.relations import related

Passage = tuple[str, str]


def _own(side: str, passages: Sequence[Passage]) -> list[Passage]:
    """The fed documents titled by ``side``, the exact title first."""
    key = tokens(side)
    titled = [p for p in passages if key and key <= tokens(p[0])]
    return sorted(titled, key=lambda p: tokens(p[0]) != key)


def bridge_of(side: str, noun: str, passages: Sequence[Passage]) -> Passage | None:
    """The fed document the side's own document names as its ``noun`` ("directed by X" →
    X's document: :func:`~drrag_cli.text.relations.related`), or None when the side's
    document or that one is not fed."""
    own = _own(side, passages)
    others = [p for p in passages if p not in own]
    for title, text in own:
        found = related(title, text, noun, [p[0] for p in others])
        if found is not None:
            return others[found]
    return None


def _bridged_value(question: Question, bridge: Passage):
    """The value compared, read in the bridge's document: its life date when the question
    asks about a life, else the statement of the cue's kind nearest the question's words."""
    assert question.cue is not None
    if question.cue.kind == "time" and question.life:
        birth, death = life_dates(bridge[1])
        return birth if question.life == "birth" else death
    head = question.text.split(",")[0]
    attribute = tokens(head) - tokens(" ".join(question.options)) - set(CUES) - {question.bridge}
    return side_value(bridge[0], attribute, question.cue.kind, [bridge])


def bridge_compare(question: Question, passages: Sequence[Passage]) -> Comparison | None:
    """Decide ``question`` between its two sides through each side's ``bridge`` document,
    or None when it has no bridge or a side's document, bridge or value is not fed."""
    cue = question.cue
    if not question.bridge or len(question.options) != 2 or question.yes_no or cue is None:
        return None
    found = []
    for side in question.options:
        bridge = bridge_of(side, question.bridge, passages)
        value = None if bridge is None else _bridged_value(question, bridge)
        if value is None:
            return None
        found.append((bridge[0], value))
    (a_name, (a, a_shown)), (b_name, (b, b_shown)) = found
    if a_name == b_name or a == b or (cue.kind == "time" and not comparable(a, b)):
        return None
    wins = 0 if (a > b) == cue.larger_wins else 1
    values = ((question.options[0], f"{a_name}: {a_shown}"), (question.options[1], f"{b_name}: {b_shown}"))
    return Comparison(question.options[wins], f"{cue.kind} of the {question.bridge}", values)
