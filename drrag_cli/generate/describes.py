"""Whether the static document describes the bridge entity the way the question does.

"In which city was [the lead engineer of Project Heron] born?" is asked about Tobias
Lindqvist only when the Heron overview says "Lead engineer" where it names him
(:func:`describes`): a shared word (by its stem), an agent noun said with its verb ("the
1979-80 European Cup winner": the cup "was won by" Nottingham Forest), or who made a work
said with "by" ("the group who performed Attics to Eden": "an album by American band
Madina Lake"). :func:`acts` tells when an outer description's agent noun is the entity's.
Pure string rules.
"""

from __future__ import annotations

import re

from drrag_cli.index.links import core_title
from drrag_cli.select.bridges import WORD_RE, content

# an agent noun and the verb forms a note says it with: "the leader of the flood team" is
# who "the flood team is led by"
AGENT_VERBS = {
    "leader": ("led", "leads", "lead"), "founder": ("founded", "founds"), "owner": ("owned", "owns"),
    "author": ("wrote", "written", "writes"), "writer": ("wrote", "written", "writes"),
    "director": ("directed", "directs"), "chair": ("chaired", "chairs"), "manager": ("managed", "manages"),
    "coach": ("coached", "coaches"), "captain": ("captained", "captains"), "host": ("hosted", "hosts"),
    "winner": ("won", "wins"),
}  # fmt: skip
# who made a work, which a note says with "by": "the second studio album by American band Madina Lake"
_BY_AGENT = frozenset("performer performed singer sang sung author writer wrote composer composed creator created "
                      "producer produced developer developed publisher published manufacturer maker made recorded "
                      "artist band".split())  # fmt: skip


def acts(head: list[str], near: str) -> bool:
    """The outer description's head ("the leader of ...") is an agent noun that the static
    document states with its verb where it names the entity ("is led by [[Jonas Berg]]"):
    the entity is the one the whole description describes, not the inner one's subject."""
    said = set(WORD_RE.findall(near.lower()))
    return any(said & set(AGENT_VERBS.get(word, ())) for word in head)


def describes(description: str, near: str, about: str, entity: str = "") -> bool:
    """The static document describes the entity as ``description`` does: a content word of
    it in ``near`` (what the document says where it names the entity) beyond the words of
    ``about`` (its title: every line of the Tern retrospective is about Tern), compared by
    :func:`~drrag_cli.select.bridges.stem`: "the judge of the harvest show" is who the show
    "is judged by"; or an agent noun said with its verb (:func:`acts`: the cup "was won by"),
    or who made a work (:data:`_BY_AGENT`) where the document says the work is "by" the
    ``entity`` ("an album by American band Madina Lake") or the entity's ("Acornsoft's
    Starship Command")."""
    said = content(near) - content(about)
    described = WORD_RE.findall(description.lower())
    if content(description) & said or acts(described, near):
        return True
    short = {w for w in content(description) if len(w) == 4}  # "star" is not the stem of "starring"
    words = WORD_RE.findall(near.lower())
    if any(re.fullmatch(rf"{w}{w[-1]}?(?:ing|ed|er|ers)", word) for word in words for w in short):
        return True
    return bool(entity and _BY_AGENT & set(described) and _made_by(entity, near, about))


def _made_by(entity: str, near: str, about: str) -> bool:
    """``near`` says the work (``about``) is "by" the entity, or the entity's."""
    name, work = re.escape(entity.lower()), re.escape(core_title(about).lower())
    return bool(re.search(rf"\bby\s+(?:[\w'’-]+\s+){{0,4}}?{name}\b|\b{name}['’]s\s+{work}", near.lower()))
