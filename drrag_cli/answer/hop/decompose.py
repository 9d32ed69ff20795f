"""Decomposed answers: ask the second hop about the bridge entity by name.

A small model cannot compose two hops: given the Heron overview ("Lead engineer | Tobias
Lindqvist") and Tobias's profile ("born in Uppsala"), Gemma-3-270M answers "In which city
was the lead engineer of Project Heron born?" with "Ghent", yet answers "In which city was
Tobias Lindqvist born?" with "Uppsala" from the same text. It cannot rewrite the question
either (asked to, it copies it). DR-RAG already knows the bridge: a dynamic document was
found *through* a static one, and its title names the entity. So the rewrite is done
here, without a model call: the question's definite description ("the lead engineer of
Project Heron") is replaced by that title (:mod:`.description` finds it).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from drrag_cli.answer.hop.cell import cell_bridge
from drrag_cli.answer.hop.describes import made_by, made_units
from drrag_cli.answer.hop.description import DETERMINERS, DO, PREPOSITIONS, bridge_question, said_of
from drrag_cli.answer.hop.kin import kin_chain
from drrag_cli.answer.hop.kinds import OPENING, says_it_is
from drrag_cli.answer.hop.relative import relative_question
from drrag_cli.asked import parse
from drrag_cli.index.links import core_title, explicit_links, links_to, title_forms
from drrag_cli.ingest.units import units, whole_units
from drrag_cli.select.bridges import NAME_RE, inside, topic_name, topic_units
from drrag_cli.select.bridges import about as is_about  # `about` names a title here
from drrag_cli.text.words import CALENDAR, STOP, WORD_RE, content_words, roots
from drrag_cli.text.words import words as word_string  # `words` is a list in bridge_question

if TYPE_CHECKING:
    from drrag_cli.retrieve.context import Selected
    from drrag_cli.types import Passage


_PARTICLES = frozenset({"about", "up", "out", "off", "into"})  # "What does [the X] work on / care about?"
_COPULAS = frozenset({"is", "was", "are", "were", "as", "became", "becomes", "serves", "served"})
Aliases = Mapping[str, Sequence[str]]  # a document's source → the other names a wiki-link may use


@dataclass(frozen=True)
class Bridge:
    """The entity a two-hop context passes through, as the first hop states it."""

    entity: str  # "Tobias Lindqvist", "Brackwater"
    near: str  # the units of the first hop's document that name it
    about: str  # that document's title (its words say nothing about the entity)
    source: str  # the file of the second hop, the document about the entity


def _units_naming(title: str, texts: Sequence[str]) -> str:
    """The sentences, table rows and lines of ``texts`` that name ``title`` (lower-case), lower-cased.
    They are cut in the text as written: in a lower-cased one no sentence end stands before a
    capital, so the whole passage was one unit, and "Before that he managed the Falcon migration"
    beside "Jonas Berg leads the Kestrel project" described Kestrel."""
    return " ".join(unit for text in texts for u in whole_units(text) if title in (unit := u.lower()))


def named_bridge(documents: Sequence[Selected], aliases: Aliases | None = None) -> Bridge | None:
    """The bridge entity of a two-hop context: the title of the first dynamic document
    that its static document's fed passages name (the link CFS followed), or link to by
    one of its ``aliases`` ("[[Marisol]]": an alias names the entity), with the units that
    do so and the static document's title. A title they do not contain is a document, not
    an entity ("Offsite 2022: notes", even when linked by its file name), so no bridge."""
    statics = [d.passage for d in documents if d.via is None]
    sources = {p.passage_id: p.source for p in statics}
    for d in documents:
        if d.via is None:
            continue
        title = d.passage.title.strip().lower()
        source = sources.get(d.via)
        written = [p.text for p in statics if source is None or p.source == source]
        texts = [text.lower() for text in written]
        about = next((p.title for p in statics if p.passage_id == d.via), "")
        for name in title_forms(d.passage.title):  # "Nottingham Forest F.C." is named "Nottingham Forest"
            if len(name) >= 3 and any(name.lower() in text for text in texts):
                return Bridge(name, _units_naming(name.lower(), written), about, d.passage.source)
        said = {a.strip().lower() for a in (aliases or {}).get(d.passage.source, ())}
        linking = [u for t in texts for u in units(t) if said & {target for _, target in explicit_links(u)}]
        if len(title) >= 3 and linking:
            return Bridge(d.passage.title.strip(), " ".join(linking), about, d.passage.source)
    return None


def mentioned_bridge(question: str, documents: Sequence[Selected]) -> Bridge | None:
    """The bridge entity when it is not a document's title: a name (capitalised words or a
    `code` word) that one document states where the question points (its units sharing a
    question word beyond its own title, best first) and that the next hop names too.
    "Saltmarsh was trained on the Brackwater cluster" + the wiki's "Brackwater is our GPU
    cluster": Brackwater. The first of :func:`mentioned_bridges`."""
    return next(mentioned_bridges(question, documents), None)


