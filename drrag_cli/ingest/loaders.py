"""Turn one file's bytes into Documents, per format.

Each loader returns documents whose `text` keeps the source's line structure where it
can (Markdown, text, reST), so passages cite real line numbers. HTML and PDF text is
extracted (no line mapping; PDFs cite pages). JSON/JSONL record corpora give one
document per `{id?, title, text}` record, so benchmark corpora index like notes do.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from drrag_cli.types import Document


class SkipFile(Exception):
    """This file is not indexed; the message says why (counted, shown with --verbose)."""


@dataclass
class Loaded:
    documents: list[Document]
    notes: list[str] = field(default_factory=list)  # e.g. "decoded as cp1252"


def load_bytes(path: Path, data: bytes) -> Loaded:
    suffix = path.suffix.lower()
    if not data.strip():
        raise SkipFile("empty file")
    if suffix == ".pdf":
        return _load_pdf(path, data)
    if b"\x00" in data[:8192]:
        raise SkipFile("binary content")
    text, notes = decode_text(data)
    if suffix in (".md", ".markdown"):
        docs = [_load_markdown(path, text)]
    elif suffix == ".rst":
        docs = [_load_rst(path, text)]
    elif suffix in (".html", ".htm"):
        docs = [_load_html(path, text)]
    elif suffix in (".json", ".jsonl"):
        docs = _load_records(path, text, jsonl=suffix == ".jsonl")
    else:
        docs = [Document(source=str(path), title=path.stem, text=text)]
    docs = [d for d in docs if d.text.strip()]
    if not docs:
        raise SkipFile("no text")
    return Loaded(docs, notes)


def decode_text(data: bytes) -> tuple[str, list[str]]:
    """UTF-8 (with or without BOM); else cp1252; else latin-1 (never fails)."""
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError:
        pass
    for encoding in ("cp1252", "latin-1"):
        try:
            return data.decode(encoding), [f"not UTF-8, decoded as {encoding}"]
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes any bytes")  # pragma: no cover


_FRONT_MATTER = re.compile(r"\A---\s*\n.*?\n(---|\.\.\.)\s*\n", re.S)
_MD_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def _load_markdown(path: Path, text: str) -> Document:
    first_line = 1
    front = _FRONT_MATTER.match(text)
    title = None
    if front:
        block = front.group(0)
        found = re.search(r"^title:\s*[\"']?(.+?)[\"']?\s*$", block, re.M)
        title = found.group(1) if found else None
        first_line += block.count("\n")
        text = text[front.end() :]
    heading = _MD_HEADING.search(text)
    if title is None and heading:
        title = heading.group(1)
    return Document(str(path), title or path.stem, text, first_line=first_line)


def _load_rst(path: Path, text: str) -> Document:
    lines = text.splitlines()
    title = path.stem
    for i in range(len(lines) - 1):
        line, under = lines[i].strip(), lines[i + 1].strip()
        if line and len(under) >= len(line) and len(set(under)) == 1 and under[0] in "=-~#*^":
            title = line
            break
    return Document(str(path), title, text)


class _HTMLText(HTMLParser):
    SKIP = {"script", "style", "nav", "noscript", "template", "svg", "head"}
    BLOCK = {"p", "div", "br", "li", "ul", "ol", "tr", "table", "section", "article",
             "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "dd", "dt", "hr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip_depth = 0
        self.title = ""
        self.h1 = ""
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs) -> None:  # noqa: ANN001
        if tag in self.SKIP and tag != "head":
            self.skip_depth += 1
        self._in.append(tag)
        if tag in self.BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and tag != "head" and self.skip_depth:
            self.skip_depth -= 1
        if tag in self._in:
            while self._in and self._in.pop() != tag:
                pass
        if tag in self.BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if "title" in self._in:
            self.title += data
            return
        if self.skip_depth or "head" in self._in:
            return
        if "h1" in self._in:
            self.h1 += data
        self.parts.append(data)


def _load_html(path: Path, text: str) -> Document:
    parser = _HTMLText()
    parser.feed(text)
    parser.close()
    body = "".join(parser.parts)
    body = re.sub(r"[ \t\r\f\v]+", " ", body)
    body = re.sub(r"\n\s*\n+", "\n\n", body)
    lines = [line.strip() for line in body.split("\n")]
    body = "\n".join(lines).strip()
    title = " ".join(parser.title.split()) or " ".join(parser.h1.split()) or path.stem
    return Document(str(path), title, body, first_line=None)


def _load_pdf(path: Path, data: bytes) -> Loaded:
    try:
        from pypdf import PdfReader

        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise SkipFile("encrypted PDF")
        pages = [(page.extract_text() or "") for page in reader.pages]
        meta_title = (reader.metadata.title if reader.metadata else None) or ""
    except SkipFile:
        raise
    except Exception as exc:  # pypdf raises many types on damaged files
        raise SkipFile(f"unreadable PDF ({type(exc).__name__})") from exc
    starts, chunks, offset = [], [], 0
    for page_text in pages:
        starts.append(offset)
        chunks.append(page_text)
        offset += len(page_text) + 2
    text = "\n\n".join(chunks)
    if not text.strip():
        raise SkipFile("PDF has no extractable text (scanned?)")
    title = meta_title.strip() or next(
        (line.strip() for line in text.splitlines() if line.strip()), path.stem
    )
    doc = Document(str(path), title[:200], text, first_line=None, page_starts=starts)
    return Loaded([doc])


def _load_records(path: Path, text: str, jsonl: bool) -> list[Document]:
    records: list[object] = []
    if jsonl:
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise SkipFile(f"invalid JSON on line {n}: {exc.msg}") from exc
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SkipFile(f"invalid JSON (line {exc.lineno}: {exc.msg})") from exc
        records = data if isinstance(data, list) else [data]
    docs: list[Document] = []
    for i, rec in enumerate(records):
        if not isinstance(rec, dict) or not isinstance(rec.get("text"), str):
            raise SkipFile("not a record corpus (expected {title, text} objects)")
        rid = str(rec.get("id", rec.get("_id", i)))
        title = str(rec.get("title") or rid)
        docs.append(Document(f"{path}#{rid}", title, rec["text"], first_line=None))
    return docs
