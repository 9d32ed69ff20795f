"""Reader "both": a yes/no question asking two named sides for one property, each side checked
on its own document's opening sentence."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read

HERON = ("Heron", "Heron is a 2010 American documentary film about river birds. It won a prize.")
PLOVER = ("Plover", "Plover (2003) is an Australian documentary directed by Ana Ruiz.")
TERN = ("Tern", "Tern is a 1998 American comedy film directed by Ed Park.")
KITE = ("Kite", "Kite is an American children's nature magazine.")
GULL = ("Gull", "Gull was a British women's magazine published from 1950 to 1970.")
ALMA = ("Alma Berg", "Alma Berg (born 1966) is a Swedish film director and screenwriter.")
OLA = ("Ola Lind", "Ola Lind was a Swedish film director, best known for his short films.")
PIA = ("Pia Holm", "Pia Holm is a Danish singer and songwriter.")
ELKO = ("Elko Airport", "Elko Airport is a public airport in Elko, Nevada. It serves the county.")
FORD = ("Ford Airport", "Ford Airport is an airport in Kent County, Michigan, near Grand Rapids.")
FLINT = ("Flint Airport", "Flint Airport is a public airport in Flint, Michigan.")
PARK = ("Ed Park", "Ed Park (born 1950) is a Korean film director.")
RUIZ = ("Ana Ruiz", "Ana Ruiz is a Spanish director and writer.")
CYPRESS = ("Cypressa", "Cypressa is a genus of coniferous trees.")
AJUGA = ("Ajugo", "Ajugo is a genus of flowering plants in the mint family.")

READ = [
    ("Are Heron and Plover both documentaries?", [HERON, PLOVER], "yes"),
    ("Are Heron and Plover both American documentaries?", [HERON, PLOVER], "no"),
    ("Are Heron and Tern both documentaries?", [HERON, TERN], "no"),
    ("Are Kite and Gull both magazines?", [KITE, GULL], "yes"),
    ("Are Alma Berg and Ola Lind both film directors?", [ALMA, OLA], "yes"),
    ("Are both Alma Berg and Pia Holm film directors?", [ALMA, PIA], "no"),
    ("Were Alma Berg and Ola Lind of the same nationality?", [ALMA, OLA], "yes"),
    ("Were Alma Berg and Pia Holm from the same country?", [ALMA, PIA], "no"),
    ("Are Alma Berg and Pia Holm from different countries?", [ALMA, PIA], "yes"),
    ("Are both Elko Airport and Ford Airport located in Michigan?", [ELKO, FORD], "no"),
    ("Are Flint Airport and Ford Airport both located in Michigan?", [FLINT, FORD], "yes"),
    ("Are Elko Airport and Ford Airport both airports in the same state?", [ELKO, FORD], "no"),
    ("Are both Cypressa and Ajugo genera?", [CYPRESS, AJUGA], "yes"),
    ("Are the directors of films Tern and Plover both from the same country?", [TERN, PLOVER, PARK, RUIZ], "no"),
    ("Do both films Tern and Plover have the directors that share the same nationality?", [TERN, PARK, PLOVER, RUIZ],
     "no"),
    ("Are both Jim Lund and Pia Holm American singers?", [("Jim Lund", "Jim Lund is an American singer."), PIA], "no"),
]  # fmt: skip
LEFT = [
    ("Are Heron and Plover both documentaries?", [HERON]),
    ("Are Kite and Gull both sports magazines?", [KITE, GULL]),
    ("Are Heron and Plover both films about war?", [HERON, PLOVER]),
    ("Were Heron and Tern released in the same year?", [HERON, TERN]),
    ("Are the directors of films Heron and Tern both from the same country?", [HERON, TERN]),
    ("Are the directors of films Plover and Tern both from the same country?", [PLOVER, TERN, RUIZ]),
    ("Are Alma Berg and Ola Lind both film directors?", [ALMA, ("Ola Lind", "Ola Lind was born in Malmö.")]),
    ("Are Flint Airport and Kite both located in Michigan?", [FLINT, KITE]),
    ("Which is a documentary, Heron or Tern?", [HERON, TERN]),
]
LEFT_IDS = [
    "a side not fed", "a word of the kind not said", "said only as a modifier", "a value other than a country",
    "a bridge's property, no bridge fed",
    "one bridge fed", "a side that says no kind", "a place not said", "not yes/no",
]  # fmt: skip


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("both", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("both", question, docs) is None
