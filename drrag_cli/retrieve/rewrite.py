"""DMQR-RAG query rewriting: the four strategies, adaptive selection, the disk cache.

    rewrites = rewrite_question(llm, "Who directed the film ...?", ["gqr", "par"], cache)
    [(r.strategy, r.text, r.status) for r in rewrites.items]

Strategies (paper 004 §3, SPEC §5), from most to least information:

* ``gqr`` general query rewriting: the same question, denoised, all information kept;
* ``kwr`` keyword rewriting: the keywords only (names, nouns), as a search engine wants;
* ``par`` pseudo-answer rewriting: a plausible answer sentence (HyDE-like); it may be
  wrong, but it reads like the passage that holds the real answer;
* ``cce`` core content extraction: the core of the question, details dropped.

``adaptive`` is one extra LLM call that picks the strategies for this question from their
descriptions and a few solved examples (the paper's lightweight few-shot selection).

Each strategy has a completion prompt for base models (few-shot, ending in the label the
model continues, stop at newline) and a chat rendering for instruct models. The output is
parsed defensively: an empty, overlong or echoed rewrite is *skipped and reported*
(status), never raised, and the original question is always retrieved with anyway.

Rewrites are cached on disk, one small JSON file per (question, model, strategy, prompt
version), so eval reruns and repeated questions cost no LLM calls.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drrag_cli.text.fence import neutralise

KINDS = ("gqr", "kwr", "par", "cce")  # rewrite.strategies (config.RewriteStrategy) minus adaptive
PROMPT_VERSION = "dmqr-1"  # bump when a prompt changes: old cache entries are then ignored
MAX_REWRITE_WORDS = {"gqr": 60, "kwr": 30, "par": 80, "cce": 40}

DESCRIPTIONS = {
    "gqr": "General rewrite: restate the question clearly, removing noise but keeping all information.",
    "kwr": "Keywords: list only the key names and nouns of the question, for a search engine.",
    "par": "Pseudo-answer: write one plausible sentence that answers the question (it may be wrong).",
    "cce": "Core content: keep only the core of the question, dropping extra details.",
}
LABELS = {"gqr": "Rewritten question", "kwr": "Keywords", "par": "Answer sentence", "cce": "Core question"}

# Few-shot examples written from HotpotQA *train* questions (never dev), as in prompts.py.
_EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    "gqr": (
        (
            "so which band was formed first, like The Exies or that Circus Diablo band?",
            "Which band was formed first, The Exies or Circus Diablo?",
        ),
        (
            "Toad Hall is a residential hall in a university located in what Australian city?",
            "In which Australian city is the university with the residential hall Toad Hall?",
        ),
    ),
    "kwr": (
        ("Which band was formed first, The Exies or Circus Diablo?", "The Exies, Circus Diablo, band formed"),
        (
            "Toad Hall is a residential hall in a university located in what Australian city?",
            "Toad Hall, residential hall, university, Australian city",
        ),
    ),
    "par": (
        (
            "Which band was formed first, The Exies or Circus Diablo?",
            "The Exies were formed in 1997, before Circus Diablo, which was formed in 2006.",
        ),
        (
            "Toad Hall is a residential hall in a university located in what Australian city?",
            "Toad Hall is a residential hall of the Australian National University in Canberra.",
        ),
    ),
    "cce": (
        (
            "At the 2011 census, what was the population of the town where Kerry Saxby-Junna was born?",
            "Population of the town where Kerry Saxby-Junna was born",
        ),
        (
            "Toad Hall is a residential hall in a university located in what Australian city?",
            "City of the university with Toad Hall",
        ),
    ),
}
_ADAPTIVE_EXAMPLES = (
    ("Which band was formed first, The Exies or Circus Diablo?", ("kwr", "par")),
    ("At the 2011 census, what was the population of the town where Kerry Saxby-Junna was born?", ("cce", "par")),
    ("so whats the name of the uni in canberra with toad hall??", ("gqr", "kwr")),
)
_LABEL_PREFIX = re.compile(
    r"^\s*(?:rewritten question|keywords|answer sentence|core question|rewrite|query)\s*:\s*", re.IGNORECASE
)


@dataclass
class Rewrite:
    strategy: str
    text: str  # the parsed rewrite ("" when skipped)
    status: str  # "ok" | "cached" | "skipped: <why>"
    raw: str = ""
    llm_calls: int = 0

    @property
    def usable(self) -> bool:
        return self.status in ("ok", "cached")

    def to_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "text": self.text, "status": self.status, "llm_calls": self.llm_calls}


@dataclass
class Rewrites:
    question: str
    items: list[Rewrite]
    requested: list[str]  # what the settings asked for (e.g. ["adaptive"])
    chosen: list[str]  # the strategies actually run
    selection: str = ""  # adaptive: what the selector said / why it fell back
    llm_calls: int = 0
    seconds: float = 0.0
    fallbacks: list[str] = field(default_factory=list)

    @property
    def queries(self) -> list[tuple[str, str]]:
        """(label, query) to retrieve with: the original question first, then each usable rewrite."""
        return [("original", self.question)] + [(r.strategy, r.text) for r in self.items if r.usable]

    def to_json(self) -> dict[str, Any]:
        return {
            "requested": self.requested,
            "chosen": self.chosen,
            "selection": self.selection,
            "rewrites": [r.to_json() for r in self.items],
            "llm_calls": self.llm_calls,
            "fallbacks": self.fallbacks,
        }


# -- prompts ---------------------------------------------------------------------------------
def completion_prompt(strategy: str, question: str) -> str:
    label = LABELS[strategy]
    shots = "\n\n".join(f"Question: {q}\n{label}: {a}" for q, a in _EXAMPLES[strategy])
    return f"{DESCRIPTIONS[strategy]}\n\n{shots}\n\nQuestion: {neutralise(question)}\n{label}:"


def chat_messages(strategy: str, question: str) -> list[dict[str, str]]:
    shots = "\n".join(f"Question: {q}\n{LABELS[strategy]}: {a}" for q, a in _EXAMPLES[strategy])
    system = f"You rewrite search queries. {DESCRIPTIONS[strategy]} Reply with one line only.\n\nExamples:\n{shots}"
    return [{"role": "system", "content": system}, {"role": "user", "content": f"Question: {neutralise(question)}"}]


def _adaptive_intro() -> str:
    lines = [f"{name}: {DESCRIPTIONS[name]}" for name in KINDS]
    return "Choose the query rewriting strategies that help retrieve documents for the question.\n" + "\n".join(lines)


def adaptive_prompt(question: str) -> str:
    shots = "\n\n".join(f"Question: {q}\nStrategies: {', '.join(s)}" for q, s in _ADAPTIVE_EXAMPLES)
    return f"{_adaptive_intro()}\n\n{shots}\n\nQuestion: {neutralise(question)}\nStrategies:"


def adaptive_messages(question: str) -> list[dict[str, str]]:
    shots = "\n".join(f"Question: {q}\nStrategies: {', '.join(s)}" for q, s in _ADAPTIVE_EXAMPLES)
    system = f"{_adaptive_intro()}\nReply with a comma-separated list of strategy names only.\n\nExamples:\n{shots}"
    return [{"role": "system", "content": system}, {"role": "user", "content": f"Question: {neutralise(question)}"}]


# -- parsing ---------------------------------------------------------------------------------
def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def parse_rewrite(strategy: str, raw: str, question: str) -> tuple[str, str]:
    """(text, status): the first non-empty line, label and quotes stripped, sanity-checked."""
    line = next((ln.strip() for ln in raw.splitlines() if ln.strip()), "")
    line = _LABEL_PREFIX.sub("", line).strip().strip("\"'`").strip()
    if not line:
        return "", "skipped: empty output"
    if _norm(line) == _norm(question):
        return "", "skipped: repeats the question"
    if len(line.split()) > MAX_REWRITE_WORDS[strategy]:
        return "", f"skipped: {len(line.split())} words, over {MAX_REWRITE_WORDS[strategy]}"
    return line, "ok"


def parse_selection(raw: str) -> list[str]:
    """Strategy names found in the selector's output, in pool order; [] if none."""
    first = next((ln for ln in raw.splitlines() if ln.strip()), "")
    found = set(re.findall(r"\b(gqr|kwr|par|cce)\b", first.lower()))
    return [s for s in KINDS if s in found]


