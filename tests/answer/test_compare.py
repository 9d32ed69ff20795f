"""Comparison questions decided in code (answer/compare.py): the pure reading of values,
then a real `ask` (MiniLM index + the embedded Gemma) that answers without a model call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drrag_cli.answer.compare import compare, dates, numbers, statements
from drrag_cli.asked import parse
from tests.conftest import ask_notes


def decide(question: str, docs: list[tuple[str, str]]) -> str | None:
    found = compare(parse(question), docs)
    return found.answer if found else None


def test_dates_are_read_and_blanked_so_a_day_is_never_a_count() -> None:
    found, rest = dates("On 14 June all 14 of us met; Heron 1.0.0 shipped 2023-03-14, she joined in April 2019.")
    assert [key for key, _ in found] == [(0, 6, 14), (2023, 3, 14), (2019, 4, 0)]
    assert [v for v, _ in numbers("on 14 June all 14 of us; 110 million parameters, v1.0.0, 3,500 staff, four bags")] \
        == [14.0, 110e6, 3500.0, 4.0]
    assert dates("Annie Morton (born October 8, 1970)")[0][0][0] == (1970, 10, 8)


def test_statements_split_tables_lists_and_wrapped_sentences() -> None:
    text = "| **Joined** | April 2019 |\n- **Attendees (11):** Ann\n\nHe joined Halyard\nLabs in 2020. Then he left."
    assert statements(text) == [
        "| **Joined** | April 2019 |",
        "- **Attendees (11):** Ann",
        "He joined Halyard Labs in 2020.",
        "Then he left.",
    ]


@pytest.mark.parametrize(
    ("question", "docs", "expected"),
    [
        ("Which model has more parameters, Saltmarsh or Tidepool?",
         [("Saltmarsh report", "Saltmarsh is an embedding model with 22 million parameters."),
          ("Tidepool design", "Tidepool, a reranker, has 110 million parameters and is slow.")], "Tidepool"),
        ("Who is older, Annie Morton or Terry Richardson?",
         [("Annie Morton", "Annie Morton (born October 8, 1970) is an American model."),
          ("Terry Richardson", "Terence Richardson (born August 14, 1965) is a photographer.")], "Terry Richardson"),
        ("Which team offsite had more attendees, the one in Durbuy or the one in Oostende?",  # the kind is not the
         [("Offsite 2022, Durbuy", "- **Attendees (11):** Ann, Bo, Cy"),                    # attribute: "Two days
          ("Two days by the sea: our team offsite", "Two days by the sea: our team offsite\n\n"  # … team offsite"
           "This year on 14 June all 14 of us took the train to Oostende.")], "the one in Oostende"),  # is no count
        ("Which reached version 1.0 first, Heron or Plover?",
         [("Changelog", "# Heron changelog\n\n## [1.1.0] - 2023-05-02\n\n## [1.0.0] - 2023-03-14\n"),
          ("Plover", "| 2 November 2022 | Plover v1.0 shipped |")], "Plover"),
        ("Which board game was published most recently, Pirate's Cove or Catan?",  # a time, not "most" of a count
         [("Pirate's Cove", "Pirate's Cove is a board game published in 2002 by Days of Wonder."),
          ("Catan", "Catan is a board game first published in 1995 in Germany.")], "Pirate's Cove"),
    ],
)
def test_a_comparison_is_decided_from_the_two_stated_values(question: str, docs, expected: str) -> None:  # noqa: ANN001
    assert decide(question, docs) == expected


@pytest.mark.parametrize(
    ("question", "docs"),
    [
        ("Which is a river, Fyris or Lund?", [("Fyris", "The Fyris flows 80 km."), ("Lund", "Lund had 1,000 people.")]),
        ("Who joined earlier, Ann or Bo?", [("Ann", "Ann joined in April 2019."), ("Cy", "Cy joined in 2018.")]),
        ("Who joined earlier, Ann or Bo?", [("Ann", "Ann joined in April 2019."), ("Bo", "Bo joined in April 2019.")]),
        ("Is Ann older than Bo?", [("Ann", "Ann was born in 1970."), ("Bo", "Bo was born in 1965.")]),
    ],
    ids=["no comparative cue", "a side without a value", "equal values", "yes/no is the model's"],
)
def test_no_decision_leaves_the_question_to_the_model(question: str, docs) -> None:  # noqa: ANN001
    assert decide(question, docs) is None


DOCS = {
    "osprey.md": "# Project Osprey\n\nOsprey is a sailing drone built by the Quint lab. It carries 12 sensors.\n"
    "Its first field test was on 12 May 2021, off the coast of Texel.\n",
    "petrel.md": "# Project Petrel\n\nPetrel is a weather balloon programme of the Quint lab. It carries 7 sensors.\n"
    "Its first field test was on 3 September 2019, above the Wadden Sea.\n",
    "soup.md": "# Lentil soup\n\nSimmer red lentils with cumin for twenty minutes.\n",
}


def test_ask_decides_a_comparison_without_a_model_call(cli, tmp_path: Path) -> None:  # noqa: ANN001
    doc = ask_notes(cli, tmp_path / "c", DOCS, "Which had its first field test earlier, Osprey or Petrel?")
    assert doc["answer"] == "Petrel" and doc["llm_calls"] == 0 and doc["supported"] and doc["reader"] == "compare"
    assert doc["compared"] == {"kind": "time", "values": {"Osprey": "12 May 2021", "Petrel": "3 September 2019"},
                               "answer": "Petrel"}
    code, out, _ = cli("ask", "Which project carries more sensors, Osprey or Petrel?")
    assert code == 0 and out.splitlines()[0] == "Osprey" and "compared numbers: Osprey: 12 vs Petrel: 7" in out
    code, out, _ = cli("ask", "Which project carries more sensors, Osprey or Petrel?", "--json", "-c",
                       str(_config(tmp_path, "answer:\n  compare: false\n")))
    assert code == 0 and json.loads(out)["llm_calls"] == 1 and "compared" not in json.loads(out)
    code, out, _ = cli("ask", "Which project carries more sensors, Osprey or Petrel?", "--json", "-c",
                       str(_config(tmp_path, "answer:\n  readers: []\n")))
    assert code == 0 and json.loads(out)["llm_calls"] == 1 and json.loads(out)["reader"] is None
    code, out, err = cli("ask", "Which project carries more sensors, Osprey or Petrel?", "-c",
                         str(_config(tmp_path, "answer:\n  readers: [nonsense]\n")))
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1 and "'answer.readers'" in err


def _config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "no-compare.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_stored_text_without_line_breaks_is_read_item_by_item() -> None:
    durbuy = ("Offsite 2022, Durbuy", "# Offsite 2022, Durbuy: notes - **Dates:** 6 and 7 October 2022 - "
              "**Attendees (11):** Maren Okafor, Ruben De Smet - **Notes:** Hannah")
    oostende = ("Offsite 2023", "# Offsite 2023 - **Place:** Oostende - **Attendees:** all 14 of us")
    changelog = ("Changelog", "# Heron changelog ## [1.1.0] - 2023-05-02 ### Added - x ## [1.0.0] - 2023-03-14")
    question = "Which team offsite had more attendees, the one in Durbuy or the one in Oostende?"
    found = compare(parse(question), [durbuy, oostende])
    assert found is not None and dict(found.values) == {"the one in Durbuy": "11", "the one in Oostende": "14"}
    question = "Which reached version 1.0 first, Heron or Plover?"
    found = compare(parse(question), [changelog, ("Plover", "| 2 November 2022 | Plover v1.0 |")])
    assert found is not None and dict(found.values)["Heron"] == "2023-03-14"
