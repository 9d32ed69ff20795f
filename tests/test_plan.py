"""Strategy specs: parsing, the config's rewrite / refine methods, clear errors."""

from __future__ import annotations

import pytest

from drrag_cli.config import Settings
from drrag_cli.errors import ConfigError, InputError
from drrag_cli.pipeline import Pipeline
from drrag_cli.plan import Plan, parse_plan


@pytest.mark.parametrize(
    ("spec", "plan"),
    [
        ("cfs", Plan("cfs", None, None, "cfs")),
        ("cfs+dslr", Plan("cfs", None, "dslr", "cfs+dslr")),
        ("dmqr", Plan("hybrid", "dmqr", None, "dmqr")),
        ("DMQR + CFS", Plan("cfs", "dmqr", None, "dmqr+cfs")),
        ("dmqr-adaptive+cfs+dslr", Plan("cfs", "dmqr-adaptive", "dslr", "dmqr-adaptive+cfs+dslr")),
        ("dslr+qdc", Plan("qdc", None, "dslr", "dslr+qdc")),
        ("note", Plan("note", None, None, "note")),
    ],
)
def test_parse(spec: str, plan: Plan) -> None:
    assert parse_plan(spec) == plan


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("cfz", "unknown strategy 'cfz'"),
        ("cfs+qdc", "two strategy parts"),
        ("cfs+", "empty strategy"),
        ("note+dslr", "run it alone"),
        ("dmqr+dmqr-adaptive", "two rewrite parts"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_plan(spec)


def test_config_methods_apply_to_ask_not_eval() -> None:
    s = Settings().replace({"refine.method": "dslr", "rewrite.method": "dmqr", "rewrite.strategies": ["adaptive"]})
    pipe = Pipeline(s)
    assert pipe.plan("cfs").name == "dmqr-adaptive+cfs+dslr"
    assert pipe.plan(None).name == "dmqr-adaptive+cfs+dslr"  # retrieval.strategy = cfs
    assert pipe.plan("cfs", use_config=False).name == "cfs"
    assert pipe.plan("note").name == "note"
    with pytest.raises(ConfigError, match="'refine.method'.*must be one of none, dslr"):
        s.replace({"refine.method": "dsrl"})


def test_rewrite_strategies_are_checked_with_the_config() -> None:
    s = Settings().replace({"rewrite.strategies": ["kwr", "par"]})
    assert s.rewrite.strategies == ("kwr", "par")
    with pytest.raises(ConfigError, match="'rewrite.strategies'.*must be one of"):
        s.replace({"rewrite.strategies": ["kwr", "pqr"]})
    with pytest.raises(ConfigError, match="use it alone"):
        s.replace({"rewrite.strategies": ["adaptive", "kwr"]})
    with pytest.raises(ConfigError, match="'retrieval.strategy'.*unknown strategy 'cfz'"):
        s.replace({"retrieval.strategy": "cfz+dslr"})
