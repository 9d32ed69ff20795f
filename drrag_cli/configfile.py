"""Reading a config file: YAML, one mapping of sections, no key given twice.

PyYAML keeps the last of two equal keys without a word, so a file with two ``classifier:``
sections (one for ``path``, one for ``threshold``) silently loses the first. That is an
error here, with the line of each.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from drrag_cli.errors import ConfigError


@cache
def _loader() -> Any:  # noqa: ANN401
    import yaml  # lazy: only when a config file exists

    class Strict(yaml.SafeLoader):
        def construct_mapping(self, node: Any, deep: bool = False) -> dict:  # noqa: ANN401
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)
                try:
                    twice = key in seen
                except TypeError:  # an unhashable key: PyYAML's own error follows
                    continue
                if twice:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"{key!r} is given twice (first on line {seen[key] + 1}): YAML would keep only "
                        "the last; merge them into one", key_node.start_mark,
                    )
                seen[key] = key_node.start_mark.line
            return super().construct_mapping(node, deep)

    return Strict


def read_config(path: Path) -> dict[str, Any]:
    """The mapping of sections in the YAML file ``path`` ({} when empty); a
    :class:`ConfigError` naming the file (and line) when it cannot be read or is no such mapping."""
    import yaml

    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_loader())  # noqa: S506 (a SafeLoader)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config {path}: {exc}") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"config {path}{where} is not valid YAML: {problem}") from exc
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ConfigError(f"config {path} must be a mapping of sections (index:, search:, ...)")
    return raw
