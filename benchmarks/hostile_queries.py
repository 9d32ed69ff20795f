"""Hostile queries: 1,000 seeded questions no user should be able to crash drrag with (issue 13).

Eight kinds, generated deterministically (``random.Random(SEED)``): invalid UTF-8 bytes
(as the OS hands them over: ``os.fsdecode`` gives the surrogateescape strings
``sys.argv`` holds), tantivy query-parser syntax, huge questions (100 KB, 1 MB, and
around ``search.max_question_chars``), RTL / emoji / combining / CJK text,
whitespace-only, NUL and control characters, very long tokens, and mixes of all these.

``sample_corpus/`` is indexed once in a temp dir; each query then runs through the real
CLI, ``drrag_cli.cli.main.main(argv)`` in-process (a cold ``drrag`` costs ~8 s, 3,000
would take hours), with stdout captured as the process's stdout would be (UTF-8 with
surrogateescape, as in a C.UTF-8 locale, so a raw invalid byte shows up as one):

* ``search --mode bm25 --json`` and ``search --mode hybrid --json``: all 1,000;
* ``ask --json``: its retrieval, the same check and CFS run through ``Pipeline.retrieve``
  (``search --strategy cfs --json``), for all 1,000; the whole ask with the real Gemma
  GGUF (~2-20 s each on 2 shared cores) for a seeded sample of ``--ask`` queries (100).

Queries go after ``--``, as a script passing arbitrary text must write them. A small
subprocess sample (``--procs``, 10 queries x bm25 / hybrid / ask, invalid bytes passed as
real argv bytes) must give the same exit codes and the same JSON as the in-process run.

Counted (limit 0 each): exit code 2, stdout that is not one valid UTF-8 JSON document
when the exit code is 0, a traceback on stderr, and an exit 1 without exactly one line on
stderr. Refusals (exit 1: blank or over-long questions) are reported, not limited.

    .venv/bin/python benchmarks/hostile_queries.py --ask 50   # 26 min on 2 busy cores (load ~6):
                                # retrieval 5 min, 50 asks 17 min, 30 processes 4 min
    .venv/bin/python benchmarks/hostile_queries.py -n 40 --ask 4 --procs 2   # a 2-minute smoke run
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "sample_corpus"
SEED = 13
N_QUERIES = 1000
WORDS = "heron lead engineer born city project budget Tobias Lindqvist Uppsala Hannah Osei kestrel report".split()
SYNTAX = ["AND", "OR", "NOT", "(", ")", '"', ":", "^", "~", "*", "[", "]", "{", "}", "+", "-", "!", "\\", "/",
          "TO", "IN", "&&", "||", "title:", "text:", "body:heron", "^3", "~2", "[a TO z]", "{* TO 1}", "?", "'"]
RTL = ["مرحبا بالعالم", "שלום עולם", "\u202eheron\u202c", "\u2067lead\u2069", "\u200fعربي\u200e", "فارسی"]
EMOJI = ["🙂", "🚀", "👩‍👩‍👧‍👦", "🏳️‍🌈", "👍🏽", "🇸🇪", "🦀", "\U0001f9d1\u200d\U0001f4bb"]
COMBINING = [chr(c) for c in range(0x300, 0x370)]
CJK = "那个项目的负责人是谁出生在哪个城市"
BLANKS = [" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\u3000", "\u200b", "\ufeff", "\u2028", "\x0b", "\x0c"]
CONTROLS = [chr(c) for c in (*range(0x01, 0x20), 0x7F, *range(0x80, 0xA0))] + ["\x1b[31m", "\x1b]0;x\x07"]
BAD_BYTES = [b"\xff", b"\xfe", b"\xc0\xaf", b"\xed\xa0\x80", b"\x80", b"\xbf", b"\xe2\x82", b"\xf0\x9f\x98",
             b"\xf8\x88\x80\x80\x80", b"\xc3", b"\xe9", b"\xa0\xa1"]
KINDS = {  # kind: how many of the 1,000
    "invalid_bytes": 150, "parser_syntax": 150, "huge": 60, "unicode": 150,
    "whitespace": 80, "control": 100, "long_token": 110, "mix": 200,
}


@dataclass
class Query:
    n: int
    kind: str
    text: str  # as sys.argv would hold it (surrogateescape for invalid bytes)

    @property
    def argv_ok(self) -> bool:
        """Can a real process receive it? argv holds no NUL, and Linux caps one argument
        at 128 KiB (MAX_ARG_STRLEN): the 1 MB questions reach drrag only in-process."""
        return "\x00" not in self.text and len(os.fsencode(self.text)) < 128 * 1024


# -- generation ----------------------------------------------------------------------------
def _words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _invalid(rng: random.Random) -> str:
    parts = [rng.choice(BAD_BYTES if rng.random() < 0.5 else [w.encode() for w in WORDS])
             for _ in range(rng.randint(1, 8))]
    if rng.random() < 0.2:
        parts = [rng.choice(BAD_BYTES) for _ in range(rng.randint(1, 6))]  # nothing decodable at all
    return os.fsdecode(b" ".join(parts) if rng.random() < 0.7 else b"".join(parts))


def _syntax(rng: random.Random) -> str:
    parts = [rng.choice(SYNTAX) if rng.random() < 0.6 else rng.choice(WORDS) for _ in range(rng.randint(1, 12))]
    return (" " if rng.random() < 0.6 else "").join(parts)


def _huge(rng: random.Random, i: int) -> str:
    size = [100_000, 100_000, 1_000_000, 1999, 2000, 2001, 10_000][i % 7]
    text = _words(rng, size // 5 + 2) if i % 2 else rng.choice(["x", "🙂", "那", "a b "]) * size
    return text[:size]


def _unicode(rng: random.Random) -> str:
    pick = rng.randrange(4)
    if pick == 0:
        return " ".join(rng.choice(RTL + WORDS) for _ in range(rng.randint(1, 6)))
    if pick == 1:
        return "".join(rng.choice(EMOJI) for _ in range(rng.randint(1, 300))) + " " + _words(rng, 2)
    if pick == 2:  # zalgo: every letter under a stack of combining marks
        return "".join(c + "".join(rng.choice(COMBINING) for _ in range(rng.randint(1, 20))) for c in _words(rng, 2))
    return "".join(rng.choice(CJK) for _ in range(rng.randint(1, 600)))


def _control(rng: random.Random) -> str:
    parts = [rng.choice(CONTROLS) if rng.random() < 0.5 else rng.choice(WORDS) for _ in range(rng.randint(1, 8))]
    if rng.random() < 0.5:
        parts.insert(rng.randrange(len(parts) + 1), "\x00")
    return "".join(parts) if rng.random() < 0.3 else " ".join(parts)


def _long_token(rng: random.Random) -> str:
    size = rng.choice([300, 1000, 1999, 2000, 2001, 5000])
    alphabet = rng.choice(["x", "ab", "abcdefghijklmnopqrstuvwxyz0123456789+/=", "héron", "-_."])
    return "".join(rng.choice(alphabet) for _ in range(size))


def generate(n: int = N_QUERIES, seed: int = SEED) -> list[Query]:
    """``n`` hostile queries, the same ones for the same seed (KINDS scaled to ``n``)."""
    rng = random.Random(seed)
    makers = {
        "invalid_bytes": lambda i: _invalid(rng),
        "parser_syntax": lambda i: _syntax(rng),
        "huge": lambda i: _huge(rng, i),
        "unicode": lambda i: _unicode(rng),
        "whitespace": lambda i: "".join(rng.choice(BLANKS) for _ in range(rng.randint(0, 40))),
        "control": lambda i: _control(rng),
        "long_token": lambda i: _long_token(rng),
    }
    kinds = [kind for kind, count in KINDS.items() for _ in range(round(count * n / N_QUERIES))][:n]
    queries = []
    for i, kind in enumerate(kinds):
        if kind == "mix":
            text = "".join(makers[rng.choice(list(makers))](i)[:400] for _ in range(rng.randint(2, 4)))
        else:
            text = makers[kind](i)
        queries.append(Query(i, kind, text))
    return queries


# -- running -------------------------------------------------------------------------------
MODES = {
    "bm25": ["search", "--mode", "bm25"],
    "hybrid": ["search", "--mode", "hybrid"],
    "ask-retrieval": ["search", "--strategy", "cfs"],
    "ask": ["ask"],
}


def _argv(mode: str, ix: Path, query: str) -> list[str]:
    return [*MODES[mode], "--json", "--index", str(ix), "--", query]


def run_inprocess(argv: list[str]) -> tuple[int, bytes, str]:
    """``main(argv)`` with stdout as a C.UTF-8 process has it: (exit code, stdout bytes, stderr)."""
    from drrag_cli.cli.main import main

    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="surrogateescape", write_through=True)
    err = io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(argv)
        except BaseException as exc:  # noqa: BLE001 - anything escaping main is what we count
            import traceback

            err.write("Traceback (escaped main)\n" + "".join(traceback.format_exception(exc)))
            code = 2
    out.flush()
    return code, raw.getvalue(), err.getvalue()


def run_process(argv: list[str], cwd: Path) -> tuple[int, bytes, str]:
    """A real `drrag` process; the query's invalid bytes go in as bytes (os.fsencode)."""
    cmd = [os.fsencode(sys.executable), b"-m", b"drrag_cli.cli.main", *(os.fsencode(a) for a in argv)]
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, env=env, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "backslashreplace")


