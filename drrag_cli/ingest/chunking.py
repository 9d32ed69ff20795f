"""Sentence-aware chunking: passages of about `chunk_words` words.

Sentences come from spaCy's rule-based ``sentencizer`` on a blank English pipeline (no
model download). Text is first cut at blank lines (paragraphs), and a paragraph longer
than ``SEGMENT_CHARS`` at a line break or a space, so no single text ever reaches spaCy's
``max_length`` and memory stays bounded however large the file. Sentences are then packed
greedily into passages; a passage never splits a sentence unless that sentence alone is
far longer than the target (walls of text), never spans two PDF pages (so a
page citation is exact), and a Markdown heading starts a new passage once the current
one is reasonably full. Each passage keeps its exact character
span, so line numbers and PDF pages for citations are computed, not guessed.

A Markdown table (what the HTML and office readers write tables as, too) is cut between
rows, never inside one, and a passage that starts below a table's header repeats that
header first: row 40 of a 60-row "| Tool | Owner |" table still says which cell is the
owner, for the table reader, BM25 and the embedding alike. Only the passage's text
carries the repeated header; its span (and so its citation) is the rows it holds.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from drrag_cli.ingest.sentencizer import sentence_bounds
from drrag_cli.types import Document, Passage

_PARA = re.compile(r"\n[ \t]*\n")
# A "word" is at most 100 characters: a run without whitespace (base64, a minified line)
# counts as many words, so its passages stay ~chunk_words long like any other text's.
_WORD = re.compile(r"\S{1,100}")
_SPACE = re.compile(r"\s")

# spaCy's unit of work: a paragraph longer than this is cut (at a line break or a space
# when the second half of the window has one). Far below nlp.max_length (5M); with
# PIPE_BATCH texts in flight at most ~1M characters are tokenised at once.
SEGMENT_CHARS = 20_000
PIPE_BATCH = 50

_ROW = re.compile(r"[ \t]*\|.*")  # a table row: a line that opens with "|" (fullmatch over the line)
_SEPARATOR = re.compile(r"^[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+(?:[ \t]*:?-{3,}:?[ \t]*)?$", re.MULTILINE)
_LINE = re.compile(r"[^\n]+")
# Where spaCy's sentencizer may end a sentence inside a run of non-spaces ("end.Next"): after
# one of its sentence-final characters, which in ASCII are . ! ? (a superset: every other
# non-word character outside ASCII). Each such cut can add one to a word count (_whole).
_CUT = re.compile(r"(?:[.!?]|[^\x00-\x7f\w\s])(?=\S)")


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in _PARA.finditer(text):
        if text[start : m.start()].strip():
            spans.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def segment_spans(text: str, start: int, end: int, limit: int = SEGMENT_CHARS) -> Iterator[tuple[int, int]]:
    """Cut ``text[start:end]`` into pieces of at most ``limit`` characters: after the last
    line break of the window's second half, else after its last whitespace, else hard."""
    while end - start > limit:
        lo, hi = start + limit // 2, start + limit
        cut = text.rfind("\n", lo, hi)
        if cut < 0:
            last = None
            for last in _SPACE.finditer(text, lo, hi):  # noqa: B007 - the last match is the cut
                pass
            cut = last.start() if last else hi - 1
        yield start, cut + 1
        start = cut + 1
    if start < end:
        yield start, end