def mentioned_bridges(question: str, documents: Sequence[Selected]) -> Iterator[Bridge]:
    """:func:`mentioned_bridge`'s candidates, one per hop that has one, in the order of
    :func:`_hops`: each dynamic document from the static one CFS reached it through, then
    each static document from an earlier-ranked one of another file. Names the question
    holds, months and weekdays, capitalised words that never stand inside a sentence,
    names the next hop is not about (:func:`~drrag_cli.select.bridges.about`) and names
    that more than two fed files hold are not bridges; the next hop's own title, when the
    unit names it, comes before any other name ("former NBA player and North Carolina
    native Michael Jordan" leads to Michael Jordan's page)."""
    asked = content_words(question)
    files: dict[str, str] = {}
    for d in documents:
        files[d.passage.source] = files.get(d.passage.source, "") + " " + d.passage.text.lower()
    statics = {d.passage.title for d in documents if d.via is None}
    for texts, title, target, target_title, source in _hops(documents):
        # the question's words that name another document
        pointed = roots(question) - roots(title) - roots(" ".join(statics - {title}))
        found = [u for t in texts for u in units(t) if pointed & roots(u)]
        made = made_units(question, title, texts)
        found += [u for u in made if u not in found]
        bridge = _named_in(found, pointed, asked, (title, target, target_title, source), files, made)
        topic = topic_name(question, title, texts)  # a how-to's `ebbtide`, the tool it is about
        if bridge is None and topic and word_string(topic) in word_string(target):
            near = " ".join(topic_units(topic, texts))
            bridge = Bridge(topic, f"{title} {near}", "", source)  # the question may describe it by the title
        if bridge is not None:
            yield bridge


def _named_in(
    found: list[str], pointed: set[str], asked: set[str], hop: tuple[str, str, str, str], files: dict[str, str],
    made: Sequence[str] = (),
) -> Bridge | None:
    """The first name of the units ``found`` (most ``pointed`` words first) that the hop's
    next document (``hop``: the first one's title, the next one's text, title and source)
    is about: its own subject, else a name it holds (:func:`mentioned_bridges`), or the name
    its title is an aspect of ("Chief Justice of Pakistan": Pakistan), which its text need
    not repeat. A unit of ``made`` (:func:`.describes.made_units`) may name a maker the next
    document only mentions ("Sings America ... by David Hasselhoff"; Snapper Foster's page)."""
    title, target, target_title, source = hop
    target_words = word_string(target)
    subject = core_title(target_title).strip()
    aspect = _ASPECT.search(subject)  # "Chief Justice of Pakistan" is about Pakistan
    for unit in sorted(found, key=lambda u: -len(pointed & roots(u))):
        if len(subject) >= 3 and subject.lower() in unit.lower() and not content_words(subject) & asked:
            return Bridge(subject, unit, title, source)  # the next hop's own subject, named here
        for code, caps in NAME_RE.findall(unit):
            parts = (code or caps).split()
            while parts and (parts[0].lower() in STOP or parts[0].lower() in CALENDAR):
                parts = parts[1:]
            name = " ".join(parts)
            if len(name) < 3 or content_words(name) & asked:
                continue
            if aspect and name.lower() == aspect.group(1).lower() and inside(name, unit):
                named = True  # the next hop is an aspect of the name: its text need not repeat it
            elif word_string(name) not in target_words:
                continue
            else:
                maker = unit in made and made_by(name, unit, title)
                named = inside(name, unit, target) and (is_about(name, target) or maker)
            if named and sum(name.lower() in text for text in files.values()) <= 2:  # not the company's
                return Bridge(name, unit, title, source)
    return None


