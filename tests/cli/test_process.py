"""The `drrag` process (cli/process.py): a native crash is one line and exit 2, Ctrl-C at
any moment one line and exit 130, and the child follows its parent (issue 53).

Real subprocesses and real signals: a segfault, SIGINT, SIGTERM, SIGKILL.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from drrag_cli.cli.process import crash_line, innermost_frame
from tests.conftest import drrag_cmd

WAIT = 120.0  # bound of every wait on a slow shared machine, never a timing target

CRASH = """import ctypes, sys
sys.argv = ["drrag", *sys.argv[1:], "status"]
from drrag_cli.cli import main
main._command = lambda *args: ctypes.string_at(0)  # a segfault inside the command
raise SystemExit(main.main())
"""

REPORT = """Fatal Python error: Segmentation fault

Thread 0x00007f01 (most recent call first):
  File "/venv/lib/python3.11/threading.py", line 320 in wait

Current thread 0x00007f00 (most recent call first):
  File "/venv/site-packages/llama_cpp/_internals.py", line 56 in __init__
  File "/src/drrag_cli/llm/llm.py", line 71 in _load
"""


def test_the_crashed_thread_s_innermost_frame_names_the_place() -> None:
    assert innermost_frame(REPORT) == "llama_cpp/_internals.py:56 in __init__"
    assert innermost_frame("Fatal Python error: Aborted\n") == ""
    line = crash_line(signal.SIGSEGV, REPORT)
    assert line == (
        "drrag: internal error: crashed in native code (Segmentation fault) at llama_cpp/_internals.py:56 "
        "in __init__ (re-run with --debug for the full report)"
    )


def test_a_segfault_in_a_command_is_one_line_and_exit_2() -> None:
    run = subprocess.run([sys.executable, "-c", CRASH], capture_output=True, text=True, timeout=WAIT)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip().splitlines() == [
        "drrag: internal error: crashed in native code (Segmentation fault) at ctypes/__init__.py:519 in string_at "
        "(re-run with --debug for the full report)"
    ] or (len(run.stderr.strip().splitlines()) == 1 and "(Segmentation fault) at ctypes/" in run.stderr), run.stderr


def test_with_debug_the_whole_report_comes_first() -> None:
    run = subprocess.run([sys.executable, "-c", CRASH, "--debug"], capture_output=True, text=True, timeout=WAIT)
    assert run.returncode == 2
    assert "Fatal Python error: Segmentation fault" in run.stderr and "string_at" in run.stderr
    assert run.stderr.strip().splitlines()[-1].endswith("(Segmentation fault) (the report is above)")


def _started(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(drrag_cmd(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _child_of(parent: int) -> int:
    """The pid of ``parent``'s one child (the command), waited for."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        children = Path(f"/proc/{parent}/task/{parent}/children")
        found = children.read_text().split() if children.exists() else []
        if found:
            return int(found[0])
        time.sleep(0.05)
    raise AssertionError("no child process")


def _stderr_until(proc: subprocess.Popen[str], start: str) -> str:
    """What ``proc`` wrote on stderr up to and including the first line starting with ``start``."""
    assert proc.stderr is not None
    said = ""
    for line in proc.stderr:
        said += line
        if line.startswith(start):
            return said
    raise AssertionError(f"no line starting {start!r}: {said}")


def _gone(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0]
    except OSError:
        return True
    return status == "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the child process is Linux only")
def test_sigterm_reaches_the_command_and_sigkill_takes_it_along(tmp_path: Path) -> None:
    watched = tmp_path / "notes"
    watched.mkdir()
    (watched / "a.md").write_text("Some note about the Kestrel project.\n")
    ix = str(tmp_path / "ix")

    proc = _started("index", str(watched), "--index", ix, "--watch")
    child = _child_of(proc.pid)
    said = _stderr_until(proc, "watching ")  # the command runs: before, SIGTERM's default action ends it
    proc.send_signal(signal.SIGTERM)  # `index --watch` stops cleanly on SIGTERM, exit 0
    _, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, said + err
    assert err.strip().splitlines()[-1:] == ["stopped watching"], err
    assert _gone(child)

    proc = _started("index", str(watched), "--index", ix, "--watch")
    child = _child_of(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait(WAIT)
    deadline = time.monotonic() + WAIT
    while not _gone(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(child)


EARLY = """import os, signal, sys, time
sys.argv = ["drrag"]
import drrag_cli.cli  # the console script's first import of ours
os.kill(os.getpid(), signal.SIGINT)  # as if Ctrl-C came while the commands import
time.sleep(30)
print("not stopped")
"""


def test_ctrl_c_while_the_commands_import_is_one_line_and_130() -> None:
    """A KeyboardInterrupt while modules imported was a traceback."""
    run = subprocess.run([sys.executable, "-c", EARLY], capture_output=True, text=True, timeout=WAIT)
    assert (run.returncode, run.stdout, run.stderr) == (130, "", "drrag: interrupted\n")


@pytest.mark.parametrize("delay", [0.5, 1.5])
def test_ctrl_c_during_a_command_is_one_line_and_130(tmp_path: Path, delay: float) -> None:
    """typer turned Ctrl-C into Exit(130) and nothing was said. The question has no index to
    be answered from: the signal comes on its way there (imports, settings, the index)."""
    proc = subprocess.Popen(
        drrag_cmd("ask", "Where was the lead born?", "--index", str(tmp_path / "none")),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )  # fmt: skip
    _child_of(proc.pid)  # forked: the interpreter's own start (site), where no code of ours runs, is over
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=WAIT)
    if proc.returncode == 1 and "no index" in err:
        pytest.skip("the command ended before the signal came")
    assert (proc.returncode, out, err) == (130, "", "drrag: interrupted\n")


def test_a_second_copy_of_one_ctrl_c_is_the_same_ctrl_c(tmp_path: Path) -> None:
    """`kill -INT -PGID` (and `timeout`) signal the parent and the child, and the parent
    forwards its copy: one line still, exit 130."""
    proc = subprocess.Popen(
        drrag_cmd("ask", "Where was the lead born?", "--index", str(tmp_path / "none")),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, start_new_session=True,
    )  # fmt: skip
    _child_of(proc.pid)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=WAIT)
    if proc.returncode == 1 and "no index" in err:
        pytest.skip("the command ended before the signal came")
    assert proc.returncode == 130 and err == "drrag: interrupted\n", err


OWED = """import atexit, sys, threading, time
sys.argv = ["drrag", "status"]
from drrag_cli.cli import main

def command(*args):
    atexit.register(lambda: print("exit handler ran"))
    threading.Thread(target=lambda: (time.sleep(0.3), print("thread finished", flush=True))).start()
    sys.stdout.write("x" * 300_000 + "\\n")  # more than any pipe or buffer holds
    return 3

main._command = command
raise SystemExit(main.main())
"""


def test_the_child_ends_once_its_output_threads_and_exit_handlers_are_done() -> None:
    """The child skips Python's teardown (os._exit) but nothing it owes: a non-daemon thread is
    joined, the exit handlers run, the buffered output is all out, the exit code kept."""
    run = subprocess.run([sys.executable, "-c", OWED], capture_output=True, text=True, timeout=WAIT)
    assert run.returncode == 3, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "x" * 300_000
    assert sorted(lines[1:]) == ["exit handler ran", "thread finished"], run.stdout[-200:]
