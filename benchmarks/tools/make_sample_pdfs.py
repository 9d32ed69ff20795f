#!/usr/bin/env python3
"""Regenerate the PDF files of sample_corpus/ using only the standard library.

The PDFs are minimal but valid PDF 1.4 files: standard Helvetica fonts
(no embedding), WinAnsiEncoding, one Flate-compressed content stream per page
and a correct xref table. Text is wrapped with the Helvetica glyph widths so
it fits the page, and every line is drawn as a single string, so text
extraction (e.g. with pypdf) returns words separated by spaces and intact
lines.

Usage:
    python benchmarks/tools/make_sample_pdfs.py [SAMPLE_CORPUS_DIR]

The default output directory is ``sample_corpus`` next to ``benchmarks``.
The documents are original fictional text written for drrag (CC0).
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

# --------------------------------------------------------------------------
# Fonts and text measurement
# --------------------------------------------------------------------------

# Helvetica advance widths (1/1000 em) for ASCII 32..126, from the standard AFM.
# fmt: off
_HELV_WIDTHS = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
]
# fmt: on

PAGE_W, PAGE_H = 595, 842  # A4 in points
MARGIN_L, MARGIN_R, MARGIN_T, MARGIN_B = 72, 72, 72, 72
TEXT_W = PAGE_W - MARGIN_L - MARGIN_R

# style -> (font resource, size, leading, space before, indent)
STYLES = {
    "title": ("F2", 16, 21, 0, 0),
    "h1": ("F2", 12.5, 17, 10, 0),
    "meta": ("F1", 10, 13.5, 0, 0),
    "p": ("F1", 10, 13.5, 6, 0),
    "bullet": ("F1", 10, 13.5, 2, 14),
    "row": ("F1", 10, 13.5, 0, 14),
}


def text_width(text: str, size: float, bold: bool) -> float:
    total = 0
    for ch in text:
        code = ord(ch)
        w = _HELV_WIDTHS[code - 32] if 32 <= code <= 126 else 600
        total += w
    factor = 1.06 if bold else 1.0  # Helvetica-Bold is slightly wider
    return total * size / 1000.0 * factor


def wrap(text: str, size: float, bold: bool, width: float) -> list[str]:
    words = text.split()
    lines: list[str] = []
    cur = ""
    for word in words:
        cand = word if not cur else cur + " " + word
        if text_width(cand, size, bold) <= width or not cur:
            cur = cand
        else:
            lines.append(cur)
            cur = word
    if cur:
        lines.append(cur)
    return lines


def pdf_string(text: str) -> bytes:
    raw = text.encode("cp1252")
    out = bytearray(b"(")
    for b in raw:
        if b in (0x28, 0x29, 0x5C):  # ( ) backslash
            out += b"\\" + bytes([b])
        elif b < 32 or b > 126:
            out += b"\\%03o" % b
        else:
            out.append(b)
    out += b")"
    return bytes(out)


# --------------------------------------------------------------------------
# Layout
# --------------------------------------------------------------------------


def layout(blocks: list[tuple[str, str]], footer: str) -> list[bytes]:
    """Turn (style, text) blocks into one content stream per page."""
    pages: list[list[bytes]] = [[]]
    y = PAGE_H - MARGIN_T

    def new_page() -> None:
        nonlocal y
        pages.append([])
        y = PAGE_H - MARGIN_T

    for style, text in blocks:
        font, size, leading, before, indent = STYLES[style]
        bold = font == "F2"
        prefix_x = MARGIN_L + indent
        lines = wrap(text, size, bold, TEXT_W - indent)
        needed = before + leading * min(len(lines), 2)
        if style == "h1":
            needed += 3 * 13.5  # keep a heading with the start of its section
        if pages[-1] and y - needed < MARGIN_B:
            new_page()
        elif pages[-1]:
            y -= before
        for i, line in enumerate(lines):
            if y - leading < MARGIN_B:
                new_page()
            y -= leading
            x = prefix_x
            if style == "bullet" and i == 0:
                # the bullet glyph is a hyphen so extraction stays ASCII
                pages[-1].append(b"BT /F1 %.1f Tf %.2f %.2f Td (-) Tj ET" % (size, MARGIN_L + 4, y))
            pages[-1].append(b"BT /%s %.1f Tf %.2f %.2f Td %s Tj ET" % (font.encode(), size, x, y, pdf_string(line)))

    streams = []
    n = len(pages)
    for i, ops in enumerate(pages, start=1):
        foot = f"{footer} - page {i} of {n}"
        fx = PAGE_W - MARGIN_R - text_width(foot, 8, False)
        ops = ops + [b"BT /F1 8.0 Tf %.2f %.2f Td %s Tj ET" % (fx, 40, pdf_string(foot))]
        streams.append(b"\n".join(ops) + b"\n")
    return streams


# --------------------------------------------------------------------------
# PDF serialisation
# --------------------------------------------------------------------------


def build_pdf(blocks: list[tuple[str, str]], title: str, author: str, footer: str, date: str) -> bytes:
    streams = layout(blocks, footer)
    objects: list[bytes] = []  # object i+1 is objects[i]

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # placeholder, filled in below
    pages_id = add(b"")
    f1 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    f2 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
    page_ids = []
    for s in streams:
        data = zlib.compress(s, 9)
        content = add(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream")
        page_ids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d %d] "
                b"/Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> >> /Contents %d 0 R >>"
                % (pages_id, PAGE_W, PAGE_H, f1, f2, content)
            )
        )
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id
    kids = b" ".join(b"%d 0 R" % p for p in page_ids)
    objects[pages_id - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(page_ids))
    info = add(
        b"<< /Title %s /Author %s /Creator %s /Producer %s /CreationDate %s >>"
        % (
            pdf_string(title),
            pdf_string(author),
            pdf_string("drrag sample corpus"),
            pdf_string("make_sample_pdfs.py (stdlib)"),
            pdf_string(date),
        )
    )

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref_pos = len(out)
    out += b"xref\n0 %d\n" % (len(objects) + 1)
    out += b"0000000000 65535 f \n"
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        catalog,
        info,
        xref_pos,
    )
    return bytes(out)


# --------------------------------------------------------------------------
# Documents (original fictional text, CC0)
# --------------------------------------------------------------------------

SALTMARSH = [
    ("title", "Saltmarsh: Compact Sentence Embeddings for Small-Team Document Search"),
    ("meta", "Halyard Labs Technical Report HL-TR-2022-03, October 2022"),
    ("meta", "Priya Raman and Tobias Lindqvist, Halyard Labs, Ghent, Belgium"),
    ("h1", "Abstract"),
    (
        "p",
        "We describe Saltmarsh, a compact sentence embedding model for document "
        "search in small organisations that work in Dutch and English. Saltmarsh has "
        "22 million parameters and produces 384-dimensional vectors. It runs on an "
        "ordinary four-core CPU at about 900 passages per second, which makes it "
        "practical to index a few hundred thousand documents overnight on the same "
        "server that answers queries. On our internal evaluation set, Estuary-QA, "
        "hybrid retrieval with Saltmarsh and BM25 finds the correct passage in the top "
        "ten results for 88.4% of questions, against 79.1% for BM25 alone.",
    ),
    ("h1", "1 Introduction"),
    (
        "p",
        "Most organisations we work with have a file server that has grown for "
        "fifteen years, and no GPU. Published embedding models are either too large "
        "for their hardware or weak on Dutch. We wanted a model small enough to run "
        "next to the search index and cheap enough to retrain for a new client.",
    ),
    ("h1", "2 Model"),
    (
        "p",
        "Saltmarsh is a six-layer transformer encoder with a hidden size of 384, "
        "twelve attention heads and a vocabulary of 30,000 word pieces built from "
        "equal amounts of Dutch and English text. Sentence vectors are the mean of "
        "the final token states, normalised to unit length. The maximum input length "
        "is 256 tokens; longer passages are split before indexing.",
    ),
    ("h1", "3 Training data"),
    (
        "p",
        "The model is trained in two stages. The first stage uses 1.2 million "
        "question and passage pairs from public question-answering collections, "
        "machine-translated into Dutch for 40% of the pairs. The second stage uses "
        "310,000 synthetic questions generated from documents we are allowed to "
        "use for training, including our own project archive, filtered by "
        "round-trip consistency. Hard negatives are mined with BM25 and refreshed "
        "once halfway through the second stage.",
    ),
    ("h1", "4 Training setup"),
    (
        "p",
        "Saltmarsh was trained on the Brackwater cluster, our in-house GPU "
        "cluster, using all four nodes (32 GPUs) with data parallelism. The first "
        "stage took 26 hours and the second stage 10 hours, 36 hours in total. We "
        "used a contrastive loss with in-batch negatives, a batch size of 4,096 "
        "pairs, a learning rate of 2e-4 with linear warm-up over the first 1,000 "
        "steps, and mixed precision.",
    ),
    ("h1", "5 Evaluation"),
    (
        "p",
        "Estuary-QA contains 1,150 questions written by Halyard staff about "
        "documents in our project archive, each with one or more annotated answer "
        "passages. 61% of the questions are in English and 39% in Dutch. We report "
        "recall at 10 and the mean reciprocal rank of the first correct passage.",
    ),
    ("bullet", "BM25 alone: recall@10 79.1%, MRR 0.52"),
    ("bullet", "Saltmarsh alone: recall@10 81.7%, MRR 0.55"),
    ("bullet", "Hybrid, reciprocal rank fusion: recall@10 88.4%, MRR 0.61"),
    ("bullet", "Public multilingual baseline (118M parameters) alone: recall@10 83.0%, MRR 0.57"),
    (
        "p",
        "Saltmarsh alone is slightly behind a public model five times its size, but "
        "the hybrid system beats every single retriever we tested, and it does so "
        "at a fraction of the indexing cost.",
    ),
    ("h1", "6 Limitations"),
    (
        "p",
        "Saltmarsh is weak on queries of one or two words, where BM25 remains "
        "better, and on tables. It has not been evaluated on French, German or on "
        "scanned documents with OCR errors.",
    ),
    ("h1", "7 Conclusion"),
    (
        "p",
        "A small embedding model combined with a classic inverted index is a "
        "strong, cheap baseline for document search. Saltmarsh is the dense "
        "retriever in our search product. Future work includes a second-stage reranker to improve precision "
        "at the top of the ranking, and an evaluation on scanned archives.",
    ),
]

BOARD_UPDATE = [
    ("title", "Halyard Labs BV - Board update, Q3 2023"),
    ("meta", "Prepared by Ruben De Smet (COO) for the board meeting of 17 October 2023"),
    ("meta", "Date: 9 October 2023. Confidential: board members only."),
    ("h1", "1 Summary"),
    (
        "p",
        "Q3 was our strongest quarter so far. Revenue grew 18% year on year, we "
        "signed two new clients, and the search product shipped its July release on "
        "schedule, with the next one following in early October. Cash position is "
        "healthy, with runway of 14 months at the current burn rate even without new "
        "contracts. The main risk remains client "
        "concentration: one client still accounts for more than a third of revenue.",
    ),
    ("h1", "2 Financials"),
    ("bullet", "Revenue Q3 2023: EUR 412,000 (Q3 2022: EUR 349,000)"),
    ("bullet", "Gross margin: 61% (Q2 2023: 58%)"),
    ("bullet", "Operating result: EUR 37,000 profit"),
    ("bullet", "Cash at 30 September: EUR 1.21 million"),
    ("bullet", "Share of revenue from the largest client: 38% (down from 44% a year ago)"),
    ("h1", "3 New business"),
    (
        "p",
        "The largest new contract this quarter is with Kestrel Rail, signed in "
        "August: design, build and 18 months of support for an offline field "
        "inspection app for their track maintenance crews, worth EUR 310,000 in "
        "total. It is our first fixed-scope product build for a client and our first "
        "client in the rail sector. Work started on 4 September.",
    ),
    (
        "p",
        "We also signed Van Loo Logistics in September for a deployment of our "
        "search product on customs and shipping documents, worth EUR 48,000 in the "
        "first year with an option to extend to a second branch. The framework "
        "agreement with our water utility client is up for renewal in February 2024; "
        "early conversations are positive.",
    ),
    ("h1", "4 Products and projects"),
    (
        "bullet",
        "Search product: version 1.2 (July) added PDF ingestion and a mailbox "
        "connector; version 1.3, released on 5 October, adds an optional "
        "reranker that improves the top result on our evaluation set from 51% to "
        "64%. Weekly active users at the pilot customer: 58.",
    ),
    (
        "bullet",
        "Telemetry pipeline: the new ingestion service is in shadow mode and "
        "handles more than twice the current peak load. Switch-over planned for "
        "the first quarter of 2024.",
    ),
    (
        "bullet",
        "Research: work on scanned documents has started, in collaboration with "
        "a municipal archive that is an existing client.",
    ),
    ("h1", "5 Team"),
    (
        "p",
        "Headcount at 30 September: 13 employees and one part-time contractor, "
        "with 10 people in Ghent and 3 in Porto. Beatriz Lima joined the Porto team in "
        "April and Lotte Claes joined in Ghent in February. We plan two more hires in "
        "Porto before the summer of 2024: a backend engineer and a second data "
        "engineer. Staff turnover in the last twelve months: zero.",
    ),
    ("h1", "6 Risks"),
    (
        "bullet",
        "Client concentration (see above). Mitigation: grow product revenue and the number of mid-sized contracts.",
    ),
    (
        "bullet",
        "Key-person risk in the search team. Mitigation: release coordination "
        "moved to a second person in September; documentation sprint in Q4.",
    ),
    (
        "bullet",
        "Hardware: the GPU cluster is almost two years old and one node failed in "
        "September. A replacement budget is proposed for 2024.",
    ),
    ("h1", "7 Decisions requested from the board"),
    ("bullet", "Approve the 2024 hardware budget of EUR 85,000."),
    ("bullet", "Approve the on-call allowance policy (attached separately)."),
    ("bullet", "Note the plan to open a second meeting room in Porto within the current lease."),
]

DOCS = {
    "papers/saltmarsh-tech-report.pdf": dict(
        blocks=SALTMARSH,
        title="Saltmarsh: Compact Sentence Embeddings for Small-Team Document Search",
        author="Priya Raman; Tobias Lindqvist",
        footer="HL-TR-2022-03",
        date="D:20221028120000+02'00'",
    ),
    "reports/2023-q3-board-update.pdf": dict(
        blocks=BOARD_UPDATE,
        title="Halyard Labs BV - Board update, Q3 2023",
        author="Ruben De Smet",
        footer="Halyard Labs - Board update Q3 2023 - Confidential",
        date="D:20231009090000+02'00'",
    ),
}


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        root = Path(argv[1])
    else:
        root = Path(__file__).resolve().parents[2] / "sample_corpus"
    for rel, spec in DOCS.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(build_pdf(**spec))
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
