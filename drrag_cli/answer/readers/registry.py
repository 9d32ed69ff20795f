"""Answer readers by name, tried in an order that is data (``answer.readers``).

    reading = first(question, evidence, names)   # the first reader that answers, or None
    register(MyReader())                         # a plugin or a test adds one at run time

Built-in entries name ``module:attribute`` and are imported on first use, so checking
``answer.readers`` when the config loads costs no import of the readers. The order is
that setting (``AnswerSettings.readers``): by default the comparisons of two named sides
first (a question that offers its answers, "…, A or B?", is only theirs), then the readers
of one stated value. docs/ANSWERS.md measures each one alone.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from drrag_cli.errors import InputError

if TYPE_CHECKING:
    from drrag_cli.answer.readers.base import Evidence, Reader, Reading
    from drrag_cli.asked import Question

_HERE = "drrag_cli.answer.readers"
BUILTIN: dict[str, str] = {
    "compare": f"{_HERE}.compare:Compare",
    "same-origin": f"{_HERE}.same_origin:SameOrigin",
    "asked-origin": f"{_HERE}.asked_origin:AskedOrigin",
    "shared": f"{_HERE}.shared:Shared",
    "table": f"{_HERE}.table:Table",
    "statement": f"{_HERE}.statement:Statement",
    "count": f"{_HERE}.count:Count",
    "release": f"{_HERE}.release:Release",
    "definition": f"{_HERE}.definition:Definition",
    "section": f"{_HERE}.section:Section",
    "origin": f"{_HERE}.origin:Origin",
}
_ADDED: dict[str, Any] = {}
_LOADED: dict[str, Any] = {}


def names() -> tuple[str, ...]:
    return (*BUILTIN, *(n for n in _ADDED if n not in BUILTIN))


def register(reader: Reader) -> Reader:
    """Add (or replace) a reader under ``reader.name``; returns it."""
    name = str(reader.name).strip().lower()
    if not name or "," in name:
        raise ValueError(f"a reader name must be non-empty and without ',' (got {reader.name!r})")
    _ADDED[name] = reader
    _LOADED.pop(name, None)
    return reader


def unregister(name: str) -> None:
    _ADDED.pop(name, None)
    _LOADED.pop(name, None)


def unknown(wanted: Iterable[str]) -> list[str]:
    """The names in ``wanted`` that no reader has."""
    known = set(names())
    return [name for name in wanted if name not in known]


def check(wanted: Iterable[str], key: str = "answer.readers") -> tuple[str, ...]:
    """``wanted`` as a tuple, or an InputError naming ``key`` and the known readers."""
    wanted = tuple(wanted)
    bad = unknown(wanted)
    if bad:
        raise _unknown(bad[0], key)
    return wanted


def _unknown(name: str, key: str) -> InputError:
    return InputError(f"unknown reader {name!r} in {key} (known: {', '.join(names())}; [] = the model answers all)")


def get(name: str) -> Reader:
    """The reader called ``name``; an unknown name is an InputError listing the known ones."""
    if name in _LOADED:
        return _LOADED[name]
    if name in _ADDED:
        obj = _ADDED[name]
    elif name in BUILTIN:
        module, _, attr = BUILTIN[name].partition(":")
        obj = getattr(importlib.import_module(module), attr)
    else:
        raise _unknown(name, "answer.readers")
    _LOADED[name] = obj() if isinstance(obj, type) else obj
    return _LOADED[name]


def first(question: Question, evidence: Evidence, order: Iterable[str]) -> Reading | None:
    """The reading of the first reader in ``order`` that answers, or None (the model answers)."""
    for name in order:
        found = get(name).read(question, evidence)
        if found is not None:
            return found
    return None
