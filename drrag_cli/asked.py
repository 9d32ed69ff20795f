"""What a question asks, parsed once: :class:`Question`.

Every rule of the answer stage used to read the question's text with its own regex, and
they disagreed (three yes/no tests, two "what kind is asked for"). Here each property is
read once, from the checked question (:func:`drrag_cli.question.checked_question`), and
the readers, rewrites and prompts read the :class:`Question`:

* ``wh``: the question word it opens with ("In which city …" → which), "" for none;
* ``options``: the answers it allows: its two sides ("Which reached 1.0 first, Heron or
  Plover?" → Heron | Plover) or yes | no; ``yes_no`` is the one yes/no test of the package;
* ``cue``: a comparison's cue word, what it compares (a time or a number) and whether the
  larger value wins ("older" → time, the earlier date wins);
* ``kind``: the kind of thing asked for ("based on what oversteering [technique]?");
* ``names``: the capitalised names it mentions; ``plain``: its words, lower-case, one space
  apart, to find a title in ("peter curtis");
* ``subject`` and ``relation``: the name and the verb of "Where was <Name> born?", "When
  did <Name> <verb> …?" ("Inês Carvalho", "born");
* ``alike``: what a yes/no question asks two sides to have alike (:class:`Alike`): "the same
  country", "both film directors", "both located in Michigan".
* ``bridge``: the relation a comparison asks of each side rather than of the side itself,
  the noun after "has the / whose" or before "of film" ("Which film has the director who
  died first, X or Y?" → director): each side's value is one hop away, in that person's
  document;
* ``life``: the event of a person's life a time comparison asks about, "birth" ("born
  first", "older") or "death" ("died first", "died later"), "" for neither;
* ``trait``: what an open question asks of a person: "birth" or "death" (the date: "When
  was … born?", "What is the date of death of …?"), "birthplace" or "deathplace" ("Where
  did … die?", "the place of birth of …") or "nationality" ("What nationality is …?",
  "Which country … from?"); "" for none;
* ``kin_word``, ``kin_path``: the kin word asked and the parent / spouse / child links it is
  made of, the named person's first ("Who is X's paternal grandmother?" → father, mother; "the
  mother-in-law of X" → spouse, mother): the first is the second document's relation to the
  first; ``kin`` is the one link of a one-link word ("When did Y's father die?" → father), ""
  otherwise;
* ``links``: how many words join one thing it names to the next: relative words ("where",
  "whose", "that" …), a possessive "'s", a preposition before an article ("of the", "by a").
  "Who was in charge of the country where the composer of Aschenbrodel was a citizen?"
  holds three: a chain of three documents (retrieval gives it a slot for a third hop).

:func:`parse` is cached: a stage that has only the text gets the same object, not a new parse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from drrag_cli.text.fence import neutralise
from drrag_cli.text.options import answer_options
from drrag_cli.text.words import PARTICLES, STOP, WORD_RE

# -- the question word ---------------------------------------------------------------------------
_WH = re.compile(
    r"^\s*(?:(?:in|at|on|from|for|of|by|to)\s+)?(what|which|who|whom|whose|where|when|why|how)\b", re.IGNORECASE
)

# -- a comparison's cue: word -> (what is compared, the side with the larger value wins?) ---------
CUES = {
    **dict.fromkeys(("first", "earlier", "earliest", "older", "oldest", "sooner", "before"), ("time", False)),
    **dict.fromkeys(("later", "latest", "last", "younger", "youngest", "newer", "newest", "after"), ("time", True)),
    **dict.fromkeys(("more", "most", "larger", "largest", "bigger", "biggest", "higher", "highest", "greater",
                     "longer", "longest", "taller", "tallest", "heavier", "many"), ("number", True)),
    **dict.fromkeys(("fewer", "fewest", "less", "least", "smaller", "smallest", "lower", "lowest", "shorter",
                     "shortest", "lighter"), ("number", False)),
}  # fmt: skip
_RECENTLY = re.compile(r"\b(?:more|most)\s+recent(?:ly)?\b")  # a time, not the number "more" reads as

# -- the kind asked for ----------------------------------------------------------------------------
PREPOSITIONS = frozenset({"in", "at", "on", "from", "for", "by", "to", "of", "during", "with"})
# "what / which / this <kind>": the words after it up to punctuation, a preposition, a verb
_ASKS = re.compile(r"\b(?:what|which|this)\s+([^,;:?()\"]+)", re.IGNORECASE)
# a question with no question word asks for its first "a / an <kind> who / that …": "Kaiser
# Ventures corporation was founded by an American industrialist who became known as …?"
_NO_WH = re.compile(r"\b(?:what|where|when|why|how)\b|^\s*(?:which|who|whom|whose)\b", re.IGNORECASE)  # not "… who"
_DESCRIBED = re.compile(r"\b(?:a|an)\s+([^,;:?()\"]+?)\s+(?:who|that|whose)\b", re.IGNORECASE)
# a verb or a past participle ends the kind; "-en" alone would end it at "garden" or "citizen"
_VERBISH = re.compile(
    r"ed$|^(?:is|are|was|were|be|has|have|had|do|does|did|can|will|would|made|held|born|known|written|given|taken"
    r"|shown|seen|drawn|grown|chosen|spoken|driven|broken|won|led|sold|built|found|set|run|shot)$"
)

# -- names, and the relation asked of one ------------------------------------------------------------
_NAME_RE = re.compile(rf"\b[A-Z][\w'’-]+(?:(?:[ ]|[ ]&[ ]|(?:[ ](?:{PARTICLES})){{1,2}}[ ])[A-Z][\w'’-]+)*")
# "Where was Inês Carvalho born?", "Who was Jaws directed by?": a name, then a past participle
_PASSIVE = re.compile(
    r"^\s*(?:where|when|who|whom|by\s+whom|(?:in\s+)?(?:what|which)\s+[a-z]+)\s+(?:was|were|is|are)\s+"
    r"(?P<subject>[A-Z].*?)\s+(?P<verb>(?-i:[a-z]+(?:ed|en|wn|rn))|born|built|found|held|led|made|sold|set|won)"
    r"(?:\s+(?:in|by|at|for|to|with|from|on))?\s*\??\s*$",
    re.IGNORECASE,
)
# "Where did Tobias Lindqvist study?", "What does Ana Ruiz run?": a name, then a plain verb
_ACTIVE = re.compile(
    r"^\s*(?:where|when|what|(?:what|which)\s+[a-z]+(?:\s+[a-z]+)?)\s+(?:did|does|do)\s+(?P<subject>[A-Z].*?)\s+"
    rf"(?P<verb>(?!(?:{PARTICLES})\s)(?-i:[a-z]+))\b",
    re.IGNORECASE,
)
# -- a bridge: "Which film has the director who …", "… whose composer was born …", "the
# directors of films X and Y", "has the older director", "Which film's director …": the noun
# the sides are reached through (plural folded)
_BRIDGE = re.compile(
    r"\b(?:has|have|had|with|whose)\s+(?:the\s+|a\s+|an\s+)?(?P<noun>[a-z]+)\s+"
    r"(?:who|that|which|was|were|is|are|born|died|from|share|of\s+whom)\b"
    r"|\b(?P<of>[a-z]+)\s+of\s+(?:both\s+)?(?:the\s+)?(?:films?|songs?|albums?|books?|novels?|works?)\b"
    r"|\b(?:has|have|had|with)\s+(?:the\s+|an\s+)(?:older|oldest|younger|youngest|elder)\s+(?P<aged>[a-z]+)\b"
    r"|^\s*[Ww]hich\s+[a-z]+['’]s\s+(?P<own>[a-z]+)\s+(?:was|were|is|are|died|born)\b"
)
# the words that join one thing a question names to the next (``links``)
_LINKS = re.compile(
    r"\b(?:where|whose|which|that|who|whom|when)\b|['’]s\b|\b(?:of|by|in|from|for)\s+(?:the|a|an)\b", re.IGNORECASE
)
_DEATH = re.compile(r"\b(?:died|dies|die|death|dead|passed\s+away)\b", re.IGNORECASE)
# a kin word as the chain of parent / spouse / child links it is made of (``kin_path``)
_KIN_LINKS = {
    **{w: (w,) for w in ("father", "mother", "husband", "wife", "spouse", "child")},
    "son": ("child",), "daughter": ("child",),
    "paternal grandfather": ("father", "father"), "paternal grandmother": ("father", "mother"),
    "maternal grandfather": ("mother", "father"), "maternal grandmother": ("mother", "mother"),
    "grandfather": ("parent", "father"), "grandmother": ("parent", "mother"),
    "father-in-law": ("spouse", "father"), "mother-in-law": ("spouse", "mother"),
    "son-in-law": ("child", "spouse"), "daughter-in-law": ("child", "spouse"), "child-in-law": ("child", "spouse"),
    "uncle": ("parent", "brother"), "aunt": ("parent", "sister"),
    "stepfather": ("mother", "spouse"), "stepmother": ("father", "spouse"),
}  # fmt: skip
_KIN_WORD = "|".join(sorted((re.escape(w) for w in _KIN_LINKS), key=len, reverse=True))
# "X's paternal grandfather", "the mother-in-law of X" (a name after "of": "the spouse of the director of
# X" and "the spouse of Big Eye's director" reach the spouse last, not first)
_KIN_ASKED = re.compile(
    rf"['’]s\s+({_KIN_WORD})\b(?!-)|\bthe\s+({_KIN_WORD})\s+of\s+(?-i:[A-Z])(?![^?]*['’]s\b)", re.IGNORECASE
)
# what an open question asks of a person (``trait``), tried in order
_TRAITS = (
    ("birthplace", re.compile(r"\bplace\s+of\s+birth\b|\bbirthplace\b|^where\b.*\bborn\b")),
    ("deathplace", re.compile(r"\bplace\s+of\s+death\b|^where\b.*\b(?:die|died)\b")),
    ("birth", re.compile(r"\bdate\s+of\s+birth\b|\bbirthday\b|^(?:when|what\s+year|in\s+what\s+year)\b.*\bborn\b")),
    ("death", re.compile(r"\bdate\s+of\s+death\b|^(?:when|what\s+year|in\s+what\s+year)\b.*\b(?:die|died)\b")),
    ("nationality", re.compile(r"^what\s+nationality\b|^(?:which|what)\s+country\b.*\bfrom\b")),
)
_BIRTH = re.compile(r"\b(?:born|birth|older|oldest|younger|youngest|elder|age)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Cue:
    """A comparison's cue word, what it compares ("time" | "number") and whether the side
    with the larger value wins ("later", "more": yes; "first", "fewer": no)."""

    word: str
    kind: str
    larger_wins: bool


# -- what a yes/no question asks two sides to have alike ---------------------------------------------------
# "the same nationality", "different film genres": the words up to a preposition, a clause or the end
_SAME = re.compile(r"\b(same|different)\s+([^,;:?()\"]+)", re.IGNORECASE)
_BOTH = re.compile(r"\bboth\b\s*(?:of\s+)?([^?]*)", re.IGNORECASE)
# the property is a bridge's, not the named sides': "the directors of films A and B", "director of film A"
# ("do both films A and B have the directors that …")
_THROUGH = re.compile(
    r"\b(\w+?)s?\s+of\s+(?:the\s+|both\s+)*(?:films?|movies?|songs?|albums?|books?|novels?)\b"
    r"|\bha(?:ve|d)\s+(?:the\s+)?(\w+?)s?\s+(?:that|who|from)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Alike:
    """What a yes/no question asks two sides to have alike. ``how``: "same" (one value they
    share: "of the same nationality" → ``what`` "nationality"), "different" (the same, the
    answer turned) or "both" (a property each has: "both film directors" → "film directors",
    "both located in Michigan" → "located in michigan"); ``what`` is lower-case words, one
    space apart, and still holds the sides' names when "both" comes before them ("Are both
    Cypress and Ajuga genera?" → "cypress and ajuga genera": only the fed titles tell where a
    side ends). ``through``: the noun the property belongs to when it is a bridge's ("the
    directors of films A and B" → "director"), not the named sides'."""

    how: str
    what: str
    through: str = ""


