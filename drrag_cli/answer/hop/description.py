"""Where a question describes the bridge entity, and the question about it by name.

"In which city was [the lead engineer of Project Heron] born?" → "In which city was Tobias
Lindqvist born?": :func:`bridge_question` finds the definite description a two-hop
question holds and replaces it with the entity :mod:`.decompose` found in the context,
when the first hop's own words describe the entity the same way (the noun a question asks
for is :mod:`.kinds`'s). Pure string rules, no model call.
"""

from __future__ import annotations

import re

from drrag_cli.answer.hop.describes import AGENT_VERBS, acts, describes
from drrag_cli.index.links import core_title
from drrag_cli.text.fence import neutralise
from drrag_cli.text.options import answer_options
from drrag_cli.text.words import STOP, WORD_RE, content

DETERMINERS = frozenset({"the", "a", "an"})
_RELATIVE = frozenset({"that", "which", "who", "whom"})
DO = frozenset({"do", "does", "did"})
BE = frozenset({"is", "are", "was", "were", "has", "have", "had"})
_HAVE = frozenset({"has", "have", "had"})
_WH = frozenset({"what", "which", "who", "whom", "whose", "where", "when", "how"})
_SUBJECT_WH = frozenset({"what", "which", "who"})  # "What is the X ...?": X is what is asked
PREPOSITIONS = frozenset({"in", "at", "on", "from", "for", "by", "to", "of", "during", "with"})
_TRAILING = frozenset({"from", "in", "on"})  # "What city is [the star of X] from?"
PARTICIPLE_RE = re.compile(r"(ed|en|wn|rn)$|^(made|held|built|set|shot|found|run|sold|won|led)$")


def bridge_question(question: str, entity: str, near: str | None = None, about: str = "") -> str | None:
    """``question`` with its first definite description replaced by ``entity``, or None
    when no rule below fits it safely, it is a choice or yes/no question, or it already
    names ``entity``.

    The question opens with its question word ("Who ...", "In which city ...") or with the
    description (:func:`_leading_description`: "The director of X is based in what city?"). The
    description starts at the first determiner after that word and runs to the end of
    the question ("Who owns [the tool that the how-to uses]?"), except a final participle
    after a form of be or have ("In which city was [the lead engineer of Project Heron]
    born?"). Left alone: a description after do/does/did, whose verb phrase may be long
    ("What did [the actress in My Fair Lady] win a Tony for?"), and one right after
    "What/Which/Who is", which is the asked-for thing, not the bridge ("What is [the
    county seat of ...] located?"). With ``near`` (what the static document says where it
    names the entity), the description must share a content word with it: "What rate did
    Plover reach after [the autumn release]?" is not about the lead named in "Lead: Inês
    Carvalho". Words of ``about`` (the static document's title) do not count: every line
    of the Tern retrospective is about Tern. A possessive description of the entity comes
    first, also inside a definite one (:func:`_possessive`: "Where was the mother of
    [Heron's lead engineer] born?").
    """
    question, entity = neutralise(question), neutralise(entity)
    if not entity or answer_options(question) or entity.lower() in question.lower():
        return None
    return _possessive(question, entity, near, about) or _definite(question, entity, near, about)


