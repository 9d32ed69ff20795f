"""Office, e-book and mail files, made here with their own libraries, through the real
loaders and `drrag index`: text, title, heading / slide / chapter / subject come out right,
and a damaged file or a missing parser skips the file with one line, never the run."""

from __future__ import annotations

import io
import json
import mailbox
import sys
import zipfile
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

import pytest

from drrag_cli.ingest.chunking import chunk_document
from drrag_cli.ingest.loaders import SkipFile, load_bytes
from drrag_cli.ingest.walk import walk
from tests.conftest import CliResult


def load(path: Path):  # noqa: ANN201
    return load_bytes(path, path.read_bytes())


def make_docx(path: Path) -> Path:
    import docx

    doc = docx.Document()
    doc.core_properties.title = "Gull survey plan"
    doc.add_heading("Gull survey", 1)
    doc.add_paragraph("The survey counts herring gulls on the Zeebrugge breakwater.")
    doc.add_heading("Equipment", 2)
    doc.add_paragraph("Each counter carries a Vosk 8x42 binocular.")
    table = doc.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text, table.rows[0].cells[1].text = "Boat", "Marlijn"
    doc.add_paragraph("Counts are sent to the bird trust every evening.")
    doc.save(str(path))
    return path


def make_pptx(path: Path, slides: list[tuple[str, str]]) -> Path:
    from pptx import Presentation

    deck = Presentation()
    for title, body in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text_frame.text = body
    deck.save(str(path))
    return path


def make_odt(path: Path) -> Path:
    from odf.opendocument import OpenDocumentText
    from odf.text import H, P

    odt = OpenDocumentText()
    odt.text.addElement(H(outlinelevel=1, text="Tern rota"))
    odt.text.addElement(H(outlinelevel=2, text="Mondays"))
    odt.text.addElement(P(text="On Mondays Ilse waters the office ferns."))
    odt.save(str(path))
    return path


def make_epub(path: Path) -> Path:
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("t1")
    book.set_title("Field Notes")
    book.set_language("en")
    chapters = []
    for n, (name, text) in enumerate([("Dunes", "Sand lizards live in the dunes."),
                                      ("Mudflats", "Godwits feed on the mudflats at low tide.")], 1):
        item = epub.EpubHtml(title=name, file_name=f"c{n}.xhtml")
        item.content = f"<html><body><h1>{name}</h1><p>{text}</p></body></html>"
        book.add_item(item)
        chapters.append(item)
    book.toc = chapters
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = ["nav", *chapters]
    epub.write_epub(str(path), book)
    return path


def mail(subject: str, body: str, sender: str = "Ilse <ilse@example.org>") -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["Subject"], msg["Date"] = sender, subject, "Tue, 03 Oct 2023 09:12:00 +0000"
    msg.set_content(body)
    return msg


def make_mail(folder: Path) -> tuple[Path, Path]:
    eml = folder / "quote.eml"
    eml.write_bytes(bytes(mail("Boat quote", "The boat costs 910 euros a day.")))
    box = mailbox.mbox(str(folder / "box.mbox"))
    box.add(mail("Survey date", "The survey is on 14 May."))
    box.add(mail("Re: Survey date", "I will bring the tide tables.", "Bram <bram@example.org>"))
    box.close()
    return eml, folder / "box.mbox"


def test_docx_headings_lead_passages_and_name_the_title(tmp_path: Path) -> None:
    (doc,) = load(make_docx(tmp_path / "plan.docx")).documents
    assert doc.title == "Gull survey plan"  # the title property
    assert doc.text.startswith("# Gull survey\n\nThe survey counts herring gulls")
    assert "## Equipment\n\nEach counter carries a Vosk 8x42 binocular." in doc.text
    assert "binocular.\n\nBoat | Marlijn\n\nCounts are sent" in doc.text  # table cells, in reading order
    passages = chunk_document(doc, 8)
    equipment = next(p for p in passages if p.text.startswith("## Equipment Each counter"))  # a heading starts one
    assert equipment.title == "Gull survey plan › Gull survey › Equipment"  # the heading path
    assert passages[0].title == "Gull survey plan › Gull survey"


