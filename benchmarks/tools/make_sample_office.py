#!/usr/bin/env python3
"""Regenerate the .docx, .pptx, .odt, .epub, .eml and .mbox files of sample_corpus/.

Each file is written with the library family drrag reads it with (python-docx,
python-pptx, odfpy, ebooklib; mail with the standard library's email + mailbox),
so the sample corpus shows what those formats look like to the loaders. The text is
original fictional text about Halyard Labs (CC0), like the rest of the corpus; each
file holds one fact asked in sample_corpus/QUESTIONS-formats.md.

Usage:
    pip install 'drrag-cli[office]'
    python benchmarks/tools/make_sample_office.py [SAMPLE_CORPUS_DIR]
"""

from __future__ import annotations

import mailbox
import sys
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

DOCX = [  # (heading level or None, text)
    (0, "Curlew field pilot plan"),
    (None, "Prepared by Hannah Osei for the January 2024 field pilot with one Kestrel Rail depot."),
    (1, "Depot"),
    (None, "The pilot runs at the Merelbeke depot. Twelve inspectors use the app for four weeks."),
    (1, "Equipment"),
    (2, "Devices"),
    (None, "Each inspector gets a rugged Android phone with a spare battery pack."),
    (2, "Sync station"),
    (None, "The depot sync station is a small mini-PC that the crews call Old Moss. "
           "It sits next to the coffee machine and uploads the day's records every evening."),
    (1, "Risks"),
    (None, "Winter gloves make the touch screen hard to use; we test glove-friendly buttons in week one."),
]

SLIDES = [  # (title, bullets, notes)
    ("Plover 2023 year in review", ["Vellmar Water Authority steering meeting, 12 December 2023",
                                    "Presented by Ines Carvalho"], ""),
    ("Coverage", ["Pumping stations connected: 48", "Readings stored per day: 6.1 million"], ""),
    ("Quality", ["The false-alarm rate fell to 7 percent after the autumn release",
                 "Top complaint: alerts that repeat during planned maintenance"],
     "Mention that the false-alarm rate comes from the operators' weekly review."),
    ("Next year", ["Connect the reservoirs of the northern district", "Retire the legacy SMS gateway"], ""),
]

ODT = [
    (1, "Ghent office kitchen rota"),
    (None, "Sofie Janssens keeps this rota; swap weeks on the #ghent-office channel."),
    (2, "Weekly duties"),
    (None, "The dishwasher is emptied by whoever arrives first. Fridge clean-out is on Fridays at 15:00."),
    (2, "Espresso machine"),
    (None, "The espresso machine is descaled on the first Monday of every month by Ruben De Smet, "
           "who also orders the beans from a roaster in Sint-Amandsberg."),
]

EPUB = ("The Halyard Handbook", [
    ("Welcome", "<p>This handbook collects how we work at Halyard Labs in Ghent and Porto.</p>"),
    ("Travel", "<p>Book trains for trips under six hours. The daily meal allowance on work trips "
               "is 48 euros, paid with the monthly expense run.</p>"),
    ("Time off", "<p>Everyone has 26 days of holiday; the office closes between Christmas and New Year.</p>"),
])


def write_docx(path: Path) -> None:
    import docx

    doc = docx.Document()
    doc.core_properties.title = "Curlew field pilot plan"
    for level, text in DOCX:
        if level is None:
            doc.add_paragraph(text)
        else:
            doc.add_heading(text, level)
    doc.save(str(path))


def write_pptx(path: Path) -> None:
    from pptx import Presentation

    deck = Presentation()
    deck.core_properties.title = SLIDES[0][0]
    for title, bullets, notes in SLIDES:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text_frame.text = "\n".join(bullets)
        if notes:
            slide.notes_slide.notes_text_frame.text = notes
    deck.save(str(path))


def write_odt(path: Path) -> None:
    from odf.opendocument import OpenDocumentText
    from odf.text import H, P

    odt = OpenDocumentText()
    for level, text in ODT:
        odt.text.addElement(P(text=text) if level is None else H(outlinelevel=level, text=text))
    odt.save(str(path))


def write_epub(path: Path) -> None:
    from ebooklib import epub

    title, chapters = EPUB
    book = epub.EpubBook()
    book.set_identifier("halyard-handbook-2023")
    book.set_title(title)
    book.set_language("en")
    book.add_author("Sofie Janssens")
    items = []
    for n, (name, html) in enumerate(chapters, start=1):
        item = epub.EpubHtml(title=name, file_name=f"chap_{n}.xhtml", lang="en")
        item.content = f"<html><head><title>{name}</title></head><body><h1>{name}</h1>{html}</body></html>"
        book.add_item(item)
        items.append(item)
    book.toc = items
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = ["nav", *items]
    epub.write_epub(str(path), book)


def message(sender: str, to: str, when: datetime, subject: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Date"] = format_datetime(when)
    msg.set_content(body)
    return msg


def write_mail(folder: Path) -> None:
    eml = message(
        "Wout Peeters <wout@halyard.example>", "Hannah Osei <hannah@halyard.example>",
        datetime(2023, 10, 3, 9, 12, tzinfo=UTC), "Quote for the new office NAS",
        "Hi Hannah,\n\nThe supplier in Kortrijk sent the quote for the replacement NAS: 2,340 euros "
        "for the eight-bay model with four 12 TB disks, delivered in two weeks.\n\nWout\n",
    )
    (folder / "2023-10-03-nas-quote.eml").write_bytes(bytes(eml))
    box_path = folder / "2024-offsite-planning.mbox"
    box_path.unlink(missing_ok=True)
    box = mailbox.mbox(str(box_path))
    box.add(message(
        "Sofie Janssens <sofie@halyard.example>", "team@halyard.example",
        datetime(2023, 11, 6, 14, 0, tzinfo=UTC), "Spring offsite 2024: venue",
        "Hi all,\n\nThe spring offsite is booked: 15-17 April 2024 at the Domaine des Lauriers, a farm "
        "near Dinant in the Ardennes. A bus leaves Dok Noord at 8:30.\n\nSofie\n",
    ))
    box.add(message(
        "Priya Raman <priya@halyard.example>", "team@halyard.example",
        datetime(2023, 11, 7, 8, 40, tzinfo=UTC), "Re: Spring offsite 2024: venue",
        "Lovely. The Porto team will fly to Brussels on the 14th and join the bus.\n\nPriya\n",
    ))
    box.flush()
    box.close()


def main(root: Path) -> None:
    mail = root / "notes" / "mail"
    for folder in (mail, root / "projects" / "curlew", root / "meetings", root / "wiki"):
        folder.mkdir(parents=True, exist_ok=True)
    write_docx(root / "projects" / "curlew" / "field-pilot-plan.docx")
    write_pptx(root / "meetings" / "2023-12-plover-year-review.pptx")
    write_odt(root / "wiki" / "kitchen-rota.odt")
    write_epub(root / "wiki" / "halyard-handbook.epub")
    write_mail(mail)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "sample_corpus")