def _definite(question: str, entity: str, near: str | None, about: str) -> str | None:
    """:func:`bridge_question` for a description that opens with a determiner."""
    words = question.rstrip(" ?").split()
    lower = [w.lower() for w in words]
    opens = lower[:1] if lower[:1] and lower[0] in _WH else lower[:2]
    if not opens or opens[-1] not in _WH or (len(opens) == 2 and opens[0] not in PREPOSITIONS):
        return _leading_description(words, lower, entity, near, about)
    if lower[len(opens) : len(opens) + 1] in (["of"], ["among"]) or lower[len(opens) : len(opens) + 2] == ["one", "of"]:
        return None  # "Which of [the founders of X] contributed ...?": the answer is one of them
    for i in range(len(opens), len(words)):
        if lower[i] not in DETERMINERS or _names(words, i):
            continue  # "What treaty ceded territory to [the US] extending ...": a name, not a description
        if _WH & set(lower[len(opens) : i]):
            return None  # "Where did [who argued that ...] declare ...?": a question inside the question
        tail = 0
        if lower[i - 1] in DO:  # "What did [the actress in My Fair Lady] win a Tony for?"
            return _done_by(words, lower, i, entity, near, about)
        if lower[i - 1] in BE:
            if i - 1 == len(opens) and lower[0] in _SUBJECT_WH:  # "What is [the county seat of ...]?": the answer
                return _described_inside(words, lower, i, entity, near, about)
            if not (_participle(words[-1]) or lower[-1] in _TRAILING):
                return None
            tail = 1  # "... born?"; "What city is [the star of X] from?"
        span = lower[i : len(words) - tail]
        if lower[i - 1] == "both" or not _one_phrase(span, words[i : len(words) - tail]):
            return None  # "... held by [the empire that ..., the leader of ..., and the Habsburg Monarchy]"
        if tail and span[-1] in BE:  # "[the client for which Project Tern was] built": the participle is the clause's
            return _inner_description(words, lower, i, entity, near, about)
        if tail and span[-1] in ("be", "been"):  # "Whose father was [a navigator who ... would later be born]?"
            tail, span = 0, lower[i:]  # the participle is the description's own: "Whose father was John Cabot?"
        if len(span) < 2 or (span[-1] in PREPOSITIONS and not _RELATIVE & set(span[1:-1])):
            return None  # "... birthplace [a part of]?"; "[the cluster that X was trained on]" is whole
        if near is not None and not describes(" ".join(span), near, about, entity):
            return None  # the static document does not describe the entity this way
        at = _innermost(words, lower, i, len(words) - tail, near, about, entity)
        return " ".join([*words[:at], entity, *words[len(words) - tail :]]) + "?"
    return None


# what a note says where it names the one a possessive describes: "Erik Hort's birthplace" is
# where "Erik Hort was born", "Anna Benson's husband" whom she "married" (or whose "ex-wife" she is)
_POSSESSED_AS = {"birthplace": ("born",), "hometown": ("born",), "spouse": ("married", "wife", "husband"),
                 "husband": ("married", "wife"), "wife": ("married", "husband"), "employer": ("works",),
                 "alma": ("studied",), "mater": ("studied",)}  # fmt: skip


def _possessive(question: str, entity: str, near: str | None, about: str) -> str | None:
    """"Where was [Heron's lead engineer] born?" → "Where was Tobias Lindqvist born?": the
    static document's title (its core: "Heron: project overview" → Heron), with any
    capitalised words before it ("Project Heron's"), possesses one or two words that the
    document says where it names the entity ("Lead engineer | Tobias Lindqvist"; a
    birthplace where someone "was born": :data:`_POSSESSED_AS`). Left alone: another
    possessor, words the document does not say there, "What / Who is [Heron's lead]?",
    which asks for the entity itself, and the object of an agent noun the document states
    with its verb ("the leader of [the water board's flood team]", which "is led by" the
    entity: :func:`.describes.acts`). A possessed phrase that possesses in turn keeps its "'s":
    "[Heron's lead engineer]'s mother" is "Tobias Lindqvist's mother"."""
    title = WORD_RE.findall(core_title(about).lower())
    if near is None or not title:
        return None
    said = content(near) - content(about)
    words = question.rstrip(" ?").split()
    for j, word in enumerate(words):
        owner = _POSSESSIVE.sub("", word)
        if owner == word or [w.lower() for w in [*words[j - len(title) + 1 : j], owner]] != title:
            continue
        start = j - len(title) + 1
        while start > 1 and words[start - 1][:1].isupper():
            start -= 1  # "Project Heron's"; never the question's first word
        if start > 1 and words[start - 1].lower() in DETERMINERS:
            start -= 1  # "[the Tidepool design's author]"
        opening = [w.lower() for w in words[:start]]
        itself = bool(opening) and opening[0] in _SUBJECT_WH and set(opening[1:]) <= BE  # "What is [Heron's lead]?"
        if not opening or (opening[-1] in PREPOSITIONS and acts(opening[-4:-1], near)):
            return None  # "the leader of [the water board's flood team]", "led by" him: he is the leader
        for stop in (j + 3, j + 2):
            possessed = [w.lower() for w in words[j + 1 : stop]]
            owns = bool(possessed) and _POSSESSIVE.search(possessed[-1]) is not None  # "lead engineer's mother"
            possessed[-1:] = [_POSSESSIVE.sub("", w) for w in possessed[-1:]]
            if len(possessed) != stop - j - 1 or not all(w.isalpha() and w not in STOP for w in possessed):
                continue
            if all(content(w) <= said or any(content(a) <= said for a in _POSSESSED_AS.get(w, ())) for w in possessed):
                if itself and not owns:
                    return None  # asks for the lead; "Who is [Heron's lead]'s wife?" asks for his wife
                return " ".join([*words[:start], f"{entity}'s" if owns else entity, *words[stop:]]) + "?"
        return None
    return None


