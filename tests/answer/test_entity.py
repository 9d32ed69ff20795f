"""A copied sentence replaced by the fed document the question asks for (answer/entity.py)."""

from __future__ import annotations

from drrag_cli.answer import FALLBACK_ANSWER, generate_answer
from drrag_cli.answer.entity import asked_document
from drrag_cli.asked import parse
from drrag_cli.types import Passage
from tests.answer.test_answer import FakeGenerator

HUNTSINGER = ("David Huntsinger", "David Huntsinger is a pianist and composer. He has worked with many artists, such "
              "as Sandi Patti and Larnelle Harris.")
HARRIS = ("Larnelle Harris", "Larnelle Harris (born July 6, 1947) is an American gospel singer and songwriter.")
PATTI = ("Sandi Patti", "Sandi Patti is an American contemporary Christian music singer.")
COPIED = "He has worked with many artists, such as Sandi Patti and Larnelle Harris."
QUESTION = "David Huntsinger has worked with this gospel singer born in the month of July?"


def test_the_kind_asked_for_is_the_last_word_before_a_preposition_or_a_verb() -> None:
    assert parse("D1NZ is a series based on what oversteering technique?").kind == "technique"
    assert parse("What science fantasy young adult series, told in first person, has a sequel?").kind == "series"
    assert parse(QUESTION).kind == "singer"  # "born" ends the words
    assert parse("Which Japanese citizen won the prize?").kind == "citizen"  # "-en" is no participle here
    assert parse("What was the Roud Folk Song Index of the rhyme?").kind == ""
    no_wh = "Kaiser Ventures was founded by an American industrialist who became known as the father of shipbuilding?"
    assert parse(no_wh).kind == "industrialist"  # no question word: the first "an … who"
    assert parse("Who founded it, an American industrialist who built ships?").kind == ""  # a question word
    assert parse("Who wrote it?").kind == ""


def test_a_copied_sentence_gives_way_to_the_one_unnamed_document_of_that_kind() -> None:
    picked = asked_document(QUESTION, COPIED, [HUNTSINGER, HARRIS])
    assert picked is not None and (picked.document, picked.kind, picked.copied) == ("Larnelle Harris", "singer", COPIED)
    assert asked_document(QUESTION, FALLBACK_ANSWER, [HUNTSINGER, HARRIS]).document == "Larnelle Harris"  # type: ignore[union-attr]
    buchholz = ("Scott Buchholz", "Scott Andrew Buchholz (born 1968) is an Australian politician. He served as chief "
                "of staff to Senator Barnaby Joyce.")  # named by the question, though not as its title is written
    joyce = ("Barnaby Joyce", "Barnaby Thomas Gerard Joyce (born 1967) is an Australian politician.")
    asked = "Scott Andrew Buchholz served as chief of staff to which politician?"
    assert asked_document(asked, buchholz[1], [buchholz, joyce]).document == "Barnaby Joyce"  # type: ignore[union-attr]
    film = ("Charmed (TV series)", "Charmed is an American television drama series created by Constance M. Burge.")
    asked = "What drama series was the star of Jawbreaker best known for being in?"
    assert asked_document(asked, "The film stars Rose McGowan, Rebecca Gayheart and Julie Benz as girls.",
                          [film]).document == "Charmed"  # type: ignore[union-attr]  # fmt: skip


def test_the_model_s_answer_stands_otherwise() -> None:
    assert asked_document(QUESTION, "Larnelle Harris", [HUNTSINGER, HARRIS]) is None  # a short answer
    both = [HUNTSINGER, HARRIS, PATTI]  # two singers, both named by Huntsinger's document
    assert asked_document(QUESTION, COPIED, both) is None
    assert asked_document("When did David Huntsinger meet this gospel singer?", COPIED, [HUNTSINGER, HARRIS]) is None
    named = "Has Larnelle Harris, this gospel singer born in July, worked with David Huntsinger?"
    assert asked_document(named, COPIED, [HUNTSINGER, HARRIS]) is None  # yes / no
    assert asked_document("Which pianist worked with Sandi Patti?", COPIED, [HUNTSINGER, HARRIS]) is not None
    assert asked_document("Which drummer worked with Sandi Patti?", COPIED, [HUNTSINGER, HARRIS]) is None
    art = ("Art", "Art is an American gospel singer.")
    starts = ("David Huntsinger", "David Huntsinger starts at nine. He has worked with Larnelle Harris.")
    assert asked_document(QUESTION, COPIED, [starts, HARRIS, art]).document == "Larnelle Harris"  # type: ignore[union-attr]


def test_generate_answer_reports_the_document_it_picked() -> None:
    passages = [Passage(source=f"{t}.md", title=t, text=x, ordinal=0, char_start=0, char_end=len(x))
                for t, x in (HUNTSINGER, HARRIS)]  # fmt: skip
    answer = generate_answer(FakeGenerator(output=f" {COPIED}"), QUESTION, passages)
    assert answer.text == "Larnelle Harris" and answer.llm_calls == 1 and answer.supported
    assert answer.picked is not None and answer.picked.copied == COPIED
    assert answer.evidence is not None and "gospel singer" in answer.evidence.text
