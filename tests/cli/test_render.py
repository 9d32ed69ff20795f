"""What `drrag ask` prints around the answer (cli/render.py), from an answer's JSON view."""

from __future__ import annotations

import pytest

from drrag_cli.serve.client import answer_view


def _doc(answer: str, **extra: object) -> dict:
    citation = {"n": 1, "source": "people/tobias.md", "title": "Tobias Lindqvist", "lines": [13, 21], "passage_id": 7}
    return {"question": "Where was Tobias born?", "answer": answer, "supported": True, "citations": [citation], **extra}


def test_the_evidence_line_quotes_the_source(capsys: pytest.CaptureFixture[str]) -> None:
    from drrag_cli.cli.render import print_answer

    print_answer(answer_view(_doc("Uppsala", evidence={"citation": 1, "text": "Tobias was born in Uppsala."})))
    out = capsys.readouterr().out
    assert "found in [1]: Tobias was born in Uppsala." in out and "[1] Tobias Lindqvist" in out


def test_after_streaming_the_short_answer_follows_when_post_processing_changed_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from drrag_cli.cli.render import print_answer

    print_answer(answer_view(_doc("Uppsala")), already_streamed=True, streamed_text=" in Uppsala, Sweden")
    assert "answer: Uppsala" in capsys.readouterr().out
    print_answer(answer_view(_doc("Uppsala")), already_streamed=True, streamed_text=" Uppsala")
    assert "answer:" not in capsys.readouterr().out


def test_a_strayed_copy_is_marked_even_from_a_server(capsys: pytest.CaptureFixture[str]) -> None:
    """`drrag ask --server` prints from the JSON: "strayed" there gives the same warning."""
    from drrag_cli.cli.render import print_answer

    print_answer(answer_view(_doc("12 TB", supported=False, strayed=True, why_unsupported="strayed")))
    out = " ".join(capsys.readouterr().out.split())
    assert "unsupported: the answer is copied from the sources below, but the model's own answer was not in them" in out


def test_no_answer_is_not_called_copied_or_unsupported(capsys: pytest.CaptureFixture[str]) -> None:
    """"I don't know." after a strayed copy is no copy: the line says there is no answer, and why."""
    from drrag_cli.cli.render import print_answer

    print_answer(answer_view(_doc("I don't know.", supported=False, strayed=True, why_unsupported="no-answer-strayed")))
    out = " ".join(capsys.readouterr().out.split())
    assert "no answer: read the sources below; the model's own answer was not in them" in out
    assert "copied" not in out and "unsupported" not in out
    print_answer(answer_view(_doc("I don't know.", supported=False, why_unsupported="no-answer")))
    out = " ".join(capsys.readouterr().out.split())
    assert "no answer: read the sources below; the model found none in them" in out


def test_a_picked_document_says_the_model_copied_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    from drrag_cli.cli.render import print_answer

    picked = {"document": "Larnelle Harris", "kind": "singer", "copied": "He has worked with many artists."}
    print_answer(answer_view(_doc("Larnelle Harris", picked=picked)))
    out = " ".join(capsys.readouterr().out.split())
    assert "the model copied a sentence; the answer is the one source that is a singer" in out


def test_a_second_choice_after_an_echo_is_marked_and_names_the_echo(capsys: pytest.CaptureFixture[str]) -> None:
    """The model's first answer only repeated the question; its second is not vouched for."""
    from drrag_cli.cli.render import print_answer

    print_answer(answer_view(_doc("Lana Wood", supported=False, reasked="Susie", why_unsupported="second-choice")))
    out = " ".join(capsys.readouterr().out.split())
    first = "(its first, 'Susie', only repeated the question)"
    assert f"unsupported: the answer is the model's second choice {first}" in out