@dataclass(frozen=True)
class Question:
    """A question's parts, read once from its text (see the module docstring)."""

    text: str
    wh: str = ""
    options: tuple[str, ...] = ()
    cue: Cue | None = None
    kind: str = ""
    names: tuple[str, ...] = ()
    plain: str = ""
    subject: str = ""
    relation: str = ""
    alike: Alike | None = None
    bridge: str = ""
    life: str = ""
    trait: str = ""
    kin_word: str = ""  # the kin word asked, as written ("paternal grandfather"); its links are ``kin_path``
    links: int = 0

    @property
    def kin_path(self) -> tuple[str, ...]:
        """The parent / spouse / child links ``kin_word`` is made of, the named person's first
        ("paternal grandmother" → father, mother), () for none."""
        return _KIN_LINKS.get(self.kin_word.lower(), ())

    @property
    def kin(self) -> str:
        """The relative a one-link kin word asks about ("When did Y's father die?", "Where was
        the wife of X born?"), "" for none or for a chain ("X's father-in-law")."""
        return self.kin_path[0] if len(self.kin_path) == 1 else ""

    @property
    def hop(self) -> str:
        """The relation the question's second document stands in to the one it names: the
        bridge, else its kin path's first link ("X's paternal grandfather" → father)."""
        return self.bridge or (self.kin_path[0] if self.kin_path else "")

    @property
    def yes_no(self) -> bool:
        """Asked to be answered yes or no: it opens with an auxiliary ("Are both …?", "Did
        …?") and offers no sides ("Was X or Y born first?" is a choice)."""
        return self.options == ("yes", "no")

    @property
    def choice(self) -> bool:
        """It offers two sides to choose from ("…, A or B?")."""
        return bool(self.options) and not self.yes_no