def _innermost(
    words: list[str], lower: list[str], at: int, end: int, near: str | None, about: str, entity: str = ""
) -> int:
    """Where the description the entity replaces starts: at ``at``, or at the innermost
    description nested in it after a preposition, when that one alone is what the static
    document says of the entity (``near``): "In which year was the university attended by
    [the lead engineer of Project Heron] founded?" → "... attended by Tobias Lindqvist
    founded?", not "In which year was Tobias Lindqvist founded?". Not past a relative word:
    in "the client that signed the largest contract of the year" the client is described."""
    if near is None:
        return at
    for j in range(end - 2, at, -1):
        if lower[j] not in DETERMINERS or lower[j - 1] not in PREPOSITIONS or _names(words, j):
            continue
        if (_RELATIVE | {"where", "when"}) & set(lower[at:j]):
            continue
        if _one_phrase(lower[j:end]) and describes(" ".join(words[j:end]), near, about, entity):
            return at if acts(lower[at:j], near) else j
    return at


def _participle(word: str) -> bool:
    """A past participle that closes the question ("... was [the lead engineer of X]
    born?"); a capitalised word is a name ("How long is [the bridge ... Malmo,] Sweden?")."""
    return word[:1].islower() and bool(PARTICIPLE_RE.search(word))


_PARTICLES = frozenset({"de", "la", "le", "del", "di", "da", "van", "von", "der", "of", "and", "&"})


def _names(words: list[str], at: int) -> bool:
    """The determiner at ``at`` opens a name, not a description: capitalised words (name
    particles between them) that end the question or are followed by a verb form in -ed /
    -ing ("[the Palau de la Generalitat] constructed in ...", "[the US] extending west
    ..."). "[the GPU cluster] that ...", "[the King] who made ..." are descriptions."""
    end = at + 1
    while end < len(words) and (words[end][:1].isupper() or (end > at + 1 and words[end] in _PARTICLES)):
        end += 1
    if end == at + 1:
        return False
    if end == len(words):
        return True
    return words[end].lower().endswith(("ed", "ing"))


def _one_phrase(span: list[str], written: list[str] | None = None) -> bool:
    """A description is one noun phrase: no comma, except an aside that closes it ("[the
    Italian Baroque composer who composed a set of sonatas, titled Op. 5,] born"). Commas
    elsewhere join a list or a second clause ("[the record ..., and was surpassed by ...]").
    Without a relative clause, a later determiner follows a preposition ("the lead engineer
    of [the] project"); after a verb it opens the verb's object ("[the midwest hosts a 500
    mile race every May]"). After "both" the description is one of a pair."""
    commas = [j for j, w in enumerate(span) if "," in w and not (written and _inside_name(written, j))]
    if commas and not (len(commas) == 2 and commas[1] == len(span) - 1):
        return False
    if _RELATIVE & set(span) or {"where", "when"} & set(span):
        return True  # a relative clause holds its own verb and objects
    return all(span[j - 1] in PREPOSITIONS for j in range(1, len(span)) if span[j] in DETERMINERS)