def test_pptx_slides_are_cited_by_number(tmp_path: Path) -> None:
    deck = make_pptx(tmp_path / "deck.pptx", [("Intro", "Welcome."), ("Budget", "The budget is 40,000 euros.")])
    (doc,) = load(deck).documents
    assert doc.title == "Intro" and doc.page_starts is not None and len(doc.page_starts) == 2
    passages = chunk_document(doc, 100)
    budget = next(p for p in passages if "40,000" in p.text)
    assert budget.page == 2 and budget.location.endswith("deck.pptx (slide 2)")


def test_pptx_groups_and_tables_are_read(tmp_path: Path) -> None:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])  # blank
    group = slide.shapes.add_group_shape()
    group.shapes.add_textbox(Inches(1), Inches(1), Inches(3), Inches(1)).text_frame.text = "Grouped kelp note"
    table = slide.shapes.add_table(1, 2, Inches(1), Inches(3), Inches(4), Inches(1)).table
    table.cell(0, 0).text, table.cell(0, 1).text = "Buoy", "Zuidpier"
    deck.save(str(tmp_path / "g.pptx"))
    (doc,) = load(tmp_path / "g.pptx").documents
    assert "Grouped kelp note" in doc.text and "Buoy | Zuidpier" in doc.text


def test_odt_and_epub(tmp_path: Path) -> None:
    (odt,) = load(make_odt(tmp_path / "rota.odt")).documents
    assert odt.title == "Tern rota"
    assert [p.title for p in chunk_document(odt, 100)] == ["Tern rota"]  # the title heading is not repeated
    assert odt.sections == [(0, ""), (len("# Tern rota\n\n"), "Mondays")]
    assert "## Mondays\n\nOn Mondays Ilse waters the office ferns." in odt.text
    chapters = load(make_epub(tmp_path / "notes.epub")).documents
    assert [d.title for d in chapters] == ["Field Notes › Dunes", "Field Notes › Mudflats"]
    assert [d.source.rsplit("#", 1)[1] for d in chapters] == ["1", "2"]
    assert "Godwits feed on the mudflats" in chapters[1].text and "nav" not in chapters[0].text.lower()


def test_mail_subject_is_the_title_and_sender_date_lead_the_text(tmp_path: Path) -> None:
    eml, box = make_mail(tmp_path)
    (msg,) = load(eml).documents
    assert msg.title == "Boat quote" and msg.source == str(eml)
    assert msg.text.startswith("From: Ilse <ilse@example.org>\nDate: Tue, 03 Oct 2023 09:12:00 +0000\n")
    assert "The boat costs 910 euros a day." in msg.text
    messages = load(box).documents
    assert [(Path(d.source).name, d.title) for d in messages] == [
        ("box.mbox#1", "Survey date"), ("box.mbox#2", "Re: Survey date")]
    assert "From: Bram <bram@example.org>" in messages[1].text


def test_html_only_mail_is_read_as_text(tmp_path: Path) -> None:
    msg = mail("Menu", "placeholder")
    msg.set_content("<html><body><p>Soup of the <b>day</b>: leek.</p><script>x()</script></body></html>",
                    subtype="html")
    (tmp_path / "menu.eml").write_bytes(bytes(msg))
    (doc,) = load(tmp_path / "menu.eml").documents
    assert "Soup of the day: leek." in doc.text and "x()" not in doc.text


