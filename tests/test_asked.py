"""What a question asks, parsed once (drrag_cli/asked.py): what two sides are asked to have alike
(``Question.alike``) and what an open question asks of a person (``Question.trait``)."""

from __future__ import annotations

import pytest

from drrag_cli.asked import Alike, parse

CASES = [
    ("Were Scott Derrickson and Ed Wood of the same nationality?", Alike("same", "nationality")),
    ("Are Mauritz Stiller and Johannes Grenzfurthner both of the same nationality?", Alike("same", "nationality")),
    ("Do Kestrel and Plover belong to different film genres?", Alike("different", "film genres")),
    ("Are Daryl Hall and Gerry Marsden both musicians?", Alike("both", "musicians")),
    ("Are both Cypress and Ajuga genera?", Alike("both", "cypress and ajuga genera")),
    ("Are both Elko Airport and Ford Airport located in Michigan?",
     Alike("both", "elko airport and ford airport located in michigan")),
    ("Are the directors of films Kiss Me and The Bat both from the same country?",
     Alike("same", "country", through="director")),
    ("Was Scott Derrickson American?", None),
    ("Who is older, Ed Wood or Scott Derrickson?", None),
    ("What occupation do Chris Menges and Aram Avakian both have?", None),  # not yes/no: the reader "shared"'s
]  # fmt: skip


@pytest.mark.parametrize(("question", "expected"), CASES)
def test_what_two_sides_are_asked_to_have_alike(question: str, expected: Alike | None) -> None:
    assert parse(question).alike == expected


@pytest.mark.parametrize(
    ("question", "trait"),
    [
        ("Where was the director of film Ugly Me born?", "birthplace"),
        ("What is the place of birth of the performer of song Madan?", "birthplace"),
        ("Where was the place of death of the director of film Hate Is My God?", "deathplace"),
        ("Where did the composer of film Dus Lakh die?", "deathplace"),
        ("When is the director of film Double Adventure 's birthday?", "birth"),
        ("What is the date of death of Henry Lascelles's father?", "death"),
        ("When did the director of film Hanna's War die?", "death"),
        ("What nationality is the performer of song Growin' Up?", "nationality"),
        ("Which country the composer of film Mirrormask is from?", "nationality"),
        ("Who is the mother of the director of film Polish Wedding?", ""),
        ("Who was born first, Ann Lind or Bo Berg?", ""),
    ],
)
def test_what_an_open_question_asks_of_a_person(question: str, trait: str) -> None:
    assert parse(question).trait == trait


@pytest.mark.parametrize(
    ("question", "kin"),
    [
        ("Where did Isabel Moctezuma's father die?", "father"),
        ("What nationality is Empress Xiaomucheng's husband?", "husband"),
        ("Where was the director of film Ugly Me born?", ""),
        ("Who is Viola Katherine Clemmons's father-in-law?", ""),  # not her father
    ],
)
def test_the_parent_or_spouse_a_possessive_asks_about(question: str, kin: str) -> None:
    assert parse(question).kin == kin


@pytest.mark.parametrize(
    ("question", "path", "hop"),
    [
        ("Who is Ali Ibn Husayn Zayn Al-Abidin's paternal grandmother?", ("father", "mother"), "father"),
        ("Who is the maternal grandfather of Agnes Of Burgundy?", ("mother", "father"), "mother"),
        ("Who is Viola Katherine Clemmons's father-in-law?", ("spouse", "father"), "spouse"),
        ("Who is the aunt of Diana Forbes-Robertson?", ("parent", "sister"), "parent"),
        ("Where was the father of Lope Díaz born?", ("father",), "father"),
        ("Who is the spouse of the director of Jump for Glory?", (), ""),  # the spouse is the last hop
        ("Who is the spouse of Big Eye's main director?", (), ""),
        ("Who is the child of the director of film Devotion?", (), "director"),  # the bridge comes first
    ],
)
def test_a_kin_word_is_the_chain_of_links_it_is_made_of(question: str, path: tuple, hop: str) -> None:
    asked = parse(question)
    assert (asked.kin_path, asked.hop) == (path, hop)


@pytest.mark.parametrize(
    ("question", "links"),
    [
        ("Who was in charge of the country where the composer of Aschenbrodel was a citizen?", 3),
        ("In which city was the lead engineer of Project Heron born?", 1),
        ("What county is Heron's lead engineer from?", 1),
        ("Who directed Harbour Lights?", 1),
    ],
)
def test_the_links_that_join_one_named_thing_to_the_next(question: str, links: int) -> None:
    assert parse(question).links == links
