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

from collections.abc import Iterable
from typing import TYPE_CHECKING

from drrag_cli.errors import InputError
from drrag_cli.registry import Registry

if TYPE_CHECKING:
    from drrag_cli.answer.readers.base import Evidence, Reader, Reading
    from drrag_cli.asked import Question

_HERE = "drrag_cli.answer.readers"
BUILTIN: dict[str, str] = {
    "compare": f"{_HERE}.compare:Compare",
    "bridge-compare": f"{_HERE}.bridge_compare:BridgeCompare",
    "same-origin": f"{_HERE}.same_origin:SameOrigin",
    "both": f"{_HERE}.both:Both",
    "asked-origin": f"{_HERE}.asked_origin:AskedOrigin",
    "shared": f"{_HERE}.shared:Shared",
    "bridge-trait": f"{_HERE}.bridge_trait:BridgeTrait",
    "kin": f"{_HERE}.kin:Kin",
    "table": f"{_HERE}.table:Table",
    "statement": f"{_HERE}.statement:Statement",
    "count": f"{_HERE}.count:Count",
    "release": f"{_HERE}.release:Release",
    "definition": f"{_HERE}.definition:Definition",
    "section": f"{_HERE}.section:Section",
    "origin": f"{_HERE}.origin:Origin",
    "verify": f"{_HERE}.verify:Verify",
}
_REGISTRY: Registry[Reader] = Registry("reader", BUILTIN, ",", lambda name: _unknown(name, "answer.readers"))
names = _REGISTRY.names
register = _REGISTRY.register
unregister = _REGISTRY.unregister
get = _REGISTRY.get


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


def first(question: Question, evidence: Evidence, order: Iterable[str]) -> Reading | None:
    """The reading of the first reader in ``order`` that answers, or None (the model answers)."""
    for name in order:
        found = get(name).read(question, evidence)
        if found is not None:
            return found
    return None
