"""An indexed file or folder that becomes unreadable keeps its passages and is reported (issue 53).

The read has to really fail: no monkeypatching. As root, `chmod 000` stops no read
(CAP_DAC_OVERRIDE), so the sync runs in a `drrag` process started through a small wrapper
that drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from its capability bounding set before
it execs: root then reads by the permission bits like any user, and gets EACCES. As another
user the wrapper is not needed and not used.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import CliResult, write_corpus

# prctl(PR_CAPBSET_DROP, cap): CAP_DAC_OVERRIDE = 1, CAP_DAC_READ_SEARCH = 2 (linux/capability.h)
_WRAPPER = (
    "import ctypes, os, sys\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "for cap in (1, 2):\n"
    "    if libc.prctl(24, cap, 0, 0, 0) != 0:\n"
    "        sys.exit(f'prctl(PR_CAPBSET_DROP, {cap}): errno {ctypes.get_errno()}')\n"
    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])\n"
)


def as_a_user(*argv: str) -> subprocess.CompletedProcess[str]:
    """``python ARGV`` where permission bits hold, also for root."""
    wrap = [sys.executable, "-c", _WRAPPER] if os.geteuid() == 0 else [sys.executable]
    return subprocess.run([*wrap, *argv], capture_output=True, text=True, timeout=600, check=False)


@pytest.fixture()
def locked(tmp_path: Path) -> Iterator[Callable[..., None]]:
    """``locked(*paths)``: permissions taken away (and given back after the test); skips
    when this machine cannot make a file unreadable (no prctl, a filesystem without modes)."""
    probe = tmp_path / "probe.txt"
    probe.write_text("x")
    probe.chmod(0)
    check = as_a_user("-c", f"open({str(probe)!r}).read()")
    probe.chmod(stat.S_IRUSR | stat.S_IWUSR)
    if "PermissionError" not in check.stderr:
        pytest.skip(f"cannot make a file unreadable here: {check.stderr.strip()[-200:]}")
    taken: list[tuple[Path, int]] = []

    def lock(*paths: Path) -> None:
        for path in paths:
            taken.append((path, path.stat().st_mode))
            path.chmod(0)

    yield lock
    for path, mode in reversed(taken):
        path.chmod(mode)


def test_an_unreadable_file_and_folder_keep_their_passages_and_are_reported(
    cli: Callable[..., CliResult], tmp_path: Path, locked: Callable[..., None]
) -> None:
    corpus, ix = write_corpus(tmp_path / "corpus"), str(tmp_path / "ix")
    code, out, err = cli("index", str(corpus), "--index", ix, "--json")
    assert code == 0, err
    assert json.loads(out)["files"]["added"] == 6
    mara, wiki = corpus / "notes" / "mara.txt", corpus / "wiki"
    (corpus / "notes" / "heron.md").write_text("# Project Heron\n\nHeron's lead is now Ines Park.\n")
    locked(mara, wiki)  # a file, and a folder holding two indexed files

    run = as_a_user("-m", "drrag_cli.cli.main", "index", str(corpus), "--index", ix, "--json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    files = report["files"]
    assert (files["updated"], files["unchanged"], files["removed"], files["unreadable"]) == (1, 2, 0, 3)
    assert report["published"] and files["skipped"] == 0
    warnings = report["warnings"]
    assert warnings[str(mara)] == "unreadable (Permission denied): its last indexed passages are kept"
    assert warnings[str(wiki)].startswith("unreadable folder (Permission denied): the 2 files indexed under it")

    human = as_a_user("-m", "drrag_cli.cli.main", "index", str(corpus), "--index", ix)
    assert human.returncode == 0, human.stderr
    assert "3 unreadable (kept)" in human.stderr and "(nothing changed)" in human.stderr
    assert f"warning: {mara}: unreadable (Permission denied)" in human.stderr  # without --verbose

    for query, source in (("Mara Quint born Tromsø", "mara.txt"), ("Vossberg Foundation", "kestrel.html")):
        code, out, _ = cli("search", query, "--mode", "bm25", "--index", ix, "--json")
        assert source in {Path(r["source"]).name for r in json.loads(out)["results"]}
    code, out, _ = cli("search", "Ines Park", "--mode", "bm25", "--index", ix, "--json")
    assert json.loads(out)["results"][0]["source"].endswith("heron.md")  # the change was indexed


def test_files_readable_again_are_not_read_anew(
    cli: Callable[..., CliResult], tmp_path: Path, locked: Callable[..., None]
) -> None:
    corpus, ix = write_corpus(tmp_path / "corpus"), str(tmp_path / "ix")
    assert cli("index", str(corpus), "--index", ix)[0] == 0
    locked(corpus / "notes")
    run = as_a_user("-m", "drrag_cli.cli.main", "index", str(corpus), "--index", ix, "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["files"]["unreadable"] == 3
    (corpus / "notes").chmod(0o755)
    code, out, err = cli("index", str(corpus), "--index", ix, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["files"]["unchanged"] == 6 and report["files"]["unreadable"] == 0
    assert report["passages_embedded"] == 0 and report["warnings"] == {}
