"""A kin word of several links, walked in code to its last link, which the model is asked."""

from __future__ import annotations

import pytest

from drrag_cli.answer.hop.decompose import bridged
from drrag_cli.answer.hop.kin import kin_chain
from tests.answer.hop.test_decompose import selected

MARTA = "Marta Lindqvist (born 1988) is a Swedish cellist. She is the daughter of the painter Oskar Lindqvist."
OSKAR = "Oskar Lindqvist (1950–2019) was a Swedish painter. His father was the boatbuilder Anders Lindqvist."
HANNA = "Hanna Berg is a Norwegian architect, married to the engineer Oskar Lindqvist since 1979."


def _docs(*texts: tuple[str, str]) -> list:
    first, *rest = texts
    return [selected(1, "a.md", *first), *(selected(i + 2, f"{i}.md", *t, via=1) for i, t in enumerate(rest))]


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Who is the paternal grandfather of Marta Lindqvist?", "Who is Oskar Lindqvist's father?"),
        ("Who is Marta Lindqvist's paternal grandfather?", "Who is Oskar Lindqvist's father?"),
        ("Who is marta lindqvist's Paternal Grandmother?", "Who is Oskar Lindqvist's mother?"),
        ("Where was Marta Lindqvist's paternal grandfather born?", "Where was Oskar Lindqvist's father born?"),
    ],
)
def test_every_link_but_the_last_is_walked_by_name(question: str, asked: str) -> None:
    docs = _docs(("Marta Lindqvist", MARTA), ("Oskar Lindqvist", OSKAR))
    step = kin_chain(question, docs)
    assert step is not None and (step.asked, step.entity, step.source) == (asked, "Oskar Lindqvist", "0.md")
    found = bridged(question, docs)  # the decomposed rewrite the pipeline asks, about the father's document
    assert found is not None and found[0] == asked and found[1].source == "0.md"


def test_a_chain_no_fed_document_continues_is_left_alone() -> None:
    marta = ("Marta Lindqvist", MARTA)
    assert kin_chain("Who is Marta Lindqvist's father?", _docs(marta, ("Oskar Lindqvist", OSKAR))) is None  # one link
    assert kin_chain("Who is Marta Lindqvist's paternal grandfather?", _docs(marta)) is None  # the father is not fed
    # a mother-in-law goes through a spouse: Hanna's page names her husband, not a parent of his
    hanna = _docs(("Hanna Berg", HANNA), ("Oskar Lindqvist", OSKAR))
    assert kin_chain("Who is Hanna Berg's mother-in-law?", hanna).asked == "Who is Oskar Lindqvist's mother?"
    assert kin_chain("Who is Hanna Berg's paternal grandfather?", hanna) is None  # Oskar is no father of hers