# a title that is an aspect of a name: "Chief Justice of Pakistan", "Demographics of Nanjing"
_ASPECT = re.compile(
    r"^[A-Z][\w'’-]*(?:\s+[\w'’-]+){0,3}?\s+(?:of|in)\s+(?:the\s+)?([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3})$"
)


def _hops(documents: Sequence[Selected]) -> list[tuple[list[str], str, str, str, str]]:
    """(the texts of one document's fed passages, its title, the text and the title of a
    document it may lead to), most likely first: dynamic documents from their static one,
    then static documents from an earlier-ranked static document of another file, then each
    static document from a dynamic one found through it ("Masherbrum", found from "Chief
    Justice of Pakistan", names Pakistan)."""
    statics = [d.passage for d in documents if d.via is None]
    by_id = {p.passage_id: p for p in statics}

    def texts(source: str) -> list[str]:
        return [p.text for p in statics if p.source == source]

    def title(source: str) -> str:
        return next(p.title for p in statics if p.source == source)

    hops = [
        (texts(by_id[d.via].source), by_id[d.via].title, d.passage.text, d.passage.title, d.passage.source)
        for d in documents
        if d.via is not None and d.via in by_id
    ]
    sources = list(dict.fromkeys(p.source for p in statics))
    for i, first in enumerate(sources):
        hops += [
            (texts(first), title(first), " ".join(texts(later)), title(later), later) for later in sources[i + 1 :]
        ]
    for d in documents:  # last, the other way: the static document found the answer's side first
        if d.via is not None and d.via in by_id:
            first = by_id[d.via]
            hops.append(([d.passage.text], d.passage.title, " ".join(texts(first.source)), first.title, first.source))
    return hops


def decomposed(question: str, documents: Sequence[Selected]) -> str | None:
    """The question about the bridge entity (:func:`bridge_question` of
    :func:`named_bridge`, else of :func:`mentioned_bridge`), or None when the context has
    no such bridge or the question cannot be rewritten; then the caller asks the question
    as it is."""
    found = bridged(question, documents)
    return found[0] if found else None


def bridged(question: str, documents: Sequence[Selected], aliases: Aliases | None = None) -> tuple[str, Bridge] | None:
    """(the rewritten question, the bridge it names) or None: :func:`decomposed` with the
    bridge it put in (the named bridge, else the mentioned one when the question does not
    describe the named one; else the bridge the first-ranked document leads to, asked through
    an indefinite description's clause: :func:`_relative`); first, a kin word of several links walked to
    its last (:func:`.kin.kin_chain`). No rewrite when the bridge is what the question asks for
    (:attr:`~drrag_cli.asked.Question.kind`): "Which American film director hosted the ...?" must not become
    "... hosted John Waters?" when John Waters's page opens "... is an American film director"."""
    step = kin_chain(question, documents)
    if step is not None:  # "the paternal grandfather of X": X's father by name, asked for his father
        return step.asked, Bridge(step.entity, "", step.about, step.source)
    hop = cell_bridge(question, documents)
    if hop is not None:  # "the owner of the invoice renderer": the Owner cell of that row
        return hop.asked, Bridge(hop.cell, hop.row, hop.table, hop.source)
    found = _described_bridge(question, documents, aliases)
    if found is None:
        return _relative(question, documents)
    asked, bridge = found
    kind = parse(question).kind
    if kind and says_it_is(kind, bridge.entity, _opening(bridge, documents)):
        return None  # the bridge is a <kind>: it may be the answer
    return asked, bridge


def _relative(question: str, documents: Sequence[Selected]) -> tuple[str, Bridge] | None:
    """The question asked of the bridge the first-ranked document leads to (:func:`passed_through`)
    through an indefinite description's clause (:func:`.relative.relative_question`: "… by a
    singer-songwriter from what state?" → "M. Ward is from what state?"), or None. The question
    word is in the clause, so the bridge is not what is asked for."""
    bridge = passed_through(question, documents)
    if bridge is None:
        return None
    asked = relative_question(question, bridge.entity, _opening(bridge, documents))
    return (asked, bridge) if asked else None


