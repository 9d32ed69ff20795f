"""A person's birth and death dates told apart, and the relation a comparison reaches through."""

from __future__ import annotations

import pytest

from drrag_cli.answer.lifespan import comparable, life_dates, life_span
from drrag_cli.asked import parse
from tests.answer.readers.cases import read

LIVES = [
    ("William Reeves Eason( October 2, 1886 – June 9, 1956), known as B. Reeves Eason, was a director.",
     "October 2, 1886", "June 9, 1956"),
    ("Kurt Landesberger( 19 February 1913, Vienna, Austria – 13 July 1997 New York City) was a director.",
     "19 February 1913", "13 July 1997"),
    ("George E. Marshall (December 29, 1891 – February 17, 1975) was an American actor.",
     "December 29, 1891", "February 17, 1975"),
    ("The Black Market (Spanish: Mercado negro) is a film (1953). It was remade in 1960.", None, None),
    ("Girish Kasaravalli( born 3 December 1950) is an Indian film director.", "3 December 1950", None),
    ("Ann Lind (1870–1931) was a Swedish composer.", "1870", "1931"),
    ("Bo Berg (died 12 May 1990) was a composer.", None, "12 May 1990"),
    ("Professor Gadi Yatziv( born 5 April 1937, died 25 September 2004) was an Israeli academic.", "5 April 1937",
     "25 September 2004"),
    ("Cy Dahl was a painter. He was born in Lund on 4 May 1901 and died on 2 June 1977.", "4 May 1901",
     "2 June 1977"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "born", "died"), LIVES)
def test_birth_and_death_are_told_apart(text: str, born: str | None, died: str | None) -> None:
    birth, death = life_dates(text)
    assert (birth and birth[1], death and death[1]) == (born, died)


def test_dates_compare_only_when_a_missing_part_cannot_change_the_order() -> None:
    assert comparable((1886, 10, 2), (1910, 0, 0))
    assert not comparable((1886, 10, 2), (1886, 0, 0))
    assert comparable((1886, 10, 2), (1886, 11, 0))
    assert not comparable((1886, 10, 2), (1886, 10, 0))


@pytest.mark.parametrize(("question", "bridge", "life"), [
    ("Which film has the director who died first, X or Y?", "director", "death"),
    ("Which film whose director was born first, X or Y?", "director", "birth"),
    ("Which film has the director who is older than the other, X or Y?", "director", "birth"),
    ("Which song has the composer born later, X or Y?", "composer", "birth"),
    ("Which film has the older director, X or Y?", "director", "birth"),
    ("Which film's director died first, X or Y?", "director", "death"),
    ("Which dog's ancestors include setters, X or Y?", "", ""),
    ("Are the directors of films X and Y both from the same country?", "director", ""),
    ("Who died first, Ann Lind or Bo Berg?", "", "death"),
    ("Which group has the most members, X or Y?", "", ""),
    ("Which magazine was started first, X or Y?", "", ""),
])  # fmt: skip
def test_the_question_names_its_bridge_and_the_life_event(question: str, bridge: str, life: str) -> None:
    assert (parse(question).bridge, parse(question).life) == (bridge, life)


def test_who_died_first_compares_the_death_dates_not_the_first_dates() -> None:
    docs = [("Ann Lind", "Ann Lind (3 May 1850 – 1 June 1931) was a composer."),
            ("Bo Berg", "Bo Berg (4 July 1861 – 5 May 1900) was a composer.")]  # fmt: skip
    assert read("compare", "Who died first, Ann Lind or Bo Berg?", docs) == "Bo Berg"
    assert read("compare", "Who was born first, Ann Lind or Bo Berg?", docs) == "Ann Lind"


def test_a_place_before_a_hyphen_ends_the_birth_side() -> None:
    sloman = "Edward Sloman( 19 July 1886, London- 29 September 1972, Woodland Hills) was a director."
    assert [d[1] for d in life_dates(sloman) if d] == ["19 July 1886", "29 September 1972"]
    assert life_span(sloman) == (" 19 July 1886, London", "29 September 1972, Woodland Hills")
