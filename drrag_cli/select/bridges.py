"""Named hops: the second document of a two-hop question is often the one *about* a name
that the first document states where the question points.

"Which instrument does the lead of Project Plover play?": the Plover overview says
"Lead: Inês Carvalho", and her profile opens with "# Inês Carvalho". "In which city is the
client that signed the largest new contract headquartered?": the board update says the
contract was signed by Kestrel Rail, and the client register has a row "| Kestrel Rail |
Regional rail operator | Linz |". The relevance classifier, trained on Wikipedia pairs,
gives such notes low probabilities (0.08 and 0.43 on the sample corpus), yet the link is
plain text. CFS keeps a named hop whatever its probability (:func:`names_hop`); the answer
stage rewrites the question with the same kind of names (:mod:`drrag_cli.answer.hop.decompose`).

Pure text functions: no index, no model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence, Set
from functools import lru_cache

from drrag_cli.index.links import core_title, explicit_links, links_to
from drrag_cli.ingest.units import units
from drrag_cli.text.words import CALENDAR, PARTICLES, STOP, WORD_RE, content, root, roots, words

NAME_RE = re.compile(
    rf"`([^`\s]{{3,40}})`|\b([A-Z][\w-]+(?:(?:[ ]|[ ]&[ ]|(?:[ ](?:{PARTICLES})){{1,2}}[ ])[A-Z][\w-]+)*)"
)  # capitalised words, joined by spaces, " & " ("Fennick & Daughters") or name particles


def names_title(question: str, title: str) -> bool:
    """``question`` holds every content word of ``title`` ("When did Inês Carvalho join?"
    names the note "Inês Carvalho"; "What is Heron?" does not name "Heron: project overview")."""
    said = content(title)
    return bool(said) and said <= content(question)


def inside(name: str, *texts: str) -> bool:
    """``name`` follows a lower-case word in one of ``texts`` ("trained on the Brackwater
    cluster"), so its capital is a name's, not a sentence's or a heading's ("4 Training")."""
    pattern = re.compile(rf"(?:\b[a-z]+,?\s+|`){re.escape(name)}\b")
    return any(pattern.search(text) for text in texts)


def about(name: str, text: str) -> bool:
    """``text`` is about ``name`` somewhere: a sentence, heading, list item or table row
    opens with it, or it is what something "is", "was" or "has" ("Brackwater is our GPU
    cluster", "| Kestrel Rail | Regional rail operator |", also inside a table collapsed onto
    one line); not a word in passing
    ("a former American football cornerback")."""
    opens = re.compile(rf"^[\s#*|>`-]*{re.escape(name)}\b")
    subject = re.compile(rf"\b{re.escape(name)}`?\s+(?:is|was|are|were|has|had)\b")
    row = re.compile(rf"\|\s*\|\s*`?{re.escape(name)}`?\s*\|")  # a table row's first cell, on one line
    return bool(subject.search(text) or row.search(text)) or any(opens.search(u) for u in units(text))


def relation(question: str) -> set[str]:
    """The question's content words (their :func:`~drrag_cli.text.words.root`) outside its names: what it asks
    about them ("the client for which Project Tern was built": client, built)."""
    return roots(question) - roots(" ".join(asked_names(question)))


def asked_names(question: str) -> set[str]:
    """The names a question holds (:data:`NAME_RE`, not its opening word): "NAS", "Kortrijk"."""
    return {m.group(0) for m in NAME_RE.finditer(question) if m.start() > 0}


_DO_QUESTION = re.compile(r"\b(?:do|does|did)\b.*\b([a-z]+)\W*$", re.IGNORECASE)


def closing_verb(question: str) -> set[str]:
    """The :func:`~drrag_cli.text.words.root` of a do-question's last word, the verb it asks
    ("How much does the NAS cost?": cost); empty otherwise."""
    found = _DO_QUESTION.search(question)
    return roots(found.group(1)) if found else set()


def pointed_units(question: str, title: str, texts: Iterable[str]) -> list[str]:
    """The units (sentences, rows, lines) of ``texts`` that share a :func:`relation` word
    beyond the words of their document's ``title`` (every line of the Tern retrospective
    is about Tern), most shared words first. When none of them names anything ("Tell
    the owner of the share" for "... tells you to use"), the document's own topic may be
    the bridge: its units follow. A question's closing verb after "do" ("How much does the
    replacement NAS from the Kortrijk supplier cost?") is what the answer states about the
    things it names: in a document that names none of them it points nowhere ("If it costs
    less, talk to Sofie Janssens" in a profile that never names the NAS or Kortrijk)."""
    texts = list(texts)
    pointed = relation(question) - roots(title)
    names = asked_names(question)
    if names and not content(" ".join(names)) & content(" ".join([title, *texts])):
        pointed -= closing_verb(question)
    found = sorted((u for t in texts for u in units(t) if pointed & roots(u)), key=lambda u: -len(pointed & roots(u)))
    if pointed and not any(names_in(u, question) for u in found):
        return found + [u for u in topic_units(topic_name(question, title, texts), texts) if u not in found]
    return found


def topic_units(topic: str, texts: Iterable[str]) -> list[str]:
    """The units of ``texts`` that name ``topic`` as code ("`ebbtide`"); [] without a topic."""
    return [u for t in texts for u in units(t) if topic and f"`{topic}`" in u]


def topic_name(question: str, title: str, texts: Sequence[str]) -> str:
    """The `code` word a document names most (twice at least, counting plain mentions),
    other than its title's and the question's words: what a how-to is about beside its
    title ("All backups are made with `ebbtide`"); "" when there is none or a tie."""
    asked = content(question) | content(title)
    text = " ".join(texts)
    counts: dict[str, int] = {}
    for code in dict.fromkeys(m.group(1) for m in NAME_RE.finditer(text) if m.group(1)):
        if not content(code) & asked:
            counts[code] = len(re.findall(rf"(?<![\w-]){re.escape(code)}(?![\w-])", text))
    ranked = sorted(counts.values(), reverse=True)
    if not ranked or ranked[0] < 2 or (len(ranked) > 1 and ranked[1] == ranked[0]):
        return ""
    return max(counts, key=counts.__getitem__)


NEAR = 10  # words between a name and the nearest question word, at most
COMMON = (10, 0.05)  # a name in more passages than both (a count, a share) is not a bridge (the company's)


def common(frequency: tuple[int, int]) -> bool:
    """Is a name with this (passages holding it, all passages) too common to be a bridge?"""
    return frequency[0] > max(COMMON[0], COMMON[1] * frequency[1])


@lru_cache(maxsize=4096)
def names_in(unit: str, question: str) -> tuple[tuple[str, int], ...]:
    """The names ``unit`` holds (capitalised word runs, `code` words) that the question does
    not, each with its distance in words to the nearest question word of the unit (at most
    :data:`NEAR`), nearest first: in "Tern was built for Nortada Ferries ... Facilitator:
    Maren Okafor" the client is the name next to "built". Leading stop words and month or
    day names are dropped; three characters at least."""
    asked, pointed = content(question), relation(question)
    hits = _hits(WORD_RE.findall(unit.lower()), pointed)
    out: dict[str, int] = {}
    for match in NAME_RE.finditer(unit):
        parts = (match.group(1) or match.group(2)).split()
        while parts and (parts[0].lower() in STOP or parts[0].lower() in CALENDAR):
            parts = parts[1:]
        name = " ".join(parts)
        if len(name) < 3 or content(name) & asked or name in out:
            continue
        gap = _gap(hits, len(WORD_RE.findall(unit[: match.start()])), len(WORD_RE.findall(name)))
        if gap <= NEAR:
            out[name] = gap
    return tuple(sorted(out.items(), key=lambda item: item[1]))


def linked_gap(
    question: str, units_1: Sequence[str], source_2: str, title_2: str, aliases_2: Iterable[str] = ()
) -> tuple[str, int] | None:
    """The second document's subject with the least distance in words between an explicit
    link to it ([[…]], […](…), by file name, title or alias: :func:`~drrag_cli.index.links.links_to`)
    in a pointed unit of the first document and the question's words there, at most
    :data:`NEAR`; None without such a link. "Its current chair is [[Marisol]]" leads to
    the note whose front matter lists the alias Marisol, a link no name or title shows."""
    pointed, best = relation(question), None
    for unit in units_1:
        hits = _hits(WORD_RE.findall(unit.lower()), pointed)
        for offset, target in explicit_links(unit):
            if links_to(target, source_2, title_2, aliases_2):
                gap = _gap(hits, len(WORD_RE.findall(unit[:offset])), max(1, len(WORD_RE.findall(target))))
                if gap <= NEAR and (best is None or gap < best[1]):
                    best = (core_title(title_2).strip() or title_2, gap)
    return best


def _hits(tokens: Sequence[str], stems: Set[str]) -> list[int]:
    """Where the lower-case words ``tokens`` have one of ``stems`` (stop words never do)."""
    return [i for i, w in enumerate(tokens) if w not in STOP and root(w) in stems]


def _gap(hits: Sequence[int], at: int, size: int) -> int:
    """Words between a name at word ``at`` (``size`` words long) and the nearest of ``hits``."""
    return min((max(at - h, h - (at + size - 1), 0) for h in hits), default=NEAR + 1)


def _hits_and_places(text: str, stems: Set[str], phrase: str) -> tuple[list[int], list[int], int]:
    """Where ``text``'s words (lower-case) have one of ``stems``, where ``phrase`` starts
    among them, and how many words ``phrase`` has."""
    tokens = WORD_RE.findall(text.lower())
    key = WORD_RE.findall(phrase.lower())
    hits = _hits(tokens, stems)
    places = [at for at in range(len(tokens) - len(key) + 1) if tokens[at : at + len(key)] == key]
    return hits, places, len(key)


def _near(name: str, text: str, adds: Set[str]) -> bool:
    """``text`` holds one of the stems ``adds`` within :data:`NEAR` words of ``name``."""
    hits, places, size = _hits_and_places(text, adds, name)
    return any(_gap(hits, at, size) <= NEAR for at in places)


def _subject_gap(subject: str, units_1: Sequence[str], question: str) -> tuple[str, int] | None:
    """``subject`` with its least distance to the question's words in ``units_1`` (a
    unit that names a document's own title needs no nearness: the title is the link)."""
    pointed = relation(question)
    best = None
    for unit in units_1:
        hits, places, size = _hits_and_places(unit, pointed, subject)
        for at in places:
            gap = _gap(hits, at, size)
            if best is None or gap < best[1]:
                best = (subject, gap)
    return best


def most_added(
    ids: Sequence[int], scores: Sequence[float], texts: Sequence[str], adds: Set[str], name: str = ""
) -> int:
    """The id (of ``ids``, with their ``scores`` and ``texts``) whose text holds most of the
    stems ``adds``, then ``name`` (as words), then the best scored: the passage of a
    second-hop document that says what the first hop lacks ("the Nortada Ferries
    headquarters in Aveiro", "It is housed in the Vlasmarkt Annex") rather than the one
    most like the whole question."""
    covered = [len(adds & roots(text)) for text in texts]
    named = [bool(name) and words(name) in words(text) for text in texts]
    return ids[max(range(len(ids)), key=lambda j: (covered[j], named[j], float(scores[j])))]


def missing(question: str, title: str, texts: Iterable[str]) -> set[str]:
    """The question words beyond ``title``'s that none of a document's ``texts`` holds: what
    its second hop has to add."""
    return relation(question) - roots(title) - roots(" ".join(texts))


def names_hop(
    question: str,
    units_1: Sequence[str],
    adds: Set[str],
    title_2: str,
    text_2: str,
    common: Callable[[str], bool] = lambda name: False,
) -> tuple[str, int] | None:
    """The name by which a first document (its pointed ``units_1``) leads to the document
    ``title_2`` / ``text_2``, with its distance to the question's words (CFS walks the
    nearest first), or None. Either that document's own subject (its title without
    qualifiers) stands in a pointed unit, or a pointed unit's name (:func:`names_in`)
    stands in the document, which is about it (:func:`about`) or states near it one of
    the question words ``adds`` that the first document lacks ("the Nortada Ferries
    headquarters in Aveiro"). One capitalised
    word ("Hannah", "VPN") links too many notes by nearness: it has to stand inside a
    sentence of the first document and be what the second is about ("Uppsala"). A
    ``common`` name (in more passages than :data:`COMMON` allows: "Halyard Labs", a ninth
    of the sample corpus) is no bridge."""
    subject = core_title(title_2).strip()
    best: tuple[str, int] | None = None
    if len(subject) >= 3 and not content(subject) & content(question) and not common(subject):
        best = _subject_gap(subject, units_1, question)
    text_words = words(text_2)
    for unit in units_1:
        for name, gap in names_in(unit, question):
            one = " " not in name and f"`{name}`" not in unit
            if common(name) or words(name) not in text_words:
                continue
            if one:  # "Uppsala": a capital inside a sentence, and the document is about it
                if not (inside(name, unit) and about(name, text_2)):
                    continue
            elif not (about(name, text_2) or _near(name, text_2, adds)):
                continue
            if best is None or gap < best[1]:
                best = (name, gap)
    return best
