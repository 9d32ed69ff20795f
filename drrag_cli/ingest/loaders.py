"""Turn one file's bytes into Documents, per format.

Each loader returns documents whose `text` keeps the source's line structure where it
can (Markdown, text, reST), so passages cite real line numbers. HTML and PDF text is
extracted (no line mapping; PDFs cite pages). JSON/JSONL record corpora give one
document per `{id?, title, text}` record, so benchmark corpora index like notes do.
"""

from __future__ import annotations

import codecs
import dataclasses
import io
import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from drrag_cli.ingest.html_text import html_text
from drrag_cli.question import REPLACEMENT, clean_text
from drrag_cli.types import Document

# pypdf logs what it repairs ("EOF marker not found"); with no handler Python printed it bare
# on stderr, in the middle of the progress bar. A PDF it cannot read is skipped with its
# reason (--verbose lists it), one it can read is indexed: the log line adds nothing.
logging.getLogger("pypdf").addHandler(logging.NullHandler())

# The readers' output version, kept in an index's manifest: when it changes, `drrag index`
# reads every file again, changed bytes or not (passages whose text is the same keep their
# cached vectors). 2: HTML tables as Markdown rows, inline code in backticks. 3: a long
# Markdown table is cut between rows and each part repeats its header (ingest/chunking.py).
# 4: a heading that would end a passage opens the next one (ingest/chunking.py).
# 5: HTML headings are written as Markdown headings (ingest/html_text.py).
# 6: a generic title ("Changelog", "README", "index") is prefixed with its folder's name.
# 7: a Markdown front matter's aliases are kept (the names a wiki-link may use).
# 8: a PDF's Author opens its text as a metadata item ("- **Author:** …").
READERS = 8
OFFICE_SUFFIXES = frozenset({".docx", ".pptx", ".odt", ".epub"})  # ingest/office.py
MAIL_SUFFIXES = frozenset({".eml", ".mbox"})  # ingest/mail.py


class SkipFile(Exception):
    """This file is not indexed; the message says why (counted, shown with --verbose)."""


def skip_reason(exc: Exception) -> str:
    """The one-line reason a file is skipped: a :class:`SkipFile`'s own message, or, for
    an unexpected failure while loading or chunking it, the error's type and first line."""
    if isinstance(exc, SkipFile):
        return str(exc)
    first = (str(exc).strip().splitlines() or [""])[0]
    first = first if len(first) <= 160 else first[:157] + "..."
    return f"could not be read ({type(exc).__name__}: {first}); please report this file's format"


@dataclass
class Loaded:
    documents: list[Document]
    notes: list[str] = field(default_factory=list)  # e.g. "decoded as cp1252" (--verbose)
    warnings: list[str] = field(default_factory=list)  # e.g. "3 NUL bytes removed" (always shown)


def load_bytes(path: Path, data: bytes) -> Loaded:
    suffix = path.suffix.lower()
    if not data.strip():
        raise SkipFile("empty file")
    if suffix == ".pdf":
        return _load_pdf(path, data)
    if suffix in OFFICE_SUFFIXES or suffix in MAIL_SUFFIXES:
        return _load_packaged(path, data)
    decoded = decode_text(data)
    text, notes = decoded.text, decoded.notes
    if suffix in (".md", ".markdown"):
        docs = [_load_markdown(path, text)]
    elif suffix == ".rst":
        docs = [_load_rst(path, text)]
    elif suffix in (".html", ".htm"):
        docs = [_load_html(path, text)]
    elif suffix in (".json", ".jsonl"):
        docs, record_notes = _load_records(path, text, jsonl=suffix == ".jsonl")
        notes += record_notes
    else:
        docs = [Document(source=str(path), title=path.stem, text=text)]
    if len(docs) == 1:
        docs = [dataclasses.replace(docs[0], title=qualified_title(path, docs[0].title))]
    return Loaded(_cleaned(docs), notes, decoded.warnings)


# Titles that name a kind of file, not its subject: every project has its own "Changelog"
# and "README". Alone, a question about Heron's 1.0 release cannot find Heron's changelog
# by its title, and its citation does not say whose changelog it is.
GENERIC_TITLES = frozenset({
    "about", "architecture", "changelog", "changes", "contributing", "design", "faq", "history",
    "home", "index", "intro", "introduction", "license", "main", "news", "notes", "overview",
    "readme", "releasenotes", "roadmap", "summary", "todo", "untitled",
})


def qualified_title(path: Path, title: str) -> str:
    """``title``, prefixed with the name of the file's folder when it is a generic one
    (``projects/heron/CHANGELOG.md``: "heron › Changelog"); any other title as it is."""
    folder = path.parent.name
    if folder and re.sub(r"[^a-z]", "", title.lower()) in GENERIC_TITLES:
        return f"{folder} › {title}"
    return title