def outside(spans: Sequence[tuple[int, int]], skip: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of ``spans`` outside every span of ``skip`` (both sorted, ``skip`` disjoint)."""
    out, j = [], 0
    for a, b in spans:
        while j < len(skip) and skip[j][1] <= a:
            j += 1
        k = j
        while k < len(skip) and skip[k][0] < b:
            if skip[k][0] > a:
                out.append((a, skip[k][0]))
            a, k = max(a, skip[k][1]), k + 1
        if a < b:
            out.append((a, b))
    return out


OnProgress = Callable[[int, int], None]  # (characters done, characters in all)


def sentence_spans(
    text: str, skip: Sequence[tuple[int, int]] = (), on_progress: OnProgress | None = None
) -> list[tuple[int, int]]:
    """Character spans of the sentences of `text`, paragraph breaks always respected;
    the sorted, disjoint spans ``skip`` (tables) are left out. ``on_progress`` hears how
    far spaCy is after each segment: on a 30 MB file it works for minutes."""
    paragraphs = outside(paragraph_spans(text), skip)
    segments = [seg for a, b in paragraphs if text[a:b].strip() for seg in segment_spans(text, a, b, SEGMENT_CHARS)]
    out: list[tuple[int, int]] = []
    chars = sum(b - a for a, b in segments)
    found = sentence_bounds((text[a:b] for a, b in segments), chars, batch_size=PIPE_BATCH)
    for (p0, p1), sentences in zip(segments, found, strict=True):
        for start, end in sentences:
            a, b = p0 + start, p0 + end
            while a < b and text[a].isspace():
                a += 1
            while b > a and text[b - 1].isspace():
                b -= 1
            if a < b:
                out.append((a, b))
        if on_progress is not None:
            on_progress(p1, len(text))
    return out


def _split_long(text: str, start: int, end: int, limit: int) -> Iterator[tuple[int, int]]:
    words = list(_WORD.finditer(text, start, end))
    for i in range(0, len(words), limit):
        group = words[i : i + limit]
        yield group[0].start(), group[-1].end()


@dataclass(frozen=True, slots=True)
class Table:
    """A Markdown table's span in a text: ``start`` (its header row), ``body`` (after its
    separator line), ``end`` (after its last row)."""

    start: int
    body: int
    end: int


def markdown_tables(text: str) -> list[Table]:
    """The Markdown tables of ``text``: a row (a line that opens with "|"), a separator
    line under it ("|---|:--:|"), then every following line that opens with "|"."""
    out: list[Table] = []
    for m in _SEPARATOR.finditer(text):
        head_end = m.start() - 1  # the line break before the separator
        head_start = text.rfind("\n", 0, max(head_end, 0)) + 1
        if head_end < 0 or (out and head_start < out[-1].end) or not _ROW.fullmatch(text, head_start, head_end):
            continue
        end = m.end()
        while end < len(text):
            after = text.find("\n", end + 1)
            after = len(text) if after < 0 else after
            if not _ROW.fullmatch(text, end + 1, after):
                break
            end = after
        out.append(Table(head_start, m.end(), end))
    return out


def _pieces(
    text: str, chunk_words: int, tables: Sequence[Table], on_progress: OnProgress | None = None
) -> list[tuple[int, int, int]]:
    """(start, end, words) of the units passages are packed from: sentences (one far over
    the target cut by words) and tables: a table of up to twice the target is one piece,
    a longer one is its header and separator, then each row (one far over the target cut
    by words)."""
    spans = sentence_spans(text, [(t.start, t.end) for t in tables], on_progress)
    for t in tables:
        if len(_WORD.findall(text, t.start, t.end)) <= 2 * chunk_words:
            spans.append((t.start, t.end))  # a table that fits a passage stays whole
            continue
        spans.append((t.start, t.body))
        spans += [(m.start(), m.end()) for m in _LINE.finditer(text, t.body, t.end)]  # rows: never blank
    pieces = []
    for s0, s1 in sorted(spans):
        n = len(_WORD.findall(text, s0, s1))
        if n > 2 * chunk_words:
            pieces += [(a, b, len(_WORD.findall(text, a, b))) for a, b in _split_long(text, s0, s1, chunk_words)]
        else:
            pieces.append((s0, s1, n))
    return pieces


def _whole(doc: Document, chunk_words: int) -> tuple[int, int] | None:
    """The span of a document that is one passage whatever its sentences are, found
    without spaCy (on dev500, where most paragraphs are short, the sentencizer was 8.4 s of
    the 11.8 s `drrag index` spent outside the embedder); None when the sentences must be
    found. Packing closes a passage only when it is full, at a page break or at a heading:
    none can happen to a text with no pages, no "#" but one heading on its first line (a
    note's "# Title": a heading closes only a passage already under way) and no table whose
    words, counted as its sentences will count them (at most one more per possible cut inside
    a run of non-spaces), stay under the target. Its one passage then runs from its first to
    its last non-space character, as the sentences' would; tests/ingest/test_chunking.py
    holds the two paths equal."""
    text = doc.text
    first = len(text) - len(text.lstrip())
    line = text.find("\n", first)
    line = len(text) if line < 0 else line  # where the first line ends
    heading = text[first:line].lstrip("#")
    if doc.page_starts or "|" in text or "#" in text[line:] or "#" in heading:
        return None
    words = len(_WORD.findall(text))
    if not words or words + len(_CUT.findall(text)) >= chunk_words:
        return None
    return len(text) - len(text.lstrip()), len(text.rstrip())


def chunk_document(doc: Document, chunk_words: int = 100, on_progress: OnProgress | None = None) -> list[Passage]:
    """The passages of ``doc``; ``on_progress`` (characters done, in all) is called as
    its sentences are found, the long part on a large file."""
    text = doc.text
    # Newline offsets once: counting from 0 for every passage is quadratic in file size.
    newlines = [m.start() for m in re.finditer("\n", text)] if doc.first_line is not None else []
    whole = _whole(doc, chunk_words)
    if whole is not None:
        return [_passage(doc, 0, *whole, newlines)]
    tables = markdown_tables(text)
    pieces = _pieces(text, chunk_words, tables, on_progress)
    groups = _groups(text, pieces, chunk_words, doc.page_starts or [])
    starts = [t.start for t in tables]
    return [_passage(doc, i, a, b, newlines, _header(text, tables, starts, a)) for i, (a, b) in enumerate(groups)]


def _groups(
    text: str, pieces: Sequence[tuple[int, int, int]], chunk_words: int, pages: Sequence[int]
) -> list[tuple[int, int]]:
    """Pack ``pieces`` greedily into (start, end) spans of about ``chunk_words`` words; a
    passage closes when full, at a page break, or at a heading once a third full. A heading
    that would end a passage opens the next one instead: "## Limits" goes with the table
    below it, not after the paragraph above it."""
    groups: list[tuple[int, int]] = []
    cur_start, cur_end, cur_words = -1, -1, 0
    last: tuple[int, int] | None = None  # (start, words) of the heading piece that ended the passage so far
    before = -1  # where the passage ended before that heading
    for s0, s1, n in pieces:
        heading = text.startswith("#", s0)
        full = cur_words >= chunk_words or (cur_words + n > chunk_words * 1.5 and cur_words > 0)
        new_page = cur_start >= 0 and bisect.bisect_right(pages, s0) != bisect.bisect_right(pages, cur_start)
        if cur_start >= 0 and (full or new_page or (heading and cur_words >= chunk_words // 3)):
            if last is not None and last[0] > cur_start and not new_page:
                groups.append((cur_start, before))
                cur_start, cur_words = last
            else:
                groups.append((cur_start, cur_end))
                cur_start, cur_words = -1, 0
        if cur_start < 0:
            cur_start = s0
        before, last = cur_end, (s0, n) if heading else None
        cur_end, cur_words = s1, cur_words + n
    if cur_start >= 0:
        groups.append((cur_start, cur_end))
    return groups


def _header(text: str, tables: Sequence[Table], starts: Sequence[int], start: int) -> str:
    """The header and separator of the table (of ``tables``, starting at ``starts``) whose
    rows a passage starting at ``start`` begins in; "" when it begins elsewhere."""
    i = bisect.bisect_right(starts, start) - 1
    return text[tables[i].start : tables[i].body] if i >= 0 and tables[i].body <= start < tables[i].end else ""


def _passage(doc: Document, ordinal: int, start: int, end: int, newlines: list[int], header: str = "") -> Passage:
    text = " ".join(f"{header}\n{doc.text[start:end]}".split())
    line_start = line_end = page = None
    if doc.first_line is not None:
        line_start = doc.first_line + bisect.bisect_left(newlines, start)
        line_end = doc.first_line + bisect.bisect_left(newlines, end)
    if doc.page_starts:
        page = bisect.bisect_right(doc.page_starts, start)
    title = doc.title
    if doc.sections:  # the heading path of the section the passage starts in
        i = bisect.bisect_right(doc.sections, start, key=lambda section: section[0]) - 1
        if i >= 0 and doc.sections[i][1]:
            title = f"{doc.title} › {doc.sections[i][1]}"
    return Passage(
        source=doc.source, title=title, text=text, ordinal=ordinal,
        char_start=start, char_end=end, line_start=line_start, line_end=line_end, page=page,
    )
