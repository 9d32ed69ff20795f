"""The readers' registry: names, order as data, the first that reads, unknown names refused."""

from __future__ import annotations

import pytest

from drrag_cli.answer.readers import registry
from drrag_cli.answer.readers.base import Reading
from drrag_cli.asked import Question, parse
from drrag_cli.config import AnswerSettings
from drrag_cli.errors import InputError
from tests.answer.readers.test_compare import SALTMARSH, TIDEPOOL


def test_every_default_reader_is_known_and_loads_with_its_own_name() -> None:
    assert set(AnswerSettings().readers) <= set(registry.names())
    for name in registry.names():
        assert registry.get(name).name == name


def test_the_first_reader_in_the_order_answers() -> None:
    question = parse("Which model has more parameters, Saltmarsh or Tidepool?")
    found = registry.first(question, [SALTMARSH, TIDEPOOL], AnswerSettings().readers)
    assert found is not None and (found.reader, found.answer) == ("compare", "Tidepool")
    assert registry.first(question, [SALTMARSH, TIDEPOOL], ()) is None  # no readers: the model answers
    assert registry.first(question, [SALTMARSH, TIDEPOOL], ("table", "statement")) is None


def test_a_registered_reader_joins_and_leaves() -> None:
    class Always:
        name = "always"

        def read(self, question: Question, evidence: object) -> Reading | None:
            return Reading("42", self.name)

    registry.register(Always())
    try:
        assert registry.first(parse("What is it?"), [], ("always",)) == Reading("42", "always")
        assert "always" in registry.names()
    finally:
        registry.unregister("always")
    assert "always" not in registry.names()


def test_an_unknown_name_is_refused_with_the_key_and_the_known_names() -> None:
    with pytest.raises(InputError, match=r"unknown reader 'nonsense' in answer.readers \(known: compare, "):
        registry.check(["compare", "nonsense"])
    with pytest.raises(InputError, match="answer.readers"):
        registry.get("nonsense")
