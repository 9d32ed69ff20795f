"""Plain data passed between the stages: documents → passages → scored hits."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Document:
    """One logical document: a file, or one record of a JSON/JSONL corpus."""

    source: str  # file path (or "file.jsonl#record-id" for record corpora)
    title: str
    text: str
    # Line number (1-based) in the source file where `text` starts; None when the
    # text is extracted (HTML, PDF) and lines of the source do not map cleanly.
    first_line: int | None = 1
    # For PDFs: character offset in `text` where each page starts.
    page_starts: list[int] | None = None
    # Extracted headings (.docx, .odt): (offset in `text`, heading path such as
    # "Equipment › Sync station") from that offset on; passages there are titled
    # "<title> › <path>" so a citation names its section.
    sections: list[tuple[int, str]] | None = None
    # Other names of the document a wiki-link may use: a Markdown front matter's `aliases`
    # ("[[Marisol]]" links "Marisol Okonkwo.md" when it lists Marisol).
    aliases: tuple[str, ...] = ()


@dataclass(slots=True)
class Passage:
    """A ~100-word, sentence-aligned chunk of a document: the unit of retrieval."""

    source: str
    title: str
    text: str
    ordinal: int  # position of the passage within its document, 0-based
    char_start: int
    char_end: int
    line_start: int | None = None
    line_end: int | None = None
    page: int | None = None
    passage_id: int | None = None  # assigned by the store
    collection: str | None = None  # the named collection it came from, when one was searched

    @property
    def lines(self) -> list[int] | None:
        """[first, last] source line for JSON output; None for extracted text (HTML, PDF)."""
        if self.line_start is None:
            return None
        return [self.line_start, self.line_end if self.line_end is not None else self.line_start]

    def to_json(self, *, text: bool = False, **extra: object) -> dict[str, object]:
        """The one JSON view of a passage (citations, documents, traces, search results)."""
        out: dict[str, object] = {
            "passage_id": self.passage_id,
            "title": self.title,
            "source": self.source,
            "lines": self.lines,
            "page": self.page,
        }
        if self.collection is not None:
            out["collection"] = self.collection
        if text:
            out["text"] = self.text
        out.update(extra)
        return out

    @property
    def location(self) -> str:
        """`path:12-18`, `path (p. 3)`, `deck.pptx (slide 3)` or just `path`: what a citation shows."""
        if self.page is not None:
            unit = "slide " if self.source.lower().endswith(".pptx") else "p. "
            return f"{self.source} ({unit}{self.page})"
        if self.line_start is not None:
            end = self.line_end if self.line_end is not None else self.line_start
            span = f"{self.line_start}" if end == self.line_start else f"{self.line_start}-{end}"
            return f"{self.source}:{span}"
        return self.source


@dataclass(slots=True)
class Hit:
    """A passage with the score one retriever gave it."""

    passage: Passage
    score: float
    rank: int = 0
    scores: dict[str, float] = field(default_factory=dict)  # per-retriever detail


def hits_json(query: str, mode: str, hits: list[Hit]) -> dict[str, Any]:
    """What ``drrag search --json`` prints (and ``drrag serve``'s /search answers)."""
    return {
        "query": query,
        "mode": mode,
        "results": [h.passage.to_json(text=True, rank=h.rank, score=round(h.score, 6)) for h in hits],
    }


# -- labelled multi-hop QA data (evaluation and classifier training) ----------------------
def normalise_ws(text: str) -> str:
    return " ".join(text.split())


def paragraph_key(title: str, text: str) -> str:
    """Stable id: sha1 of whitespace-normalised title + '\\n' + text, first 16 hex chars.

    Whitespace is normalised so the same paragraph copied through different pipelines
    (IRCoT keeps double spaces, corpora often collapse them) still gets the same key.
    """
    raw = f"{normalise_ws(title)}\n{normalise_ws(text)}".encode()
    return hashlib.sha1(raw).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Paragraph:
    title: str
    text: str

    @property
    def key(self) -> str:
        return paragraph_key(self.title, self.text)


@dataclass(slots=True)
class QAExample:
    qid: str
    question: str
    answers: list[str]  # gold answer first, then aliases (deduped, non-empty)
    paragraphs: list[Paragraph]  # this question's own context paragraphs (may be empty)
    gold_keys: list[str]  # keys of the gold (supporting) paragraphs, in order, deduped
    gold_titles: list[str]
    qtype: str = ""  # 'bridge' / 'comparison' / MuSiQue hop type ('2hop', '3hop1', ...)


@dataclass(slots=True)
class Dataset:
    name: str  # file stem
    fmt: str  # 'hotpot' | 'ircot' | 'musique' | 'titles'
    examples: list[QAExample]
    corpus: list[Paragraph]  # union of the questions' paragraphs, or the separate corpus
    warnings: list[str] = field(default_factory=list)  # e.g. gold titles not in the corpus
