"""Office and e-book formats (.docx, .pptx, .odt, .epub) → Documents, through their libraries.

The parsers are an optional extra (``pip install 'drrag-cli[office]'``) and are imported
inside the loader, so ``drrag --help`` stays fast and a missing one skips the file with
the fix instead of failing the run. Citations are as precise as each format allows:

* .docx/.odt: Heading 1-6 styles become Markdown ``#`` lines, so a heading starts a new
  passage (as in Markdown notes), and each passage is titled with its heading path
  ("Plan › Equipment › Sync station"); the document's title is its title property, else
  its Title/first heading. Text is extracted (no line numbers).
* .pptx: one page per slide (``page`` = slide number, cited "slide N").
* .epub: one document per chapter (``book.epub#N``), titled "Book › Chapter".
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path

from drrag_cli.types import Document

FIX = "pip install 'drrag-cli[office]'"
# suffix -> (import name, pip package): what `doctor` reports and a missing parser names.
PARSERS = {".docx": ("docx", "python-docx"), ".pptx": ("pptx", "python-pptx"),
           ".odt": ("odf", "odfpy"), ".epub": ("ebooklib", "ebooklib")}


def load_office(path: Path, data: bytes, skip: type[Exception]) -> list[Document]:
    """Documents of one office/e-book file; ``skip`` (loaders.SkipFile) for a missing parser
    or a damaged file, with the reason and the fix."""
    suffix = path.suffix.lower()
    module, package = PARSERS[suffix]
    loader: Callable[[Path, bytes], list[Document]] = _LOADERS[suffix]
    try:
        __import__(module)
    except ImportError as exc:
        raise skip(f"{suffix} needs {package}, which is not installed (fix: {FIX})") from exc
    _check_container(suffix, data, skip)
    try:
        return loader(path, data)
    except Exception as exc:  # the libraries raise many types on damaged files
        first = (str(exc).strip().splitlines() or [""])[0][:120]
        raise skip(f"unreadable {suffix} file ({type(exc).__name__}: {first}); re-save it from its editor") from exc


MAX_UNZIPPED_MB = 512  # a zip that expands past this is refused before a parser inflates it
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # compound file: legacy .doc/.ppt or a password-protected file


def _check_container(suffix: str, data: bytes, skip: type[Exception]) -> None:
    """These formats are zip files: anything else, or a zip bomb, is refused with a reason."""
    if data.startswith(_OLE):
        raise skip(f"password-protected or legacy binary Office file named {suffix}; "
                   f"save it again as {suffix} without a password")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            unzipped = sum(info.file_size for info in zf.infolist())
    except (zipfile.BadZipFile, EOFError, ValueError) as exc:
        raise skip(f"not a valid {suffix} file (not a readable zip container: damaged or renamed?)") from exc
    if unzipped > MAX_UNZIPPED_MB * 1024 * 1024:
        raise skip(f"{suffix} file expands to {unzipped / 1024 / 1024:.0f} MB (over {MAX_UNZIPPED_MB} MB: "
                   f"a zip bomb?); not indexed")


def _heading_level(style_name: str) -> int | None:
    """1-6 for 'Heading 1'…'Heading 6' (and 'Title' → 1), else None."""
    if style_name == "Title":
        return 1
    found = re.fullmatch(r"Heading ([1-6])", style_name or "")
    return int(found.group(1)) if found else None


def _headed_document(path: Path, blocks: Iterable[tuple[int | None, str]], meta_title: str) -> Document:
    """A Document from (heading level or None, paragraph text) blocks: headings become '#'
    lines, paragraphs are separated by blank lines (the chunker's paragraphs), and each
    heading opens a section whose heading path titles its passages. The title is the
    file's title property, else its first heading, else the file name."""
    parts: list[str] = []
    sections: list[tuple[int, list[str]]] = []
    stack: list[tuple[int, str]] = []  # (level, heading) of the open headings
    offset = 0
    for level, text in blocks:
        text = " ".join(text.split())
        if not text:
            continue
        if level:
            stack = [(lv, h) for lv, h in stack if lv < level] + [(level, text)]
            sections.append((offset, [h for _, h in stack]))
            text = "#" * level + " " + text
        parts.append(text)
        offset += len(text) + 2
    title = (meta_title.strip() or (sections[0][1][-1] if sections else "") or path.stem)[:200]
    paths = [(at, " › ".join(h for h in heads if h != title)) for at, heads in sections]
    return Document(str(path), title, "\n\n".join(parts), first_line=None, sections=paths or None)


def _load_docx(path: Path, data: bytes) -> list[Document]:
    import docx
    from docx.table import Table

    doc = docx.Document(io.BytesIO(data))
    blocks: list[tuple[int | None, str]] = []
    for part in doc.iter_inner_content():  # paragraphs and tables in reading order
        if isinstance(part, Table):
            blocks += [(None, " | ".join(cell.text for cell in row.cells)) for row in part.rows]
        else:
            blocks.append((_heading_level(part.style.name if part.style is not None else ""), part.text))
    return [_headed_document(path, blocks, doc.core_properties.title or "")]


def _load_pptx(path: Path, data: bytes) -> list[Document]:
    from pptx import Presentation

    deck = Presentation(io.BytesIO(data))
    starts, chunks, offset, first = [], [], 0, ""
    for slide in deck.slides:
        lines = _shape_lines(slide.shapes)
        if slide.has_notes_slide:
            lines.append(slide.notes_slide.notes_text_frame.text)
        lines = [line for line in lines if line.strip()]
        first = first or (lines[0] if lines else "")
        # each slide line its own paragraph: a title without a full stop stays a sentence
        body = "\n\n".join(lines)
        starts.append(offset)
        chunks.append(body)
        offset += len(body) + 2
    text = "\n\n".join(chunks)
    title = (deck.core_properties.title or "").strip() or first or path.stem
    return [Document(str(path), title[:200], text, first_line=None, page_starts=starts)]


def _shape_lines(shapes) -> list[str]:  # noqa: ANN001 - pptx shape collection
    """Text of a slide's shapes, with grouped shapes and table rows, in the deck's order."""
    lines: list[str] = []
    for shape in shapes:
        if getattr(shape, "shapes", None) is not None:  # a group
            lines += _shape_lines(shape.shapes)
        elif getattr(shape, "has_table", False) and shape.has_table:
            lines += [" | ".join(cell.text for cell in row.cells) for row in shape.table.rows]
        elif shape.has_text_frame:
            lines += [" ".join(p.text.split()) for p in shape.text_frame.paragraphs]
    return lines


def _load_odt(path: Path, data: bytes) -> list[Document]:
    from odf import teletype
    from odf.namespaces import TEXTNS
    from odf.opendocument import load

    odt = load(io.BytesIO(data))
    blocks: list[tuple[int | None, str]] = []
    for el in odt.text.childNodes:
        if el.qname == (TEXTNS, "h"):
            level = int(el.getAttribute("outlinelevel") or 1)
            blocks.append((min(max(level, 1), 6), teletype.extractText(el)))
        elif el.qname == (TEXTNS, "p"):
            blocks.append((None, teletype.extractText(el)))
    meta_title = ""
    for node in odt.meta.childNodes:
        if node.qname[1] == "title":
            meta_title = teletype.extractText(node).strip()
    return [_headed_document(path, blocks, meta_title)]


def _load_epub(path: Path, data: bytes) -> list[Document]:
    """One document per chapter (spine item with text), titled 'Book › Chapter'."""
    import ebooklib
    from ebooklib import epub

    from drrag_cli.ingest.html_text import html_text

    book = epub.read_epub(io.BytesIO(data), options={"ignore_ncx": True})
    titles = book.get_metadata("DC", "title")
    book_title = (titles[0][0] if titles else "").strip() or path.stem
    docs: list[Document] = []
    for item_id, _linear in book.spine:
        item = book.get_item_with_id(item_id)
        if item is None or item.get_type() != ebooklib.ITEM_DOCUMENT:
            continue
        html = item.get_content().decode("utf-8", errors="replace")
        chapter, body = html_text(html)
        if not body.strip():
            continue
        n = len(docs) + 1  # chapters with text, in reading order
        name = chapter if chapter and chapter != book_title else f"chapter {n}"
        docs.append(Document(f"{path}#{n}", f"{book_title} › {name}"[:200], body, first_line=None))
    return docs


_LOADERS: dict[str, Callable[[Path, bytes], list[Document]]] = {
    ".docx": _load_docx, ".pptx": _load_pptx, ".odt": _load_odt, ".epub": _load_epub,
}
