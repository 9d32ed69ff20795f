"""One exception type per kind of user error.

All derive from :class:`DrragError`; the CLI catches that once, prints ``str(err)`` as a
single line on stderr and exits 1. Anything else is an internal error (exit 2).
Messages say what went wrong, where, and how to fix it.
"""

from __future__ import annotations


class DrragError(Exception):
    """A user-facing error: bad input, missing index, bad config. Exit code 1."""

    exit_code = 1


class ConfigError(DrragError):
    """Unknown key, wrong type or unreadable config file."""


class IndexMissingError(DrragError):
    """No index where one was expected."""


class IndexMismatchError(DrragError):
    """The index was built with another embedding model, dimension or chunking."""


class IndexDamagedError(DrragError):
    """A file of the index folder is unreadable: the user's index to repair with
    `drrag index --rebuild`, which sets the damaged part aside (index/health.py)."""

    def __init__(self, message: str, what: str | None = None) -> None:
        super().__init__(message)
        self.what = what or message  # the damage alone, without the fix (a repair reports it)


class IndexBusyError(DrragError):
    """Another `drrag index` holds the writer lock."""


class InputError(DrragError):
    """A path, file, dataset or argument the user gave cannot be used."""


class ModelError(DrragError):
    """A model (embedding, GGUF, classifier) is missing, corrupt or unusable."""


class DiskFullError(DrragError):
    """No space left where the index is written (the previous index stays live)."""


class BusyError(DrragError):
    """A server's one LLM stayed busy longer than the request may wait (HTTP 503)."""


class ServerDownError(DrragError):
    """No drrag server answers at the URL given (`drrag ask --server`, DRRAG_SERVER)."""


class ServerError(DrragError):
    """A drrag server failed on its side (HTTP 5xx)."""


class OutputError(DrragError):
    """stdout refused the output: a full disk, ``> /dev/full``, a reader that went away."""

    def __init__(self, message: str, *, reader_gone: bool = False) -> None:
        super().__init__(message)
        self.reader_gone = reader_gone  # a closed pipe (`| head`): a normal end, said nothing about

    @classmethod
    def of(cls, exc: OSError) -> OutputError:
        return cls(
            f"cannot write the output to stdout: {exc.strerror or exc} (free space where it goes, or redirect it)",
            reader_gone=isinstance(exc, BrokenPipeError),
        )
