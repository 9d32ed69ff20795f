"""spaCy's blank-English tokenizer and sentencizer, replayed in Python from rules spaCy wrote.

An edited note longer than one passage needs its sentences, and ``import spacy`` with
``spacy.blank("en")`` costs about 1.1 s of such an edit's 1.5 s (``python -m cProfile`` of
``drrag index`` after one note grew). The sentencizer needs little of spaCy: where its
tokenizer cuts the text, and which tokens are punctuation. So the first process that loads
spaCy writes its tokenizer's rules (prefix, suffix, infix and URL patterns, the special cases,
the sentencizer's characters) to a JSON file in drrag's cache, one per spaCy version; a later
process that has not imported spaCy finds a short text's sentences here, the way spaCy's
tokenizer (``Tokenizer._tokenize_affixes``, ``_split_affixes``, ``_attach_tokens``,
``_apply_special_cases``) and ``Sentencizer.predict`` do. ``python benchmarks/replay_check.py``:
the same tokens and sentences as spaCy 3.8 for all 14,434 distinct paragraphs of the shared QA
files and this repository's Markdown, and for 30,000 random texts of hard pieces (abbreviations,
URLs, emoticons, quotes, CJK punctuation); tests/ingest/test_spacy_replay.py holds it so.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

FORMAT = 1  # of the rules file; a new one is written when this changes
_ORTH = 65  # spaCy's attribute id of ORTH, the key of a special case's pieces (or "ORTH")
_VERSION = re.compile(r"""__version__\s*=\s*["']([^"']+)["']""")

Span = tuple[int, int]


def spacy_version() -> str | None:
    """The installed spaCy's version, read from its ``about.py`` without importing it."""
    from importlib.util import find_spec

    try:
        spec = find_spec("spacy")
        if spec is None or spec.origin is None:
            return None
        m = _VERSION.search((Path(spec.origin).parent / "about.py").read_text(encoding="utf-8"))
    except (OSError, ValueError, ImportError):
        return None
    return m.group(1) if m else None


def rules_path(version: str) -> Path:
    from drrag_cli.config import user_cache_dir

    return user_cache_dir() / "spacy" / f"en-sentences-{version}-f{FORMAT}.json"


def save_rules(pipeline: Any, version: str) -> None:  # noqa: ANN401 - a spacy.Language
    """Write ``pipeline``'s tokenizer and sentencizer rules once per spaCy version. A cache that
    cannot be written, or a spaCy whose tokenizer is not shaped as this module reads it, costs
    only the next edit's speed: spaCy then splits, as it did before the replay."""
    path = rules_path(version)
    if path.is_file():
        return
    try:
        rules = _rules(pipeline, version)
    except Exception:  # noqa: BLE001 - another spaCy's internals: no replay, never a failed build
        return
    _write(path, rules)


def _rules(pipeline: Any, version: str) -> dict[str, Any]:  # noqa: ANN401 - a spacy.Language
    tok = pipeline.tokenizer
    return {
        "format": FORMAT,
        "spacy": version,
        "prefix": _pattern(tok.prefix_search),
        "suffix": _pattern(tok.suffix_search),
        "infix": _pattern(tok.infix_finditer),
        "token_match": _pattern(tok.token_match),
        "url_match": _pattern(tok.url_match),
        "faster_heuristics": bool(tok.faster_heuristics),
        "special": {key: [piece[_ORTH] if _ORTH in piece else piece["ORTH"] for piece in value]
                    for key, value in tok.rules.items()},
        "punct_chars": sorted(pipeline.get_pipe("sentencizer").punct_chars),
    }


