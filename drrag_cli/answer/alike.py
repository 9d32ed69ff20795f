"""Yes/no questions that ask two named sides for one property, decided side by side: "Are A
and B both documentaries?", "Were A and B from the same country?", "Are both A and B located
in Michigan?".

Small models say "yes" to most of these (Gemma-3-270M and Qwen2.5-1.5B alike), and the gold
answer is "no" as often as not. What each side is, where it is and what country it is from
is what its document's opening sentence says ("X is a 2003 Australian documentary film",
"Y is an airport in Elko, Nevada"), so each side is checked on its own document and the two
checks are combined: both hold → yes, one does not → no. The question is parsed once
(:attr:`drrag_cli.asked.Question.alike`); the property is read as one of

* a country: "the same nationality / country" (the two sides' countries compared), "both
  American", "both from / located in the United States" (each side's country against it);
* a place: "both located / based in Michigan": the place is named in the side's opening
  sentences (holds), another US state is and it is not (does not);
* a kind: "both film directors", "both American documentaries": the kind's last word is a
  word of what the side's opening sentence says it is (:func:`.shared.roles`), and each of
  its other words stands in that sentence (holds); what the side is is read and the kind's
  word is nowhere in its opening sentences (does not, and "no" only when the other side is
  that kind: a word no side's document says is a synonym or no kind at all).

A property of a bridge ("the directors of films A and B", :attr:`.Alike.through`) is checked on
the one other fed document each side's document names ("directed by Ed Park"). Left to the
model (None) when a side's document (or its bridge's) is not fed, or a side's check is
undecided.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from drrag_cli.answer.compare import Comparison
from drrag_cli.answer.origin import COUNTRY_OF, named_sides, nationality, side_name
from drrag_cli.answer.shared import roles
from drrag_cli.asked import PREPOSITIONS, Question
from drrag_cli.text.sentences import opening
from drrag_cli.text.words import STOP, WORD_RE, same_word
from drrag_cli.text.words import words as spaced

Docs = Sequence[tuple[str, str]]
_COUNTRY = {form.lower(): country for form, country in COUNTRY_OF.items()}
_ORIGIN_WORDS = frozenset({"nationality", "nationalities", "country", "countries"})
# words between the sides and the property: "Are both A and B located in …", "… both are …"
_FILLER = frozenset("and are were is was both of the a an considered".split())
_PLACE = re.compile(r"^(?:located|based|situated|found|headquartered|from)?\s*(?:in|from)\s+(?:the\s+)?(.+)$")
# what ends a kind's head: "documentaries about war", "films that …", "formed before 2010"
_AFTER_KIND = PREPOSITIONS | frozenset("about before after since than that which who whose like".split())
_NOT_KIND = re.compile(r"ed$|^(?:still|now|also|ever|known|written|made|built|held|found|won|seen|shown|grown)$")
_SORT_OF_HEADS = frozenset("type types kind kinds form forms example examples sort sorts".split())
_SORT_OF = re.compile(r"^(?:types?|kinds?|forms?|examples?|sorts?)\s+of\s+(?:a\s+|an\s+)?")
_STATES = frozenset(
    "alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho illinois "
    "indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri "
    "montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas utah vermont virginia washington "
    "wisconsin wyoming".split()
) | {"new hampshire", "new jersey", "new mexico", "new york", "north carolina", "north dakota", "rhode island",
     "south carolina", "south dakota", "west virginia"}  # fmt: skip
_IRREGULAR = {"genera": "genus", "species": "species", "media": "medium", "people": "person"}


def alike(question: Question, docs: Docs) -> Comparison | None:
    """Decide a yes/no ``question`` that asks its two named sides for one property from the
    fed ``docs`` ((title, text)), or None when it is not one or a side is undecided."""
    ask = question.alike
    if ask is None or not question.yes_no:
        return None
    sides = named_sides(question, docs)
    if ask.through:
        sides = [bridge for side in sides if (bridge := _bridge(side, sides, docs)) is not None]
    if len(sides) != 2:
        return None
    if ask.how in ("same", "different"):
        return _same(ask.how, ask.what, sides)
    checked = [check_property(without_sides(ask.what, sides), text) for _, text in sides]
    answer = _combined(checked)
    if answer is None:
        return None
    return Comparison(answer, "alike", tuple((t, shown) for (t, _), (_, shown, _) in zip(sides, checked, strict=True)))


Check = tuple[bool | None, str, bool]  # holds (None: undecided), what was read, whether a "no" is firm


def _combined(checked: list[Check]) -> str | None:
    """Both hold → yes. A side that firmly does not (another country, another US state) → no,
    whatever the other. A side that is not the kind asked → no only when the other side is
    that kind (the documents say the kind; "still in print" is no kind) and what it is read
    as is not part of what the other is (:func:`_named_shorter`). Else None."""
    held = [h for h, _, _ in checked]
    if any(h is False and firm for h, _, firm in checked):
        return "no"
    if None in held:
        return None
    if all(held):
        return "yes"
    return None if not any(held) or _named_shorter(checked) else "no"


def _bridge(side: tuple[str, str], sides: list[tuple[str, str]], docs: Docs) -> tuple[str, str] | None:
    """The one fed document, not a side's, whose title ``side``'s document names: "the directors
    of films A and B" are asked about the documents A's and B's name ("directed by Ed Park");
    None when none or several are named."""
    said = spaced(side[1])
    named = {title: text for title, text in docs if (title, text) not in sides and f" {side_name(title)} " in said}
    return next(iter(named.items())) if len(named) == 1 else None


def _named_shorter(checked: list[Check]) -> bool:
    """One side holds and the other does not, but what the other is read as is part of what
    the first is read as: "documentary" for a "documentary film", the same kind named
    shorter, so its "not a film" is no answer."""
    held, other = (checked[0][1], checked[1][1]) if checked[0][0] else (checked[1][1], checked[0][1])
    mine = set(WORD_RE.findall(other.lower()))
    return bool(mine) and mine <= set(WORD_RE.findall(held.lower()))


def _same(how: str, what: str, sides: list[tuple[str, str]]) -> Comparison | None:
    """The same country / nationality: the two sides' countries (:func:`.origin.nationality`)
    compared; the same state: the US states their opening sentences name ("different" turns
    the answer); another value is left to the model."""
    asked = set(what.split())
    if asked & _ORIGIN_WORDS:
        read = [nationality(text) for _, text in sides]
    elif asked & {"state", "states"}:
        read = [_state(text) for _, text in sides]
    else:
        return None
    if read[0] is None or read[1] is None:
        return None
    same = read[0][0] == read[1][0]
    answer = "yes" if same == (how == "same") else "no"
    return Comparison(answer, "alike", tuple((t, shown) for (t, _), (_, shown) in zip(sides, read, strict=True)))


def _state(text: str) -> tuple[str, str] | None:
    """(state, as written) of the first US state ``text``'s opening two sentences name."""
    said = f" {' '.join(WORD_RE.findall(opening(text, 2).lower()))} "
    found = sorted((said.find(f" {state} "), state) for state in _STATES if f" {state} " in said)
    return (found[0][1], found[0][1]) if found else None