# -- cache -----------------------------------------------------------------------------------
class RewriteCache:
    """One JSON file per key under ``folder``; writes are atomic (tmp + rename)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    @staticmethod
    def key(question: str, model: str, strategy: str) -> str:
        blob = json.dumps([PROMPT_VERSION, model, strategy, question], ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    def get(self, question: str, model: str, strategy: str) -> dict[str, Any] | None:
        if self.folder is None:
            return None
        path = self.folder / f"{self.key(question, model, strategy)}.json"
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return record if record.get("question") == question and record.get("strategy") == strategy else None

    def put(self, question: str, model: str, strategy: str, raw: str) -> None:
        if self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{self.key(question, model, strategy)}.json"
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        record = {"question": question, "model": model, "strategy": strategy, "raw": raw, "version": PROMPT_VERSION}
        tmp.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)


def model_id(llm: Any) -> str:
    """What identifies the rewriting model in the cache key: its file name and size."""
    ident = getattr(llm, "model_id", None)
    if ident:
        return str(ident)
    path = getattr(llm, "model_path", None)
    if path:
        try:
            return f"{Path(path).name}:{Path(path).stat().st_size}"
        except OSError:
            return str(path)
    return type(llm).__name__


# -- the calls -------------------------------------------------------------------------------
def _ask(llm: Any, prompt: str, messages: list[dict[str, str]], max_tokens: int) -> str:
    if llm.has_chat_template:
        return llm.chat(messages, max_tokens=max_tokens)
    return llm.complete(prompt, max_tokens=max_tokens, stop=["\n"])


def _cached_call(llm: Any, cache: RewriteCache, question: str, name: str, call: Any) -> tuple[str, bool]:
    """(raw output, came from cache)."""
    model = model_id(llm)
    hit = cache.get(question, model, name)
    if hit is not None:
        return str(hit.get("raw", "")), True
    raw = call()
    cache.put(question, model, name, raw)
    return raw, False


def rewrite_question(
    llm: Any, question: str, strategies: list[str], cache: RewriteCache | None = None, *, max_tokens: int = 64
) -> Rewrites:
    """Rewrite ``question`` with each strategy (or the adaptively chosen ones)."""
    t0 = time.perf_counter()
    cache = cache or RewriteCache(None)
    requested = list(dict.fromkeys(strategies))  # names were validated with the config (rewrite.strategies)
    out = Rewrites(question, [], requested, list(requested))
    if requested == ["adaptive"]:
        raw, cached = _cached_call(
            llm, cache, question, "adaptive",
            lambda: _ask(llm, adaptive_prompt(question), adaptive_messages(question), 24),
        )
        out.llm_calls += 0 if cached else 1
        chosen = parse_selection(raw)
        out.selection = raw.strip().splitlines()[0] if raw.strip() else ""
        if not chosen:
            chosen = list(KINDS)
            out.fallbacks.append(f"adaptive selection unreadable ({out.selection or 'empty'!r}): used all four")
        out.chosen = chosen
    for name in out.chosen:
        raw, cached = _cached_call(
            llm, cache, question, name,
            lambda name=name: _ask(llm, completion_prompt(name, question), chat_messages(name, question), max_tokens),
        )
        text, status = parse_rewrite(name, raw, question)
        if status == "ok" and cached:
            status = "cached"
        if status.startswith("skipped"):
            out.fallbacks.append(f"{name} rewrite {status[9:]}: retrieved without it")
        out.items.append(Rewrite(name, text, status, raw, 0 if cached else 1))
        out.llm_calls += 0 if cached else 1
    out.seconds = time.perf_counter() - t0
    return out