def _write(path: Path, rules: dict[str, Any]) -> None:
    """``rules`` as ``path``, whole or not at all (a temporary file renamed into place)."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".rules-", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(rules, fh, ensure_ascii=False)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


def _pattern(method: Any) -> dict[str, Any] | None:  # noqa: ANN401 - a compiled pattern's bound method
    if method is None:
        return None
    compiled = method.__self__
    return {"pattern": compiled.pattern, "flags": int(compiled.flags)}


@lru_cache(maxsize=2)
def load(version: str | None = None) -> Replay | None:
    """The replay for the installed spaCy, or None when no process has written its rules yet."""
    version = version or spacy_version()
    if version is None:
        return None
    try:
        rules = json.loads(rules_path(version).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(rules, dict) or rules.get("format") != FORMAT or rules.get("spacy") != version:
        return None
    try:
        return Replay(rules)
    except (KeyError, TypeError, AttributeError, re.error):  # a damaged file: spaCy splits instead
        return None


def _compiled(spec: dict[str, Any] | None, how: str) -> Callable[[str], Any] | None:
    if spec is None:
        return None
    return getattr(re.compile(spec["pattern"], spec["flags"]), how)


def is_punct(text: str) -> bool:
    """spaCy's lexical attribute: every character is Unicode punctuation (category P*)."""
    return all(unicodedata.category(ch).startswith("P") for ch in text)


