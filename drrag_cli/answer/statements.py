"""A fact the text states outright, read in code: "Where was Inês Carvalho born?" over
"Inês was born in Braga and studied …" → Braga; "What does Ana Ruiz run?" over "Ana Ruiz
… runs the plant nursery on Mill Lane" → the plant nursery.

Gemma-3-270M, held to copying the fed text, often copies the line that holds the answer
instead of the answer: asked "Where was Inês Carvalho born?" over her profile it wrote
"Inês was born in Braga and studied computer engineering at …", or her table's first row.
When the question is a plain "Where / When / By whom was <Name> <verb>?" or "Where /
When did <Name> <verb> [its object]?" or "What [/ Which <kind>] did <Name> <verb>?", and the fed
sentences about that name state the verb with one value after it ("born in Braga",
"founded in 1998", "directed by Steven Spielberg", "studied economics at KU Leuven",
"studied history in Leiden", "runs the plant nursery"), that value is the answer, as a
table cell is (:func:`.tables.lookup`). Two different values, or none, and the model answers.
"What year was Boss Bailey drafted?" reads the year after any past participle, "Which client
is Plover built for?" the name after the verb and the question's preposition, and "… in how
many countries?" the one count of that noun the fed text writes (:func:`read_count`).
Pure text work: no model, no index.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from drrag_cli.answer.prompts import where_question
from drrag_cli.answer.tables import Lookup
from drrag_cli.ingest.units import statement_units
from drrag_cli.select.bridges import PARTICLES  # "Sanne de Vries": "de" is no verb
from drrag_cli.text.tables import linearise
from drrag_cli.text.versions import VERSION_RE as _VERSION
from drrag_cli.text.versions import named_version, release_dates
from drrag_cli.text.words import MONTHS, STOP, stem

# "Where was Inês Carvalho born?", "When was Halyard Labs founded?", "Who was Jaws directed
# by?": the kind of value asked for, the subject (a name) and the verb (a past participle).
# "What year was Boss Bailey drafted?" and "In which year was …" ask "when" for a year; any
# regular past participle is read ("drafted", "elected", "signed")
# "Which client is Plover built for?" asks for the name after the verb (either voice: "that
# Halyard Labs builds and operates for Vellmar Water Authority") and the question's preposition
_ASKED = re.compile(
    r"^\s*(?P<wh>where|when|who|whom|by\s+whom|(?:in\s+)?(?:what|which)\s+year|(?:what|which)\s+(?-i:[a-z]+))"
    r"\s+(?:was|were|is|are)\s+(?P<subject>[A-Z].*?)\s+"
    r"(?P<verb>born|founded|established|opened|built|released|published|formed|created|launched|located|based|"
    r"headquartered|buried|raised|directed|written|produced|designed|composed|(?-i:[a-z]{3,}ed))"
    r"(?:\s+(?P<prep>in|by|at|for|to|with|from|on))?\s*\??\s*$",
    re.IGNORECASE,
)
# "Where did Tobias Lindqvist study?", "Where does Aiko Tanabe live?", "Where did Ruth Amsel
# study history?", "When did Tobias move to Belgium?", "What does Ana Ruiz run?": a verb in
# its plain form, perhaps its object (up to three words)
_DID = re.compile(
    r"^\s*(?P<wh>where|when|what|(?:what|which)\s+(?P<kind>(?-i:[a-z]+)(?:\s+(?-i:[a-z]+))?))"
    r"\s+(?:did|does|do)\s+(?P<subject>[A-Z].*?)\s+(?P<verb>(?!(?:" + PARTICLES + r")\s)(?-i:[a-z]+))"
    r"(?P<up>\s+up)?(?P<object>(?:\s+[\w'’-]+){0,3}?)\s*\??\s*$",
    re.IGNORECASE,
)
# "Where is Claudia Cardinale from?", "What city is the star of … from?" (once rewritten): where
# the subject was born, or a band formed
_FROM_OPENING = r"^\s*(?:where|(?:what|which)\s+(?:city|town|village|place))"
_FROM = re.compile(
    _FROM_OPENING + r"\s+(?:is|was|are|were)\s+(?P<subject>[A-Z].*?)\s+(?:originally\s+)?from\s*\??\s*$",
    re.IGNORECASE,
)
_NOT_READ = frozenset("do be have get say mean".split())  # "What does Ana Ruiz do?": no one value
_IRREGULAR = {"grow": "grew", "go": "went", "teach": "taught", "meet": "met", "leave": "left", "begin": "began",
              "become": "became", "win": "won", "build": "built", "find": "found", "write": "wrote", "sing": "sang",
              "have": "had", "hold": "held", "make": "made", "sell": "sold"}
_THIRD = {"have": "has"}
# a participle's plain verb, for the subject's own verb ("built" → builds)
_PLAIN = {past: plain for plain, past in _IRREGULAR.items()} | {"written": "write", "given": "give", "done": "do"}
# what a sentence may say instead ("Born and raised in Porto" for "Where did she grow up?")
_SAID_ALSO = {"grow up": ("raised", "brought up")}
_NAME = re.compile(r"[A-Z][\w'’-]*(?:\s+(?:(?:of|de|da|do|du|van|von|der|del|la|le|upon|on)\s+)*[A-Z][\w'’-]*)*")
_DATE = re.compile(
    r"(?:\d{1,2}\s+)?(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?\s+(?:\d{1,2},?\s+)?\d{4}"
    r"|(?<![\d,.])(?:1[0-9]{3}|20[0-9]{2})(?![\d,]|\.\d)",
    re.IGNORECASE,
)
# dates said as a list are one answer: "won the FA Cup in 1898 and 1959"
_DATES = rf"(?:{_DATE.pattern})(?:(?:,\s+(?:{_DATE.pattern}))*,?\s+and\s+(?:{_DATE.pattern}))?"
# what may stand between the verb and the value, by the kind of value asked for
_BETWEEN = {"where": r"(?:in|at|near)\s+(?:the\s+(?=[A-Z]))?", "when": r"(?:(?:in|on)\s+)?", "who": r"by\s+",
            "what": ""}
# "What does Ana Ruiz run?" over "runs the plant nursery on Mill Lane": the words after the
# verb, up to a preposition, a conjunction or punctuation
_STOPS = (r"(?:on|in|at|and|or|but|with|for|from|to|by|of|near|there|here|then|before|after|while|when|where|until"
          r"|since|because|which|who|that|as|so)\b")  # "studied electronics [there before moving …]"
# a name inside the thing is part of it ("replaced the old Falcon system", not "the old")
_THING = rf"(?:(?:the|a|an|his|her|their)\s+)?(?:(?:(?!{_STOPS})[a-z][\w-]*|[A-Z][\w'’-]*)\s?){{1,4}}"
# names said as a list are one answer: "speaks Igbo, English and Swahili" (an "and" ends it)
_NAMES = rf"{_NAME.pattern}(?:(?:,\s+{_NAME.pattern})*,?\s+and\s+{_NAME.pattern})?"
_LETTERS = re.compile(r"[^\W\d_]+")
_OWNS = re.compile(r"['’]s\s+[a-z]")  # "Tobias Lindqvist's mother": a description of someone else
_PRONOUNS = frozenset("he she it they his her its their".split())
_KIN = re.compile(
    r"\W*(?:his|her|their)\s+(?:[a-z]+\s+)?(?:mother|father|parents?|wife|husband|spouse|partner|sons?|daughters?"
    r"|brothers?|sisters?|siblings?|child|children|grand\w+|uncle|aunt|cousin|family)\b",
    re.IGNORECASE,
)


def read_statement(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """The value every fed sentence about the question's subject states after its verb
    ("born in Braga" → Braga; a date for "When", a name after "by" for "Who"), or None
    when the question is not of that shape, no sentence states it, or two disagree."""
    question = where_question(question)  # "In which city was X born?" asks where, as the pipeline asks it
    asked = _ASKED.match(question)
    did = None if asked else _DID.match(question)
    shape = asked or did
    if shape is None:
        return _read_from(question, docs) or _read_agent(question, docs)
    wh = shape.group("wh").lower().split()[-1].replace("whom", "who").replace("year", "when")
    if did is not None and did.group("kind"):  # "Which instrument does Priya play?"; "What year did … move?"
        wh = "when" if did.group("kind").lower().endswith("year") else "what"
    if asked is not None and wh not in _BETWEEN:  # "Which client is Plover built for?"
        return _read_kind(asked, docs)
    subject, verb = shape.group("subject"), shape.group("verb").lower()
    up = (did.group("up") or "") if did else ""
    thing = (did.group("object") or "").strip() if did else ""  # "Where did Ruth Amsel study history?"
    asked_verb = " ".join(filter(None, (verb + up, thing)))  # "grow up", "study history", as the question says it
    if asked is None:  # "study" → studied / studies (with anything but a clause up to the place)
        if verb in _NOT_READ or (wh == "what" and thing):
            return None
        verb = _forms(verb, up)
    if not subject[0].isupper() or not _a_name(subject):
        return None  # "Where was the lead of X born?": a description, not a name
    found = _read(subject, asked_verb, verb, _stated(wh, verb, asked is not None, thing), docs)
    year = re.search(r"\d{4}", found.answer) if found and "year" in shape.group("wh").lower() else None
    return replace(found, answer=year.group(0)) if found and year else found  # "What year …?" → 1865


def _read_from(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """"Where is Claudia Cardinale from?" / "What city is … from?": where a fed sentence about
    the subject says it was born ("was born … in La Goulette") or formed. "What country is …
    from?" is not read: a birthplace is a town."""
    asked = _FROM.match(question)
    if asked is None or not _a_name(asked.group("subject")):
        return None
    verb = "born|formed"
    return _read(asked.group("subject"), "from", verb, _stated("where", verb, True, ""), docs)