@lru_cache(maxsize=512)
def parse(text: str) -> Question:
    """The :class:`Question` ``text`` asks (cached: parsed once per text)."""
    flat = neutralise(text)
    wh = _WH.match(flat)
    options = answer_options(text)  # the one yes/no test of the package (text/options.py)
    return Question(
        text=text,
        wh=wh.group(1).lower() if wh else "",
        options=options,
        cue=_cue(text),
        kind=_kind(text),
        names=tuple(dict.fromkeys(_names(flat))),
        plain=" ".join(re.findall(r"\w+", text.lower())),
        alike=_alike(flat) if options == ("yes", "no") else None,
        bridge=_bridge(flat),
        life=_life(text),
        trait="" if options else _trait(flat),  # a choice asks which side, not a trait
        kin_word=_kin_word(flat),
        links=len(_LINKS.findall(flat)),
        **_relation(flat),
    )


def _life(text: str) -> str:
    """The life event a comparison asks about: "death" for "who died first / later", "birth"
    for "born first", "older"; read before the sides' comma, death first ("died younger")."""
    head = text.split(",")[0]
    return "death" if _DEATH.search(head) else "birth" if _BIRTH.search(head) else ""


def _trait(flat: str) -> str:
    """What an open question asks of a person (``trait``), "" for none."""
    asked = flat.lower()
    return next((trait for trait, pattern in _TRAITS if pattern.search(asked)), "")