def _opening(bridge: Bridge, documents: Sequence[Selected]) -> str:
    """The first characters of the bridge's fed document, where it says what it is."""
    return next((d.passage.text[:OPENING] for d in documents if d.passage.source == bridge.source), "")


def passed_through(question: str, documents: Sequence[Selected]) -> Bridge | None:
    """The bridge the first-ranked static document leads to (:func:`named_bridge`, else
    :func:`mentioned_bridge`, over it, the other static documents and the dynamic ones
    found through it), for a question :func:`bridged` cannot rewrite; None for a question
    that offers its answers (yes / no, "A or B"), whose sides are all needed. A bridge only
    a lower-ranked static document leads to may leave the first hop out: "What science
    fantasy young adult series …?" ranks Animorphs first, and the Borges anthology ranked
    second names an author CFS followed."""
    statics = [d for d in documents if d.via is None]
    if not statics or parse(question).options:
        return None
    group = _through(documents, statics[0].passage.source)
    return named_bridge(group) or mentioned_bridge(question, group)


def _described_bridge(
    question: str, documents: Sequence[Selected], aliases: Aliases | None = None
) -> tuple[str, Bridge] | None:
    """The named bridge's rewrite, else the first mentioned bridge's (one per hop) that the
    question describes: a title the question does not describe (the client register's
    "Maren Okafor") gives way to the name it does, and so does a name of the first hop
    ("Elmstead" in Peter Hale's note, for "the man who brought runner beans to the seed
    swap", whom the seed swap note names as Peter Hale). The hops
    of the first-ranked static document come first: a person the second one names ("Jonas
    Weber" in the infrastructure page) must not displace the client the board update names."""
    subject = _described_subject(question, documents)
    for group in _by_static(documents):
        for bridge in itertools.chain([named_bridge(group, aliases)], mentioned_bridges(question, group)):
            asked = bridge_question(question, bridge.entity, bridge.near, bridge.about) if bridge else None
            if asked and bridge:
                linked = _linked_instead(_replaced(question, asked), bridge, group, aliases)
                asked_linked = bridge_question(question, linked.entity, linked.near, linked.about)
                asked, bridge = (asked_linked, linked) if asked_linked else (asked, bridge)
            if asked and bridge and not _names_a_document(question, asked, documents):
                return _rather(question, subject, (asked, bridge))
    return subject


def _rather(question: str, subject: tuple[str, Bridge] | None, hop: tuple[str, Bridge]) -> tuple[str, Bridge]:
    """The hop's rewrite, unless a static document's own subject is what the question
    describes (:func:`_described_subject`) and the hop's words do not state the whole
    description: "Where was [the co-founder and COO] born?" is Ruben De Smet ("Role |
    Co-founder and COO"), not Maren Okafor, whom his profile names as his co-founder; nor
    when the hop's words say the description of the subject: "Where was [the product
    manager] born?" over Hannah Osei's profile ("Hannah is the product manager for Heron")."""
    if subject is None or subject[1].source == hop[1].source:
        return hop
    cues = content_words(_replaced(question, subject[0]))
    stated = roots(" ".join(cues)) <= roots(hop[1].near)  # "the director of" in "directed by"
    return hop if stated and not said_of(subject[1].entity, hop[1].near, cues) else subject