def problems(code: int, out: bytes, err: str) -> list[str]:
    """What is wrong with one result (empty: a clean exit 0 with JSON, or one-line exit 1)."""
    found = []
    if code not in (0, 1):
        found.append(f"exit {code}")
    if "Traceback" in err:
        found.append("traceback")
    if code == 0:
        try:
            if not isinstance(json.loads(out.decode("utf-8")), dict):
                found.append("invalid json")
        except (UnicodeDecodeError, ValueError):
            found.append("invalid json")
    if code == 1 and len(err.strip().splitlines()) != 1:
        found.append("exit 1 without one stderr line")
    return found


def _same(a: tuple[int, bytes, str], b: tuple[int, bytes, str]) -> bool:
    """Same exit code; same JSON but timings; same error line."""
    if a[0] != b[0]:
        return False
    if a[0] != 0:
        return a[2].strip().splitlines()[-1:] == b[2].strip().splitlines()[-1:]
    try:
        x, y = (json.loads(r[1].decode("utf-8")) for r in (a, b))
    except (UnicodeDecodeError, ValueError):
        return False
    for d in (x, y):
        d.pop("timings", None)
    return x == y


def _sample(queries: list[Query], n: int, seed: int, argv_only: bool = False) -> list[Query]:
    pool = [q for q in queries if q.argv_ok] if argv_only else queries
    return sorted(random.Random(seed).sample(pool, min(n, len(pool))), key=lambda q: q.n)


