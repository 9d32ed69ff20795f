"""Each format → documents with the right title, text and line/page mapping."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from drrag_cli.ingest.chunking import chunk_document
from drrag_cli.ingest.loaders import SkipFile, load_bytes
from drrag_cli.ingest.walk import walk
from tests.conftest import make_pdf, write_corpus


def load(path: Path):  # noqa: ANN201
    return load_bytes(path, path.read_bytes())


@pytest.mark.parametrize(
    ("front", "aliases"),
    [
        ("aliases: [Marisol, M. Okonkwo]\ntags: [people]", ("Marisol", "M. Okonkwo")),
        ("aliases:\n  - Marisol\n  - Mari\n  - Marisol", ("Marisol", "Mari")),  # Obsidian's block list
        ("alias: Mari", ("Mari",)),
        ("title: Marisol Okonkwo", ()),
        ("aliases: [unclosed", ()),  # not YAML: no aliases, and the note still loads
        ("created: 2024-13-45\naliases: [Mari, 2024]", ("Mari", "2024")),  # no date is built: no error
    ],
)
def test_markdown_front_matter_aliases(tmp_path: Path, front: str, aliases: tuple[str, ...]) -> None:
    note = tmp_path / "marisol.md"
    note.write_text(f"---\n{front}\n---\nHydrologist at the water board.\n", encoding="utf-8")
    (doc,) = load(note).documents
    assert doc.aliases == aliases and doc.text == "Hydrologist at the water board.\n"


def test_markdown_title_front_matter_and_lines(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path)
    (doc,) = load(corpus / "notes" / "heron.md").documents
    assert doc.title == "Project Heron"
    assert "tags:" not in doc.text  # front matter dropped
    assert doc.first_line == 4  # text starts after the 3 front-matter lines
    passages = chunk_document(doc, 100)
    heron = doc.text.splitlines()
    # line numbers point at the real file: line 4 is the heading
    assert passages[0].line_start == 4
    assert heron[0] == "# Project Heron"


def test_a_generic_title_is_qualified_by_its_folder(tmp_path: Path) -> None:
    heron = tmp_path / "projects" / "heron"
    heron.mkdir(parents=True)
    (heron / "CHANGELOG.md").write_text("# Changelog\n\n## [1.0.0] - 2023-03-14\n\nFirst stable release.\n")
    (heron / "README.txt").write_text("Heron searches file shares.\n")
    (heron / "notes.md").write_text("# Release notes\n\nNothing yet.\n")
    assert load(heron / "CHANGELOG.md").documents[0].title == "heron › Changelog"
    assert load(heron / "README.txt").documents[0].title == "heron › README"  # the stem stands in
    assert load(heron / "notes.md").documents[0].title == "heron › Release notes"
    (heron / "design.md").write_text("# Design: Tidepool\n\nA reranker.\n")
    assert load(heron / "design.md").documents[0].title == "Design: Tidepool"  # says its subject


def test_text_rst_html_pdf_records(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path)
    assert load(corpus / "notes" / "mara.txt").documents[0].title == "mara"
    assert load(corpus / "notes" / "guide.rst").documents[0].title == "Calibration Guide"
    (html,) = load(corpus / "wiki" / "kestrel.html").documents
    assert html.title == "Kestrel Wiki"
    assert "Vossberg Foundation" in html.text
    assert "zzscriptzz" not in html.text and "color:red" not in html.text and "Home | About" not in html.text
    (pdf,) = load(corpus / "wiki" / "report.pdf").documents
    assert pdf.title == "Lark Observatory Report"
    assert "observatory opened in 1998" in pdf.text
    passages = chunk_document(pdf, 8)
    assert passages[0].page == 1 and passages[-1].page == 2
    assert passages[-1].location.endswith("(p. 2)")
    records = load(corpus / "records.jsonl").documents
    assert [d.title for d in records] == ["Osprey", "Petrel"]
    assert records[0].source.endswith("records.jsonl#r1")


def test_html_tables_become_markdown_rows(tmp_path: Path) -> None:
    """Cells no longer run together ("ToolWhat it doesOwner"); the answer stage reads the rows."""
    from drrag_cli.ingest.html_text import html_text
    from drrag_cli.text.tables import linearise

    page = (
        "<html><head><title>Onboarding</title></head><body><h2>Tools</h2>\n<table>\n"
        "  <tr><th>Tool</th><th>Owner</th></tr>\n"
        "  <tr><td><code>ebbtide</code></td><td><p>Dmitri</p><p>Volkov</p></td></tr>\n"
        "  <tr><td>a|b</td><td>Sofie Janssens</td></tr>\n</table><p>Run <code>tally</code> weekly.</p></body></html>"
    )
    title, text = html_text(page)
    assert title == "Onboarding"
    assert "| Tool | Owner |\n|---|---|\n| `ebbtide` | Dmitri Volkov |\n| a/b | Sofie Janssens |" in text
    assert "Run `tally` weekly." in text
    assert text.startswith("## Tools\n\n| Tool | Owner |")  # a heading as in Markdown: it opens a passage
    assert html_text("<p>a</p><h1> </h1><p>b</p>")[1] == "a\n\nb"  # an empty heading leaves no lone "#"
    assert "Tool: `ebbtide`; Owner: Dmitri Volkov." in linearise(" ".join(text.split()))
    _title, captioned = html_text("<table><caption>Cap</caption><tr><td>1<td>2<tr><td>3<td>4</table>")
    assert captioned == "Cap\n| 1 | 2 |\n|---|---|\n| 3 | 4 |"  # unclosed cells and rows, a caption


def test_json_list_corpus(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text('[{"title": "A", "text": "alpha text"}, {"title": "B", "text": "beta text"}]')
    docs = load(path).documents
    assert [d.source.rsplit("#", 1)[1] for d in docs] == ["0", "1"]


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.md", b"", "empty"),
        ("blank.txt", b"  \n\n ", "empty"),
        ("blob.md", b"abc\x00\x01\x02binary", "binary"),
        ("bad.pdf", b"%PDF-1.4 garbage", "PDF"),
        ("config.json", b'{"name": "x", "version": 1}', "record corpus"),
        ("broken.jsonl", b'{oops\n\n{"title": "a"\n', "no valid records: 2 lines \\(invalid JSON\\): 1, 3"),
        ("log.jsonl", b'{"level": "info"}\n', "record corpus"),
    ],
)
def test_unusable_files_are_skipped_with_a_reason(tmp_path: Path, name: str, data: bytes, reason: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(SkipFile, match=reason):
        load(path)


def test_non_utf8_is_decoded_and_noted(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes("Café in Zürich, naïve résumé.".encode("latin-1"))
    loaded = load(path)
    assert "Café in Zürich" in loaded.documents[0].text
    assert loaded.notes and "not UTF-8" in loaded.notes[0]


def test_walk_survives_symlink_loops_hidden_and_excluded(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "note.md").write_text("# N\nhello")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "secret.md").write_text("# S\nsecret")
    (root / "drafts").mkdir()
    (root / "drafts" / "d.md").write_text("# D\ndraft")
    os.symlink(root, root / "a" / "b" / "loop")  # folder loop
    os.symlink(root / "self1", root / "self2")
    os.symlink(root / "self2", root / "self1")  # file-link loop: unreadable, never hangs
    os.symlink(root / "missing.md", root / "dangling.md")
    (root / "photo.png").write_bytes(b"\x89PNG")
    result = walk([root], [".*", "drafts"])
    names = [p.name for p in result.files]
    assert names == ["note.md"]
    reasons = " ".join(result.skipped.values())
    assert "unreadable" in reasons and "unsupported" in reasons


def test_pdf_helper_multi_page(tmp_path: Path) -> None:
    make_pdf(tmp_path / "x.pdf", [["one"], ["two"], ["three"]])
    (doc,) = load(tmp_path / "x.pdf").documents
    assert doc.page_starts is not None and len(doc.page_starts) == 3


def test_drragignore_excludes_per_root(tmp_path: Path) -> None:
    root = tmp_path / "r"
    (root / "sub").mkdir(parents=True)
    for name in ("keep.md", "QUESTIONS.md", "sub/skip.txt", "sub/keep.txt"):
        (root / name).write_text("# t\nsome text")
    (root / ".drragignore").write_text("# meta\nQUESTIONS.md\nsub/skip.txt\n")
    assert sorted(p.name for p in walk([root], [".*"]).files) == ["keep.md", "keep.txt"]


def test_a_pdf_s_author_opens_its_text_as_a_metadata_item(tmp_path: Path) -> None:
    """The file's Author, where a note's metadata says it, so "Who wrote the X report?" is
    read from it (text/tables.key_values)."""
    from drrag_cli.text.tables import key_values

    make_pdf(tmp_path / "r.pdf", [["Tidal Survey"], ["page two"]], title="Tidal Survey", author="Ana Ruiz; Jo Lee")
    (doc,) = load(tmp_path / "r.pdf").documents
    assert doc.text.startswith("- **Author:** Ana Ruiz; Jo Lee.\n\nTidal Survey")
    assert key_values(doc.text) == [("Author", "Ana Ruiz; Jo Lee", "list")]
    assert doc.text[doc.page_starts[1] :].startswith("page two")  # pages keep their places
    make_pdf(tmp_path / "n.pdf", [["no author"]], title="Untitled")
    assert "Author" not in load(tmp_path / "n.pdf").documents[0].text
    make_pdf(tmp_path / "t.pdf", [["Tidal Survey"]], author="Ana Ruiz")  # no Title field
    assert load(tmp_path / "t.pdf").documents[0].title == "Tidal Survey"  # not the Author line
    make_pdf(tmp_path / "s.pdf", [[]], author="Ana Ruiz")  # a scanned page: no text, only an Author
    with pytest.raises(SkipFile, match="no extractable text"):
        load(tmp_path / "s.pdf")