def _described_subject(question: str, documents: Sequence[Selected]) -> tuple[str, Bridge] | None:
    """The question asked about a static document's own subject when one of its units
    states every word of the question's description and no other fed file's unit does:
    "Where was [the Porto office lead] born?" over Inês Carvalho's profile ("Role | Senior
    data engineer, Porto office lead") is "Where was Inês Carvalho born?". Without it the
    model read Sofie Janssens's "born in Mechelen", fed beside the profile, and answered
    that. It stands when no hop gave a bridge, or when the hop's words do not state the
    description (:func:`_rather`); for a definite description ("the ...") in a question
    that does not ask for a person ("Who was known ... as [a consultant]?" asks
    for the subject itself), that is no object of a preposition ("the only female music
    director in [the Telugu film industry]" is not M. M. Srilekha), and that the unit says
    of the subject (:func:`_describes`); the title must be a name the question does not hold."""
    if question.lstrip().lower().startswith(("who ", "whom ")):
        return None
    files: dict[str, list[tuple[str, set[str]]]] = {}  # source → its fed units, each with its words
    for d in documents:
        files.setdefault(d.passage.source, []).extend((u, content_words(u)) for u in units(d.passage.text))
    for d in dict((d.passage.source, d) for d in documents if d.via is None).values():
        title, source = core_title(d.passage.title).strip(), d.passage.source
        if len(title) < 3 or not title[0].isupper() or content_words(title) & content_words(question):
            continue
        asked = bridge_question(question, title, " ".join(u for u, _ in files[source]))
        for option in [asked] if asked else _after_do(question, title):
            replaced = _replaced(question, option)
            before, definite, _ = question.strip().lower().partition(f" the {replaced.lower()}")  # never at 0
            cues = content_words(replaced) if definite and before.split()[-1] not in PREPOSITIONS else set()
            stating = {f: [u for u, said in held if cues <= said] for f, held in files.items()} if cues else {}
            holders = {f for f, said in stating.items() if said}
            said = holders == {source} and any(_describes(unit, cues) for unit in stating[source])
            if said and not _names_a_document(question, option, documents):
                return option, Bridge(title, " ".join(stating[source]), "", source)
    return None


def _describes(unit: str, cues: set[str]) -> bool:
    """``unit`` says the description (its words ``cues``) of its document's subject: a row of
    the document's table ("| **Role** | Senior data engineer, Porto office lead |"), or a
    sentence with a copula before the description ("She is the only female music director
    …"). A sentence that only mentions it is no description of the subject: "The second
    Heron buoy costs €4,800 in parts, and the LoRa gateway another 650 euros" does not make
    the budget note "the LoRa gateway"."""
    if "|" in unit:
        return True
    words = WORD_RE.findall(unit.lower())
    at_cue = next((i for i, word in enumerate(words) if word in cues), len(words))
    return any(word in _COPULAS for word in words[:at_cue])


def _after_do(question: str, entity: str) -> list[str]:
    """``question`` with a description after do / does / did replaced by ``entity``, when
    the verb phrase after it is the question's last word, or its last two with a particle
    ("work on"): "Which instrument does [the Porto office lead] play?", "Where did [the
    infrastructure engineer] study?". A shorter description would leave a noun of it
    behind ("Where did Jonas Weber team study?"), a longer verb phrase is for the title to
    delimit (:func:`~drrag_cli.answer.hop.description.bridge_question`)."""
    words = question.rstrip(" ?").split()
    lower = [w.lower() for w in words]
    at = next((i for i in range(1, len(words)) if lower[i] == "the" and lower[i - 1] in DO), None)
    if at is None:
        return []
    ends = [len(words) - 2] if lower[-1] in PREPOSITIONS | _PARTICLES else [len(words) - 1]
    kept = [end for end in ends if end > at + 1 and lower[end - 1] not in STOP]  # not "... win a Tony for"
    return [" ".join([*words[:at], entity, *words[end:]]) + "?" for end in kept]


def _linked_instead(
    description: str, bridge: Bridge, documents: Sequence[Selected], aliases: Aliases | None = None
) -> Bridge:
    """The document an explicit link in the bridge's words points to, instead of the bridge,
    when those words hold every word of the question's ``description`` of it (beyond the
    first hop's title) and the link stands nearer them than the bridge's name: "Its current
    chair is [[Marisol Okonkwo]], who took over from Peter Hale in 2021" names Peter Hale
    (CFS's named hop, found through the club note) and links Marisol's note; "the current
    chair of the Elmstead garden club" is her, "the previous chair" (not said) stays his.
    The linked document must be in the context."""
    near = bridge.near.lower()
    cues = content_words(description) - content_words(bridge.about)
    at = [m.start() for m in WORD_RE.finditer(near) if m.group() in cues]
    named = [m.start() for m in re.finditer(re.escape(bridge.entity.lower()), near)]
    if not cues or not cues <= content_words(near) or not named:
        return bridge

    def gap(offset: int) -> int:
        return min(abs(offset - a) for a in at)

    for offset, target in explicit_links(near):
        for d in documents:
            said = (aliases or {}).get(d.passage.source, ())
            linked = d.passage.source != bridge.source and links_to(target, d.passage.source, d.passage.title, said)
            if linked and gap(offset) < min(map(gap, named)):
                return Bridge(d.passage.title.strip(), bridge.near, bridge.about, d.passage.source)
    return bridge


