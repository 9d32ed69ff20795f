"""Plain data passed between the stages: documents → passages → scored hits."""

from __future__ import annotations

from dataclasses import dataclass, field


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

    @property
    def lines(self) -> list[int] | None:
        """[first, last] source line for JSON output; None for extracted text (HTML, PDF)."""
        if self.line_start is None:
            return None
        return [self.line_start, self.line_end if self.line_end is not None else self.line_start]

    @property
    def location(self) -> str:
        """`path:12-18`, `path (p. 3)` or just `path`: what a citation shows."""
        if self.page is not None:
            return f"{self.source} (p. {self.page})"
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
