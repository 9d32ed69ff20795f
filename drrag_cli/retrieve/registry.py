"""Retrieval strategies by name (txtai-style factory): one line per strategy.

    strategy = get("cfs")            # the object; strategy.run(question, ctx)
    register(MyStrategy())           # a plugin or a test adds one at run time

Built-in entries name ``module:attribute`` and are imported on first use, so checking a
strategy spec (config loading, ``drrag_cli.plan``) costs no import of the strategies.
An attribute may be a class (instantiated once) or an instance.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from drrag_cli.errors import InputError

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
_ADDED: dict[str, Any] = {}
_LOADED: dict[str, Any] = {}


def names() -> tuple[str, ...]:
    return (*BUILTIN, *(n for n in _ADDED if n not in BUILTIN))


def register(strategy: Strategy) -> Strategy:
    """Add (or replace) a strategy under ``strategy.name``; returns it."""
    name = str(strategy.name).strip().lower()
    if not name or "+" in name:
        raise ValueError(f"a strategy name must be non-empty and without '+' (got {strategy.name!r})")
    _ADDED[name] = strategy
    _LOADED.pop(name, None)
    return strategy


def unregister(name: str) -> None:
    _ADDED.pop(name, None)
    _LOADED.pop(name, None)


def get(name: str) -> Strategy:
    """The strategy called ``name``; an unknown name is an InputError listing the known ones."""
    if name in _LOADED:
        return _LOADED[name]
    if name in _ADDED:
        obj = _ADDED[name]
    elif name in BUILTIN:
        module, _, attr = BUILTIN[name].partition(":")
        obj = getattr(importlib.import_module(module), attr)
    else:
        raise InputError(f"unknown strategy {name!r} (choose one of: {', '.join(names())})")
    _LOADED[name] = obj() if isinstance(obj, type) else obj
    return _LOADED[name]
