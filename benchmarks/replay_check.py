"""spaCy's sentencizer against its replay without spaCy (`drrag_cli/ingest/spacy_replay.py`), on real text.

The texts: every distinct paragraph of the shared QA files (HotpotQA dev500 and train100, MuSiQue
dev100 and train100, 2Wiki dev182 and train500) and every Markdown paragraph of this repository
(code, tables, links), cut as `drrag index` cuts them; then ``--random`` texts built from hard
pieces (abbreviations, URLs, emoticons, quotes, CJK and other punctuation, odd spaces). For each:
are the tokens and the sentences the same? And how fast does each split the real texts?

    .venv/bin/python benchmarks/replay_check.py [--random 30000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
PIECES = [
    "word", "Word", "U.S.", "a.m.", "p.m.", ":)", ":-)", "(", ")", ".", "!", "?", "...", "'s", "n't", "don't", "Mr.",
    "Dr.", "e.g.", "i.e.", "3.5", "$", "%", '"', "'", "\u201c", "\u201d", "\n", "  ", "\t", "\u3002", "\u2014", "-",
    "\U0001f600", "http://x.org/a?b=1", "www.ex.com", "a@b.com", "A.", "B.", "c.", "IBM.", "end.Next", "Jan.", "No.",
    "vs.", "etc.", "1st", "10km", "\u00b0C.", "#", "*", "**bold**", "`code`", "[link](http://a.b)", "|", "---", "?!",
    "!!", "Ph.D.", "St.", "O'Neil", "rock'n'roll", ",", ";", ":", "\u2013", "\u2026", "\u00bf", "\u00a1",
    "\u6771\u4eac", "\u0395\u03bb\u03bb\u03ac\u03b4\u03b1.", "\u00fc.", "12:30", "1,000", "5'10\"", "(a.m.)",
    "[1]", "{x}", "<b>", "&amp;", "C++", "x=y", "a/b", "--", "\u00a0", "\u2003",
]


def shared_texts() -> Iterator[str]:
    for line in (DATA / "hotpotqa" / "dev500.ircot.jsonl").open(encoding="utf-8"):
        yield from (c["paragraph_text"] for c in json.loads(line)["contexts"])
    for q in json.loads((DATA / "musique" / "dev100.musique.json").read_text(encoding="utf-8")):
        yield from (p["paragraph_text"] for p in q["paragraphs"])
    yield from (x["text"] for x in json.loads((DATA / "musique" / "train100.corpus.json").read_text(encoding="utf-8")))
    yield from ("".join(s) for s in json.loads((DATA / "hotpotqa" / "train100.corpus.json").read_text(encoding="utf-8"))
                .values())
    for name in ("dev182", "train500"):
        for q in json.loads((DATA / "2wiki" / f"{name}.2wiki.json").read_text(encoding="utf-8")):
            yield from (" ".join(sentences) for _, sentences in q.get("context") or [])


def repo_texts() -> Iterator[str]:
    from drrag_cli.ingest.chunking import paragraph_spans, segment_spans

    for path in sorted(REPO.rglob("*.md")):
        if ".venv" in path.parts or "out" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for a, b in paragraph_spans(text):
            yield from (text[s0:s1] for s0, s1 in segment_spans(text, a, b))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--random", type=int, default=30000, help="random texts of hard pieces")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="replay-check-")
    sys.path.insert(0, str(REPO))
    from drrag_cli.ingest import spacy_replay
    from drrag_cli.ingest.sentencizer import nlp

    pipeline = nlp()  # writes the rules into the temporary cache
    replay = spacy_replay.load()
    texts = list(dict.fromkeys([*shared_texts(), *repo_texts()]))
    start = time.perf_counter()
    want = [[(s.start_char, s.end_char) for s in doc.sents] for doc in pipeline.pipe(texts, batch_size=50)]
    spacy_s = time.perf_counter() - start
    start = time.perf_counter()
    got = [replay.sentences(t) for t in texts]
    replay_s = time.perf_counter() - start
    chars = sum(map(len, texts))
    rng = random.Random(args.seed)
    gaps = ["", " ", " ", " ", "  ", "\n"]
    randoms = ["".join(rng.choice(PIECES) + rng.choice(gaps) for _ in range(rng.randint(1, 25)))
               for _ in range(args.random)]
    differ = sum(1 for t in randoms if [(s.start_char, s.end_char) for s in pipeline(t).sents] != replay.sentences(t)
                 or [tok.text for tok in pipeline.tokenizer(t)] != [t[a:b] for a, b in replay.tokenize(t)])
    print(json.dumps({
        "texts": len(texts), "chars": chars, "sentences_differ": sum(w != g for w, g in zip(want, got, strict=True)),
        "spacy_chars_per_s": round(chars / spacy_s), "replay_chars_per_s": round(chars / replay_s),
        "random_texts": args.random, "random_differ": differ,
    }, indent=2))


if __name__ == "__main__":
    main()
