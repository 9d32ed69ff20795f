"""JSON every output path can print: the CLI's ``--json``, ``watch``'s lines, the server's answers.

The CLI and the server both send documents built from user text (file names, questions,
passages) and measured floats, so both pass them through :func:`json_safe`; it lives
below both because the server must not import the CLI.
"""

from __future__ import annotations

import math
from typing import Any

from drrag_cli.question import clean_text


def json_safe(data: Any) -> Any:
    """``data`` with every string (keys too) free of lone surrogates and every float finite."""
    if isinstance(data, str):
        return clean_text(data)
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {json_safe(k) if isinstance(k, str) else k: json_safe(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [json_safe(v) for v in data]
    return data