def run(work: Path, ask_sample: int = 100, procs: int = 10, n: int = N_QUERIES) -> list[dict]:
    """The rows of this section (see the module docstring); ``work`` holds the index."""
    cwd, xdg = os.getcwd(), os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = str(work / "xdg")  # no user config leaks in; models stay cached
    os.chdir(work)  # no ./drrag.yaml of the caller's
    try:
        return _run(work, ask_sample, procs, n)
    finally:
        os.chdir(cwd)
        if xdg is None:
            os.environ.pop("XDG_CONFIG_HOME", None)
        else:
            os.environ["XDG_CONFIG_HOME"] = xdg


def _run(work: Path, ask_sample: int, procs: int, n: int) -> list[dict]:
    ix = work / "ix"
    code, _, err = run_inprocess(["index", str(CORPUS), "--index", str(ix), "--json"])
    assert code == 0, err
    queries = generate(n)
    ask_queries = _sample(queries, ask_sample, SEED + 1)
    plan = {"bm25": queries, "hybrid": queries, "ask-retrieval": queries, "ask": ask_queries}
    print(f"{len(queries)} queries {dict(Counter(q.kind for q in queries))}; ask with the LLM: "
          f"{len(ask_queries)} (seeded sample: {dict(Counter(q.kind for q in ask_queries))})", flush=True)
    results: dict[tuple[str, int], tuple[int, bytes, str]] = {}
    tally: Counter = Counter()
    for mode, todo in plan.items():
        t0 = time.perf_counter()
        for q in todo:
            res = results[mode, q.n] = run_inprocess(_argv(mode, ix, q.text))
            tally[mode, "exit", res[0]] += 1
            for p in problems(*res):
                tally[mode, p] += 1
                print(f"  {mode} #{q.n} {q.kind}: {p}: {res[2].strip()[:200]!r}", flush=True)
        exits = {c: tally[mode, "exit", c] for c in (0, 1, 2)}
        print(f"{mode}: {len(todo)} queries, exit codes {exits}, {time.perf_counter() - t0:.0f} s", flush=True)
    differ = 0
    sample = _sample(queries, procs, SEED + 2, argv_only=True)
    if not any(q.kind == "invalid_bytes" for q in sample):
        sample[0] = next(q for q in queries if q.kind == "invalid_bytes")
    t0 = time.perf_counter()
    for q in sample:
        for mode in ("bm25", "hybrid", "ask"):
            res = run_process(_argv(mode, ix, q.text), work)
            for p in problems(*res):
                tally["process", p] += 1
            if (mode, q.n) not in results:
                results[mode, q.n] = run_inprocess(_argv(mode, ix, q.text))
            if not _same(res, results[mode, q.n]):
                differ += 1
                print(f"  process differs: {mode} #{q.n} {q.kind}: exit {res[0]} vs {results[mode, q.n][0]}")
    print(f"processes: {len(sample)} queries x 3 modes ({Counter(q.kind for q in sample)}), "
          f"{time.perf_counter() - t0:.0f} s", flush=True)
    return _rows(plan, tally, differ, len(sample) * 3)


