"""drrag's own bytecode, written once where Python is told to write none.

With ``PYTHONDONTWRITEBYTECODE`` set (the usual Python container images set it) or ``-B``,
Python compiles every module it imports from source, in every process, and keeps nothing:
an editable install (the README's) then compiles drrag's modules at each command. A cold
`drrag ask` on the sample corpus took 1.07 s against 0.87 s with them compiled (farm-bench,
9 pairs, a copy of the package without and with ``compileall``). So the first command after
an install or an edit compiles the package once (``compileall``, only missing or stale files;
Python still checks each file's timestamp on import, so bytecode is never used for changed
source). A marker records the newest source's time, so a command that finds nothing to do
stats the package's files and returns (a few milliseconds). A package folder drrag may not
write to is left as it is. Only drrag's own package is compiled, never other packages.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
MARKER = f".drrag-compiled-{sys.implementation.cache_tag}"


def ensure(package: Path = PACKAGE) -> bool:
    """Compile ``package`` when Python writes no bytecode and its sources changed since the
    last time; True when it compiled. Never raises: bytecode is only a speed-up."""
    if not sys.dont_write_bytecode:
        return False  # Python writes it on import
    try:
        cache = package / "__pycache__"
        newest = "{} {}".format(*_sources(package))
        marker = cache / MARKER
        if marker.is_file() and marker.read_text(encoding="utf-8") == newest:
            return False
        if not os.access(cache if cache.is_dir() else package, os.W_OK):
            return False
        import compileall

        compileall.compile_dir(str(package), quiet=2)
        marker.write_text(newest, encoding="utf-8")
        return True
    except (OSError, ValueError):
        return False


def _sources(folder: Path) -> tuple[int, int]:
    """The latest modification time (ns) of the ``.py`` files under ``folder``, and their
    count (an added or deleted module is a change too)."""
    newest, count = 0, 0
    stack = [str(folder)]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        stack.append(entry.path)
                elif entry.name.endswith(".py"):
                    newest, count = max(newest, entry.stat().st_mtime_ns), count + 1
    return newest, count
