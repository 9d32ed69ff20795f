"""Markdown tables and key-value rows, read from a passage's text.

A passage's Markdown table reaches the prompt on one line ("| Client | Sector |
Headquarters | |---|---|---| | Kestrel Rail | Regional rail operator | Linz, Austria |"),
and a 270M model cannot tell which cell sits under which header: asked "In which city
is Kestrel Rail headquartered?" over the client register it answered "Ghent". Each row
is written out with its headers instead (:func:`linearise`): "Client: Kestrel Rail; Sector:
Regional rail operator; Headquarters: Linz, Austria." Retrieval reads a note's key-value
rows (:func:`key_values`) to know what it describes; the answer stage reads their cells.
"""

from __future__ import annotations

import re

_SEPARATOR = re.compile(r"\|(?:\s*:?-{3,}:?\s*\|)+")
_CELL = re.compile(r"([^|]*)\|")


def plain(cell: str) -> str:
    """A cell without Markdown emphasis ("**Author**" → "Author")."""
    return cell.strip("*_ ").strip()


def _cells(text: str, start: int, n: int) -> tuple[list[str], int] | None:
    """``n`` cells of a row that opens with "|" at or after ``start`` (white space only before)."""
    at = start
    while at < len(text) and text[at].isspace():
        at += 1
    if at >= len(text) or text[at] != "|":
        return None
    at += 1
    cells = []
    for _ in range(n):
        found = _CELL.match(text, at)
        if found is None:
            return None
        cells.append(found.group(1).strip())
        at = found.end()
    return cells, at


def _header(before: str, n: int) -> tuple[list[str], int] | None:
    """The header row of ``n`` cells that ``before`` ends with (its last n + 1 "|", then
    white space only), and where it starts; read from the end, so a passage full of
    separator-like runs costs time in proportion to its length."""
    tail = before.rstrip()
    if not tail.endswith("|"):
        return None
    start = len(tail) - 1
    for _ in range(n):
        start = tail.rfind("|", 0, start)
        if start < 0:
            return None
    cells = [c.strip() for c in tail[start + 1 : -1].split("|")]
    keyed = n == 2 and not any(cells)  # "| | |": a key-value table ("| **Author** | Priya Raman |")
    return (cells, start) if len(cells) == n and (all(cells) or keyed) else None


def tables(text: str) -> list[tuple[list[str], list[list[str]], int, int]]:
    """Each Markdown table of ``text``: (headers, rows of cells, start, end)."""
    out, done = [], 0
    for separator in _SEPARATOR.finditer(text):
        if separator.start() < done:
            continue
        n = separator.group(0).count("|") - 1
        head = _header(text[done : separator.start()], n)
        if head is None:
            continue
        headers, head_at = head
        rows, at = [], separator.end()
        while (row := _cells(text, at, n)) is not None:
            cells, at = row
            rows.append(cells)
        if rows:
            out.append((headers, rows, done + head_at, at))
            done = at
    return out


# what ends a list item's value besides the next item: a heading, a line break, the end of a
# sentence or of the text (a passage's text is one line: "**Owner:** Tobias. Then we ..." is Tobias)
_ITEM_END = r"\s+#|\n|(?<=[a-z0-9)]{2})\.(?:\s+[A-Z]|\s*$)|$"
# "- **Lead:** Inês Carvalho (Porto)": ends at the next bold item
_BOLD_ITEM = re.compile(
    rf"(?:^|\s)(?:[-*+]\s+)?\*\*([^*:]{{1,40}}?)(?::\*\*|\*\*:)\s*(.+?)(?=\s+[-*+]\s+\*\*|{_ITEM_END})"
)
# "- Email: amara@example.org" (a plain item: a capitalised key of up to three words): ends at any next item
_PLAIN_ITEM = re.compile(
    rf"(?:^|\s)[-*+]\s+([A-Z][\w'’-]*(?:\s[\w'’-]+){{0,2}}):\s+(.+?)(?=\s+[-*+]\s|{_ITEM_END})"
)


def key_values(text: str) -> list[tuple[str, str, str]]:
    """The (key, value, "table" | "list") that ``text`` states as a key-value table ("|
    **Author** | Priya Raman |", a profile's or a note's metadata) or as list items, bold
    ("- **Lead:** Inês Carvalho (Porto)") or plain ("- Email: amara@example.org"), keys without
    emphasis; empty values left out."""
    pairs = [
        (plain(key), value, "table")
        for headers, rows, _start, _end in tables(text) if not any(headers) for key, value in rows
    ]  # fmt: skip
    pairs += [(found.group(1).strip(), found.group(2).strip(), "list") for found in _BOLD_ITEM.finditer(text)]
    pairs += [(found.group(1).strip(), found.group(2).strip(), "list") for found in _PLAIN_ITEM.finditer(text)]
    return [pair for pair in pairs if pair[0] and pair[1]]


def linearise(text: str, between: str = " ") -> str:
    """``text`` with each Markdown table (header, separator, rows) written as one sentence
    per row, "Header: cell; Header: cell." (a key-value table with an empty header:
    "Key: value."), the rows joined by ``between``; other text and malformed tables
    unchanged. A blank line ``between`` keeps rows apart as units even when the first
    header is lower-case ("file: ...; questions: 100. file: ..." is one sentence)."""
    out, done = [], 0
    for headers, rows, start, end in tables(text):
        out.append(text[done:start])
        if any(headers):
            sentences = ("; ".join(f"{h}: {c}" for h, c in zip(headers, row, strict=True) if c) + "." for row in rows)
        else:  # key-value rows
            sentences = (f"{plain(key)}: {value}." for key, value in rows if key and value)
        out.append(between.join(sentences))
        done = end
    out.append(text[done:])
    return "".join(out)
