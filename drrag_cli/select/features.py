"""Pair features for the relevance classifier C(q, d1, d2), numpy only.

The classifier has to answer "are d1 and d2 *both* needed for q?" from what CFS/CIS
already hold in memory: the question, its embedding, each passage's title, text and
stored embedding, and the embedding of the QDC query q*_1 = q + d1. So the features are

* **cosines** among q, d1, d2 and q* (and the gain q* brings to d2 over q alone),
* **lexical bridge cues**: does d2's title (the entity it is about) occur in d1's text or
  in q, and the reverse; title-token coverage; how much of q's content d1 and d2 cover
  together and how much d2 adds to d1; shared capitalised entities and numbers; lengths;
  a comparison-question cue ("or", "both", "same", ...),
* optionally **interaction vectors** (element-wise products such as q*⊙d2), which let an
  MLP learn which embedding directions matter for a second hop.

Lexical analysis of a passage is cached per text, so a batch of 40 pairs over ~20
distinct passages costs well under a millisecond.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from drrag_cli.index.links import core_title
from drrag_cli.ingest.units import UNIT_RE as _UNIT
from drrag_cli.ingest.units import units
from drrag_cli.text.words import STOP, VAGUE

_TOKEN = re.compile(r"[^\W_]+")
# Units of a passage for focusing: sentences, table rows, headings, list items (the text
# arrives with its whitespace collapsed, so line breaks cannot be relied on).
FOCUS_UNITS = 2  # units of d1 / d2 the focus features look at
_CMP_CUES = (" or ", "both", "same", "which one", "who was born first", "older", "younger",
             "first?", "longer", "more ", "larger", "higher")
# the word features leave out the stop words and the words too general to tell two
# passages apart (text.words: the package's one list and its one extension)
IGNORED = STOP | VAGUE

SCALAR_FEATURES: tuple[str, ...] = (
    "cos_q1", "cos_q2", "cos_12", "cos_s1", "cos_s2", "cos_qs", "gain2", "nov_q2", "nov_s2",
    "t2_in_1", "t1_in_2", "t2_in_q", "t1_in_q", "t2tok_1", "t1tok_2", "t2tok_q", "t1tok_q",
    "qcov1", "qcov2", "qcov12", "qnew2", "jac12",
    "ent12", "entq1", "entq2", "numq1", "numq2", "num12",
    "same_title", "len1", "len2", "qlen", "qcmp",
    "t2_in_f1", "t1_in_f2",
)
N_DENSE = 9  # the cosine features come first
# name → (left, right) of an element-wise product block over the embedding dimension.
VECTOR_BLOCKS: dict[str, tuple[str, str]] = {
    "q*d2": ("q", "d2"), "s*d2": ("s", "d2"), "d1*d2": ("d1", "d2"), "q*d1": ("q", "d1"),
}


@dataclass(frozen=True, slots=True)
class TextInfo:
    """Lexical view of a passage (title + text) or a question, from one regex pass."""

    tokens: frozenset[str]  # content tokens (stop words dropped), title included
    joined: str  # " tok tok tok " of the text only — phrase search by `in`
    ents: frozenset[str]  # capitalised words, lowercased
    nums: frozenset[str]  # 2–4 digit numbers (years, counts)
    n_words: int
    title_joined: str = ""  # " tok tok " of the title without "(film)"-style qualifiers
    title_tokens: frozenset[str] = frozenset()


def _analyse(text: str) -> tuple[list[str], set[str], set[str], set[str]]:
    toks, content, ents, nums = [], set(), set(), set()
    for w in _TOKEN.findall(text):
        lw = w.lower()
        toks.append(lw)
        if lw in IGNORED:
            continue
        if len(lw) > 1 or lw.isdigit():
            content.add(lw)
        if w[0].isupper():
            ents.add(lw)
        elif w.isdigit() and 2 <= len(w) <= 4:
            nums.add(w)
    return toks, content, ents, nums


def _content(text: str) -> set[str]:
    return {w for w in (t.lower() for t in _TOKEN.findall(text)) if w not in IGNORED and len(w) > 1}


def focus_units(question: str, text: str, focus: int, title: str = "") -> str:
    """The ``focus`` units (sentences, rows, items) of ``text`` sharing the most content
    words with the question (ties: the earlier), in their original order. A passage that
    lists twelve names otherwise drowns the one the question is about.

    The words of the passage's own ``title`` do not count: "the lead engineer of Project
    Heron" finds the Heron overview through "Heron", and what is left ("lead engineer")
    is what points at the row that names the bridge entity."""
    found = units(text)
    if len(found) <= focus:
        return text
    q = _content(question) - _content(title)
    scored = sorted(range(len(found)), key=lambda i: (-len(q & _content(found[i])), i))
    return " ".join(found[i] for i in sorted(scored[:focus]))


@lru_cache(maxsize=8192)
def focus_joined(question: str, text: str, title: str = "") -> str:
    """`` tok tok `` of the (at most :data:`FOCUS_UNITS`) units of a passage that share a
    content word with the question beyond the passage's title: where a bridge entity named
    there stands next to what the question asks about (phrase search by ``in``)."""
    q = _content(question) - _content(title)
    found = [u for u in _UNIT.split(text) if u and q & _content(u)]
    found = sorted(found, key=lambda u: -len(q & _content(u)))[:FOCUS_UNITS]
    return f" {' '.join(t.lower() for u in found for t in _TOKEN.findall(u))} "


def link_order(
    question: str, title: str, text: str, linked: Sequence[tuple[int, str]], rank: Mapping[int, int]
) -> list[int]:
    """The order CFS offers the ``linked`` (id, title) documents of one static document
    (``title``, ``text``): those whose title its question-focused units name first, then
    by ``rank`` in its q* list (unranked last, in link order). "The lead engineer of
    Project Heron": of the twelve people the Heron page links to, the one in the row that
    says "lead engineer" is the bridge."""
    focus = focus_joined(question, text, title)

    def named(t: str) -> bool:
        joined = text_info(core_title(t)).joined
        return bool(joined.strip()) and joined in focus

    keys = {pid: (not named(t), rank.get(pid, len(rank) + n)) for n, (pid, t) in enumerate(linked)}
    return sorted(keys, key=keys.__getitem__)


@lru_cache(maxsize=8192)
def text_info(text: str, title: str = "") -> TextInfo:
    """Cached per (text, title): a CFS walk meets the same passages over and over."""
    toks, content, ents, nums = _analyse(text)
    if not title:
        return TextInfo(frozenset(content), f" {' '.join(toks)} ", frozenset(ents),
                        frozenset(nums), len(toks))
    ttoks, tcontent, tents, tnums = _analyse(core_title(title))
    return TextInfo(
        frozenset(content | tcontent), f" {' '.join(toks)} ", frozenset(ents | tents),
        frozenset(nums | tnums), len(toks) + len(ttoks),
        f" {' '.join(ttoks)} " if ttoks else "", frozenset(tcontent),
    )


def _in(title_joined: str, info: TextInfo) -> float:
    return 1.0 if title_joined and title_joined in info.joined else 0.0


def _frac(part: frozenset[str], whole: frozenset[str]) -> float:
    return len(part & whole) / len(part) if part else 0.0


def is_comparison(question: str) -> float:
    q = f" {question.lower()} "
    return 1.0 if any(cue in q for cue in _CMP_CUES) else 0.0


def lexical_row(question: str, t1: str, x1: str, t2: str, x2: str) -> list[float]:
    """The lexical part of SCALAR_FEATURES (everything after the N_DENSE cosines)."""
    qi, d1, d2 = text_info(question), text_info(x1, t1), text_info(x2, t2)
    j1, tt1, j2, tt2 = d1.title_joined, d1.title_tokens, d2.title_joined, d2.title_tokens
    qt = qi.tokens
    nq = max(len(qt), 1)
    union = d1.tokens | d2.tokens
    return [
        _in(j2, d1), _in(j1, d2), _in(j2, qi), _in(j1, qi),
        _frac(tt2, d1.tokens), _frac(tt1, d2.tokens), _frac(tt2, qt), _frac(tt1, qt),
        len(qt & d1.tokens) / nq, len(qt & d2.tokens) / nq, len(qt & union) / nq,
        len((qt & d2.tokens) - d1.tokens) / nq,
        len(d1.tokens & d2.tokens) / max(len(union), 1),
        math.log1p(len(d1.ents & d2.ents)), _frac(qi.ents, d1.ents), _frac(qi.ents, d2.ents),
        _frac(qi.nums, d1.nums), _frac(qi.nums, d2.nums), math.log1p(len(d1.nums & d2.nums)),
        1.0 if t1 and t1.strip().lower() == t2.strip().lower() else 0.0,
        math.log1p(d1.n_words), math.log1p(d2.n_words), math.log1p(qi.n_words),
        is_comparison(question),
        # the bridge: d2's subject named in the part of d1 the question is about
        1.0 if j2 and j2 in focus_joined(question, x1, t1) else 0.0,
        1.0 if j1 and j1 in focus_joined(question, x2, t2) else 0.0,
    ]


def qstar_fallback(q_vec: np.ndarray, d1_vecs: np.ndarray, weights: Sequence[float]) -> np.ndarray:
    """Approximate emb(q + " " + d1) as normalise(a·q + b·d1), (a, b) fitted at training.

    Used only when the caller has no q* embedding; the model card reports how much
    accuracy this costs.
    """
    a, b = float(weights[0]), float(weights[1])
    s = a * q_vec[None, :] + b * d1_vecs
    norms = np.linalg.norm(s, axis=1, keepdims=True)
    return s / np.maximum(norms, 1e-12)


def _residual_cos(a: np.ndarray, d1: np.ndarray, d2: np.ndarray) -> np.ndarray:
    """cos(a − (a·d1)·d1, d2) row-wise; 0 where the residual vanishes."""
    r = a - np.einsum("ij,ij->i", a, d1)[:, None] * d1
    norm = np.linalg.norm(r, axis=1)
    return np.einsum("ij,ij->i", r, d2) / np.maximum(norm, 1e-9) * (norm > 1e-9)


def build_features(
    question: str,
    q_vec: np.ndarray,
    titles1: Sequence[str], texts1: Sequence[str], v1: np.ndarray,
    titles2: Sequence[str], texts2: Sequence[str], v2: np.ndarray,
    s_vecs: np.ndarray,
    blocks: Sequence[str] = (),
) -> np.ndarray:
    """Feature matrix (n, len(SCALAR_FEATURES) + dim·len(blocks)) for n pairs of one q.

    `v1`, `v2`, `s_vecs` are (n, dim) normalised embeddings of d1, d2 and q*_1.
    """
    q = np.asarray(q_vec, dtype=np.float64).reshape(-1)
    v1 = np.asarray(v1, dtype=np.float64)
    v2 = np.asarray(v2, dtype=np.float64)
    s = np.asarray(s_vecs, dtype=np.float64)
    cq1, cq2, c12 = v1 @ q, v2 @ q, np.einsum("ij,ij->i", v1, v2)
    cs1, cs2, cqs = np.einsum("ij,ij->i", s, v1), np.einsum("ij,ij->i", s, v2), s @ q
    # Novelty: what is left of q (and q*) once d1 is projected out, against d2 — the
    # part of the question d1 does not answer is what the second hop must cover.
    nov_q = _residual_cos(np.broadcast_to(q, v1.shape), v1, v2)
    nov_s = _residual_cos(s, v1, v2)
    dense = np.stack([cq1, cq2, c12, cs1, cs2, cqs, cs2 - cq2, nov_q, nov_s], axis=1)
    lex = np.array(
        [lexical_row(question, a, b, c, d) for a, b, c, d in zip(titles1, texts1, titles2,
                                                                   texts2, strict=True)],
        dtype=np.float64,
    ).reshape(len(v1), len(SCALAR_FEATURES) - N_DENSE)
    parts = [dense, lex]
    named = {"q": np.broadcast_to(q, v1.shape), "s": s, "d1": v1, "d2": v2}
    for name in blocks:
        left, right = VECTOR_BLOCKS[name]
        parts.append(named[left] * named[right])
    return np.concatenate(parts, axis=1)