def _inside_name(written: list[str], j: int) -> bool:
    """The comma after ``written[j]`` stands inside a name: a year after it ("the Israeli
    presidential election, 2000"), or capitalised words on both sides ("Kingston, Jamaica")."""
    right = written[j + 1].rstrip(",?") if j + 1 < len(written) else ""
    return (len(right) == 4 and right.isdigit()) or (written[j][:1].isupper() and right[:1].isupper())


_DONE_BY_WORDS = 4  # between the determiner and the title: a longer stretch holds a clause of its own


def _done_by(
    words: list[str], lower: list[str], at: int, entity: str, near: str | None, about: str
) -> str | None:
    """A description after do / does / did ends where the verb phrase starts, which only
    the static document's title tells (or a name it says beside the entity: :func:`_named_ends`):
    "Which musical instrument does [the lead of Project Plover] play?" → "Which musical
    instrument does Inês Carvalho play?". The description
    runs from the determiner through a preposition or relative word to that title
    (``about``, its core: "Plover: project overview" → "Plover") in at most
    :data:`_DONE_BY_WORDS` words ("lead of Project"); a verb phrase follows it,
    not a possessive ("[the city where Pacem in Terris]' author died"); and the static
    document describes the entity with a word of it (``near``). A relative clause may take
    one word more and ends on its own "is" or "is located" ("When did [the state where
    Pocahontas Mounds is located] become ..."); "the country containing X" joins by its verb."""
    if near is None:
        return None
    for title in [*_title_ends(about), *_named_ends(words[at:], near, about, entity)]:
        found = _done_by_title(words, lower, at, title, entity, near, about)
        if found != _NO_TITLE:
            return found
    return None


_NO_TITLE = ""  # _done_by_title: the title is not in the question; None: it is, and no rule fits


def _title_ends(about: str) -> list[list[str]]:
    """The word sequences that may end a description after do / does / did: the static
    document's title (its core), then its name without the common noun that follows it
    ("Elmstead library" → "Elmstead": "Where did [the head librarian of Elmstead] study?");
    none for an empty title."""
    core = core_title(about).split()
    if not core:
        return []
    title = [_DASHES.sub("-", w.lower()) for w in core]  # "1979–80" is "1979-80"
    lead = next((n for n, w in enumerate(core) if not w[:1].isupper()), len(core))
    return [title, title[:lead]] if 0 < lead < len(core) else [title]


def _named_ends(words: list[str], near: str, about: str, entity: str) -> list[list[str]]:
    """Names in a description (``words`` from its determiner on; capitalised runs) that the
    static document says where it names the entity, with a word of the description before the
    name said there too: a description after do / does / did may end at such a name as at the
    document's title ("Where did [the person who recommended Piranesi] grow up?" over a reading
    log's "Piranesi was recommended by Mei Chen"; not "[the author of Piranesi]")."""
    ends = []
    for run in re.finditer(r"(?<![\w'’])[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*", " ".join(words)):
        name = [_POSSESSIVE.sub("", w.lower()) for w in run.group(0).split()]
        said = re.search(rf"(?<!\w){re.escape(' '.join(name))}(?!\w)", near, re.IGNORECASE)
        if said and describes(" ".join(words)[: run.start()], near, about, entity):
            ends.append(name)
    return ends


