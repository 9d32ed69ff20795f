"""Strategy specs: parsing, the config's rewrite / refine methods, clear errors."""

from __future__ import annotations

import pytest

from drrag_cli.config import Settings
from drrag_cli.errors import InputError
from drrag_cli.plan import Plan, parse_plan, resolve_plan


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
    s = Settings()
    s.refine.method, s.rewrite.method, s.rewrite.strategies = "dslr", "dmqr", ["adaptive"]
    assert resolve_plan("cfs", s).name == "dmqr-adaptive+cfs+dslr"
    assert resolve_plan(None, s).name == "dmqr-adaptive+cfs+dslr"  # retrieval.strategy = cfs
    assert resolve_plan("cfs", s, use_config=False).name == "cfs"
    assert resolve_plan("note", s).name == "note"
    s.refine.method = "dsrl"
    with pytest.raises(InputError, match="refine.method 'dsrl'"):
        resolve_plan("cfs", s)


def test_rewrite_strategies_follow_the_part() -> None:
    s = Settings()
    s.rewrite.strategies = ["kwr", "par"]
    assert parse_plan("dmqr+cfs").rewrite_strategies(s) == ["kwr", "par"]
    assert parse_plan("dmqr-adaptive+cfs").rewrite_strategies(s) == ["adaptive"]
