"""The sides of "A or B", read against the fed documents' titles (.sides)."""

from __future__ import annotations

import pytest

from drrag_cli.answer.sides import titled_sides
from drrag_cli.asked import parse

READ = [
    ("Did Franki Valli sing with Hellogoodbye or The Four Seasons?",
     ["Frankie Valli", "Hellogoodbye", "The Four Seasons (band)"], ("Hellogoodbye", "The Four Seasons")),
    ("Which film was released first: Sacred Planet or Oz the Great and Powerful?",
     ["Oz the Great and Powerful", "Sacred Planet"], ("Sacred Planet", "Oz the Great and Powerful")),
    ("Is the Marsilea or the Brabejum the genus of more individual species of plants?",
     ["Brabejum", "Marsilea"], ("Marsilea", "Brabejum")),
    ("Which of these battles occurred earlier--the Battle of Peleliu or the Battle of Belleau Wood?",
     ["Peleliu", "Battle of Belleau Wood", "Battle of Peleliu"], ("Battle of Peleliu", "Battle of Belleau Wood")),
    ("In between Liberty and MIT Technology Review which has a circulation of over 200,000?",
     ["MIT Technology Review", "Liberty (general interest magazine)"], ("Liberty", "MIT Technology Review")),
    ("Which came out first, Dinosaur or McFarland, USA", ["McFarland, USA", "Dinosaur (film)"],
     ("Dinosaur", "McFarland, USA")),
]  # fmt: skip
LEFT = [
    ("Who sang with The Four Seasons?", ["Hellogoodbye", "The Four Seasons"]),
    ("Did Franki Valli sing with Hellogoodbye or a choir?", ["Hellogoodbye", "The Four Seasons"]),
    ("Which reached 1.0 first, Heron or Plover?", ["Plover", "Heron", "Kestrel"]),
    ("Are Heron and Plover both birds?", ["Plover", "Heron"]),
    ("What is the distance between Uppsala and Lund?", ["Uppsala", "Lund"]),
]
LEFT_IDS = ["no or", "one side untitled", "sides already read from the text", "yes/no", "between, not which"]


@pytest.mark.parametrize(("question", "titles", "sides"), READ)
def test_two_fed_titles_around_or_are_the_sides(question: str, titles: list[str], sides: tuple[str, str]) -> None:
    assert titled_sides(parse(question), titles).options == sides


@pytest.mark.parametrize(("question", "titles"), LEFT, ids=LEFT_IDS)
def test_the_question_is_left_as_parsed(question: str, titles: list[str]) -> None:
    assert titled_sides(parse(question), titles) == parse(question)