def _done_by_title(
    words: list[str], lower: list[str], at: int, title: list[str], entity: str, near: str, about: str
) -> str | None:
    """:func:`_done_by` for one of :func:`_title_ends`; :data:`_NO_TITLE` when the question
    does not hold it after the determiner."""
    for end in range(at + 1 + len(title), len(words)):
        if [_DASHES.sub("-", _POSSESSIVE.sub("", w.strip("\"'’"))) for w in lower[end - len(title) : end]] != title:
            continue
        between = lower[at + 1 : end - len(title)]
        if not between:  # "[the 1979-80 European Cup winner] win ...": an agent noun after the title
            if lower[end] not in AGENT_VERBS or end + 1 >= len(words):
                return None
            return _replaced_if(words, at, end + 1, entity, near, about)
        clause = bool(set(between) & (_RELATIVE | {"where"}))
        joined = set(between) & (PREPOSITIONS | _RELATIVE | {"where"}) or any(w.endswith("ing") for w in between)
        if len(between) > _DONE_BY_WORDS + clause or not joined:
            return None  # "did [the team have dinner during the offsite at which ... the Plover] ingestion service"
        if words[end - 1][-1] in "'’" or lower[end] in ("'s", "’s") or _POSSESSIVE.search(lower[end - 1]):
            end = _possessed(words, end, near)  # "[the leader of the water board's flood team] sail"
            if end is None:
                return None
        elif clause and lower[end] in BE - _HAVE:  # "[the state where Pocahontas Mounds is located] become"
            end += 2 if end + 2 < len(words) and _participle(words[end + 1].rstrip(",")) else 1
        return _replaced_if(words, at, end, entity, near, about)
    return _NO_TITLE


def _replaced_if(words: list[str], at: int, end: int, entity: str, near: str, about: str) -> str | None:
    """The question with ``words[at:end]`` replaced by ``entity``, if the static document
    describes the entity that way (:func:`.describes.describes`)."""
    if not describes(" ".join(words[at:end]), near, about, entity):
        return None
    return " ".join([*words[:at], entity, *words[end:]]) + "?"


_POSSESSIVE = re.compile(r"['’]s$")
_DASHES = re.compile(r"[‐-―−]")


def _possessed(words: list[str], end: int, near: str) -> int | None:
    """Where a description that runs on past the title's possessive ends: after the one or
    two words it possesses, when the static document says them where it names the entity
    ("Its flood team is led by [[Jonas Berg]]" for "the regional water board's [flood
    team]"), with a verb phrase left after them; None otherwise (as "[the city where
    Pacem in Terris]' author died" is: its document does not say "author" there)."""
    start = end + 1 if words[end].lower() in ("'s", "’s") else end
    said = content(near)
    for stop in (start + 2, start + 1):
        possessed = content(" ".join(words[start:stop]))
        if stop < len(words) and possessed and possessed <= said:
            return stop
    return None


def _inner_description(
    words: list[str], lower: list[str], at: int, entity: str, near: str | None, about: str
) -> str | None:
    """The bridge described inside the asked attribute, when the question's participle
    closes the inner description's own clause: "In which city is the headquarters of [the
    client for which Project Tern was built]?" → "In which city is the headquarters of
    Nortada Ferries?". The inner description follows "of" + a determiner, holds a relative
    word, and the static document must describe the entity with a word of it (``near``).
    With no such inner one, the clause is the whole description's: "In what county is [the
    city where Harris W. Fawell was born]?" → "In what county is West Chicago?"."""
    if near is None:
        return None
    for j in range(at + 2, len(words) - 2):
        if lower[j] in DETERMINERS and lower[j - 1] == "of" and _RELATIVE & set(lower[j + 1 :]):
            if not describes(" ".join(words[j:]), near, about, entity):
                return None
            return " ".join([*words[:j], entity]) + "?"
    clause = (_RELATIVE | {"where", "when"}) & set(lower[at + 1 :])
    if not clause or not _one_phrase(lower[at:]) or not describes(" ".join(words[at:]), near, about, entity):
        return None
    return " ".join([*words[:at], entity]) + "?"