def _cleaned(docs: list[Document]) -> list[Document]:
    """Lone surrogates removed (a JSON "\\ud800" escape: SQLite and the tokenizers refuse
    them), empty documents dropped; no document left is a skip."""
    docs = [dataclasses.replace(d, title=clean_text(d.title), text=clean_text(d.text)) for d in docs if d.text.strip()]
    if not docs:
        raise SkipFile("no text")
    return docs


def _load_packaged(path: Path, data: bytes) -> Loaded:
    """Office/e-book files (ingest/office.py, optional parsers) and mail (ingest/mail.py)."""
    suffix = path.suffix.lower()
    if suffix in MAIL_SUFFIXES:
        from drrag_cli.ingest.mail import load_mail

        return Loaded(_cleaned(load_mail(path, data, SkipFile)))
    from drrag_cli.ingest.office import load_office

    return Loaded(_cleaned(load_office(path, data, SkipFile)))


# Longest first: the UTF-32-LE mark begins with the UTF-16-LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_SNIFF = 8192  # bytes looked at for NULs (binary) and the UTF-16 pattern


@dataclass
class Decoded:
    text: str
    notes: list[str] = field(default_factory=list)  # how the bytes were read ("decoded as cp1252")
    warnings: list[str] = field(default_factory=list)  # what was changed to read them (bytes replaced, NULs)


