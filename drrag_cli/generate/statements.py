"""A fact the text states outright, read in code: "Where was Inês Carvalho born?" over
"Inês was born in Braga and studied …" → Braga.

Gemma-3-270M, held to copying the fed text, often copies the line that holds the answer
instead of the answer: asked "Where was Inês Carvalho born?" over her profile it wrote
"Inês was born in Braga and studied computer engineering at …", or her table's first row.
When the question is a plain "Where / When / By whom was <Name> <verb>?" or "Where /
When did <Name> <verb>?" and the fed sentences about that name state the verb with one
value after it ("born in Braga", "founded in 1998", "directed by Steven Spielberg",
"studied economics at KU Leuven"), that value is the answer, as a table cell is
(:func:`.tables.lookup`). Two different values, or none, and the model answers.
Pure text work: no model, no index.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from drrag_cli.generate.compare import MONTHS
from drrag_cli.generate.tables import Lookup, linearise
from drrag_cli.ingest.units import statement_units

# "Where was Inês Carvalho born?", "When was Halyard Labs founded?", "Who was Jaws directed
# by?": the kind of value asked for, the subject (a name) and the verb (a past participle).
_ASKED = re.compile(
    r"^\s*(?P<wh>where|when|who|whom|by\s+whom)\s+(?:was|were|is|are)\s+(?P<subject>[A-Z].*?)\s+"
    r"(?P<verb>born|founded|established|opened|built|released|published|formed|created|launched|located|based|"
    r"headquartered|buried|raised|directed|written|produced|designed|composed)(?:\s+(?:in|by|at))?\s*\??\s*$",
    re.IGNORECASE,
)
# "Where did Tobias Lindqvist study?", "Where does Aiko Tanabe live?": a verb in its plain form
_DID = re.compile(
    r"^\s*(?P<wh>where|when)\s+(?:did|does|do)\s+(?P<subject>[A-Z].*?)\s+(?P<verb>[a-z]+)(?P<up>\s+up)?\s*\??\s*$",
    re.IGNORECASE,
)
_IRREGULAR = {"grow": "grew", "go": "went", "teach": "taught", "meet": "met", "leave": "left", "begin": "began",
              "become": "became", "win": "won", "build": "built", "find": "found", "write": "wrote", "sing": "sang"}
_NAME = re.compile(r"[A-Z][\w'’-]*(?:\s+(?:(?:of|de|da|do|du|van|von|der|del|la|le|upon|on)\s+)*[A-Z][\w'’-]*)*")
_DATE = re.compile(
    r"(?:\d{1,2}\s+)?(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?\s+(?:\d{1,2},?\s+)?\d{4}"
    r"|(?<![\d,.])(?:1[0-9]{3}|20[0-9]{2})(?![\d,]|\.\d)",
    re.IGNORECASE,
)
# what may stand between the verb and the value, by the kind of value asked for
_BETWEEN = {"where": r"(?:in|at|near)\s+(?:the\s+(?=[A-Z]))?", "when": r"(?:(?:in|on)\s+)?", "who": r"by\s+"}
_LETTERS = re.compile(r"[^\W\d_]+")
_PRONOUNS = frozenset("he she it they his her its their".split())


def read_statement(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """The value every fed sentence about the question's subject states after its verb
    ("born in Braga" → Braga; a date for "When", a name after "by" for "Who"), or None
    when the question is not of that shape, no sentence states it, or two disagree."""
    asked = _ASKED.match(question)
    did = None if asked else _DID.match(question)
    shape = asked or did
    if shape is None:
        return None
    wh = shape.group("wh").lower().split()[-1].replace("whom", "who")
    subject, verb = shape.group("subject"), shape.group("verb").lower()
    up = (did.group("up") or "") if did else ""
    asked_verb = verb + up  # "grow up", as the question says it
    if asked is None:  # "study" → studied / studies (with anything but a clause up to the place)
        verb = _forms(verb, up)
    if not subject[0].isupper():
        return None  # "Where was the lead of X born?": a description, not a name
    names = {w.lower() for w in _LETTERS.findall(subject) if len(w) >= 3 and w[0].isupper()}
    if not names:
        return None
    value = _DATE.pattern if wh == "when" else _NAME.pattern
    flags = re.IGNORECASE if wh == "when" else 0  # a name is capitalised; "Born and raised in Porto" too
    between = r"(?:\s+and\s+[a-z]+)?" if asked else r"(?:\s+(?!and\b|but\b|then\b)[a-z][\w-]*){0,4}?"
    stated = re.compile(rf"\b(?i:{verb}){between}\s+{_BETWEEN[wh]}({value})", flags)
    found: dict[str, Lookup] = {}
    for number, (title, text) in enumerate(docs):
        about = bool(names & _words(title))
        for sentence in statement_units(linearise(text)):
            words = _words(sentence)
            if not (names & words or (about and words & _PRONOUNS) or (about and re.match(verb, sentence, re.I))):
                continue
            for match in stated.finditer(sentence):
                answer = match.group(1).strip()
                if _words(answer) and _words(answer) <= names:
                    continue  # only the subject's own name again
                found.setdefault(answer.lower(), Lookup(answer, subject, asked_verb, number, "text"))
    return next(iter(found.values())) if len(found) == 1 else None


def _words(text: str) -> set[str]:
    return {w.lower() for w in _LETTERS.findall(text)}


def _forms(verb: str, up: str) -> str:
    """A pattern for the past and third-person forms of a plain verb ("study" → studied |
    studies; "grow" + " up" → grew up | grows up)."""
    consonant_y = verb.endswith("y") and verb[-2:-1] not in "aeiou"
    past = _IRREGULAR.get(verb) or (
        verb[:-1] + "ied" if consonant_y else verb + ("d" if verb.endswith("e") else "ed")
    )
    third = verb[:-1] + "ies" if consonant_y else verb + ("es" if verb.endswith(("s", "sh", "ch", "o")) else "s")
    return rf"(?:{past}|{third}){re.escape(up)}"
