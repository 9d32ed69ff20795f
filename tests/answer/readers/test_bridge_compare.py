"""Reader "bridge-compare": the two sides of "…, A or B?" compared through the person the
question's relation names (each film's director, each song's composer)."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read

PRAIRIE = ("The Prairie King", "The Prairie King is a 1927 silent film western directed by B. Reeves Eason.")
OPIUM = ("Confessions of an Opium Eater", "Confessions of an Opium Eater is a 1962 American crime film produced "
         "and directed by Albert Zugsmith. It was released on DVD in 2012.")
EASON = ("B. Reeves Eason", "William Reeves Eason( October 2, 1886 – June 9, 1956), known as B. Reeves Eason, "
         "was an American film director.")
ZUGSMITH = ("Albert Zugsmith", "Albert Zugsmith( April 24, 1910 – October 26, 1993) was an American film producer.")
BASE = ("The Base (film)", "The Base is a 1999 action thriller film directed by Mark L. Lester and starring Mark "
        "Dacascos.")
DARKENED = ("Darkened Rooms", "Darkened Rooms is a 1929 drama film directed by Louis J. Gasnier.")
LESTER = ("Mark L. Lester", "Mark Lester (born November 26, 1946) is an American film director.")
GASNIER = ("Louis J. Gasnier", "Louis J. Gasnier (15 September 1875 – 15 February 1963) was a French director.")
DACASCOS = ("Mark Dacascos", "Mark Dacascos (born February 26, 1964) is an American actor.")
READ = [
    ("Which film has the director who died first, The Prairie King or Confessions Of An Opium Eater?",
     [PRAIRIE, OPIUM, ZUGSMITH, EASON], "The Prairie King"),
    ("Which film has the director died later, The Prairie King or Confessions Of An Opium Eater?",
     [PRAIRIE, OPIUM, ZUGSMITH, EASON], "Confessions Of An Opium Eater"),
    ("Which film has the director born earlier, The Base (Film) or Darkened Rooms?",
     [BASE, DARKENED, LESTER, GASNIER], "Darkened Rooms"),
    ("Which film whose director is younger, The Base (Film) or Darkened Rooms?",
     [DARKENED, GASNIER, BASE, LESTER], "The Base (Film)"),
    ("Which film has the director who was born first, Mga Lihim or Darkened Rooms?",
     [("Mga Lihim", "Mga Lihim is a 2012 Filipino film by Jose Javier Reyes, shown at the Director's Showcase."),
      ("Jose Javier Reyes", "Jose Javier Reyes (born October 21, 1954) is a Filipino director."),
      DARKENED, GASNIER], "Darkened Rooms"),
    ("Which song has the composer who was born earlier, Heron Waltz or Plover March?",
     [("Heron Waltz", "Heron Waltz is a waltz composed by Ann Lind in 1901."),
      ("Plover March", "Plover March is a march by the band, composed by Bo Berg."),
      ("Ann Lind", "Ann Lind (1870–1931) was a Swedish composer."),
      ("Bo Berg", "Bo Berg (1861–1940) was a Swedish composer.")], "Plover March"),
]  # fmt: skip
LEFT = [
    ("Which film has the director born earlier, The Base (Film) or Darkened Rooms?", [BASE, DARKENED, GASNIER]),
    ("Which film has the director born earlier, The Base (Film) or Darkened Rooms?",
     [BASE, DARKENED, DACASCOS, GASNIER]),
    ("Which film has the director who died first, The Base (Film) or Darkened Rooms?",
     [BASE, DARKENED, LESTER, GASNIER]),
    ("Which film came out first, The Base (Film) or Darkened Rooms?", [BASE, DARKENED, LESTER, GASNIER]),
    ("Which film has the director born earlier, The Base (Film) or The Prairie King?",
     [BASE, PRAIRIE, LESTER, ("Reeves Eason", "Reeves Eason (1886) directed westerns.")]),
    ("Which film has the director born earlier, The Base (Film) or The Prairie King?",
     [BASE, PRAIRIE, LESTER, ("B. Reeves Eason", "B. Reeves Eason (born 1946) directed westerns.")]),
    ("Are the directors of The Base (Film) and Darkened Rooms from the same country?",
     [BASE, DARKENED, LESTER, GASNIER]),
]  # fmt: skip
LEFT_IDS = ["the director's document not fed", "only an actor's document fed", "a death not stated",
            "no bridge: the film's own date", "no birth date read", "the same year, no month", "yes/no"]


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("bridge-compare", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("bridge-compare", question, docs) is None