def decode_text(data: bytes) -> Decoded:
    """Bytes → text, or :class:`SkipFile` for binary content.

    In order: a byte order mark (UTF-8/16/32) names the encoding; UTF-16 without one is
    recognised by its NUL in every other byte (mostly-ASCII text) when the whole file then
    decodes cleanly; a file with NULs is binary unless they are few (:func:`_without_nuls`,
    which strips them); then UTF-8 (:func:`_mostly_utf8`: a few invalid bytes are replaced,
    the rest of the file kept), else cp1252, else latin-1 (which never fails). Every
    encoding but UTF-8 is noted, so `--verbose` shows it; a replaced byte or a removed NUL
    is a warning, shown by default: the text indexed is not quite the file's.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            body = data[len(bom) :]
            unit = {"utf-16-le": 2, "utf-16-be": 2, "utf-32-le": 4, "utf-32-be": 4}.get(encoding, 1)
            cut = len(body) % unit  # a truncated file ends in half a character
            text = _decode_strict(body[: len(body) - cut], encoding)
            if text is not None:
                notes = [] if encoding == "utf-8" else [f"decoded as {encoding.upper()} (byte order mark)"]
                if cut:
                    dropped = f"{cut} byte" + ("s" if cut > 1 else "")
                    notes.append(f"file ends in half a character ({dropped} dropped): truncated?")
                return Decoded(text, notes)
            if encoding == "utf-8":
                data = body  # judged like any other bytes, without the mark
            break  # a mark followed by undecodable bytes: judged like any other bytes
    encoding = _utf16_without_bom(data)
    if encoding:
        text = _decode_strict(data, encoding)
        if text is not None:
            return Decoded(text, [f"decoded as {encoding.upper()} (no byte order mark)"])
    data, warnings = _without_nuls(data)
    try:
        return Decoded(data.decode("utf-8"), [], warnings)
    except UnicodeDecodeError as exc:
        first_bad = exc.start
    mostly = _mostly_utf8(data, first_bad)
    if mostly is not None:
        return Decoded(mostly[0], [], [*warnings, mostly[1]])
    for encoding in ("cp1252", "latin-1"):
        text = _decode_strict(data, encoding)
        if text is not None:
            return Decoded(text, [f"not UTF-8, decoded as {encoding}"], warnings)
    raise AssertionError("latin-1 decodes any bytes")  # pragma: no cover


# Control bytes that no text has many of: the C0 controls but tab, line feed, vertical tab,
# form feed, carriage return and escape (ANSI colours in a log are text).
_CONTROLS = bytes(b for b in range(32) if b not in b"\t\n\x0b\x0c\r\x1b")
_ODD_ANY = 0.01  # at most this share of control bytes: text, whatever its encoding
_ODD_UTF8 = 0.10  # at most this share, and the rest valid UTF-8: text


def _without_nuls(data: bytes) -> tuple[bytes, list[str]]:
    """``data`` without its NUL bytes, and a warning saying how many went; or
    :class:`SkipFile` when the file is binary.

    Decided on the first 8 KB, and only when they hold a NUL (a file without one is text, as
    it always was; NULs further on are removed all the same). Random or compressed bytes
    are about 11% control bytes (28 of the 256 values), executables and databases far more;
    a text file damaged by a crash or a bad copy has a few NULs in thousands of bytes. So up
    to 1% is text in any encoding, and up to 10% when the rest is valid UTF-8 (which random
    bytes never are over a few hundred bytes): a short note with three NULs is 5-10% of
    them. More is binary, skipped as before.
    """
    sample = data[:_SNIFF]
    if b"\x00" in sample:
        share = 1 - len(sample.translate(None, _CONTROLS)) / len(sample)
        if share > _ODD_UTF8 or (share > _ODD_ANY and not _utf8_prefix(sample.translate(None, _CONTROLS))):
            raise SkipFile("binary content")
    nuls = data.count(b"\x00")
    if not nuls:
        return data, []
    return data.replace(b"\x00", b""), [f"{nuls} NUL byte{'s' if nuls > 1 else ''} removed"]


def _utf8_prefix(sample: bytes) -> bool:
    """Whether ``sample`` is valid UTF-8, but for a character its end may cut in two."""
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=False)
    except UnicodeDecodeError:
        return False
    return True


def _mostly_utf8(data: bytes, first_bad: int) -> tuple[str, str] | None:
    """The text of a UTF-8 file with a few invalid bytes (each invalid sequence becomes
    U+FFFD), and a warning naming the first one's line; None when the file is not UTF-8.

    One stray byte (a Latin-1 "é" pasted into a UTF-8 note, a truncated copy) used to send
    the whole file to cp1252, turning every "ö" into "Ã¶": "Malmö" was no longer found. A
    file is read as UTF-8 when at most half of its non-ASCII characters are invalid
    sequences, i.e. when UTF-8 garbles fewer of them than cp1252 would: cp1252 text has
    almost no valid UTF-8 sequences (an accented capital followed by a symbol), so its
    share of invalid ones is near 100%; a UTF-8 file with a stray byte is near 0%. A tie
    (one "ö", one stray byte) goes to UTF-8, whose damage shows as U+FFFD rather than as
    plausible-looking wrong letters. ``first_bad``: the offset of the first invalid byte.
    """
    text = data.decode("utf-8", "replace")
    invalid = text.count(REPLACEMENT) - data.count(REPLACEMENT.encode())  # minus the file's own U+FFFD
    non_ascii = len(text) - len(text.encode("ascii", "ignore"))
    if invalid > non_ascii - invalid:
        return None
    line = data.count(b"\n", 0, first_bad) + 1
    what = "1 invalid UTF-8 byte sequence" if invalid == 1 else f"{invalid} invalid UTF-8 byte sequences"
    return text, f"{what} replaced by U+FFFD (first at line {line})"


def _decode_strict(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


def _utf16_without_bom(data: bytes) -> str | None:
    """'utf-16-le'/'utf-16-be' when the sample is unambiguous: even length, at least 90%
    of the high bytes NUL (mostly ASCII or Latin-1 text), and it decodes to text without
    control characters other than whitespace (so NUL-padded binary is not text)."""
    sample = data[: _SNIFF - _SNIFF % 2]
    if len(data) % 2 or len(sample) < 4:
        return None
    for encoding, high in (("utf-16-le", sample[1::2]), ("utf-16-be", sample[0::2])):
        if high.count(0) >= 0.9 * len(high):
            try:  # incremental: the sample may end inside a surrogate pair
                text = codecs.getincrementaldecoder(encoding)().decode(sample, final=False)
            except UnicodeDecodeError:
                continue
            if not any(c < " " and c not in "\t\n\r\f" for c in text):
                return encoding
    return None


_FRONT_MATTER = re.compile(r"\A---\s*\n.*?\n(---|\.\.\.)\s*\n", re.S)
_FRONT_MATTER_FENCE = re.compile(r"^(---|\.\.\.)\s*$", re.M)
_MD_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def _load_markdown(path: Path, text: str) -> Document:
    first_line = 1
    front = _FRONT_MATTER.match(text)
    title, aliases = None, ()
    if front:
        block = front.group(0)
        found = re.search(r"^title:\s*[\"']?(.+?)[\"']?\s*$", block, re.M)
        title = found.group(1) if found else None
        aliases = front_matter_aliases(block)
        first_line += block.count("\n")
        text = text[front.end() :]
    heading = _MD_HEADING.search(text)
    if title is None and heading:
        title = heading.group(1)
    return Document(str(path), title or path.stem, text, first_line=first_line, aliases=aliases)


def front_matter_aliases(block: str) -> tuple[str, ...]:
    """The `aliases` (or `alias`) of a Markdown front matter block, as Obsidian writes them:
    a list (`aliases: [Marisol, M. Okonkwo]`, or one `- name` per line) or one string.
    A block that is not YAML, or not a mapping, has none; the note loads all the same."""
    if "alias" not in block:
        return ()  # most notes: no YAML parse (0.24 ms a note)
    import yaml

    try:  # BaseLoader: every value a string, so "created: 2024-13-45" is no error
        meta = yaml.load(_FRONT_MATTER_FENCE.sub("", block), Loader=yaml.BaseLoader)  # noqa: S506
    except (yaml.YAMLError, ValueError, TypeError):
        return ()
    if not isinstance(meta, dict):
        return ()
    found = meta.get("aliases", meta.get("alias"))
    names = [found] if isinstance(found, str) else found if isinstance(found, list) else []
    return tuple(dict.fromkeys(n.strip() for n in names if isinstance(n, str) and n.strip() not in ("", "~", "null")))


def _load_rst(path: Path, text: str) -> Document:
    lines = text.splitlines()
    title = path.stem
    for i in range(len(lines) - 1):
        line, under = lines[i].strip(), lines[i + 1].strip()
        if line and len(under) >= len(line) and len(set(under)) == 1 and under[0] in "=-~#*^":
            title = line
            break
    return Document(str(path), title, text)


def _load_html(path: Path, text: str) -> Document:
    title, body = html_text(text)
    return Document(str(path), title or path.stem, body, first_line=None)


def _load_pdf(path: Path, data: bytes) -> Loaded:
    try:
        from pypdf import PdfReader

        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise SkipFile("encrypted PDF")
        pages = [(page.extract_text() or "") for page in reader.pages]
        meta_title = (reader.metadata.title if reader.metadata else None) or ""
        author = " ".join(str((reader.metadata.author if reader.metadata else None) or "").split())
    except SkipFile:
        raise
    except Exception as exc:  # pypdf raises many types on damaged files
        raise SkipFile(f"unreadable PDF ({type(exc).__name__})") from exc
    if not any(page.strip() for page in pages):
        raise SkipFile("PDF has no extractable text (scanned?)")
    title = meta_title.strip() or next(
        (line.strip() for page in pages for line in page.splitlines() if line.strip()), path.stem
    )
    if author:  # the file's Author, as a note's metadata says it: "Who wrote the X report?"
        pages[0] = f"- **Author:** {author[:200].rstrip('.')}.\n\n{pages[0]}"
    starts, chunks, offset = [], [], 0
    for page_text in pages:
        starts.append(offset)
        chunks.append(page_text)
        offset += len(page_text) + 2
    text = "\n\n".join(chunks)
    doc = Document(str(path), title[:200], text, first_line=None, page_starts=starts)
    return Loaded([doc])


MAX_LINES_NAMED = 5  # a note names the first few bad lines, then gives the count


def _load_records(path: Path, text: str, jsonl: bool) -> tuple[list[Document], list[str]]:
    """Documents from a JSON list/object or JSONL lines, and notes on skipped lines.

    A JSONL line that is not valid JSON, or not a ``{title, text}`` record, is skipped and
    its number noted: one bad line never drops the good records around it.
    """
    notes: list[str] = []
    if jsonl:
        numbered, bad_json, not_record = [], [], []
        # split("\n"), not splitlines(): a JSON string may hold U+2028 and other breaks
        lines = [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()]
        for i, (n, line) in enumerate(lines):  # i: the record's default id, as before
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                bad_json.append(n)
                continue
            if _is_record(rec):
                numbered.append((str(rec.get("id", rec.get("_id", i))), rec))
            else:
                not_record.append(n)
        if not numbered:
            if bad_json:
                raise SkipFile(f"no valid records: {_lines(bad_json, 'invalid JSON')}")
            raise SkipFile("not a record corpus (expected {title, text} objects)")
        if bad_json:
            notes.append(f"skipped {_lines(bad_json, 'invalid JSON')}")
        if not_record:
            notes.append(f"skipped {_lines(not_record, 'not a {title, text} record')}")
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SkipFile(f"invalid JSON (line {exc.lineno}: {exc.msg})") from exc
        items = data if isinstance(data, list) else [data]
        if not all(_is_record(rec) for rec in items):
            raise SkipFile("not a record corpus (expected {title, text} objects)")
        numbered = [(str(rec.get("id", rec.get("_id", i))), rec) for i, rec in enumerate(items)]
    docs = [
        Document(f"{path}#{rid}", str(rec.get("title") or rid), rec["text"], first_line=None)
        for rid, rec in numbered
    ]
    return docs, notes


def _is_record(rec: object) -> bool:
    return isinstance(rec, dict) and isinstance(rec.get("text"), str)


def _lines(numbers: list[int], why: str) -> str:
    """'line 4 (WHY)' / '3 lines (WHY): 4, 9, 17' / '12 lines (WHY): 4, 9, 17, 20, 31, …'."""
    if len(numbers) == 1:
        return f"line {numbers[0]} ({why})"
    shown = ", ".join(str(n) for n in numbers[:MAX_LINES_NAMED])
    return f"{len(numbers)} lines ({why}): {shown}" + (", …" if len(numbers) > MAX_LINES_NAMED else "")
