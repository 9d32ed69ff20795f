"""The relative a biography names: "His father was Alfred Perceval Graves", "the only son of
king Charles the Simple and his second wife Eadgifu of Wessex", "Born in Florence to Jerome,
4th Count de Salis-Soglio and Henrietta Foster", "married to the engineer Oskar Lindqvist".

A name is a run of capitalised words, with the particles names hold ("of", "de", "von", "the",
"ibn") between them and a numbered title after a comma ("Sir Roger Martin, 2nd Baronet"); up
to three lower-case words may describe the relative before it ("the painter …"). A father is
the first of "son of A and B" (or "born … to A and B"), a mother the second or the one "his
wife" names; the first statement in the text wins. A name the text gives its own subject
(the document's title) is never the relative.
"""

from __future__ import annotations

import re
from functools import cache

from drrag_cli.text.relations import plain, title_name

_WORD = r"(?:(?:Jr|Sr|St|Dr)\.|[A-Z]\.|[A-Z][\w'’-]*|[IVX]+\b)"  # "J." and "Jr." but never a sentence's end
_PARTICLE = r"(?:of|de|du|da|di|del|della|von|van|der|den|la|le|the|ibn|bin|bint|al|zu|y)"
_RUN = rf"{_WORD}(?:\s+(?:{_PARTICLE}\s+)*{_WORD})*"
NAME = rf"{_RUN}(?:,\s+\d+(?:st|nd|rd|th)\s+{_RUN})?"  # "Sir Roger Martin, 2nd Baronet"
_SAID = r"(?:\s+(?:was|is))?,?\s+(?:[a-z]+\s+){0,3}"  # "His father was the boatbuilder …"
_OF = r"\b(?:sons?|daughters?|child|children)\s+of\s+(?:[a-z]+\s+){0,3}"  # "the only son of king …"
_PARENTS = (  # (the father, the mother) of one statement naming both
    rf"{_OF}(?P<a>{NAME})\s+and\s+(?:(?:his|her|their|[a-z]+)\s+){{0,3}}(?:{_WORD}['’]s\s+daughter\s+)?(?P<b>{NAME})",
    rf"\b[Bb]orn\b[^.]{{0,60}}?\bto\s+(?:[a-z]+\s+){{0,3}}(?P<a>{NAME})\s+and\s+(?:(?:his|her|[a-z]+)\s+){{0,3}}"
    rf"(?P<b>{NAME})",
)
_ONE = {
    "father": (rf"\b(?:[Hh]is|[Hh]er|[Tt]heir)\s+father{_SAID}(?P<a>{NAME})", rf"{_OF}(?P<a>{NAME})"),
    "mother": (rf"\b(?:[Hh]is|[Hh]er|[Tt]heir)\s+mother{_SAID}(?P<a>{NAME})",),
    "spouse": (rf"\bmarried\s+(?:to\s+)?(?:(?:the|[a-z]+)\s+){{0,3}}(?P<a>{NAME})",
               rf"\b(?:[Hh]is|[Hh]er)\s+(?:[a-z]+\s+)?(?:wife|husband|spouse|consort){_SAID}(?P<a>{NAME})"),
    "sister": (rf"\b(?:[Hh]is|[Hh]er|[Tt]heir)\s+(?:[a-z]+\s+){{0,2}}sister{_SAID}(?P<a>{NAME})",),
    "brother": (rf"\b(?:[Hh]is|[Hh]er|[Tt]heir)\s+(?:[a-z]+\s+){{0,2}}brother{_SAID}(?P<a>{NAME})",),
    "child": (rf"\b(?:[Hh]is|[Hh]er|[Tt]heir)\s+(?:[a-z]+\s+){{0,2}}(?:son|daughter|child){_SAID}(?P<a>{NAME})",),
}  # fmt: skip
_ONE |= {"wife": _ONE["spouse"], "husband": _ONE["spouse"], "parent": _ONE["father"] + _ONE["mother"]}


@cache
def _compiled(link: str) -> tuple[tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...]]:
    """(the patterns naming both parents, those naming the one ``link``), compiled on first use:
    the largest of the answer stage's patterns, which a process that asks of no relative never needs."""
    both = _PARENTS if link in ("father", "mother", "parent") else ()
    return tuple(re.compile(p) for p in both), tuple(re.compile(p) for p in _ONE.get(link, ()))


def relative_named(text: str, link: str, own: str = "") -> str | None:
    """The name ``text`` gives for its subject's ``link`` (father, mother, parent, spouse,
    wife, husband, sister, brother, child), the first statement of it; never ``own`` (the
    document's title). None when the text names none."""
    parents, one = _compiled(link)
    group = "b" if link == "mother" else "a"
    found = [(m.start(), m.group(group)) for pattern in parents for m in pattern.finditer(text)]
    found += [(m.start(), m.group("a")) for pattern in one for m in pattern.finditer(text)]
    self_name = title_name(own) if own else ""
    for _, name in sorted(found):
        if plain(name) != self_name:  # both in words() form: " sir roger martin 2nd baronet "
            return name.strip()
    return None
