"""The corpus's own links, recorded at index time as a small graph: passage → document.

Personal knowledge bases are linked, and HotpotQA's bridges are exactly such links: the
passage about a project names its lead engineer, whose profile is another note. DR-RAG's
second hop (CFS) offers the documents a static passage links to as candidates beside its
q* list, so a second-hop note that q* misses can still be judged by the classifier.

A passage links to a document when it holds
* a Markdown link ``[text](other.md)`` or a wiki-link ``[[Other note]]`` / ``[[other|text]]``
  that resolves to that document (by relative path, file name or title), or
* a plain mention of the document's title (its core: "Heron (film)" → "Heron"), as whole
  words; a one-word title counts only when it is capitalised in the text and at least
  :data:`MIN_SINGLE_WORD` characters long, so "Notes" or "Ideas" link nothing.

Pure text in, ids out: no index, no model. Cost is one pass over the tokens of every
passage with dictionary look-ups of up to :data:`MAX_TITLE_WORDS`-word n-grams.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import unquote

MAX_TITLE_WORDS = 6  # longer titles are never looked up as mentions
MIN_SINGLE_WORD = 4  # a one-word title needs this many characters (and a capital)
MAX_LINKS = 24  # per passage: a hub page (a people table) links many, a sentence few
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_MD_LINK = re.compile(r"\[[^\]\n]*\]\(\s*<?([^)\s>#]+)")
_WIKI_LINK = re.compile(r"\[\[([^\]|#\n]+)(?:[#|][^\]\n]*)?\]\]")
_PAREN = re.compile(r"\s*\([^)]*\)\s*$")


@dataclass(frozen=True)
class DocRef:
    """One document of the store, as the link finder sees it."""

    document_id: int
    source: str  # path as indexed (or file#record)
    title: str
    aliases: tuple[str, ...] = ()  # other names a wiki-link may use (Markdown front matter)


def core_title(title: str) -> str:
    """"Heron (film)" → "Heron"; "Heron: project overview" → "Heron"."""
    core = _PAREN.sub("", title).strip() or title
    return core.split(": ", 1)[0].strip() or core


# a club's or a company's suffix, which text drops: "Nottingham Forest F.C." is "Nottingham Forest"
_SUFFIX = re.compile(r"\s+(?:A\.?F\.?C\.?|F\.?C\.?|Inc\.?|Ltd\.?|plc|S\.A\.|GmbH|LLC)$")


def title_forms(title: str) -> list[str]:
    """The names a text may call a document's subject by, longest first: its title, that
    without its parenthesis ("Heron (film)" → "Heron") and without a club's or company's
    suffix ("Nottingham Forest F.C." → "Nottingham Forest"). A title's part after a colon
    stays ("Offsite 2022: notes" is a document, not a name)."""
    core = _PAREN.sub("", title).strip()
    return list(dict.fromkeys(form for form in (title.strip(), core, _SUFFIX.sub("", core)) if form))


def explicit_links(text: str) -> list[tuple[int, str]]:
    """[(offset, target)] of the markdown links (``[x](people/x.md)``: the path) and
    wiki-links (``[[X]]``: the name) in ``text``, in order; web and mail links left out."""
    found = [(m.start(), m.group(1)) for m in _MD_LINK.finditer(text) if "://" not in m.group(1)]
    found += [(m.start(), m.group(1).strip()) for m in _WIKI_LINK.finditer(text)]
    return sorted(t for t in found if not t[1].startswith("mailto:"))


def links_to(target: str, source: str, title: str, aliases: Iterable[str] = ()) -> bool:
    """A link's ``target`` (from :func:`explicit_links`) names the document at ``source``
    titled ``title``: the same file name, or a wiki name that is its title, file name or
    one of its ``aliases``."""
    said = target.strip().lower()
    same_file = _file_stem(unquote(target)) == _file_stem(source.split("#", 1)[0])
    return same_file or said == title.strip().lower() or said in {a.strip().lower() for a in aliases}


def _file_stem(path: str) -> str:
    """The file name of ``path`` without its extension, lower-case ("people\\Ana Ruiz.md" → "ana ruiz")."""
    return posixpath.splitext(posixpath.basename(path.replace("\\", "/")))[0].lower()


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _norm_path(path: str) -> str:
    return posixpath.normpath(path.replace("\\", "/")).lstrip("./").lower()


class LinkFinder:
    """Title and path look-up tables of one store's documents, built once per index run."""

    def __init__(self, docs: Iterable[DocRef]) -> None:
        self.by_title: dict[tuple[str, ...], set[int]] = {}
        self.by_path: dict[str, int] = {}
        self.by_name: dict[str, set[int]] = {}
        self.by_wiki: dict[str, set[int]] = {}
        for d in docs:
            file = d.source.split("#", 1)[0]
            self.by_path[_norm_path(file)] = d.document_id
            stem = _file_stem(file)
            self.by_name.setdefault(stem, set()).add(d.document_id)
            for name in {d.title.strip().lower(), stem, *(a.strip().lower() for a in d.aliases)}:
                self.by_wiki.setdefault(name, set()).add(d.document_id)
            words = _words(core_title(d.title))
            if not words or len(words) > MAX_TITLE_WORDS:
                continue
            if len(words) == 1 and (len(words[0]) < MIN_SINGLE_WORD or not words[0][0].isupper()):
                continue
            self.by_title.setdefault(tuple(w.lower() for w in words), set()).add(d.document_id)
        self.longest: dict[str, int] = {}  # a title's first word → the most words of a title it starts
        for title in self.by_title:
            self.longest[title[0]] = max(self.longest.get(title[0], 0), len(title))

    def links(self, source: str, text: str, own: int) -> list[tuple[int, str]]:
        """[(document id, kind)] that a passage of document ``own`` at ``source`` links to,
        in order of first appearance, without ``own``, at most :data:`MAX_LINKS`."""
        found: dict[int, str] = {}
        base = posixpath.dirname(source.split("#", 1)[0].replace("\\", "/"))
        for target in _MD_LINK.findall(text):
            if "://" in target or target.startswith("mailto:"):
                continue
            target = unquote(target)  # [x](Marisol%20Okonkwo.md)
            doc = self.by_path.get(_norm_path(posixpath.join(base, target)))
            if doc is None:
                name = posixpath.splitext(posixpath.basename(target))[0].lower()
                docs = self.by_name.get(name, set())
                doc = next(iter(docs)) if len(docs) == 1 else None
            if doc is not None:
                found.setdefault(doc, "link")
        for name in _WIKI_LINK.findall(text):
            name = name.strip()
            at = self.by_path.get(_norm_path(name if name.lower().endswith(".md") else f"{name}.md"))
            docs = {at} if "/" in name and at is not None else self.by_wiki.get(name.lower(), set())
            base = posixpath.basename(name).lower().removesuffix(".md")
            for doc in sorted(docs or self.by_wiki.get(base, ())):
                found.setdefault(doc, "link")  # [[Note]], [[people/Note]] (a vault-relative path)
        for doc in self._mentions(text):
            found.setdefault(doc, "mention")
        found.pop(own, None)
        return list(found.items())[:MAX_LINKS]

    def _mentions(self, text: str) -> list[int]:
        words = _words(text)
        lower = [w.lower() for w in words]
        out: list[int] = []
        for i in range(len(words)):
            for n in range(min(self.longest.get(lower[i], 0), len(words) - i), 0, -1):
                docs = self.by_title.get(tuple(lower[i : i + n]))
                if docs is None or (n == 1 and not words[i][0].isupper()):
                    continue
                out += sorted(docs)
                break  # the longest title starting here
        return list(dict.fromkeys(out))


