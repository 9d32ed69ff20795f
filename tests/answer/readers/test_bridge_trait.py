"""Reader "bridge-trait": what an open question asks of the person its relation names (the
film's director, the song's performer), read in that person's document."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read

KING = ("King of the Sierras", "King of the Sierras is a 1938 American western film directed by Arthur Rosson.")
ROSSON = ("Arthur Rosson", "Arthur Rosson (24 August 1886 – 17 June 1960) was an English film director.")
UGLY = ("Ugly Me", "Ugly Me is a 1955 Spanish comedy film directed by Ignacio F. Iquino.")
IQUINO = ("Ignacio F. Iquino", "Ignacio F. Iquino (25 May 1910, Valls – 26 January 1994, Barcelona) was a "
          "Spanish film director.")
DUS = ("Dus Lakh", "Dus Lakh is a 1966 Hindi film. Its music is composed by Ravi.")
RAVI = ("Ravi", "Ravi Shankar Sharma (3 March 1926 – 7 March 2012), known as Ravi, was an Indian music composer. "
        "He was born in Delhi and died in Bombay.")
CASH = ("Johnny Cash", "John R. \"Johnny\" Cash (born J. R. Cash; February 26, 1932 – September 12, 2003) was an "
        "American singer.")
DOG = ("Dirty Old Egg-Sucking Dog", "\"Dirty Old Egg-Sucking Dog\" is a song written by Jack Clement and "
       "originally recorded by Johnny Cash in 1966.")
JOACHIM = ("Joachim Lind", "Joachim Lind (born 23 September 1994) is a Norwegian striker. A son of former "
           "Lillestrøm player Kjetil Lind, he started in Lillestrøm too.")  # the father described before named
KJETIL = ("Kjetil Lind", "Kjetil Lind (born June 5, 1961 in Ålesund) is a retired Norwegian footballer.")
ANNA = ("Anna Lind", "Anna Lind (born 1944) was married to then-Governor of Alabama Robert Lind until 2015.")
ROBERT = ("Robert Lind", "Robert Lind (born February 3, 1943) is an American physician who served as the 53rd "
          "Governor of Alabama.")
READ = [
    ("When was the director of film King Of The Sierras born?", [KING, ROSSON], "24 August 1886"),
    ("What is the date of death of the director of film King Of The Sierras?", [ROSSON, KING], "17 June 1960"),
    ("Where was the director of film Ugly Me born?", [UGLY, IQUINO], "Valls"),
    ("Where did the director of film Ugly Me die?", [UGLY, IQUINO], "Barcelona"),
    ("Where did the composer of film Dus Lakh die?", [DUS, RAVI], "Bombay"),
    ("What is the place of birth of the composer of film Dus Lakh?", [DUS, RAVI], "Delhi"),
    ("What nationality is the performer of song Dirty Old Egg-Sucking Dog?", [DOG, CASH], "American"),
    ("Which country the director of film King Of The Sierras is from?", [KING, ROSSON], "English"),
    ("Where was the father of Joachim Lind born?", [JOACHIM, KJETIL], "Ålesund"),  # "the father of X" as "X's"
]  # fmt: skip
LEFT = [
    ("When was the director of film King Of The Sierras born?", [KING]),
    ("Where was the director of film King Of The Sierras born?", [KING, ROSSON]),
    ("When was Arthur Rosson born?", [ROSSON, KING]),
    ("Who directed King Of The Sierras?", [KING, ROSSON]),
    ("Which film has the director born first, King Of The Sierras or Ugly Me?", [KING, ROSSON, UGLY, IQUINO]),
    ("Where was the paternal grandfather of Joachim Lind born?", [JOACHIM, KJETIL]),
    ("Where was Anna Lind's husband born?", [ANNA, ROBERT]),
]
LEFT_IDS = ["bridge not fed", "the trait not stated", "no relation (statement's)", "asks the bridge", "a choice",
            "two links: not the father's own", "an office 'of' a state is no birthplace"]


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("bridge-trait", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("bridge-trait", question, docs) is None


def test_a_place_beside_a_date_a_hyphen_apart_and_a_native_s_town() -> None:
    sloman = ("Edward Sloman", "Edward Sloman( 19 July 1886, London- 29 September 1972, Woodland Hills, California) "
              "was an English silent film director.")
    horde = ("The Conquering Horde", "The Conquering Horde is a 1931 western film directed by Edward Sloman.")
    assert read("bridge-trait", "Where did the director of film The Conquering Horde die?", [horde, sloman]) == (
        "Woodland Hills, California")  # the town with its region, as written
    soffici = ("Mario Soffici", "Mario Soffici( 14 May 1900 – 10 May 1977) was an Argentine film director. A native "
               "of Florence, Soffici moved to Argentina in the 1920s.")
    oro = ("Oro Bajo", "Oro Bajo is a 1956 Argentine film directed by Mario Soffici.")
    assert read("bridge-trait", "What is the place of birth of the director of film Oro Bajo?", [oro, soffici]) == (
        "Florence")


def test_a_year_asked_is_the_date_s_year() -> None:
    question = "In what year was the director of film King Of The Sierras born?"
    assert read("bridge-trait", question, [KING, ROSSON]) == "1886"


def test_an_era_is_no_place() -> None:
    from drrag_cli.answer.trait import read_trait

    born = "Brad Silberling was born in Hastings, Minnesota, in 1963."
    assert read_trait("birthplace", born) == "Hastings, Minnesota"

    assert read_trait("deathplace", "He was a ruler of Fergana. He died in 1494 C.E. in Akhsi.") == "Akhsi"
    assert read_trait("deathplace", "He was a ruler of Fergana. He died in C.E. 1494.") is None
