"""Crashes: SIGKILLs at random points of `drrag index`, and a full disk (issue 13).

``sample_corpus/`` is copied to a temp dir and indexed. Then, 20 times: a few files are
changed (a new note of 10-40 passages, a line appended to an old file, every other round
an older note deleted), `drrag index` starts as a subprocess and is SIGKILLed after a
random delay (seeded) between 0.2 s and the length of an unkilled incremental run. The
index is checked right after the kill, and again after the next `drrag index`, which must
complete normally:

* *unusable*: `drrag status --json`, `drrag search --json` (bm25 and hybrid) fail, find
  nothing, or the passage count is not the one a clean index of the corpus has (before
  or after the killed run's changes);
* *staging left*: `.tmp` builds, generations never made live, `.CURRENT.<pid>.tmp`
  still there after the next run;
* *passages lost*: (source, text) pairs a clean reference index of the same corpus has
  and the recovered one does not (and the converse, *passages extra*).

The full disk: the index lives on a small tmpfs (`mount -t tmpfs`, if this process may
mount; otherwise SQLite's `PRAGMA max_page_count` in-process, as in the tests) filled to
a few levels of free space before a build that adds a note. The build must fail as one
user error line naming the folder (exit 1), keep the old index usable, leave no staging
folder; with the space back, the next run must match the reference.

Checks run the real CLI: `drrag index` as a subprocess (it is what gets killed), status
and search in-process through ``drrag_cli.cli.main.main`` so the model loads once.

    .venv/bin/python benchmarks/hostile_crashes.py [--filler 600]   # prints rows; 16 min on 2 busy cores

``--filler N`` adds N one-passage notes to the copy: each round's change is then under a
fifth of the passages, so the killed runs apply it to the previous generation
(``index/delta.py``) instead of building BM25 and HNSW whole.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "sample_corpus"
KILLS = 20
SEED = 13
DISK_KB = 4096
# Free space before a build that adds a 30-passage note to the ~1 MB index. On a fresh
# index (`drrag --debug index`), 8 and 96 KB ran out copying the store, 256 KB in SQLite,
# 448-768 KB in hnswlib (which, unchecked, published a truncated dense.hnsw)
FREE_LEVELS_KB = (8, 96, 256, 512, 640)
DISK_NOTE_PASSAGES = 30
QUERY = "In which city was the lead engineer of Project Heron born?"
WORDS = (
    "river sensor calibration budget meeting harbour survey lantern orchard copper glacier "
    "archive ledger turbine falcon meadow quarry beacon atlas canal pylon delta ember fjord"
).split()


def _drrag(*args: str) -> list[str]:
    return [sys.executable, "-P", "-m", "drrag_cli.cli.main", *args]


def _cli(*args: str) -> tuple[int, str, str]:
    """The real CLI in-process: (exit code, stdout, stderr)."""
    from drrag_cli.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def _settings(ix: Path):  # noqa: ANN202
    from drrag_cli.config import Settings

    return Settings().replace({"index.path": str(ix)})


def _passages(ix: Path) -> Counter:
    from drrag_cli.index.api import Index

    index = Index.open(_settings(ix))
    try:
        sql = "SELECT d.source, p.text FROM passages p JOIN documents d ON d.id = p.document_id"
        return Counter(index.store.conn.execute(sql))
    finally:
        index.store.close()


def _reference(corpus: Path, ref: Path) -> Counter:
    """A clean index of the corpus as it is now (fresh store; vectors from its own cache)."""
    from drrag_cli.index.api import Index

    Index.build([corpus], _settings(ref), rebuild=True)
    return _passages(ref)


def _unusable(ix: Path, counts: set[int]) -> str:
    """Why the index at `ix` is unusable, or '' when status and searches work."""
    code, out, err = _cli("status", "--index", str(ix), "--json")
    if code != 0:
        return f"status exit {code}: {err.strip()}"
    if json.loads(out)["passages"] not in counts:
        return f"status says {json.loads(out)['passages']} passages, a clean index has {sorted(counts)}"
    for mode in ("bm25", "hybrid"):
        code, out, err = _cli("search", QUERY, "--index", str(ix), "--mode", mode, "--json")
        if code != 0:
            return f"{mode} search exit {code}: {err.strip()}"
        try:
            if not json.loads(out)["results"]:
                return f"{mode} search found nothing"
        except (ValueError, KeyError):
            return f"{mode} search printed invalid JSON"
    return ""


def _leftovers(ix: Path) -> list[str]:
    """Anything but the live generation and the one before it (kept for readers)."""
    from drrag_cli.index import layout

    live = layout.current_generation(ix)
    gens = sorted(p.name for p in ix.glob("gen-*"))
    older = [g for g in gens if live is not None and not g.endswith(".tmp") and g < live.name]
    keep = {live.name} if live else set()
    keep |= {older[-1]} if older else set()
    return [g for g in gens if g not in keep] + [p.name for p in ix.glob(".*.tmp")]


def _note(rng: random.Random, passages: int, tag: str) -> str:
    sentences = []
    for i in range(passages * 8):  # ~100 words per passage, 12-13 words a sentence
        words = " ".join(rng.choice(WORDS) for _ in range(11))
        sentences.append(f"The {tag} entry {i} mentions {words}.")
    return f"# Crash note {tag}\n\n" + " ".join(sentences) + "\n"


def _mutate(corpus: Path, rng: random.Random, tag: str) -> None:
    notes = corpus / "crash-notes"
    notes.mkdir(exist_ok=True)
    (notes / f"{tag}.md").write_text(_note(rng, rng.randint(10, 40), tag), encoding="utf-8")
    old = sorted(p for p in corpus.rglob("*.md") if "crash-notes" not in p.parts)
    with open(rng.choice(old), "a", encoding="utf-8") as fh:
        fh.write(f"\nRound {tag} appended this line about the {rng.choice(WORDS)}.\n")
    earlier = sorted(notes.glob("*.md"))[:-1]
    if earlier and rng.random() < 0.5:
        rng.choice(earlier).unlink()


def _index(corpus: Path, ix: Path) -> subprocess.CompletedProcess:
    return subprocess.run(_drrag("index", str(corpus), "--index", str(ix), "--json"),
                          capture_output=True, text=True, timeout=600)


def _compare(got: Counter, want: Counter) -> tuple[int, int]:
    return sum((want - got).values()), sum((got - want).values())


def _kills(work: Path, corpus: Path, rng: random.Random) -> list[dict]:
    ix, ref = work / "ix", work / "ref"
    first = _index(corpus, ix)
    if first.returncode != 0:
        raise SystemExit(f"the first index failed: {first.stderr}")
    want = _reference(corpus, ref)
    _mutate(corpus, rng, "calibrate")  # one unkilled incremental run sets the delay range
    t0 = time.perf_counter()
    if _index(corpus, ix).returncode != 0:
        raise SystemExit("an incremental index failed")
    span = time.perf_counter() - t0
    want = _reference(corpus, ref)

    unusable, failed, left, lost, extra, landed, staged = [], 0, [], 0, 0, 0, 0
    for i in range(KILLS):
        before = sum(want.values())
        _mutate(corpus, rng, f"k{i:02d}")
        after_want = _reference(corpus, ref)
        proc = subprocess.Popen(_drrag("index", str(corpus), "--index", str(ix), "--json"),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        delay = rng.uniform(0.2, span)
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=60)
            landed += 1
        staged += any(p.name.endswith(".tmp") for p in ix.glob("gen-*"))
        why = _unusable(ix, {before, sum(after_want.values())})
        if why:
            unusable.append(f"kill {i} at {delay:.1f}s: {why}")
        rerun = _index(corpus, ix)
        if rerun.returncode != 0:
            failed += 1
            unusable.append(f"next run after kill {i}: exit {rerun.returncode}: {rerun.stderr.strip()[-200:]}")
        want = after_want
        why = _unusable(ix, {sum(want.values())})
        if why:
            unusable.append(f"after the next run {i}: {why}")
        left += [f"{i}:{name}" for name in _leftovers(ix)]
        miss, more = _compare(_passages(ix), want)
        lost, extra = lost + miss, extra + more
        print(f"kill {i:2d} at {delay:4.1f}s of {span:.1f}s: {'killed' if proc.returncode < 0 else 'finished'}; "
              f"next run exit {rerun.returncode}; {sum(want.values())} passages, lost {miss}, extra {more}; "
              f"{len(unusable)} unusable, {len(left)} left so far",
              flush=True)
    detail = f"{landed}/{KILLS} kills landed before the run ended, {staged} left a staging folder"
    return [
        {"check": "crashes: unusable index after a SIGKILL or its next run", "count": len(unusable), "limit": 0,
         "detail": "; ".join(unusable[:3]) or detail},
        {"check": "crashes: next run failed", "count": failed, "limit": 0, "detail": detail},
        {"check": "crashes: leftover staging folders after the next run", "count": len(left), "limit": 0,
         "detail": ", ".join(left[:5]) or detail},
        {"check": "crashes: passages lost vs a clean index", "count": lost, "limit": 0,
         "detail": f"and {extra} passages extra; {sum(want.values())} passages at the end"},
    ]


def _mount(path: Path, kb: int) -> bool:
    path.mkdir(parents=True, exist_ok=True)
    try:
        run = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kb}k", "tmpfs", str(path)],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return run.returncode == 0


def _fill(disk: Path, free_kb: int) -> None:
    ballast = shutil.disk_usage(disk).free - free_kb * 1024
    with open(disk / "ballast", "wb") as fh:
        while ballast > 0:
            ballast -= fh.write(b"\0" * min(ballast, 1 << 20))


class _CappedSqlite:
    """The fallback full disk: the staging store may not grow (real SQLITE_FULL)."""

    def __enter__(self) -> None:
        from drrag_cli.index.store import PassageStore

        self.real = real = PassageStore.__init__

        def init(store: PassageStore, path: Path, readonly: bool = False) -> None:
            real(store, path, readonly)
            if not readonly:
                pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
                store.conn.execute(f"PRAGMA max_page_count = {max(pages, 1)}")

        PassageStore.__init__ = init

    def __exit__(self, *exc: object) -> None:
        from drrag_cli.index.store import PassageStore

        PassageStore.__init__ = self.real


def _full_disk(work: Path, corpus: Path, rng: random.Random) -> list[dict]:
    disk, ref = work / "disk", work / "ref-disk"
    tmpfs = _mount(disk, DISK_KB)
    how = f"a {DISK_KB} KB tmpfs filled to {'/'.join(map(str, FREE_LEVELS_KB))} KB free" if tmpfs else (
        "simulated: SQLite PRAGMA max_page_count on the staging store (mount -t tmpfs not permitted here)")
    ix = disk / "ix"
    bad, unusable, left, lost, messages = [], [], [], 0, []
    try:
        if _index(corpus, ix).returncode != 0:
            raise SystemExit("indexing onto the small disk failed")
        want = _reference(corpus, ref)
        for level in FREE_LEVELS_KB if tmpfs else FREE_LEVELS_KB[:1]:
            before = sum(want.values())
            (corpus / f"full{level}.md").write_text(_note(rng, DISK_NOTE_PASSAGES, f"full{level}"), encoding="utf-8")
            if tmpfs:
                _fill(disk, level)
                run = _index(corpus, ix)
                code, err = run.returncode, run.stderr
            else:
                with _CappedSqlite():
                    code, _out, err = _cli("index", str(corpus), "--index", str(ix))
            one_line = err.count("\n") == 1 and err.startswith(f"drrag: error: the disk holding {ix} is full")
            if code == 1 and one_line:
                messages.append(err.strip())
            elif code != 0:
                bad.append(f"{level} KB free: exit {code}: {err.strip()[-200:]}")
            left += [f"{level}:{name}" for name in _leftovers(ix)]  # the failed run cleans up itself
            want = _reference(corpus, ref)
            why = _unusable(ix, {before} if code else {sum(want.values())})
            if why:
                unusable.append(f"{level} KB free: {why}")
            (disk / "ballast").unlink(missing_ok=True)
            rerun = _index(corpus, ix)
            why = _unusable(ix, {sum(want.values())}) if rerun.returncode == 0 else f"exit {rerun.returncode}"
            if why:
                unusable.append(f"next run after {level} KB free: {why}")
            left += [f"{level}:{name}" for name in _leftovers(ix)]
            lost += _compare(_passages(ix), want)[0]
            print(f"full disk, {level} KB free: exit {code} {err.strip()[-120:]!r}; next run exit "
                  f"{rerun.returncode}; {len(unusable)} unusable, {len(left)} left so far", flush=True)
    finally:
        if tmpfs:  # lazily: this process may still hold files of the last index it opened
            subprocess.run(["umount", "-l", str(disk)], capture_output=True, timeout=60)
    runs = len(FREE_LEVELS_KB) if tmpfs else 1
    detail = f"{how}; {len(messages)}/{runs} runs failed as one user error" + (
        f", e.g. {messages[0]!r}" if messages else "")
    return [
        {"check": "full disk: not one user error line (exit 1)", "count": len(bad), "limit": 0,
         "detail": "; ".join(bad[:2]) or detail},
        {"check": "full disk: unusable index", "count": len(unusable), "limit": 0,
         "detail": "; ".join(unusable[:2]) or how},
        {"check": "full disk: leftover staging folders", "count": len(left), "limit": 0,
         "detail": ", ".join(left[:5]) or "checked after the failed run and after the next"},
        {"check": "full disk: passages lost vs a clean index", "count": lost, "limit": 0, "detail": how},
    ]


def _filler(corpus: Path, notes: int, rng: random.Random) -> None:
    """``notes`` one-passage notes more, so that a round's change stays a small part of the
    index and the killed runs apply it to the previous generation (index/delta.py) rather
    than build it whole."""
    folder = corpus / "filler"
    folder.mkdir(exist_ok=True)
    for i in range(notes):
        words = " ".join(rng.choice(WORDS) for _ in range(60))
        (folder / f"filler-{i:04d}.txt").write_text(f"Filler {i} records {words}.\n", encoding="utf-8")


def run(work: Path, filler: int = 0) -> list[dict]:
    """Each dict: {"check", "count", "limit", "detail"}; a check passes when count <= limit."""
    saved = os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = str(work / "xdg-config")  # no user config leaks in
    try:
        rng = random.Random(SEED)
        corpus = work / "corpus"
        shutil.copytree(CORPUS, corpus)
        _filler(corpus, filler, rng)
        rows = _kills(work, corpus, rng)
        fresh = work / "corpus-disk"  # the size of the index on the small disk is known
        shutil.copytree(CORPUS, fresh)
        return rows + _full_disk(work, fresh, rng)
    finally:
        if saved is None:
            os.environ.pop("XDG_CONFIG_HOME", None)
        else:
            os.environ["XDG_CONFIG_HOME"] = saved


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--filler", type=int, default=0, help="one-passage notes added to the corpus copy")
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="drrag-crashes-") as tmp:
        checks = run(Path(tmp), args.filler)
    from hostile import print_checks

    print_checks(checks, start)


if __name__ == "__main__":
    main()