class Replay:
    """A blank English pipeline's tokenizer and sentencizer, from the rules file."""

    def __init__(self, rules: dict[str, Any]) -> None:
        self.prefix_search = _compiled(rules["prefix"], "search")
        self.suffix_search = _compiled(rules["suffix"], "search")
        self.infix_finditer = _compiled(rules["infix"], "finditer")
        self.token_match = _compiled(rules["token_match"], "match")
        self.url_match = _compiled(rules["url_match"], "match")
        self.special: dict[str, list[str]] = rules["special"]
        self.punct_chars = frozenset(rules["punct_chars"])
        self._matcher = self._phrases(bool(rules["faster_heuristics"]))

    # -- the sentencizer ---------------------------------------------------------------
    def sentences(self, text: str) -> list[Span]:
        """(start_char, end_char) of ``text``'s sentences, as ``doc.sents`` gives them."""
        tokens = self.tokenize(text)
        if not tokens:
            return []
        starts, seen_period = [0], False
        for i, (a, b) in enumerate(tokens):
            piece = text[a:b]
            in_punct_chars = piece in self.punct_chars
            if seen_period and not in_punct_chars and not is_punct(piece):
                starts.append(i)
                seen_period = False
            elif in_punct_chars:
                seen_period = True
        bounds = [*starts, len(tokens)]
        return [(tokens[s][0], tokens[e - 1][1]) for s, e in zip(bounds, bounds[1:], strict=False)]

    # -- the tokenizer ---------------------------------------------------------------
    def tokenize(self, text: str) -> list[Span]:
        """Token spans: runs of spaces and of non-spaces cut as ``_tokenize_affixes`` cuts them
        (one ' ' after a word belongs to it), then the special cases the matcher finds."""
        return self._apply_special_cases(text, self._tokenize_affixes(text, specials=True))

    def _tokenize_affixes(self, text: str, *, specials: bool) -> list[Span]:
        """``Tokenizer._tokenize_affixes(text, with_special_cases=specials)``."""
        out: list[Span] = []
        if not text:
            return out
        start, in_ws = 0, text[0].isspace()
        for i, ch in enumerate(text):
            if ch.isspace() != in_ws:
                if start < i:
                    self._chunk(text, start, i, out, specials=specials)
                start = i + 1 if ch == " " else i
                in_ws = not in_ws
        if start < len(text):
            self._chunk(text, start, len(text), out, specials=specials)
        return out

    def _chunk(self, text: str, a: int, b: int, out: list[Span], *, specials: bool) -> None:
        string = text[a:b]
        if specials and string in self.special:
            out.extend(_pieces(a, self.special[string]))
            return
        string, prefixes, suffixes = self._split_affixes(string, specials)
        out.extend(_pieces(a, prefixes))
        pos = a + sum(map(len, prefixes))
        if string:
            self._attach(string, pos, out, specials)
        out.extend(_pieces(pos + len(string), suffixes[::-1]))  # found outside in: written inside out

    def _split_affixes(self, string: str, specials: bool) -> tuple[str, list[str], list[str]]:
        prefixes: list[str] = []
        suffixes: list[str] = []
        last_size = 0
        while string and len(string) != last_size:
            if (self.token_match and self.token_match(string)) or (specials and string in self.special):
                break
            last_size = len(string)
            pre_len = _length(self.prefix_search, string)
            if pre_len:
                prefix, minus_pre = string[:pre_len], string[pre_len:]
                if minus_pre and specials and minus_pre in self.special:
                    prefixes.append(prefix)
                    string = minus_pre
                    break
            suf_len = _length(self.suffix_search, string[pre_len:])
            if suf_len:
                suffix, minus_suf = string[-suf_len:], string[:-suf_len]
                if minus_suf and specials and minus_suf in self.special:
                    suffixes.append(suffix)
                    string = minus_suf
                    break
            if pre_len and suf_len and pre_len + suf_len <= len(string):
                prefixes.append(prefix)
                suffixes.append(suffix)
                string = string[pre_len:-suf_len]
            elif pre_len:
                prefixes.append(prefix)
                string = minus_pre
            elif suf_len:
                suffixes.append(suffix)
                string = minus_suf
        return string, prefixes, suffixes

    def _attach(self, string: str, pos: int, out: list[Span], specials: bool) -> None:
        if specials and string in self.special:
            out.extend(_pieces(pos, self.special[string]))
            return
        if (self.token_match and self.token_match(string)) or (self.url_match and self.url_match(string)):
            out.append((pos, pos + len(string)))
            return
        matches = list(self.infix_finditer(string)) if self.infix_finditer else []
        if not matches:
            out.append((pos, pos + len(string)))
            return
        start = 0
        for m in matches:
            if m.start() == 0:  # "infix_start == start_before_infixes"
                continue
            if m.start() != start:
                out.append((pos + start, pos + m.start()))
            if m.start() != m.end():
                out.append((pos + m.start(), pos + m.end()))
            start = m.end()
        if start < len(string):
            out.append((pos + start, pos + len(string)))

    # -- special cases that span tokens (``_apply_special_cases``) ----------------------
    def _phrases(self, faster_heuristics: bool) -> dict[str, list[tuple[str, ...]]]:
        """The matcher's patterns by first token: each special case the affix rules would cut
        (or every one without ``faster_heuristics``), as the tokens it is cut into."""
        phrases: dict[str, list[tuple[str, ...]]] = {}
        for key in self.special:
            cut = (_length(self.prefix_search, key) or _length(self.suffix_search, key) or " " in key
                   or (self.infix_finditer is not None and next(self.infix_finditer(key), None) is not None))
            if faster_heuristics and not cut:
                continue
            words = tuple(key[a:b] for a, b in self._tokenize_affixes(key, specials=False))
            if words:
                phrases.setdefault(words[0], []).append(words)
        return phrases

    def _apply_special_cases(self, text: str, tokens: list[Span]) -> list[Span]:
        if not self._matcher:
            return tokens
        words = [text[a:b] for a, b in tokens]
        found: list[Span] = []  # (start, end) token indexes of every match
        for i, word in enumerate(words):
            for phrase in self._matcher.get(word, ()):
                if tuple(words[i : i + len(phrase)]) == phrase:
                    found.append((i, i + len(phrase)))
        if not found:
            return tokens
        kept = _filtered(found)
        out: list[Span] = []
        i = 0
        by_start = {s: e for s, e in kept}
        while i < len(tokens):
            end = by_start.get(i)
            if end is None:
                out.append(tokens[i])
                i += 1
                continue
            span_text = text[tokens[i][0] : tokens[end - 1][1]]
            if span_text in self.special:
                out.extend(_pieces(tokens[i][0], self.special[span_text]))
            else:
                out.extend(tokens[i:end])
            i = end
        return out


def _filtered(found: Sequence[Span]) -> list[Span]:
    """``_filter_special_spans``: longest first (the earlier of equal lengths), a span kept when
    neither its first nor its last token is in one already kept; then in order."""
    seen: set[int] = set()
    kept: list[Span] = []
    for s, e in sorted(found, key=lambda span: (-(span[1] - span[0]), span[0])):
        if s not in seen and e - 1 not in seen:
            kept.append((s, e))
        seen.update(range(s, e))
    return sorted(kept)


def _length(search: Callable[[str], Any] | None, string: str) -> int:
    if search is None:
        return 0
    m = search(string)
    return m.end() - m.start() if m is not None else 0


def _pieces(pos: int, orths: Sequence[str]) -> list[Span]:
    out = []
    for orth in orths:
        out.append((pos, pos + len(orth)))
        pos += len(orth)
    return out