def _described_inside(
    words: list[str], lower: list[str], at: int, entity: str, near: str | None, about: str
) -> str | None:
    """"Who is the Chief Justice of [the country where Masherbrum is located]?" → "Who is the
    Chief Justice of Pakistan?": after "What / Who is", the description asks for the answer,
    but the innermost description after a preposition, running to the end of the question,
    may be the bridge: it names the static document (``about``), which describes the entity
    with a word of it (``near``), opens with a common noun ("[the IFFHS in 1992]" is a name),
    and no relative word stands before it ("the physicist who directed ... at [the same
    place ...]"), nor a description inside its own clause (in "the castle in [the city where
    the performer of X formed]" the entity is the performer). A possessive at its end is the
    entity: "the bridge in the birthplace of [Gloria in D Major's composer]"."""
    title = content(core_title(about))
    if near is None or not title:
        return None
    for j in range(len(words) - 2, at + 1, -1):
        if lower[j] not in DETERMINERS or lower[j - 1] not in PREPOSITIONS or _names(words, j):
            continue
        if (_RELATIVE | {"where", "when"}) & set(lower[at:j]) or not words[j + 1][:1].islower():
            return None
        span = lower[j:]
        if not title <= content(" ".join(span)):
            return None
        clause = next((k for k, w in enumerate(span) if w in _RELATIVE | {"where", "when"}), None)
        if clause is None and _participle(words[-1]):
            return None  # "What is the county seat of [the X] located?": no description ends on a verb
        if clause is not None and DETERMINERS & set(span[clause:]):
            return None
        if not _one_phrase(span) or not describes(" ".join(words[j:]), near, about, entity) or acts(lower[at:j], near):
            return None
        owner = [k for k in range(j, len(words)) if _POSSESSIVE.search(lower[k])]
        if owner:  # "the birthplace of [Gloria in D Major's composer]": only the possessive is the entity
            of = [k for k in range(j, owner[-1]) if lower[k] == "of"]
            return " ".join([*words[: of[-1] + 1], entity]) + "?" if owner[-1] == len(words) - 2 and of else None
        return " ".join([*words[:j], entity]) + "?"
    return None


_AUX = BE | frozenset({"can", "could", "will", "would"})


def _leading_description(
    words: list[str], lower: list[str], entity: str, near: str | None, about: str
) -> str | None:
    """A question whose question word comes late and that opens with the description:
    "[The director of the romantic comedy Big Stone Gap] is based in what New York city?"
    → "Adriana Trigiani is based in what New York city?". The description runs from the
    opening determiner to the first form of be / have or can / could / will / would; the
    question word must follow it, and the static document must describe the entity with a
    word of it beyond its own title (``near``, ``about``: "The Album Against the Wind was
    the 11th album of ..." is about the album, not the singer). One sentence, no comma."""
    if near is None or not lower or lower[0] not in DETERMINERS or any("," in w or "." in w[:-1] for w in words):
        return None
    end = next((i for i, w in enumerate(lower) if w in _AUX), None)
    if end is None or end < 3 or not _WH & set(lower[end + 1 :]) or _RELATIVE & {lower[end - 1]}:
        return None
    if not describes(" ".join(words[:end]), near, about, entity):
        return None
    return " ".join([entity, *words[end:]]) + "?"


def said_of(entity: str, text: str, cues: set[str]) -> bool:
    """``text`` names ``entity`` (a word of three letters or more) before its first word of
    ``cues``: the description is said of the entity ("Hannah is the product manager for
    Heron"), not of a name after it ("Lead engineer | Tobias Lindqvist")."""
    words = WORD_RE.findall(text.lower())
    names = {w.lower() for w in WORD_RE.findall(entity) if len(w) >= 3}
    at_name = next((i for i, w in enumerate(words) if w in names), None)
    at_cue = next((i for i, w in enumerate(words) if w in cues), None)
    return at_name is not None and at_cue is not None and at_name < at_cue