def _kin_word(flat: str) -> str:
    """The kin word asked about a named person ("X's maternal grandmother", "the father-in-law
    of X"), as written; "" for none."""
    found = _KIN_ASKED.search(flat)
    return (found.group(1) or found.group(2)) if found else ""


def _bridge(flat: str) -> str:
    """The noun a two-sided question reaches each side's value through ("Which film has the
    director who was born first" → director, "the directors of films …" → director), "" for
    none; a cue or a stop word is never one ("has the most members" compares the side)."""
    found = _BRIDGE.search(flat)
    if found is None:
        return ""
    noun = next(found.group(g) for g in ("noun", "of", "aged", "own") if found.group(g))
    if noun.endswith(("ors", "ers")):
        noun = noun[:-1]
    return "" if noun in CUES or noun in STOP else noun


def _cue(text: str) -> Cue | None:
    """The comparison cue before the sides' comma: "Which board game was published most
    recently, …" is a time, the later one winning; "how many" is no cue."""
    head = text.lower().split(",")[0]
    if _RECENTLY.search(head):
        return Cue("recently", "time", True)
    for word in re.findall(r"[a-z]+", head):
        if word in CUES and not (word == "many" and "how many" in head):
            kind, larger = CUES[word]
            return Cue(word, kind, larger)
    return None


