"""Where a supported answer stands (answer/evidence.py): pure text, no model."""

from __future__ import annotations

from drrag_cli.answer.answer import Answer
from drrag_cli.answer.evidence import evidence, window
from drrag_cli.types import Passage


def _p(text: str, title: str = "t") -> Passage:
    return Passage(source=f"{title}.md", title=title, text=text, ordinal=0, char_start=0, char_end=len(text))


OVERVIEW = _p("Heron is our search product. The lead engineer is Tobias Lindqvist. He moved to Ghent in 2019.")
PROFILE = _p("# Tobias Lindqvist ## Background Tobias was born in Uppsala and grew up in Gävle. He visited Ghent once.")
REGISTER = _p(
    "# Clients | Client | Sector | Headquarters | |---|---|---| | Kestrel Rail | Rail | Linz, Austria | "
    "| Van Loo | Freight | Antwerp, Belgium |"
)


def test_the_unit_sharing_most_question_words_is_the_evidence() -> None:
    found = evidence("Uppsala", "In which city was Tobias Lindqvist born?", [OVERVIEW, PROFILE])
    assert found is not None and found.citation == 2
    assert found.text == "## Background Tobias was born in Uppsala and grew up in Gävle."
    ghent = evidence("Ghent", "Where did the lead engineer move?", [PROFILE, OVERVIEW])
    assert ghent is not None and ghent.citation == 2 and ghent.text == "He moved to Ghent in 2019."


def test_a_table_row_is_shown_with_its_headers() -> None:
    found = evidence("Linz", "Where is Kestrel Rail headquartered?", [REGISTER])
    assert found is not None and found.to_json() == {
        "citation": 1, "text": "# Clients Client: Kestrel Rail; Sector: Rail; Headquarters: Linz, Austria."
    }  # fmt: skip


def test_no_evidence_for_yes_no_or_what_no_unit_states() -> None:
    assert evidence("yes", "Is Heron a search product?", [OVERVIEW]) is None
    assert evidence("Amsterdam", "Where was Tobias born?", [OVERVIEW, PROFILE]) is None
    assert evidence("", "Where was Tobias born?", [OVERVIEW]) is None
    assert evidence("Ups", "Where was Tobias born?", [PROFILE]) is None  # whole words only


def test_a_long_unit_is_cut_around_the_answer() -> None:
    unit = " ".join(f"word{i}" for i in range(100)) + " Uppsala " + " ".join(f"more{i}" for i in range(100))
    shown = window(unit, "Uppsala", width=60)
    assert "Uppsala" in shown and shown.startswith("…") and shown.endswith("…") and len(shown) < 90
    assert window("short Uppsala unit", "Uppsala") == "short Uppsala unit"


def test_an_answer_has_evidence_only_when_the_model_gave_a_supported_one() -> None:
    def answer(text: str, calls: int = 1) -> Answer:
        return Answer(text, [OVERVIEW, PROFILE], [], "", calls, 0.0, 0, asked="Where was Tobias Lindqvist born?")

    assert answer("Uppsala").evidence is not None
    assert answer("Amsterdam").evidence is None  # unsupported: marked so, no quote
    assert answer("Uppsala", calls=0).evidence is None  # decided in code: it says what it read


def test_each_row_is_its_own_unit_even_under_lower_case_headers() -> None:
    files = _p(
        "| file | split | questions | |---|---|---| | hotpotqa/train100.json | HotpotQA train | 100 | "
        "| musique/dev100.json | MuSiQue dev | 100 |"
    )
    found = evidence("100", "How many questions does the MuSiQue dev file hold?", [files])
    assert found is not None and found.text == "file: musique/dev100.json; split: MuSiQue dev; questions: 100."
