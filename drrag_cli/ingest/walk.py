"""Find the files to index under the user's paths.

Never hangs or crashes on a hostile tree: directory symlink loops are cut by (device,
inode), unreadable entries are reported and skipped, hidden folders are excluded by the
default ``exclude`` globs.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from drrag_cli.errors import InputError

TEXT_EXTENSIONS = {
    ".md", ".markdown", ".txt", ".rst", ".html", ".htm", ".pdf", ".json", ".jsonl",
    ".docx", ".pptx", ".odt", ".epub", ".eml", ".mbox",  # ingest/office.py (optional parsers), ingest/mail.py
}


@dataclass
class WalkResult:
    paths: list[str] = field(default_factory=list)  # absolute, resolved, sorted as Paths sort, unique
    skipped: dict[str, str] = field(default_factory=dict)  # path -> reason
    # Roots that were walked: stored files under them that are no longer found get pruned.
    roots: list[Path] = field(default_factory=list)
    # Folders that exist but could not be listed, and files that could not be looked at
    # (permission, I/O error): what was indexed there is kept, not pruned, as the walk
    # could not tell whether it is gone.
    unreadable: dict[str, Path] = field(default_factory=dict)  # its key in `skipped` -> its real path

    @property
    def files(self) -> list[Path]:
        """``paths`` as Paths (a build keeps them strings: at 100k files a Path each was much of a run)."""
        return [Path(p) for p in self.paths]


def is_excluded(rel_parts: tuple[str, ...], patterns: Iterable[str]) -> bool:
    """A pattern without '/' matches any one path component; with '/' the relative path."""
    return _excluder(tuple(patterns)).matches(rel_parts, rel_parts)


class Excluder:
    """The exclude globs compiled once (fnmatch's rules): a walk checks every name it meets,
    and with :meth:`kept` only that name, as the folders above it were checked when the walk
    entered them (at 100k files, matching every part took 2.6 s a run)."""

    def __init__(self, patterns: Iterable[str]) -> None:
        patterns = [os.path.normcase(p) for p in patterns]
        names = [f"(?:{fnmatch.translate(p)})" for p in patterns if "/" not in p]
        self._name = re.compile("|".join(names)) if names else None
        self._paths = [re.compile(fnmatch.translate(p)) for p in patterns if "/" in p]

    def kept(self, rel: tuple[str, ...], names: list[str]) -> list[str]:
        """Those of ``names``, entries of the folder at ``rel`` (itself not excluded), that are
        not excluded: with name globs only, the usual case, one match a name and no tuples."""
        if self._paths:
            return [name for name in names if not self.matches((name,), (*rel, name))]
        if self._name is None:
            return names
        match, fold = self._name.match, os.path.normcase
        return [name for name in names if match(fold(name)) is None]

    def matches(self, names: tuple[str, ...], rel_parts: tuple[str, ...]) -> bool:
        """A name glob matches one of ``names``, or a path glob the path ``rel_parts``."""
        if self._name is not None and any(self._name.match(os.path.normcase(name)) for name in names):
            return True
        rel = os.path.normcase("/".join(rel_parts))
        return any(path.match(rel) for path in self._paths)


@lru_cache(maxsize=16)
def _excluder(patterns: tuple[str, ...]) -> Excluder:
    return Excluder(patterns)


IGNORE_FILE = ".drragignore"


def read_ignore_file(root: Path) -> list[str]:
    """Extra exclude globs from `ROOT/.drragignore`: one per line, `#` comments."""
    try:
        lines = (root / IGNORE_FILE).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return [line.strip().rstrip("/") for line in lines if line.strip() and not line.lstrip().startswith("#")]


def walk(paths: Iterable[str | Path], exclude: Sequence[str]) -> WalkResult:
    result = WalkResult()
    seen: set[str] = set()  # resolved paths taken
    for raw in paths:
        root = Path(raw).expanduser()
        if not root.exists():
            raise InputError(f"path {raw} does not exist (check the spelling, or run from its folder)")
        root = root.resolve()
        result.roots.append(root)
        if root.is_file():
            _consider(root, result, seen)
            continue
        patterns = [*exclude, *read_ignore_file(root)]
        _walk_folder(root, Excluder(patterns), result, seen)
    result.paths.sort(key=lambda p: p.replace(os.sep, "\0"))  # component by component, as Paths sort
    return result


def _walk_folder(root: Path, excluded: Excluder, result: WalkResult, seen: set[str]) -> None:
    """Depth-first with an explicit stack (os.walk recurses, so a deep tree would raise
    RecursionError), following folder links; a folder reached twice is walked once."""
    visited: set[tuple[int, int]] = set()
    stack = [root]
    while stack:
        here = stack.pop()
        try:
            st = here.stat()
            if (st.st_dev, st.st_ino) in visited:  # symlink loop or second path to a folder
                continue
            visited.add((st.st_dev, st.st_ino))
            with os.scandir(here) as entries:
                listed = [(entry.name, _is_dir(entry), _plain_file(entry)) for entry in entries]
            real_here = os.path.join(os.path.realpath(here), "")  # with its separator: "/" stays "/"
        except OSError as exc:
            result.skipped[str(here)] = f"unreadable folder ({exc.strerror or exc})"
            result.unreadable[str(here)] = Path(os.path.realpath(here))  # as indexed files are named
            continue
        rel = here.relative_to(root).parts
        plain = {name for name, is_dir, is_plain in listed if is_plain}
        for name in excluded.kept(rel, sorted(name for name, is_dir, _ in listed if not is_dir)):
            if name in plain:  # a plain file in a resolved folder is its own real path: no resolve() per file
                _take(real_here + name, result, seen)
            else:
                _consider(here / name, result, seen)
        folders = excluded.kept(rel, sorted((name for name, is_dir, _ in listed if is_dir), reverse=True))
        stack.extend(here / name for name in folders)


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()  # follows links
    except OSError:  # a link loop: reported as unreadable by _consider
        return False


def _plain_file(entry: os.DirEntry) -> bool:
    """A regular file, not a link: what the folder listing already says, no system call."""
    try:
        return not entry.is_symlink() and entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def _take(real: str, result: WalkResult, seen: set[str], shown: str = "") -> None:
    """Add the regular file at the resolved path ``real`` unless its type or name is skipped
    (``shown``: the path the skip names, ``real`` by default), in strings until it is taken
    (at 100k files, two Paths a file were most of a walk)."""
    if os.path.splitext(real)[1].lower() not in TEXT_EXTENSIONS:
        result.skipped[shown or real] = "unsupported file type"
        return
    try:
        real.encode("utf-8")
    except UnicodeEncodeError:  # the OS gave bytes that are not UTF-8: citations could not name it
        result.skipped[shown or real] = "file name is not valid UTF-8 (rename it, e.g. with convmv, to index it)"
        return
    if real not in seen:
        seen.add(real)
        result.paths.append(real)


def _consider(path: Path, result: WalkResult, seen: set[str]) -> None:
    """Add ``path`` unless it is skipped."""
    try:
        real = path.resolve(strict=True)
        if not real.is_file():  # reading a pipe would block
            result.skipped[str(path)] = "not a regular file (pipe, socket or device)"
            return
    except (OSError, RuntimeError) as exc:  # broken link, link loop, permission
        result.skipped[str(path)] = f"unreadable ({getattr(exc, 'strerror', None) or exc})"
        if isinstance(exc, OSError) and exc.errno not in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP):
            result.unreadable[str(path)] = Path(os.path.realpath(path))  # there, but not to us
        return
    _take(str(real), result, seen, str(path))
