"""Reader "compare": two stated values of "…, A or B?" compared in code."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read

SALTMARSH = ("Saltmarsh report", "Saltmarsh is an embedding model with 22 million parameters.")
TIDEPOOL = ("Tidepool design", "Tidepool, a reranker, has 110 million parameters and is slow.")
READ = [
    ("Which model has more parameters, Saltmarsh or Tidepool?", [SALTMARSH, TIDEPOOL], "Tidepool"),
    ("Who is older, Annie Morton or Terry Richardson?",
     [("Annie Morton", "Annie Morton (born October 8, 1970) is an American model."),
      ("Terry Richardson", "Terence Richardson (born August 14, 1965) is a photographer.")], "Terry Richardson"),
    ("Which reached version 1.0 first, Heron or Plover?",
     [("Changelog", "# Heron changelog\n\n## [1.1.0] - 2023-05-02\n\n## [1.0.0] - 2023-03-14\n"),
      ("Plover", "| 2 November 2022 | Plover v1.0 shipped |")], "Plover"),
    ("Which board game was published most recently, Pirate's Cove or Catan?",
     [("Pirate's Cove", "Pirate's Cove is a board game published in 2002 by Days of Wonder."),
      ("Catan", "Catan is a board game first published in 1995 in Germany.")], "Pirate's Cove"),
]  # fmt: skip
LEFT = [
    ("Which is a river, Fyris or Lund?", [("Fyris", "The Fyris flows 80 km."), ("Lund", "Lund had 1,000 people.")]),
    ("Who joined earlier, Ann or Bo?", [("Ann", "Ann joined in April 2019."), ("Cy", "Cy joined in 2018.")]),
    ("Who joined earlier, Ann or Bo?", [("Ann", "Ann joined in April 2019."), ("Bo", "Bo joined in April 2019.")]),
    ("Is Ann older than Bo?", [("Ann", "Ann was born in 1970."), ("Bo", "Bo was born in 1965.")]),
    ("How many parameters does Saltmarsh have?", [SALTMARSH, TIDEPOOL]),
]
LEFT_IDS = ["no comparative cue", "a side without a value", "equal values", "yes/no", "no sides"]


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("compare", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("compare", question, docs) is None


def test_the_exact_title_is_read_before_a_disambiguated_one() -> None:
    """"Lucky Boy" is the document titled so, not "Lucky Boy (2017 film)" fed before it."""
    docs = [("The Lion Roars", "The Lion Roars is a 2002 Hong Kong comedy film."),
            ("Lucky Boy (2017 film)", "Lucky Boy is a 2017 comedy film directed by Boris Boo."),
            ("Lucky Boy", "Lucky Boy is a 1929 American musical drama film.")]  # fmt: skip
    assert read("compare", "Which film was released earlier, The Lion Roars or Lucky Boy?", docs) == "Lucky Boy"
