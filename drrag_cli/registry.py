"""Named plug-ins with lazy built-ins: the one mechanism behind the retrieval strategies
(``retrieve/registry.py``) and the answer readers (``answer/readers/registry.py``).

Built-in entries name ``module:attribute`` and are imported on first use, so checking a
name (config loading) costs no import; an attribute may be a class (instantiated once) or
an instance. ``register`` adds or replaces one at run time (a plugin, a test).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from drrag_cli.errors import InputError

T = TypeVar("T")


class Registry(Generic[T]):
    def __init__(
        self, kind: str, builtin: dict[str, str], forbidden: str, unknown: Callable[[str], InputError]
    ) -> None:
        self.kind, self.builtin, self.forbidden, self.unknown = kind, builtin, forbidden, unknown
        self._added: dict[str, Any] = {}
        self._loaded: dict[str, Any] = {}

    def names(self) -> tuple[str, ...]:
        return (*self.builtin, *(n for n in self._added if n not in self.builtin))

    def register(self, obj: T) -> T:
        """Add (or replace) ``obj`` under ``obj.name``; returns it."""
        name = str(obj.name).strip().lower()  # type: ignore[attr-defined]
        if not name or self.forbidden in name:
            raise ValueError(
                f"a {self.kind} name must be non-empty and without '{self.forbidden}' (got {obj.name!r})"  # type: ignore[attr-defined]
            )
        self._added[name] = obj
        self._loaded.pop(name, None)
        return obj

    def unregister(self, name: str) -> None:
        self._added.pop(name, None)
        self._loaded.pop(name, None)

    def get(self, name: str) -> T:
        """The entry called ``name``; an unknown name is the ``unknown`` InputError."""
        if name in self._loaded:
            return self._loaded[name]
        if name in self._added:
            obj = self._added[name]
        elif name in self.builtin:
            module, _, attr = self.builtin[name].partition(":")
            obj = getattr(importlib.import_module(module), attr)
        else:
            raise self.unknown(name)
        self._loaded[name] = obj() if isinstance(obj, type) else obj
        return self._loaded[name]
