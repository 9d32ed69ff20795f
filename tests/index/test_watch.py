"""`drrag index PATH --watch` with the real watcher (watchfiles), the real indexer and a
real subprocess: an edit shows up in search, a burst of writes is a few re-indexes, not
fifty, and SIGINT exits 0 with no half-published generation."""

from __future__ import annotations

import contextlib
import json
import queue
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from drrag_cli.index.watch import ChangeFilter, WatchRun, watch_index
from tests.conftest import drrag_cmd

pytestmark = pytest.mark.slow
WAIT = 120.0  # bound of every wait (a slow shared machine), never a timing target


def default_sigint() -> None:
    """In the child: SIGINT as in a terminal, even when pytest runs as a background job
    (which starts with SIGINT ignored, and Python keeps it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Lines:
    """Lines of a stream, read on a thread so every wait is bounded."""

    def __init__(self, stream: Any) -> None:
        self.q: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            self.q.put(line)
        self.q.put(None)

    def event(self, timeout: float = WAIT) -> dict[str, Any]:
        line = self.q.get(timeout=timeout)
        assert line is not None, "the watcher exited"
        return json.loads(line)

    def rest(self) -> list[str]:
        out = []
        while (line := self.q.get(timeout=WAIT)) is not None:
            out.append(line)
        return out


def test_watch_reindexes_an_edit_and_a_burst_once_and_stops_cleanly_on_sigint(corpus: Path, tmp_path: Path) -> None:
    ix = corpus / ".drrag"  # inside the watched root: its own writes must not trigger re-indexes
    settings = Settings().replace({"index.path": str(ix)})
    Index.build([corpus], settings)  # the watcher's first build then finds nothing to do
    proc = subprocess.Popen(
        drrag_cmd("index", str(corpus), "--watch", "--json", "--index", str(ix)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=default_sigint,
    )
    try:
        out = Lines(proc.stdout)
        start = out.event()
        assert (start["event"], start["trigger"], start["published"]) == ("index", "start", False)

        (corpus / ".scratch.md").write_text("Hidden scratch note about Zanzibar.\n")  # excluded: ignored
        mara = corpus / "notes" / "mara.txt"
        mara.write_text("Mara Quint moved to Zanzibar in 2024 and keeps bees.\n")
        run = out.event()
        assert (run["trigger"], run["files"]["updated"], run["published"]) == ("change", 1, True)
        assert run["changed"] == [str(mara.resolve())]
        hits = Index.open(settings).search("Zanzibar bees", mode="bm25", k=3)
        assert hits and "Zanzibar" in hits[0].passage.text
        assert not any(".scratch" in h.passage.source for h in hits)

        for i in range(50):  # a burst, like a `git checkout`
            (corpus / "notes" / f"burst{i:02d}.md").write_text(f"# Burst {i}\nWalrus colony number {i}.\n")
        runs = []
        while sum(r["files"]["added"] for r in runs) < 50:
            runs.append(out.event())
        assert len(runs) <= 3, [len(r["changed"]) for r in runs]
        assert Index.open(settings).status()["files"] == 6 + 50

        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=WAIT) == 0
        assert out.rest() == []  # its own index writes never started a re-index
        assert "Traceback" not in proc.stderr.read()
        assert not list(ix.glob("*.tmp")) and Index.open(settings).status()["files"] == 56
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def watching(roots: list[Path], settings: Settings) -> Iterator[queue.Queue[WatchRun]]:
    """``watch_index`` on a thread, past its first build; stopped and joined on exit."""
    runs: queue.Queue[WatchRun] = queue.Queue()
    stop = threading.Event()
    thread = threading.Thread(target=watch_index, args=(roots, settings, runs.put), kwargs={"stop": stop})
    thread.start()
    try:
        assert runs.get(timeout=WAIT).trigger == "start"
        yield runs
    finally:
        stop.set()
        thread.join(timeout=WAIT)
    assert not thread.is_alive()


def test_a_failing_file_is_reported_and_the_loop_keeps_going(corpus: Path, settings: Settings) -> None:
    with watching([corpus], settings) as runs:
        (corpus / "broken.pdf").write_bytes(b"%PDF-1.4 not really a pdf")
        broken = runs.get(timeout=WAIT)
        assert broken.report is not None and str(corpus / "broken.pdf") in broken.report.skipped_files
        (corpus / "later.md").write_text("# Later\nThe heron nests were counted in June.\n")
        later = runs.get(timeout=WAIT)
        assert later.report is not None and later.report.added == 1 and later.report.published
        assert "heron nests" in Index.open(settings).search("heron nests counted", mode="bm25", k=1)[0].passage.text


def test_a_root_folder_deleted_and_made_again_is_watched_again(tmp_path: Path, settings: Settings) -> None:
    """A watch is on the folder's inode: after `rm -rf root; mkdir root` the new folder is
    watched, and what was written before the watch was back is caught up."""
    import shutil

    root = tmp_path / "notes"
    root.mkdir()
    (root / "a.md").write_text("# A\nAlpha note about otters.\n")
    with watching([root], settings) as runs:
        shutil.rmtree(root)
        gone = runs.get(timeout=WAIT)
        assert gone.error is not None and "does not exist" in gone.error  # reported; the loop goes on
        root.mkdir()
        (root / "b.md").write_text("# B\nBeta note about badgers.\n")
        back = runs.get(timeout=WAIT)
        assert back.report is not None and (back.report.added, back.report.removed) == (1, 1)
        (root / "c.md").write_text("# C\nGamma note about cormorants.\n")  # the new folder is watched
        later = runs.get(timeout=WAIT)
        assert later.report is not None and later.report.added == 1
        assert Index.open(settings).status()["files"] == 2


def test_change_filter_keeps_only_what_the_indexer_reads(tmp_path: Path) -> None:
    from watchfiles import Change

    root = tmp_path / "notes"
    (root / "sub").mkdir(parents=True)
    (root / ".drragignore").write_text("drafts\n")
    single = tmp_path / "single.txt"
    single.write_text("x")
    ix = root / "ix"
    keep = ChangeFilter([root, single], ix, (".*", "node_modules"))

    def kept(path: Path, change: Change = Change.modified) -> bool:
        return keep(change, str(path))

    assert kept(root / "a.md") and kept(root / "sub" / "b.PDF") and kept(single)
    assert kept(root / "sub") and kept(root / "gone", Change.deleted)  # folders: their files come along
    assert kept(root / ".drragignore")  # it changes what is indexed
    assert not kept(root / ".hidden.md") and not kept(root / "node_modules" / "x.md")
    assert not kept(root / "drafts" / "x.md")  # the root's .drragignore
    assert not kept(ix / "gen-000002" / "manifest.json")  # the index's own writes
    assert not kept(root / "photo.png") and not kept(root / "4913.swp", Change.deleted)
    assert not kept(tmp_path / "other.txt")  # next to a file root, not under a root
    (root / ".drragignore").write_text("")
    keep.refresh()
    assert kept(root / "drafts" / "x.md")


def test_a_missing_path_is_one_user_error_not_a_watcher_on_nothing(tmp_path: Path) -> None:
    proc = subprocess.run(
        drrag_cmd("index", str(tmp_path / "nope"), "--watch", "--index", str(tmp_path / "ix")),
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith("drrag: error: path") and len(proc.stderr.strip().splitlines()) == 1


def test_planned_roots_are_the_roots_the_first_build_will_have(tmp_path: Path) -> None:
    from drrag_cli.index import layout
    from drrag_cli.index.watch import planned_roots

    old, new, ix = tmp_path / "old", tmp_path / "new", tmp_path / "ix"
    old.mkdir(), new.mkdir(), (ix / "gen-000001").mkdir(parents=True)
    layout.write_json_atomic(ix / "gen-000001" / layout.MANIFEST, {"roots": [str(old)]})
    layout.write_text_atomic(ix / layout.CURRENT, "gen-000001\n")
    assert planned_roots([], ix, replace=False) == [old]  # `drrag index --watch`: the roots indexed before
    assert planned_roots([], ix, replace=True) == [old]  # --rebuild with no PATH keeps them too
    assert planned_roots([new], ix, replace=False) == sorted([old, new])  # a new PATH is added
    assert planned_roots([new], ix, replace=True) == [new]  # --replace / --rebuild PATH
    assert planned_roots([tmp_path / "missing"], tmp_path / "no-index", replace=False) == []