def _replaced(question: str, asked: str) -> str:
    """The words of ``question`` that the rewrite ``asked`` replaced, without a leading
    determiner: "the current chair of the Elmstead garden club" → "current chair of the
    Elmstead garden club"."""
    said, new = question.rstrip(" ?").split(), asked.rstrip(" ?").split()
    head = next((i for i, (a, b) in enumerate(zip(said, new, strict=False)) if a != b), 0)
    tail = next((i for i, (a, b) in enumerate(zip(reversed(said), reversed(new), strict=False)) if a != b), 0)
    replaced = said[head : len(said) - tail]
    if replaced[:1] and replaced[0].lower() in DETERMINERS:
        replaced = replaced[1:]
    return " ".join(replaced)


def _names_a_document(question: str, asked: str, documents: Sequence[Selected]) -> bool:
    """The words the rewrite replaced are a context document's title after a determiner:
    "Who founded [the Lindenweg choir]?" names the choir's own note, so it is no
    description of the person its founder's note names ("Who founded Joost Brandsma?").
    Words that are all in a title are enough: "Who brought runner beans to [the seed swap]?"
    names the note "Seed swap 2024", not the harvest show the club note mentions beside it.
    The file's name counts with its title: "Who wrote [the Saltmarsh tech report]?" names
    ``saltmarsh-tech-report.pdf`` (titled "Saltmarsh: Compact Sentence Embeddings …")."""
    phrase = content_words(_replaced(question, asked))
    return bool(phrase) and any(phrase <= _naming_words(d.passage) for d in documents)


def _naming_words(passage: Passage) -> set[str]:
    """The content words of a document's title and of its file's name."""
    stem = re.sub(r"[-_.]+", " ", passage.source.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0])
    return content_words(core_title(passage.title)) | content_words(stem)


def _by_static(documents: Sequence[Selected]) -> list[list[Selected]]:
    """The context once per static document, in rank order, with only the dynamic documents
    found through it, then whole (every static document's passages stay in each)."""
    statics = [d for d in documents if d.via is None]
    order = list(dict.fromkeys(d.passage.source for d in statics))
    groups = [_through(documents, source) for source in order]
    groups = [g for g in groups if len(g) > len(statics)]
    if not groups or len(groups[-1]) < len(documents):  # a group holding every document is the whole already
        groups.append(list(documents))
    return groups


def _through(documents: Sequence[Selected], source: str) -> list[Selected]:
    """Every static document, and the dynamic documents CFS found through the passages of
    the static file ``source``."""
    statics = {d.passage.passage_id for d in documents if d.via is None and d.passage.source == source}
    return [d for d in documents if d.via is None or d.via in statics]


def bridge_context(
    bridge: Bridge, passages: list[Passage], documents: Sequence[Selected] = (), asked: str = ""
) -> list[Passage]:
    """The passages a question asked about the bridge by name needs: the bridge's own
    document, every passage that names it, and, when the bridge is a second hop itself,
    the documents CFS reached through it whose title shares a word with the question
    ``asked`` beyond the bridge's name (third hops among ``documents``: "In which year was
    the university attended by Tobias Lindqvist founded?" reads Lund University's page;
    "Where was Tobias Lindqvist born?" does not read the launch-planning note found from
    his profile); all of ``passages`` when none does."""
    named = re.compile(rf"(?<!\w){re.escape(bridge.entity)}(?!\w)", re.IGNORECASE)
    through = {d.passage.passage_id for d in documents if d.passage.source == bridge.source and d.via is not None}
    words = content_words(asked) - content_words(bridge.entity)
    after = {d.passage.source for d in documents if d.via in through and words & content_words(d.passage.title)}
    kept = [p for p in passages if p.source in {bridge.source, *after} or named.search(f"{p.title} {p.text}")]
    return kept or passages
