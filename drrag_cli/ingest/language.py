"""Which languages a corpus is written in, and which ones an embedding model can read.

`drrag doctor` warns when most of a corpus is not English but the embedding model only
knows English: dense search (and hybrid, and DR-RAG's second stage) then ranks by
near-random vectors, while BM25 still works. Both sides are decided cheaply and without a
language-identification dependency:

* **A passage's language.** Letters are counted by script. Mostly Han/kana/Hangul (or
  Cyrillic, Greek, …) is that script's language; kana decides Japanese over Chinese. Latin
  text is decided by function words: each language's most frequent short words that no
  other language in :data:`FUNCTION_WORDS` shares (German "und nicht sich", French "les
  dans avec", …) against English's ("the and of"). A passage with no such words (a list, a
  title, code) is not counted.
* **A model's languages** are read off its tokenizer vocabulary, not its name: an English
  WordPiece vocabulary (all-MiniLM-L6-v2: 30,522 entries) has a few hundred CJK characters
  and lacks most German/French function words as whole tokens; a multilingual one
  (XLM-R's 250,002 SentencePiece pieces, LaBSE, mBERT) has thousands of CJK characters
  and the function words of every language here.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drrag_cli.index.store import PassageStore

# Each language's frequent function words that the others (English included) do not use,
# so one hit is evidence. Words shared by two languages here are left out of both.
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset("the and of to that with for are this from which have has been were would their they".split()),
    "de": frozenset("und nicht sich ist wird sind werden auch auf für über oder wurde eine einen dem nach bei".split()),
    "fr": frozenset("les est dans avec sont pour pas nous vous mais été une aux leur cette".split()),
    "es": frozenset("los las del por para está pero sus fue también como muy hay una".split()),
    "it": frozenset("gli della nel alla sono anche che non questo delle degli più".split()),
    "nl": frozenset("het een niet zijn voor ook wordt naar deze maar werd".split()),
    "pt": frozenset("os não uma dos das em são foi mais também pelo".split()),
}
_DROP = {w for lang, ws in FUNCTION_WORDS.items() for w in ws
         if any(w in other for k, other in FUNCTION_WORDS.items() if k != lang)}
FUNCTION_WORDS = {lang: frozenset(ws - _DROP) for lang, ws in FUNCTION_WORDS.items()}

SCRIPTS = {  # script → language label (CJK is split into zh / ja / ko below)
    "latin": re.compile(r"[A-Za-z\u00c0-\u024f]"),
    "han": re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"),
    "kana": re.compile(r"[\u3040-\u30ff]"),
    "hangul": re.compile(r"[\uac00-\ud7af\u1100-\u11ff]"),
    "cyrillic": re.compile(r"[\u0400-\u04ff]"),
    "greek": re.compile(r"[\u0370-\u03ff]"),
    "arabic": re.compile(r"[\u0600-\u06ff]"),
    "hebrew": re.compile(r"[\u0590-\u05ff]"),
    "devanagari": re.compile(r"[\u0900-\u097f]"),
    "thai": re.compile(r"[\u0e00-\u0e7f]"),
}
_WORD = re.compile(r"[^\W\d_]+")
CJK_LANGS = ("zh", "ja", "ko")
CJK_VOCAB_MIN = 2000  # CJK entries a vocabulary needs to read Chinese/Japanese (MiniLM has 676)
SAMPLE = 400  # passages the doctor reads
FUNCTION_COVER_MIN = 0.8  # share of a language's function words a vocabulary holds as whole tokens


def passage_language(text: str) -> str | None:
    """``en``, ``de``, ``zh``, ``ja``, ``cyrillic``, … or None when the text gives no evidence."""
    counts = {name: len(rx.findall(text)) for name, rx in SCRIPTS.items()}
    letters = sum(counts.values())
    if letters == 0:
        return None
    cjk = counts["han"] + counts["kana"] + counts["hangul"]
    # a CJK character is about a word, a Latin letter a fifth of one: compare in words
    if cjk * 5 >= counts["latin"] and cjk >= max(counts[s] for s in SCRIPTS if s not in ("han", "kana", "hangul")):
        if counts["hangul"] > counts["han"] + counts["kana"]:
            return "ko"
        return "ja" if counts["kana"] * 10 >= cjk else "zh"
    script = max(counts, key=lambda s: counts[s] if s not in ("han", "kana", "hangul") else -1)
    if script != "latin":
        return script
    hits: Counter[str] = Counter()
    for word in _WORD.findall(text.lower()):
        for lang, words in FUNCTION_WORDS.items():
            if word in words:
                hits[lang] += 1
    if not hits:
        return None
    best, n = hits.most_common(1)[0]
    return "en" if hits["en"] >= n else best


@dataclass
class CorpusLanguages:
    """Languages of a sample of passages: label → passages, and how many gave no evidence."""

    counts: Counter[str] = field(default_factory=Counter)
    unknown: int = 0

    @property
    def decided(self) -> int:
        return sum(self.counts.values())

    @property
    def non_english_share(self) -> float:
        return 1.0 - self.counts["en"] / self.decided if self.decided else 0.0

    def summary(self) -> str:
        """``en 3, zh 2 of 6 sampled passages`` (the rest gave no evidence)."""
        parts = ", ".join(f"{lang} {n}" for lang, n in self.counts.most_common())
        return f"{parts or 'no language decided'} of {self.decided + self.unknown} sampled passages"


def sample_texts(store: PassageStore, n: int = SAMPLE) -> list[str]:
    """Up to ``n`` passage texts spread evenly over the store's ids (a few ms on any size)."""
    top = store.conn.execute("SELECT max(id) FROM passages").fetchone()[0] or 0
    step = max(1, top // n)
    ids = list(range(1, top + 1, step))[:n]
    texts: list[str] = []
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        sql = f"SELECT text FROM passages WHERE id IN ({','.join('?' * len(chunk))})"
        texts.extend(text for (text,) in store.conn.execute(sql, chunk))
    return texts


def corpus_languages(texts: Iterable[str]) -> CorpusLanguages:
    out = CorpusLanguages()
    for text in texts:
        lang = passage_language(text)
        if lang is None:
            out.unknown += 1
        else:
            out.counts[lang] += 1
    return out


@dataclass
class ModelLanguages:
    """What a tokenizer vocabulary says a model reads."""

    vocab_size: int
    cjk_entries: int
    covered: dict[str, float]  # Latin-script language → share of its function words in the vocabulary

    def reads(self, lang: str) -> bool:
        if lang in CJK_LANGS:
            return self.cjk_entries >= CJK_VOCAB_MIN
        if lang in FUNCTION_WORDS:
            return self.covered.get(lang, 0.0) >= FUNCTION_COVER_MIN
        return self.vocab_size >= 100_000  # other scripts: only large multilingual vocabularies

    def languages(self) -> list[str]:
        return [lang for lang in (*FUNCTION_WORDS, *CJK_LANGS) if self.reads(lang)]

    @property
    def english_only(self) -> bool:
        return self.languages() == ["en"]

    def describe(self) -> str:
        return f"vocabulary of {self.vocab_size:,} tokens, {self.cjk_entries:,} of them CJK"


def model_languages(model_path: str | Path) -> ModelLanguages:
    """Read the vocabulary of a local sentence-transformers / Hugging Face model folder
    (``tokenizer.json``, else ``vocab.txt``). Raises OSError/ValueError if it has neither."""
    root = Path(model_path)
    tok = root / "tokenizer.json"
    if tok.is_file():
        vocab = json.loads(tok.read_text(encoding="utf-8"))["model"]["vocab"]
        pieces = list(vocab) if isinstance(vocab, dict) else [entry[0] for entry in vocab]  # WordPiece/BPE | Unigram
    else:
        pieces = (root / "vocab.txt").read_text(encoding="utf-8").splitlines()
    whole = {_bare(p) for p in pieces if not p.startswith("##")}
    cjk = SCRIPTS["han"], SCRIPTS["kana"], SCRIPTS["hangul"]
    return ModelLanguages(
        vocab_size=len(pieces),
        cjk_entries=sum(1 for p in pieces if any(rx.search(p) for rx in cjk)),
        covered={lang: len(words & whole) / len(words) for lang, words in FUNCTION_WORDS.items()},
    )


def _bare(piece: str) -> str:
    """A vocabulary entry as a word: SentencePiece's ▁ and byte-level BPE's Ġ word-start marks dropped."""
    return piece.lstrip("\u2581\u0120").lower()


def language_warning(corpus: CorpusLanguages, model: ModelLanguages, model_id: str) -> str | None:
    """The doctor's one line when most decided passages are in languages the model does not read."""
    if corpus.decided == 0 or corpus.non_english_share < 0.5:
        return None
    unread = [lang for lang in corpus.counts if lang != "en" and not model.reads(lang)]
    if not unread or not model.english_only:
        return None
    share = round(100 * corpus.non_english_share)
    return (
        f"{share}% of the passages are not English ({corpus.summary()}) but the embedding model "
        f"{model_id} looks English-only ({model.describe()}), so dense and hybrid search may rank them poorly; "
        "set embedding.model to the folder of a multilingual sentence-transformers model "
        "(e.g. paraphrase-multilingual-MiniLM-L12-v2), then `drrag index --rebuild PATH...`"
    )
