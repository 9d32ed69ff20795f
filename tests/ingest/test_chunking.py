"""Passages are sentence-aligned, about `chunk_words` long, with exact spans."""

from __future__ import annotations

import pytest

from drrag_cli.ingest.chunking import chunk_document, sentence_spans
from drrag_cli.types import Document


def test_sentences_never_split_and_size_is_bounded() -> None:
    sentences = [f"Sentence number {i} talks about topic {i} in a few more words." for i in range(60)]
    text = " ".join(sentences)
    passages = chunk_document(Document("x.txt", "x", text), chunk_words=50)
    assert len(passages) > 5
    for p in passages:
        n = len(p.text.split())
        assert n <= 75 + 12  # target 50, at most 1.5x before a flush (plus one sentence)
        assert p.text.startswith("Sentence number") and p.text.endswith(".")
    assert " ".join(p.text for p in passages) == text  # nothing lost, order kept


def test_paragraph_breaks_and_headings() -> None:
    text = "# Title\n\nFirst para sentence one. Sentence two.\n\n## Next\n\nAnother paragraph here."
    spans = sentence_spans(text)
    assert [text[a:b] for a, b in spans][0] == "# Title"
    passages = chunk_document(Document("x.md", "Title", text), chunk_words=100)
    assert passages[0].line_start == 1 and passages[-1].line_end == 7


def test_a_heading_opens_the_passage_of_what_follows_it() -> None:
    prose = " ".join(f"Intro sentence {i} says a few plain words here." for i in range(8))
    rows = "\n".join(f"| limit {i} | {i * 100} |" for i in range(12))
    text = f"# Tool\n\n{prose}\n\n## Limits\n\n| what | number |\n| --- | --- |\n{rows}\n"
    passages = chunk_document(Document("x.md", "Tool", text), chunk_words=60)
    limits = next(p for p in passages if "limit 0" in p.text)
    assert limits.text.startswith("## Limits |") and limits.line_start == 5
    assert not any(p.text.endswith("## Limits") for p in passages)
    assert " ".join(p.text for p in passages) == " ".join(text.split())  # nothing lost, order kept


def test_wall_of_text_without_punctuation_is_split() -> None:
    text = " ".join(f"w{i}" for i in range(1000))
    passages = chunk_document(Document("x.txt", "x", text), chunk_words=100)
    assert len(passages) == 10
    assert all(len(p.text.split()) == 100 for p in passages)


def test_line_numbers_follow_the_source() -> None:
    text = "line one.\nline two.\n\n\nline five is here. And more.\n"
    (p,) = chunk_document(Document("x.txt", "x", text, first_line=10), chunk_words=100)
    assert (p.line_start, p.line_end) == (10, 14)
    assert p.location == "x.txt:10-14"


def _table_doc(rows: int) -> str:
    lines = ["| Tool | Version | What it does |", "|---|:---:|---|"]
    lines += [f"| tool{i} | 1.{i}.0 | Tool number {i} backs up the shares of team {i} nightly |" for i in range(rows)]
    return "# Tools\n\nThe tools we run.\n\n" + "\n".join(lines) + "\n\nAsk in #infra.\n"


def test_a_long_table_is_cut_between_rows_and_repeats_its_header() -> None:
    from drrag_cli.ingest.chunking import markdown_tables
    from drrag_cli.text.tables import linearise

    text = _table_doc(60)
    (table,) = markdown_tables(text)
    assert text[table.start : table.body] == "| Tool | Version | What it does |\n|---|:---:|---|"
    passages = chunk_document(Document("t.md", "Tools", text, first_line=1), chunk_words=100)
    assert len(passages) > 5
    rows = [f"| tool{i} | 1.{i}.0 |" for i in range(60)]
    for p in passages[1:]:
        assert p.text.startswith("| Tool | Version | What it does | |---|:---:|---| | tool")  # never mid-row
        assert text[p.char_start] == "|"  # the span (the citation) is the rows themselves
        if "Ask in" not in p.text:
            assert p.line_end - p.line_start + 1 == p.text.count("| tool")
    held = [r for r in rows for p in passages if r in p.text]
    assert held == rows  # every row in exactly one passage, in order
    assert "Version: 1.41.0" in linearise(next(p.text for p in passages if "tool41 " in p.text))
    assert passages[-1].text.endswith("Ask in #infra.")


def test_a_table_that_fits_a_passage_stays_whole_and_no_header_is_repeated_outside() -> None:
    text = _table_doc(4) + "\n" + " ".join(f"Sentence {i} after the table." for i in range(40))
    passages = chunk_document(Document("t.md", "Tools", text), chunk_words=50)
    assert sum("| tool" in p.text for p in passages) == 1
    assert sum(p.text.count("| Tool | Version") for p in passages) == 1


def test_only_a_row_over_a_separator_opens_a_table() -> None:
    from drrag_cli.ingest.chunking import markdown_tables

    assert markdown_tables("a | b\n---\n| not | a table |\n| no | separator |\n") == []
    assert markdown_tables("text\n|---|---|\n| x | y |\n") == []  # no header row
    assert len(markdown_tables("| a | b |\n| --- | --- |\n| x | y |\n\n| c |\n|---|\n")) == 2


@pytest.mark.parametrize(
    "text",
    [
        "Short note. Two sentences.",
        "  leading and trailing space.  \n",
        "word " * 99,  # one under the target
        "word " * 97 + "end.Next one",  # a cut inside a run of non-spaces adds a word: spaCy's path
        "One. Two! Three?\n\nFour after a blank line.",
        "Tokyo。東京は日本の首都です。Osaka",
        "x" * 150,  # one run, two words
        "# A heading\nshort text",  # a first line's heading: one passage either way
        "\n## Notes on Heron\n\nThe pilot started in May. It ran until June! Did it work? Yes.",
        "# Heron #2\nshort text",  # a second "#" on the heading line: the sentences' way
        "Intro line.\n# A heading later\nshort text",  # a heading below the first line: the sentences' way
        "# Title\n\n" + "A sentence of ten words that the pilot wrote down here. " * 9,
        "| a | b |\n|---|---|\n| 1 | 2 |",  # tables too
        "",
        "\n \n",
    ],
)
def test_a_short_document_is_one_passage_without_spacy_exactly_as_with_it(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`_whole` skips the sentencizer for a text that is one passage whatever its sentences
    are; its passages must equal the sentence path's, span for span."""
    from drrag_cli.ingest import chunking

    def spans(doc: Document) -> list[tuple[str, int, int]]:
        return [(p.text, p.char_start, p.char_end) for p in chunking.chunk_document(doc, 100)]

    doc = Document("n.md", "n", text)
    fast = spans(doc)
    monkeypatch.setattr(chunking, "_whole", lambda d, w: None)
    assert fast == spans(doc)