def _rows(plan: dict[str, list[Query]], tally: Counter, differ: int, n_proc: int) -> list[dict]:
    modes = [*plan, "process"]

    def per_mode(what: str) -> tuple[int, str]:
        counts = {m: tally[m, what] for m in modes}
        return sum(counts.values()), ", ".join(f"{m} {c}" for m, c in counts.items())

    sizes = ", ".join(f"{m} {len(q)}" for m, q in plan.items()) + f", process {n_proc}"
    rows = []
    for check, what in [
        ("hostile queries: exit code 2 (internal error)", "exit 2"),
        ("hostile queries: invalid JSON on stdout with exit 0", "invalid json"),
        ("hostile queries: traceback on stderr", "traceback"),
        ("hostile queries: exit 1 without exactly one stderr line", "exit 1 without one stderr line"),
    ]:
        count, detail = per_mode(what)
        rows.append({"check": check, "count": count, "limit": 0, "detail": f"{detail} (runs: {sizes})"})
    refused = {m: tally[m, "exit", 1] for m in plan}
    rows.append({"check": "hostile queries: refused with one line (exit 1), reported only",
                 "count": sum(refused.values()), "limit": sum(len(q) for q in plan.values()),
                 "detail": ", ".join(f"{m} {c}" for m, c in refused.items())})
    rows.append({"check": "hostile queries: subprocess result differs from in-process", "count": differ,
                 "limit": 0, "detail": f"of {n_proc} runs (exit code, JSON but timings, error line)"})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ask", type=int, default=100, help="queries asked with the real LLM (seeded sample)")
    parser.add_argument("--procs", type=int, default=10, help="queries also run as real processes (x3 modes)")
    parser.add_argument("-n", type=int, default=N_QUERIES, help="hostile queries")
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="drrag-queries-") as tmp:
        checks = run(Path(tmp), args.ask, args.procs, args.n)
    from hostile import print_checks

    print_checks(checks, start)


if __name__ == "__main__":
    main()