# "Who owns the billing rewrite?", "Who will lead the migration?": a verb (third person, or
# after "will") and its object, as a sentence says them after its subject
_WHO_DOES = re.compile(
    r"^\s*who\s+(?:will\s+(?P<plain>(?-i:[a-z]{2,}))|(?P<third>(?-i:[a-z]{2,}s)))\s+(?P<object>[^?]{3,60}?)\s*\??\s*$",
    re.IGNORECASE,
)


def _plain_of(third: str) -> str:
    """A verb's plain form from its third person: owns → own, carries → carry, watches → watch."""
    if third.endswith("ies"):
        return third[:-3] + "y"
    return third[:-2] if third.endswith(("ches", "shes", "sses", "xes")) else third[:-1]


# words a sentence may open with before its subject ("Then Tomás will own …")
_LEADING = frozenset("then later now also meanwhile finally eventually currently today tomorrow yesterday next "
                     "afterwards still so thus hence therefore however instead soon".split())  # fmt: skip
_BEFORE_SUBJECT = STOP | _PRONOUNS | _LEADING  # "Then Tomás will own …", "She owns …": no name


def _read_agent(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """"Who owns the billing rewrite?" over "Tomás will own the billing rewrite.": the name
    right before the verb (any of its forms, "will" before it or not) when the question's
    object follows it as the question writes it; one name, or None."""
    asked = _WHO_DOES.match(question)
    if asked is None:
        return None
    third = (asked.group("third") or "").lower()
    if third in ("is", "was", "has", "does"):
        return None  # "Who is the lead?": a copula or an auxiliary, no verb of the subject's
    plain = asked.group("plain") or _plain_of(third)
    if plain.lower() in _NOT_READ:
        return None
    thing = asked.group("object")
    stated = re.compile(rf"({_NAME.pattern})\s+(?:(?i:will)\s+(?i:{re.escape(plain)})|(?i:{_forms(plain, '')}))"
                        rf"\s+(?i:{re.escape(thing)})\b")  # fmt: skip
    found: dict[str, Lookup] = {}
    for number, (_title, text) in enumerate(docs):
        for sentence in statement_units(linearise(text)):
            for match in stated.finditer(sentence):
                words = match.group(1).split()
                while words and words[0].lower() in _BEFORE_SUBJECT:
                    words = words[1:]
                half = len(words) // 2
                if half and words[:half] == words[half:]:
                    words = words[half:]  # "# Jonas Berg Jonas Berg leads …": a heading, then the sentence
                if words:
                    name = " ".join(words)
                    found.setdefault(name.lower(), Lookup(name, thing, plain, number, "text"))
    return next(iter(found.values())) if len(found) == 1 else None


_FROM_ASKED = re.compile(_FROM_OPENING + r"\b.*\bfrom\s*\??\s*$", re.IGNORECASE)  # its name may be gone


def said_as(question: str) -> str:
    """A question (or what it asks of the bridge) with the word a note says it with: "Where
    is Aiko Tanabe from?" is where she "was born" ("born" added, for the search and the
    bridge's re-read); any other question as it is."""
    return f"{question} born" if _FROM_ASKED.match(question) else question


def _a_name(subject: str) -> bool:
    """The subject holds a capitalised word of three letters or more and possesses nothing: a
    name, not a description ("Tobias Lindqvist's mother" is not Tobias, whose "born in
    Uppsala" was read for her)."""
    return any(len(w) >= 3 and w[0].isupper() for w in _LETTERS.findall(subject)) and not _OWNS.search(subject)


def _read_kind(asked: re.Match[str], docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """"Which client is Plover built for?": the name after the verb (as a participle, or as
    the subject's own verb: "builds and operates for") and the question's preposition."""
    subject, verb, prep = asked.group("subject"), asked.group("verb").lower(), asked.group("prep")
    if prep is None or not _a_name(subject):
        return None
    plain = _PLAIN.get(verb) or (verb[:-2] if verb.endswith("ed") else "")
    forms = f"{re.escape(verb)}|{re.escape(plain)}e?s" if plain else re.escape(verb)
    stated = re.compile(rf"\b(?i:{forms})(?:\s+and\s+[a-z]+)?\s+(?i:{prep})\s+(?:the\s+(?=[A-Z]))?({_NAME.pattern})")
    return _read(subject, f"{verb} {prep}", forms, stated, docs)


def _read(
    subject: str, column: str, verb: str, stated: re.Pattern[str], docs: Sequence[tuple[str, str]]
) -> Lookup | None:
    """The one value (``stated``'s group 1) that the fed sentences about ``subject`` state: a
    sentence holding a word of its name, or, in the document its title names, one holding a
    pronoun or opening with the ``verb`` pattern, or, anywhere, one opening with a pronoun
    right after a sentence that names the subject whole and no one else ("Mei Chen is a
    colleague. She grew up in Chengdu." in a note of several people); None when none does,
    or two differ."""
    names = {w.lower() for w in _LETTERS.findall(subject) if len(w) >= 3 and w[0].isupper()}
    found: dict[str, Lookup] = {}
    for number, (title, text) in enumerate(docs):
        # the subject's own document titles every word of its name: "He was drafted …" in Champ
        # Bailey's is not about Boss Bailey, and there a sentence must name him whole
        about = names <= _words(title)
        named = False  # the sentence before named the subject whole
        for sentence in statement_units(linearise(text)):
            words = _words(sentence)
            opens = re.match(rf"\(?(?:born\s+and\s+)?{verb}", sentence, re.I)  # "Born and raised in Porto", "(born …"
            follows = named and sentence.split(maxsplit=1)[0].lower() in _PRONOUNS
            named = names <= words and _capitalised(sentence) <= names  # no one else for a pronoun to mean
            if not (names <= words or follows or (about and (names & words or words & _PRONOUNS or opens))):
                continue
            if not names <= words and _KIN.match(sentence):
                continue  # "Her mother, Yolande Greco, was born in Tunisia": someone else's
            for match in stated.finditer(sentence):
                answer = match.group(1).strip()
                if _words(answer) and _words(answer) <= names:
                    continue  # only the subject's own name again
                found.setdefault(answer.lower(), Lookup(answer, subject, column, number, "text"))
    return next(iter(found.values())) if len(found) == 1 else None


# "How many parameters does Saltmarsh have?": a counted noun, a subject, a plain verb
_HOW_MANY = re.compile(
    r"^\s*how\s+many\s+(?P<noun>(?-i:[a-z][\w-]*)(?:\s+(?-i:[a-z][\w-]*)){0,2}?)\s+(?:does|did|do)\s+"
    r"(?P<subject>[A-Z].*?)\s+(?P<verb>(?-i:[a-z]+))\s*\??\s*$",
    re.IGNORECASE,
)
_COUNT = r"\d[\d,.]*\d(?:\s+(?:million|billion|thousand))?|\d(?:\s+(?:million|billion|thousand))?"
# "… has operations in how many countries?", "Over how many centuries were …": the counted
# noun is the plural of the (up to two) words after "how many" ("how many ethnic minorities")
_ANY_HOW_MANY = re.compile(
    r"\bhow\s+many\s+([a-z][\w-]*)(?:\s+(?!(?:was|has|does|is|this|his|its|us)\b)([a-z][\w-]*s)\b)?", re.IGNORECASE
)
_SPELLED = ("two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen"
            "|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|a dozen")
# a count's approximation is dropped ("some 45 miles" → 45), a bound kept ("more than 70")
_APPROX = r"(?:(?:about|around|some|roughly|approximately)\s+)?"
_BOUND_WORDS = r"more\s+than|over|at\s+least|up\s+to|nearly|almost"
_BOUND = rf"(?:(?:{_BOUND_WORDS})\s+)?"
_NOT_COUNTED = frozenset(("times", "years"))  # too often counted in passing to be the one answer


def read_count(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """"How many parameters does Saltmarsh have?" over "Saltmarsh has 22 million parameters":
    the number a fed sentence about the subject writes after the verb, before the counted
    noun (two words may stand between: "has 12 onboard sensors"); else the one count of that
    noun the fed text states (:func:`_counted`); None otherwise."""
    asked = _HOW_MANY.match(question)
    if asked is None or not asked.group("subject")[0].isupper():
        return _counted(question, docs)
    return _read_count(asked, docs) or _counted(question, docs)


def _read_count(asked: re.Match[str], docs: Sequence[tuple[str, str]]) -> Lookup | None:
    noun, verb = asked.group("noun").split()[-1].lower(), asked.group("verb").lower()
    noun_re = _noun_pattern(noun)
    forms = _forms(verb, "")
    count = rf"(?i:{_APPROX})((?i:{_BOUND})(?:{_COUNT}))"  # "over 300" kept, "some 45" → 45
    stated = re.compile(rf"\b(?i:{forms})\s+{count}\s+(?:[\w-]+\s+){{0,2}}?{noun_re}\w*\b")
    return _read(asked.group("subject"), asked.group("noun"), forms, stated, docs)


def _noun_pattern(noun: str) -> str:
    """A pattern for a counted noun by its :func:`~drrag_cli.text.words.stem`, any ending
    after it: "parameters" → "parameter…", "employees" → "employe…"."""
    return re.escape(stem(noun))


def _counted(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """"Scott Parkin has been a vocal critic of Exxonmobil and another corporation that has
    operations in how many countries?" over "it has operations in more than 70 countries":
    the one count of the asked noun the fed text writes ("more than 70", "three"; no bound
    the question says itself: "sold more than how many records"); None when none or two differ."""
    asked = _ANY_HOW_MANY.search(question)
    if asked is None:
        return None
    noun = (asked.group(2) or asked.group(1)).lower()
    if noun in _NOT_COUNTED or not noun.endswith("s"):
        return None
    noun_re = _noun_pattern(noun)
    bound = "" if re.search(rf"(?:{_BOUND_WORDS})\s+$", question[: asked.start()], re.I) else _BOUND
    stated = re.compile(rf"\b{_APPROX}({bound}(?:{_COUNT}|{_SPELLED}))\s+(?:[a-z][\w-]*\s+)?{noun_re}\w*\b", re.I)
    found: dict[str, Lookup] = {}
    for number, (title, text) in enumerate(docs):
        for match in stated.finditer(linearise(text)):
            value = match.group(1)
            found.setdefault(re.sub(r"\W+", " ", value.lower()), Lookup(value, title, noun, number, "text"))
    return next(iter(found.values())) if len(found) == 1 else None


def _stated(wh: str, verb: str, passive: bool, thing: str) -> re.Pattern[str]:
    """The pattern of a sentence part that states the asked value: the verb (a pattern), what
    may stand between it and the value (the question's object, if it has one), the value."""
    value = {"when": _DATES, "what": f"{_NAMES}|{_THING}"}.get(wh, _NAME.pattern)
    flags = re.IGNORECASE if wh == "when" else 0  # a name is capitalised; "Born and raised in Porto" too
    if passive and wh == "when":  # "was drafted by the Detroit Lions in the second round of the 2003 NFL Draft"
        between = r"(?:\s+and\s+[a-z]+)?(?:\s+(?!and\b|but\b|then\b)[\w'’-]+){0,10}?"
    elif passive:  # "was born Claude Joséphine Rose Cardinale in La Goulette": a birth name may stand between
        between = r"(?:\s+and\s+[a-z]+)?" + (r"(?-i:(?:\s+[A-Z][\w'’.-]*){0,5}?)" if "born" in verb else "")
    elif thing:  # "Where did Ruth Amsel study history?" → "studied history in Leiden"
        between = rf"\s+(?i:{re.escape(thing)})(?:\s+(?!and\b|but\b|then\b)[a-z][\w-]*){{0,2}}?"
    elif wh == "what":
        between = ""
    else:
        between = r"(?:\s+(?!and\b|but\b|then\b)[a-z][\w-]*){0,4}?"
    return re.compile(rf"\b(?i:{verb}){between}\s+{_BETWEEN[wh]}({value})", flags)


def _capitalised(sentence: str) -> set[str]:
    """The capitalised words of ``sentence`` after its first, lower-cased: the names it holds."""
    return {w.lower() for w in _LETTERS.findall(sentence)[1:] if w[0].isupper()}


def _words(text: str) -> set[str]:
    return {w.lower() for w in _LETTERS.findall(text)}


def _forms(verb: str, up: str) -> str:
    """A pattern for the past and third-person forms of a plain verb ("study" → studied |
    studies; "grow" + " up" → grew up | grows up, or raised | brought up)."""
    consonant_y = verb.endswith("y") and verb[-2:-1] not in "aeiou"
    past = _IRREGULAR.get(verb) or (
        verb[:-1] + "ied" if consonant_y else verb + ("d" if verb.endswith("e") else "ed")
    )
    third = _THIRD.get(verb) or (
        verb[:-1] + "ies" if consonant_y else verb + ("es" if verb.endswith(("s", "sh", "ch", "o")) else "s")
    )
    same = "".join(f"|{other}" for other in _SAID_ALSO.get(verb + up, ()))
    return rf"(?:(?:{past}|{third}){re.escape(up)}{same})"


def read_release(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """"When was Heron 1.0.0 released?" over a changelog's "## [1.0.0] - 2023-03-14": the date
    written right after the version the question names (a zero tail aside: 1.0 is 1.0.0),
    in a fed document that names a word of the question besides the version; None when no
    such date, or two."""
    version = named_version(question)
    if version is None or not re.match(r"\s*when\b", question, re.IGNORECASE):
        return None
    rest = _VERSION.sub(" ", re.sub(r"^\s*when\b", " ", question, flags=re.IGNORECASE))
    names = {w.lower() for w in _LETTERS.findall(rest) if len(w) >= 3 and w[0].isupper()}
    found: dict[str, Lookup] = {}
    for number, (title, text) in enumerate(docs):
        if names and names & _words(f"{title} {text}"):
            for written, date in release_dates(text, version):
                found.setdefault(date.lower(), Lookup(date, title, f"version {written}", number, "text"))
    return next(iter(found.values())) if len(found) == 1 else None


_DEFINE = re.compile(r"^\s*(?P<wh>(?i:what|who))\s+(?i:is|are|was|were)\s+(?P<subject>[A-Z][^?]*?)\s*\??\s*$")
ROLE_KEYS = frozenset(("role", "title", "position", "job", "job title", "occupation"))
_KIND = r"(?i:a|an|the|our|their|one)\s+[^.,;:!?]+"  # "a compact sentence embedding model for …"


def read_definition(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """"What is Saltmarsh?": what a fed sentence says the name is ("Saltmarsh is the dense
    retriever in our search product", "We describe Saltmarsh, a compact sentence embedding
    model …", a glossary's "**Saltmarsh** : Our compact …"), first from the documents whose
    title (before a colon) is the name, then in fed order; None when none says. "Who is
    Maren Okafor?" reads her profile's Role row first."""
    from drrag_cli.index.links import core_title

    asked = _DEFINE.match(question)
    if asked is None:
        return None
    if asked.group("wh").lower() == "who":  # "Who is Maren Okafor?": her profile's Role row
        role = _role(asked.group("subject"), docs)
        if role is not None:
            return role
    name, subject = re.escape(asked.group("subject")), asked.group("subject").lower()
    verb = r"(?:\s*\([^()]*\))?(?:\s+(?:is|are|was|were)\s+|,\s+|\*\*\s*:?\s*)"  # "Scott Derrickson (born 1966) is"
    said = re.compile(rf"(?<![\w-]){name}{verb}({_KIND})")
    # in the name's own document, the full name may run on: "Shirley Temple Black (…) was an American actress"
    own = re.compile(rf"(?<![\w-]){name}(?:\s+[A-Z][\w'’-]*){{0,2}}{verb}({_KIND})")
    order = sorted(range(len(docs)), key=lambda i: core_title(docs[i][0]).lower() != subject)
    for number in order:
        title, text = docs[number]
        text = re.sub(rf"^\s*#+\s*{re.escape(title)}", "", text)  # its title is a unit of its own
        pattern = own if core_title(title).lower() == subject else said
        for sentence in [title, *statement_units(linearise(text))]:
            found = pattern.search(sentence)
            if found:
                value = found.group(1).strip()
                if value.count("(") > value.count(")"):  # "the network storage box (96 TB raw, …": cut the aside
                    value = value[: value.rindex("(")].strip()
                return Lookup(value, asked.group("subject"), "is", number, "text")
    return None


def _role(name: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """The Role (Title, Position, …) key of the fed document titled ``name``."""
    from drrag_cli.text.tables import key_values

    for number, (title, text) in enumerate(docs):
        if title.strip().lower() == name.strip().lower():
            for key, value, kind in key_values(text):
                if key.strip().lower() in ROLE_KEYS and value.strip():
                    return Lookup(value.strip(), title, key, number, kind)
    return None
