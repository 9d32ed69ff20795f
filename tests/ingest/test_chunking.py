"""Passages are sentence-aligned, about `chunk_words` long, with exact spans."""

from __future__ import annotations

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