def without_sides(what: str, sides: list[tuple[str, str]]) -> str:
    """The property's words once the sides' names and the words between them are dropped:
    "cypress and ajuga genera" → "genera"."""
    rest = f" {what} "
    for title, _ in sides:
        rest = rest.replace(f" {side_name(title)} ", " ")
    words = rest.split()
    while words and words[0] in _FILLER:
        words = words[1:]
    return " ".join(words)


def check_property(prop: str, text: str) -> Check:
    """Whether the side whose document is ``text`` has the property ``prop`` (True / False /
    None: undecided), what of its document was read, and whether a False is firm (a country or
    a US state read, not a kind's word missing)."""
    if not prop:
        return None, "", False
    place = _PLACE.match(prop)
    if place is not None:
        return (*_in_place(place.group(1), text), True)
    words = prop.split()
    if words[0] in _COUNTRY:
        held, shown = _of_country(_COUNTRY[words[0]], text)
        if len(words) == 1 or held is not True:
            return held, shown, True
        prop = " ".join(words[1:])
    return (*_of_kind(_SORT_OF.sub("", prop), text), False)


def _of_country(country: str, text: str) -> tuple[bool | None, str]:
    """The side's country (:func:`.origin.nationality`) is ``country``; when its opening
    sentence names none, the country (or a US state, for the United States) named in its
    first two sentences holds and nothing named is undecided."""
    read = nationality(text)
    if read is not None:
        return read[0] == country, read[1]
    said = f" {' '.join(WORD_RE.findall(opening(text, 2).lower()))} "
    names = [form for form, named in _COUNTRY.items() if named == country]
    names += sorted(_STATES) if country == "United States" else []
    found = next((name for name in names if f" {name} " in said), "")
    return (True, found) if found else (None, "")


def _in_place(place: str, text: str) -> tuple[bool | None, str]:
    """A country by the side's country; another place by its name in the opening sentences,
    or, for a US state, another state named there instead."""
    if place in _COUNTRY:
        return _of_country(_COUNTRY[place], text)
    said = f" {' '.join(WORD_RE.findall(opening(text, 2).lower()))} "
    if f" {place} " in said:
        return True, place
    if place in _STATES:
        other = next((state for state in sorted(_STATES) if f" {state} " in said), "")
        return (False, other) if other else (None, "")
    return None, ""


def _of_kind(kind: str, text: str) -> tuple[bool | None, str]:
    """A kind ("film directors", "documentaries about war"): its head word (the last before a
    preposition) is a word of what the opening sentence says the side is, and its other words
    stand in that sentence (holds); what the side is is read and the head is nowhere in its
    opening sentences (does not); else undecided."""
    words = [w for w in kind.split() if len(w) > 1]  # "women s magazines": the possessive's s
    if "of" in words[1:] and words[0] not in _SORT_OF_HEADS:  # "genus of plants": a genus
        words = words[: words.index("of")]
    cut = next((i for i, w in enumerate(words) if i and (w in _AFTER_KIND or _NOT_KIND.search(w))), len(words))
    if not cut or _NOT_KIND.search(words[0]):  # "connected with Disney", "bounded before 1950": no kind
        return None, ""
    head, others = _singular(words[cut - 1]), [*words[: cut - 1], *words[cut:]]
    said = roles(text)
    if not said:
        return None, ""
    shown = ", ".join(" ".join(role) for role in said)
    if any(same_word(head, _singular(w)) for role in said for w in role):
        first = [_singular(w) for w in WORD_RE.findall(opening(text, 1).lower())]
        held = all(w in STOP or any(same_word(_singular(w), f) for f in first) for w in others)
        return (True, shown) if held else (None, shown)
    begun = [_singular(w) for w in WORD_RE.findall(opening(text, 2).lower())]
    return (None, shown) if any(same_word(head, w) for w in begun) else (False, shown)


def _singular(word: str) -> str:
    """A plural a stem does not meet, made singular: "genera" → genus, "documentaries" →
    documentary (:func:`same_word` meets "magazine" and "magazines" as they are)."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    return word[:-3] + "y" if word.endswith("ies") and len(word) > 5 else word
