"""HTML → (title, text): the boilerplate (script, style, nav, head) dropped, blocks kept as
lines, headings as Markdown headings ("## Internal tools"), tables as Markdown tables (one
row a line, the first row as header), inline ``<code>`` in backticks. Shared by the .html
loader, e-book chapters and HTML-only mail.

A table's cells used to run together ("ToolWhat it doesOwner heron-cliQuery and ..."):
the words at cell borders were lost to search, and neither the answer stage's table
reading (:mod:`drrag_cli.text.tables`) nor the named hops saw a row."""

from __future__ import annotations

import re
from html.parser import HTMLParser


class _HTMLText(HTMLParser):
    SKIP = {"script", "style", "nav", "noscript", "template", "svg", "head"}
    BLOCK = {"p", "div", "br", "li", "ul", "ol", "tr", "table", "section", "article",
             "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "dd", "dt", "hr"}

    CELL = {"td", "th"}
    HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip_depth = 0
        self.title = ""
        self.h1 = ""
        self._in: list[str] = []
        self._rows: list[int] = []  # per open table: rows written so far
        self._cells = 0  # cells of the row being written

    def _emit(self, text: str) -> None:
        if not self.skip_depth and "head" not in self._in:
            self.parts.append(text)

    def _in_cell(self) -> bool:
        return any(tag in self.CELL for tag in self._in)

    def handle_starttag(self, tag: str, attrs) -> None:  # noqa: ANN001
        if tag in self.SKIP and tag != "head":
            self.skip_depth += 1
        if tag == "table":
            self._rows.append(0)
        elif tag == "tr" and self._rows:
            self._end_row()  # an unclosed <tr> before this one
            self._cells = 0
        elif tag in self.CELL and self._rows:
            self._end_cell()  # an unclosed <td> before this one
            opens_row = self._cells == 0
            if opens_row and self.parts and not self.parts[-1].endswith("\n"):
                self._emit("\n")  # a caption (or a table inside a cell) before the row
            self._emit("| " if opens_row else " | ")
            self._cells += 1
        elif tag == "code" and "pre" not in self._in:
            self._emit("`")
        self._in.append(tag)
        if tag in self.BLOCK and tag not in ("tr", "table"):
            self._emit(" " if self._in_cell() else "\n")
        elif tag == "table":
            self._emit("\n")
        if tag in self.HEADINGS and not self._in_cell():
            self._emit(f"\n{'#' * int(tag[1])} ")  # a Markdown heading: it opens a passage, as in a .md note

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and tag != "head" and self.skip_depth:
            self.skip_depth -= 1
        if tag in self.CELL:
            self._end_cell()
            return
        if tag in self._in:
            while self._in and self._in.pop() != tag:
                pass
        if tag == "code" and "pre" not in self._in:
            self._emit("`")
        elif tag == "tr" and self._rows:
            self._end_row()
        elif tag == "table" and self._rows:
            self._end_row()
            self._rows.pop()
            self._emit("\n")
        elif tag in self.BLOCK:
            self._emit(" " if self._in_cell() else "\n\n" if tag in self.HEADINGS else "\n")

    def _end_cell(self) -> None:
        while self._in_cell():
            self._in.pop()

    def _end_row(self) -> None:
        """Close the row being written; after a table's first row, the header separator."""
        self._end_cell()
        if not self._cells:
            return
        self._emit(" |\n")
        if self._rows[-1] == 0:
            self._emit("|" + "---|" * self._cells + "\n")
        self._rows[-1] += 1
        self._cells = 0

    def handle_data(self, data: str) -> None:
        if "title" in self._in:
            self.title += data
            return
        if self.skip_depth or "head" in self._in:
            return
        if "h1" in self._in:
            self.h1 += data
        if self._rows and not self._in_cell() and not data.strip():
            return  # the white space between rows would split the table
        if self._in_cell():
            data = re.sub(r"\s+", " ", data.replace("|", "/"))  # one line, no stray cell border
        self.parts.append(data)


_EMPTY_HEADING = re.compile(r"#{1,6}")  # "<h1></h1>": a heading with no words


def html_text(text: str) -> tuple[str, str]:
    """(title, body text) of an HTML page: <title> else <h1>; boilerplate tags dropped."""
    parser = _HTMLText()
    parser.feed(text)
    parser.close()
    body = "".join(parser.parts)
    body = re.sub(r"[ \t\r\f\v]+", " ", body)
    lines = [line.strip() for line in body.split("\n")]
    body = "\n".join(line for line in lines if not _EMPTY_HEADING.fullmatch(line)).strip()
    body = re.sub(r"\n\s*\n+", "\n\n", body)  # blank runs, and where an empty heading stood
    return " ".join(parser.title.split()) or " ".join(parser.h1.split()), body
