"""HTML → (title, text): the boilerplate (script, style, nav, head) dropped, blocks kept as
lines. Shared by the .html loader, e-book chapters and HTML-only mail."""

from __future__ import annotations

import re
from html.parser import HTMLParser


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


def html_text(text: str) -> tuple[str, str]:
    """(title, body text) of an HTML page: <title> else <h1>; boilerplate tags dropped."""
    parser = _HTMLText()
    parser.feed(text)
    parser.close()
    body = "".join(parser.parts)
    body = re.sub(r"[ \t\r\f\v]+", " ", body)
    body = re.sub(r"\n\s*\n+", "\n\n", body)
    lines = [line.strip() for line in body.split("\n")]
    body = "\n".join(lines).strip()
    return " ".join(parser.title.split()) or " ".join(parser.h1.split()), body
