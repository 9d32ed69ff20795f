"""The first hop asked on its own (answer.mode: two-call): the description the rewrite replaces."""

from __future__ import annotations

import pytest

from drrag_cli.answer.hop.first_hop import description, first_hop, second_hop


@pytest.mark.parametrize(
    ("question", "hop"),
    [
        ("Where was the director of film Ugly Me born?", "Who is the director of film Ugly Me?"),
        ("In what year was the group who performed Attics To Eden formed?",
         "Who is the group who performed Attics To Eden?"),
        ("In which city was the lead engineer of Project Heron born?", "Who is the lead engineer of Project Heron?"),
        ("What government position was held by the woman who portrayed Corliss Archer in Kiss and Tell?",
         "Who is the woman who portrayed Corliss Archer in Kiss and Tell?"),
    ],
)  # fmt: skip
def test_the_description_is_asked_on_its_own(question: str, hop: str) -> None:
    assert first_hop(question) == hop


def test_no_description_no_first_hop() -> None:
    assert description("Where was Tobias Lindqvist born?") is None
    assert first_hop("Which film came out first, Heron or Plover?") is None


def test_the_second_hop_names_the_bridge() -> None:
    assert second_hop("Where was the director of film Ugly Me born?", "Ignacio F. Iquino") == (
        "Where was Ignacio F. Iquino born?"
    )
