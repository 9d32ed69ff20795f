"""Retrieval strategies by name (txtai-style factory): one line per strategy.

    strategy = get("cfs")            # the object; strategy.run(question, ctx)
    register(MyStrategy())           # a plugin or a test adds one at run time

Built-in entries name ``module:attribute`` and are imported on first use, so checking a
strategy spec (config loading, ``drrag_cli.plan``) costs no import of the strategies.
An attribute may be a class (instantiated once) or an instance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drrag_cli.errors import InputError
from drrag_cli.registry import Registry

if TYPE_CHECKING:
    from drrag_cli.retrieve.context import Strategy

BUILTIN: dict[str, str] = {
    "bm25": "drrag_cli.retrieve.strategies:BM25",
    "sm": "drrag_cli.retrieve.strategies:SM",
    "hybrid": "drrag_cli.retrieve.strategies:HYBRID",
    "qdc": "drrag_cli.retrieve.strategies:QDC",
    "cfs": "drrag_cli.retrieve.strategies:CFS",
    "cis": "drrag_cli.retrieve.strategies:CIS",
    "note": "drrag_cli.retrieve.note.strategy:Note",
}
_REGISTRY: Registry[Strategy] = Registry(
    "strategy",
    BUILTIN,
    "+",
    lambda name: InputError(f"unknown strategy {name!r} (choose one of: {', '.join(names())})"),
)
names = _REGISTRY.names
register = _REGISTRY.register
unregister = _REGISTRY.unregister
get = _REGISTRY.get