def _kind(text: str) -> str:
    """The kind a question asks for, lower-case: the last word before a preposition, a verb or
    a past participle after its first "what / which / this" ("based on what oversteering
    [technique]?", "this gospel [singer] born in July"), or in a question with no question
    word, in its first "a / an … who / that" ("by an American [industrialist] who became
    …"); "" when there is none."""
    found = _ASKS.search(text) or (None if _NO_WH.search(text) else _DESCRIBED.search(text))
    if found is None:
        return ""
    kind = ""
    for word in WORD_RE.findall(found.group(1).lower()):
        if word in PREPOSITIONS or word in STOP or _VERBISH.search(word):
            break
        kind = word
    return kind


def _names(flat: str) -> list[str]:
    """The capitalised names the question mentions, its opening question word aside."""
    out = []
    for found in _NAME_RE.finditer(flat):
        name = found.group(0)
        first, _, rest = name.partition(" ")
        if found.start() == len(flat) - len(flat.lstrip()) and first.lower() in _OPENERS:
            name = rest  # "Where Peter Curtis …" never; "Which Kestrel …" → "Kestrel …"
        if name:
            out.append(name)
    return out


_OPENERS = frozenset(
    ("what", "which", "who", "whom", "whose", "where", "when", "why", "how", "in", "at", "on", "is", "are", "was",
     "were", "do", "does", "did", "has", "have", "had", "can", "could", "will", "would")
)


def _relation(flat: str) -> dict[str, str]:
    """The subject and verb of "Where / When / Who was <Name> <participle>?" or "Where /
    When / What did <Name> <verb> …?"; empty when the question is not of that shape."""
    found = _PASSIVE.match(flat) or _ACTIVE.match(flat)
    if found is None:
        return {}
    return {"subject": found.group("subject"), "relation": found.group("verb").lower()}


def _alike(flat: str) -> Alike | None:
    """What a yes/no question asks two sides to have alike: "same / different <what>" (before
    a "both": "both of the same nationality" asks a shared value), else "both <what>"; None
    when it asks neither."""
    through = _THROUGH.search(flat)
    through_word = (through.group(1) or through.group(2)).lower() if through else ""
    same = _SAME.search(flat)
    if same is not None:
        what = []
        for word in WORD_RE.findall(same.group(2).lower()):
            if word in PREPOSITIONS or word in STOP or _VERBISH.search(word):
                break
            what.append(word)
        return Alike(same.group(1).lower(), " ".join(what), through_word) if what else None
    both = _BOTH.search(flat)
    if both is None or not both.group(1).strip():
        return None
    return Alike("both", " ".join(WORD_RE.findall(both.group(1).lower())), through_word)
