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
from drrag_cli.ingest.units import units
from drrag_cli.text.words import WORD_RE, content

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
    :func:`~drrag_cli.text.words.stem`: "the judge of the harvest show" is who the show
    "is judged by"; or an agent noun said with its verb (:func:`acts`: the cup "was won by"),
    or who made a work (:data:`_BY_AGENT`) that the description names, where the document
    says the work is "by" the ``entity`` ("an album by American band Madina Lake") or the
    entity's ("Acornsoft's Starship Command")."""
    said = content(near) - content(about)
    described = WORD_RE.findall(description.lower())
    if content(description) & said or acts(described, near):  # "star" / "starring"
        return True
    work = content(core_title(about))  # the description names the work: "the Thinking About You performer"
    return bool(entity and _BY_AGENT & set(described) and work <= content(description) and made_by(entity, near, about))


# "by" and up to four words before the maker's name: "an album by American band [Madina Lake]"
_BY = r"\bby\s+(?:[\w'’-]+\s+){0,4}?"
# lower-case words, no preposition or article among them, then a name: "American [country music artist] Luke"
_QUALIFIES = r"(?:\s+(?!(?:in|on|at|for|from|of|and|or|with|as|under|to|the|a|an)\b)[a-z][\w-]*){1,3}\s+[A-Z]"


def made_by(entity: str, near: str, about: str) -> bool:
    """``near`` says the work (``about``) is "by" the entity, or the entity's. A word that
    only qualifies the maker is no maker: "recorded by American country music artist Luke
    Bryan" is by Luke Bryan, not by American."""
    name, work = re.escape(entity), re.escape(core_title(about))
    said = rf"(?i:{_BY}){name}\b(?!{_QUALIFIES})|\b{name}['’]s\s+{work}"
    flags = 0 if re.search(r"[A-Z]", near) else re.IGNORECASE  # a named bridge's units come lower-case
    return bool(re.search(said, near, flags))


# a title's qualifier that names the work's maker: "Thinking About You (Norah Jones song)"
_QUALIFIER = re.compile(r"\(([A-Z][^()]*?)\s+(song|single|album|EP|novel|play|opera|musical)\)\s*$")
_BY_NAME = re.compile(rf"{_BY}[A-Z]")


def made_units(question: str, title: str, texts: list[str]) -> list[str]:
    """When the question asks about who made a work (:data:`_BY_AGENT`: "the performer of
    Sings America"), the units of the work's document (``title``, ``texts``) that name it
    (or open with "It") and say it is "by" someone ("Sings America is an album released by
    David Hasselhoff"; not "'Big Mama' has been described by Lennon"), and the title's qualifier
    said as one ("Thinking About You (Norah Jones song)": a song by Norah Jones); [] for
    any other question."""
    if not _BY_AGENT & set(WORD_RE.findall(question.lower())):
        return []
    work = core_title(title).lower()
    found = [u for text in texts for u in units(text) if _BY_NAME.search(u) and (work in u.lower() or u[:3] == "It ")]
    qualifier = _QUALIFIER.search(title)
    if qualifier:
        found.append(f"{core_title(title)} is a {qualifier.group(2)} by {qualifier.group(1)}.")
    return found
