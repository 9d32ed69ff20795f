"""Yes/no questions about two named sides' nationality, decided in code: "Were Scott
Derrickson and Ed Wood of the same nationality?", "Are both Jim McBride and Neil Jordan
American?", "Were the bands Skin Yard and Ostava from the U.S.?".

Gemma-3-270M says "yes" to most yes/no questions (59 of 80 in HotpotQA dev500 q250–499,
36 of them "yes"). A document's opening sentence usually states what its subject's country
is ("is an American film director", "was a French-born American director", "is a Swedish
magazine"); comparing two such words is string work, as comparing two dates is
(:mod:`.compare`). The sides are the fed documents whose whole title (without a trailing
"(…)") the question names; each side's nationality is the first demonym or country name of
its document's opening sentence (an "X-born" skipped, brackets dropped). Only when the
question names exactly two such documents, asks "same nationality / country" or "both …
<nationality>" / "from <country>", and both nationalities are read does this decide;
otherwise :func:`same_origin` returns None and the model answers as before.

"What nationality were Alfred Gell and Edmund Leach?" is read the same way
(:func:`asked_origin`, both sides' demonym; :func:`read_origin` for one named side).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from drrag_cli.answer.compare import Comparison
from drrag_cli.answer.tables import Lookup
from drrag_cli.asked import Question
from drrag_cli.text.relations import without_aside
from drrag_cli.text.sentences import opening

# country -> the forms that name it (demonyms first); the first form is shown
NATIONS = {
    "United States": "American|U.S.|US|USA|United States|America",
    "United Kingdom": "British|UK|U.K.|United Kingdom|Britain",
    "England": "English|England", "Scotland": "Scottish|Scots|Scotland", "Wales": "Welsh|Wales",
    "Ireland": "Irish|Ireland", "Canada": "Canadian|Canada", "Australia": "Australian|Australia",
    "New Zealand": "New Zealand|New Zealander", "France": "French|France", "Germany": "German|Germany",
    "Italy": "Italian|Italy", "Spain": "Spanish|Spain", "Portugal": "Portuguese|Portugal",
    "Netherlands": "Dutch|Netherlands|Holland", "Belgium": "Belgian|Belgium", "Switzerland": "Swiss|Switzerland",
    "Austria": "Austrian|Austria", "Sweden": "Swedish|Sweden", "Norway": "Norwegian|Norway",
    "Denmark": "Danish|Denmark", "Finland": "Finnish|Finland", "Iceland": "Icelandic|Iceland",
    "Poland": "Polish|Poland", "Czech Republic": "Czech|Czech Republic|Czechia", "Slovakia": "Slovak|Slovakia",
    "Hungary": "Hungarian|Hungary", "Romania": "Romanian|Romania", "Bulgaria": "Bulgarian|Bulgaria",
    "Greece": "Greek|Greece", "Turkey": "Turkish|Turkey", "Russia": "Russian|Russia", "Ukraine": "Ukrainian|Ukraine",
    "Serbia": "Serbian|Serbia", "Croatia": "Croatian|Croatia", "Slovenia": "Slovenian|Slovene|Slovenia",
    "Estonia": "Estonian|Estonia", "Latvia": "Latvian|Latvia", "Lithuania": "Lithuanian|Lithuania",
    "Mexico": "Mexican|Mexico", "Brazil": "Brazilian|Brazil", "Argentina": "Argentine|Argentinian|Argentina",
    "Chile": "Chilean|Chile", "Colombia": "Colombian|Colombia", "Peru": "Peruvian|Peru", "Cuba": "Cuban|Cuba",
    "Venezuela": "Venezuelan|Venezuela", "Uruguay": "Uruguayan|Uruguay",
    "China": "Chinese|China", "Japan": "Japanese|Japan", "South Korea": "South Korean|Korean|South Korea|Korea",
    "India": "Indian|India", "Pakistan": "Pakistani|Pakistan", "Bangladesh": "Bangladeshi|Bangladesh",
    "Iran": "Iranian|Persian|Iran", "Israel": "Israeli|Israel", "Egypt": "Egyptian|Egypt",
    "South Africa": "South African|South Africa", "Nigeria": "Nigerian|Nigeria", "Kenya": "Kenyan|Kenya",
    "Ghana": "Ghanaian|Ghana", "Philippines": "Filipino|Philippine|Philippines", "Indonesia": "Indonesian|Indonesia",
    "Thailand": "Thai|Thailand", "Vietnam": "Vietnamese|Vietnam", "Malaysia": "Malaysian|Malaysia",
    "Singapore": "Singaporean|Singapore", "Taiwan": "Taiwanese|Taiwan", "Lebanon": "Lebanese|Lebanon",
    "Algeria": "Algerian|Algeria", "Morocco": "Moroccan|Morocco", "Tunisia": "Tunisian|Tunisia",
}  # fmt: skip
COUNTRY_OF = {form: country for country, forms in NATIONS.items() for form in forms.split("|")}
_FORMS = "|".join(sorted(map(re.escape, COUNTRY_OF), key=len, reverse=True))  # "South Korean" before "Korean"
_NATION = re.compile(rf"(?<![\w.])(?<!South )({_FORMS})(?![\w-])")  # not "French-born", "New South Wales"
_WHAT = re.compile(r"^\s*what\s+nationality\s+(?:is|was|are|were)\s", re.IGNORECASE)
_SAME = re.compile(r"\bsame\s+(?:nationality|country)\b", re.IGNORECASE)
_EITHER = re.compile(r"\bboth\b|\bfrom\b", re.IGNORECASE)
_BRACKETS = re.compile(r"\([^)]*\)")
_WORD = re.compile(r"\w+")


def nationality(text: str) -> tuple[str, str] | None:
    """(country, as written) of the first demonym or country name in ``text``'s opening
    sentence, brackets dropped ("(born 1966)") and "X-born" skipped; None when it names none."""
    first = _BRACKETS.sub(" ", opening(text))
    found = _NATION.search(first)
    return (COUNTRY_OF[found.group(1)], found.group(1)) if found else None


def plain_words(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def side_name(title: str) -> str:
    """How a question names the document titled ``title``: its words, lower-case, without a
    trailing "(…)" ("Peter Curtis (tennis)" → "peter curtis")."""
    return plain_words(without_aside(title))


def named_sides(question: Question, docs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The fed documents ((title, text), first of each title) whose whole title, without a
    trailing "(…)", the question names."""
    asked, seen, out = f" {question.plain} ", set(), []
    for title, text in docs:
        name = side_name(title)
        if name and f" {name} " in asked and name not in seen:
            seen.add(name)
            out.append((title, text))
    return out