def document_keys(doc: DocRef) -> set[str]:
    """The words and names a passage must hold for :class:`LinkFinder` to link it to ``doc``:
    the first word of its title as a mention ("heron"), its title, file name and aliases as a
    wiki-link or a Markdown link names them. Stored per document, they let a run find the
    links of a few passages against the documents that can match, not all of them."""
    stem = _file_stem(doc.source.split("#", 1)[0])
    keys = {doc.title.strip().lower(), stem, *(a.strip().lower() for a in doc.aliases)}
    words = _words(core_title(doc.title))
    if words:
        keys.add(words[0].lower())
    return keys - {""}


def text_keys(text: str) -> set[str]:
    """What ``text`` offers :func:`document_keys` to meet: its words, lower-case, and the
    names its links give (a Markdown link's file name; a wiki-link's name, file name and base)."""
    keys = {w.lower() for w in _words(text)}
    keys.update(_file_stem(unquote(target)) for target in _MD_LINK.findall(text))
    for name in _WIKI_LINK.findall(text):
        name = name.strip()
        keys |= {name.lower(), posixpath.basename(name).lower().removesuffix(".md"), _file_stem(name)}
    return keys


def find_links(docs: Sequence[DocRef], passages: Iterable[tuple[int, int, str, str]]) -> list[tuple[int, int, str]]:
    """[(passage id, linked document id, kind)] for ``passages`` given as
    (passage id, document id, source, text)."""
    finder = LinkFinder(docs)
    return [
        (pid, doc, kind) for pid, own, source, text in passages for doc, kind in finder.links(source, text, own)
    ]