def _zip_of_text() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("readme.txt", "not a document")
    return buf.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("noise.docx", bytes(range(256)) * 4, "not a valid .docx file"),
        ("plain.odt", _zip_of_text(), "unreadable .odt file"),
        ("plain.pptx", _zip_of_text(), "unreadable .pptx file"),
        ("plain.epub", _zip_of_text(), "unreadable .epub file"),
        ("note.eml", b"just some words, no headers\n", "not an e-mail message"),
        ("box.mbox", b"no From_ line here\n", "no messages"),
    ],
)
def test_damaged_files_are_skipped_with_one_line(tmp_path: Path, name: str, data: bytes, reason: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(SkipFile, match=reason) as info:
        load(path)
    assert "\n" not in str(info.value)


def test_password_protected_and_zip_bomb_files_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "secret.docx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512)
    with pytest.raises(SkipFile, match="password-protected or legacy binary Office file"):
        load(tmp_path / "secret.docx")
    from drrag_cli.ingest import office

    monkeypatch.setattr(office, "MAX_UNZIPPED_MB", 0)  # any real file is then "too large" unzipped
    with pytest.raises(SkipFile, match="expands to .* MB .*zip bomb"):
        load(make_docx(tmp_path / "plan.docx"))


def test_truncated_docx_is_skipped(tmp_path: Path) -> None:
    data = make_docx(tmp_path / "whole.docx").read_bytes()
    (tmp_path / "cut.docx").write_bytes(data[: len(data) // 2])
    with pytest.raises(SkipFile, match=r"\.docx"):
        load(tmp_path / "cut.docx")


def test_a_missing_parser_names_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = make_docx(tmp_path / "plan.docx")
    monkeypatch.setitem(sys.modules, "docx", None)  # import docx now raises ImportError
    with pytest.raises(SkipFile, match=r"needs python-docx.*pip install 'drrag-cli\[office\]'"):
        load(path)


def test_index_reads_every_format_and_skips_the_damaged_one(
    cli: Callable[..., CliResult], tmp_path: Path
) -> None:
    corpus = tmp_path / "kb"
    corpus.mkdir()
    make_docx(corpus / "plan.docx")
    make_pptx(corpus / "deck.pptx", [("Intro", "Welcome."), ("Budget", "The Marlijn charter is 40,000 euros.")])
    make_odt(corpus / "rota.odt")
    make_epub(corpus / "notes.epub")
    make_mail(corpus)
    (corpus / "broken.docx").write_bytes(b"PK\x03\x04 not really a zip")
    assert len(walk([corpus], []).files) == 7
    code, out, err = cli("index", str(corpus), "--index", str(tmp_path / "ix"), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["files"]["added"] == 6
    assert "not a valid .docx file" in report["skipped_files"][str(corpus / "broken.docx")]
    code, out, _ = cli("search", "Marlijn charter", "--mode", "bm25", "--index", str(tmp_path / "ix"), "--json")
    top = json.loads(out)["results"][0]
    assert (Path(top["source"]).name, top["page"]) == ("deck.pptx", 2)
    code, out, _ = cli("search", "godwits mudflats", "--mode", "bm25", "--index", str(tmp_path / "ix"), "--json")
    top = json.loads(out)["results"][0]
    assert (Path(top["source"]).name, top["title"]) == ("notes.epub#2", "Field Notes › Mudflats")
    code, out, _ = cli("search", "Vosk binocular", "--mode", "bm25", "--index", str(tmp_path / "ix"), "--json")
    top = json.loads(out)["results"][0]
    # one ~100-word passage holds the whole tiny file: titled by the section it starts in
    assert (Path(top["source"]).name, top["title"]) == ("plan.docx", "Gull survey plan › Gull survey")


def test_doctor_lists_formats_and_names_a_missing_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from drrag_cli import doctor

    assert ".docx" in doctor._formats() and "not enabled" not in doctor._formats()
    real = importlib.util.find_spec
    monkeypatch.setattr(doctor.importlib.util, "find_spec", lambda name: None if name == "pptx" else real(name))
    detail = doctor._formats()
    assert ".pptx" not in detail.split(";")[0]
    assert "not enabled (no parser): .pptx (python-pptx) (fix: pip install 'drrag-cli[office]')" in detail


def test_a_damaged_pdf_is_skipped_without_pypdf_s_own_log_line(tmp_path: Path) -> None:
    """pypdf logs "EOF marker not found" as it tries; with no handler Python printed that
    bare on stderr in the middle of `drrag index`'s progress bar. (A fresh interpreter:
    pytest's own log capture would hide the line.)"""
    import subprocess

    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\n1 0 obj <<>> endobj\ngarbage")
    code = f"""
from pathlib import Path
from drrag_cli.ingest.loaders import SkipFile, load_bytes
path = Path({str(path)!r})
try:
    load_bytes(path, path.read_bytes())
except SkipFile as exc:
    print(exc)
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert "unreadable PDF" in run.stdout and run.stderr == ""
