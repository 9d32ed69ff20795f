"""The one check a question passes before any retrieval or model work.

A question reaches drrag as argv (bytes: Python hands undecodable ones over as lone
surrogates, U+DC80-U+DCFF, by ``surrogateescape``), from a dataset file (a JSON
``"\\ud800"`` escape is a lone surrogate too) or from a library caller. The tokenizers
and sqlite refuse lone surrogates, and JSON output must be UTF-8, so :func:`clean_text`
decodes them once into U+FFFD; :func:`checked_question` then refuses, with one line
that names the limit, what no stage could use: nothing to search for, or a question
too long for the model's context (the cause of "n_ctx is too small" errors).

Paths are not cleaned: a file name with undecodable bytes must still name its file.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING

from drrag_cli.errors import InputError

if TYPE_CHECKING:
    from drrag_cli.config import Settings

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")
_NOT_ESCAPED = re.compile("[\ud800-\udc7f\udd00-\udfff]")  # lone surrogates that surrogateescape did not make
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # C0/C1 controls but tab and newlines


def clean_text(text: str) -> str:
    """``text`` with no lone surrogate: valid Unicode that encodes as UTF-8.

    Pairs split into two code points are joined; bytes that ``surrogateescape`` kept
    (argv, file names) are decoded again as UTF-8 with replacement, so each invalid
    sequence becomes one U+FFFD; any other lone surrogate becomes U+FFFD.
    """
    if not _SURROGATE.search(text):
        return text
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")  # join pairs
    text = _NOT_ESCAPED.sub(REPLACEMENT, text)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _has_content(text: str) -> bool:
    """Anything to look for: a character that is not whitespace, a control or format
    character, or U+FFFD (which stands for bytes that could not be read)."""
    return any(not ch.isspace() and ch != REPLACEMENT and unicodedata.category(ch)[0] != "C" for ch in text)


def checked_question(question: str, settings: Settings, count_tokens: Callable[[str], int] | None = None) -> str:
    """The question as every stage may take it, or an :class:`InputError` of one line.

    Lone surrogates become U+FFFD and control characters (NUL, escape sequences) spaces.
    Refused: a question with nothing to look for, one over ``search.max_question_chars``,
    and, given the answering model's ``count_tokens``, one that leaves the passages no room
    in ``llm.n_ctx`` (half of what the answer leaves). The model is asked only when the
    question's UTF-8 bytes could exceed that, since a byte is at most one token.
    """
    text = _CONTROL.sub(" ", clean_text(question))
    if not _has_content(text):
        shown = "empty" if not question.strip() else "only blanks, control characters or undecodable bytes"
        raise InputError(f'the question is {shown}; give words to look for, e.g. drrag ask "who leads project X?"')
    limit = settings.search.max_question_chars
    if len(text) > limit:
        raise InputError(
            f"the question is {len(text):,} characters long, over the limit of {limit:,}; shorten it "
            f"(or raise search.max_question_chars in drrag.yaml)"
        )
    room = (settings.llm.n_ctx - settings.llm.max_tokens) // 2
    if count_tokens is not None and len(text.encode("utf-8")) > room:
        tokens = count_tokens(text)
        if tokens > room:
            raise InputError(
                f"the question is {tokens:,} tokens for the model ({len(text):,} characters); llm.n_ctx "
                f"{settings.llm.n_ctx} leaves room for {max(room, 0):,} next to the passages: shorten it "
                f"(or raise llm.n_ctx)"
            )
    return text