def same_origin(question: Question, docs: Sequence[tuple[str, str]]) -> Comparison | None:
    """Decide a yes/no ``question`` about two named sides' nationality from the fed ``docs``
    ((title, text)), or None when it is not one this can decide."""
    if not question.yes_no:
        return None
    sides = named_sides(question, docs)
    if len(sides) != 2:
        return None
    read = [nationality(text) for _, text in sides]
    if read[0] is None or read[1] is None:
        return None
    values = tuple((title, shown) for (title, _), (_, shown) in zip(sides, read, strict=True))
    countries = [country for country, _ in read]
    if _SAME.search(question.text):
        return Comparison("yes" if countries[0] == countries[1] else "no", "origin", values)
    rest = _BRACKETS.sub(" ", question.text)
    for title, _ in sides:
        rest = re.sub(re.escape(title.split(" (")[0]), " ", rest, flags=re.IGNORECASE)
    wanted = {COUNTRY_OF[found.group(1)] for found in _NATION.finditer(rest)}
    if len(wanted) != 1 or not _EITHER.search(rest):
        return None
    (want,) = wanted
    return Comparison("yes" if countries == [want, want] else "no", "origin", values)


def demonym(country: str) -> str:
    """How an answer names a country's people: its first form ("United States" → American)."""
    return NATIONS[country].split("|")[0]


def _asked_sides(
    question: Question, docs: Sequence[tuple[str, str]]
) -> list[tuple[int, str, tuple[str, str]]] | None:
    """(document number, title, nationality) of each named side of a "What nationality
    is / were …?" question; None when it is not one, or a side's nationality is not read."""
    if not _WHAT.match(question.text):
        return None
    out = []
    for title, text in named_sides(question, docs):
        read = nationality(text)
        if read is None:
            return None
        out.append((next(i for i, doc in enumerate(docs) if doc[0] == title), title, read))
    return out


def asked_origin(question: Question, docs: Sequence[tuple[str, str]]) -> Comparison | None:
    """"What nationality were Alfred Gell and Edmund Leach?" over two fed documents the
    question names by title: their demonym when they share it ("British"), else both."""
    sides = _asked_sides(question, docs)
    if sides is None or len(sides) != 2:
        return None
    countries = list(dict.fromkeys(country for _, _, (country, _) in sides))
    answer = " and ".join(demonym(country) for country in countries)
    return Comparison(answer, "origin", ((sides[0][1], sides[0][2][1]), (sides[1][1], sides[1][2][1])))


def read_origin(question: Question, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """"What nationality was Edmund Leach?" over the one fed document the question names."""
    sides = _asked_sides(question, docs)
    if sides is None or len(sides) != 1:
        return None
    ((number, title, (country, _)),) = sides
    return Lookup(demonym(country), title, "nationality", number, "text")
