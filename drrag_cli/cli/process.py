"""The `drrag` process itself: Ctrl-C at any moment, and a crash in native code, each end
with one line on stderr.

A segfault kills the process it happens in: nothing there can print a line after it. So
the process the user started forks once, before any model, index or thread exists, and
waits; the child runs the command with :mod:`faulthandler` writing its report into a file
the parent reads. A child killed by SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT (llama.cpp,
hnswlib, onnxruntime) becomes one line, "drrag: internal error: crashed in native code
(Segmentation fault) at FILE:LINE in FUNCTION", and exit 2 (with --debug the whole report
goes to stderr first). Any other end of the child (an exit code, SIGTERM, SIGKILL) is the
parent's own end too; the parent runs no exit handler (they are the child's).

The parent stays out of the way: it forwards what a user sends it with ``kill`` (Ctrl-C
on a terminal already reaches both: one process group), and the child dies with it
(``PR_SET_PDEATHSIG``), so ``kill -9`` of the pid the shell knows stops the work too.
Linux only; elsewhere the command runs in the process itself, faulthandler writing to a
copy of stderr (a crash is never silent, but ends the way the OS ends it).
"""

from __future__ import annotations

import atexit
import contextlib
import faulthandler
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import IO, NoReturn

CRASHES = frozenset({signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE, signal.SIGABRT})
FORWARDED = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2})
INTERRUPTED = "drrag: interrupted"
DUPLICATE_S = 1.0  # a second SIGINT this soon after the first is the same Ctrl-C, delivered twice
_PR_SET_PDEATHSIG = 1


class _Interrupts:
    """How Ctrl-C is taken right now (:func:`stop_on_interrupt`, :func:`interruptible`)."""

    raising = False  # the command runs: the first Ctrl-C raises KeyboardInterrupt
    first = 0.0  # when the first one came (time.monotonic), 0 before it


def stop_on_interrupt() -> None:
    """Until the command's own error edge runs (and again after it), Ctrl-C ends the process
    at once with one line: a KeyboardInterrupt while modules import printed a traceback.
    Only in the `drrag` process (the main thread), never in a program that imports us."""
    _Interrupts.raising = False
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _on_interrupt)


def interruptible() -> None:
    """Ctrl-C raises KeyboardInterrupt, for the command's error edge to catch (and for the
    commands that save their work first: an eval, a watch)."""
    _Interrupts.raising = True
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _on_interrupt)


def ending() -> None:
    """The command is over: its result or its error line is out. A Ctrl-C from here on is
    ignored, a late copy of an earlier one (:func:`_on_interrupt`) or a new one alike: it
    would add "interrupted" after the command's own last line, or, as Python restores the
    default SIGINT action while it finalizes, end the process with 130 and nothing said."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _on_interrupt(signum: int, frame: object) -> None:
    """One Ctrl-C may arrive twice (``kill -INT -PGID``, ``timeout`` reach the parent and the
    child, and the parent forwards its copy): a second one within :data:`DUPLICATE_S` is the
    same. A later one ends the process at once: the user insists."""
    now = time.monotonic()
    if _Interrupts.first and now - _Interrupts.first < DUPLICATE_S:
        return
    again = bool(_Interrupts.first)
    _Interrupts.first = now
    if _Interrupts.raising and not again:
        raise KeyboardInterrupt
    _say(INTERRUPTED)
    os._exit(128 + signum)


def supervised(run: Callable[[], int], debug: bool = False) -> int:
    """``run()``'s exit code, ``run`` called in a child process that the caller waits for
    (module docstring); where that cannot be done, in this process."""
    if not _can_fork():
        _report_crashes_to(_saved_stderr())
        return run()
    report = tempfile.TemporaryFile()
    waited = {*FORWARDED, signal.SIGCHLD}
    signal.pthread_sigmask(signal.SIG_BLOCK, waited)  # none is lost between fork and wait
    parent = os.getpid()
    child = os.fork()
    if child == 0:
        _die_with(parent)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, waited)
        _report_crashes_to(_saved_stderr() if debug else report)
        code = run()
        if sys.getprofile() is None and sys.gettrace() is None:  # a profiler or coverage writes at exit
            _end_without_teardown(code)
        return code
    _let_go_of_input_and_output()
    code = _ended(_wait(child, waited), report, debug)
    os._exit(code)  # the exit handlers registered before the fork are the child's, and it ran them


def _end_without_teardown(code: int) -> NoReturn:
    """End the child once all it owes is done (its threads joined, the exit handlers run:
    models closed, logs flushed; stdout and stderr flushed), without Python's teardown,
    which frees every module and object one by one (onnxruntime's session, numpy, the
    index's maps) and took ~60 ms of a cold ask a reader answers. The OS frees the memory."""
    me = threading.current_thread()
    for thread in threading.enumerate():
        if thread is not me and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()  # noqa: SLF001 - the handlers Python would run at this exit
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed pipe: nothing is owed to its reader
            if stream is not None:
                stream.flush()
    os._exit(code)


def _let_go_of_input_and_output() -> None:
    """The parent's copies of stdin and stdout closed, so a reader of the output (a pipe)
    sees its end when the child's ends; the parent writes to stderr only."""
    for fd in (0, 1):
        with contextlib.suppress(OSError):
            os.close(fd)


def _can_fork() -> bool:
    return (
        sys.platform.startswith("linux")
        and hasattr(signal, "sigwaitinfo")
        and threading.active_count() == 1  # forking a process with threads copies their locks, held
    )


def _saved_stderr() -> IO[str] | None:
    """A copy of fd 2, so a report reaches the terminal even where fd 2 was pointed elsewhere."""
    try:
        return os.fdopen(os.dup(2), "w")
    except OSError:  # stderr closed: nowhere to report
        return None


def _report_crashes_to(file: IO[str] | IO[bytes] | None) -> None:
    if file is not None:
        faulthandler.enable(file=file, all_threads=True)


def _die_with(parent: int) -> None:
    """The child gets SIGKILL when the parent ends, however it ends."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent was gone before the call
        os._exit(1)


def _wait(child: int, waited: set[int]) -> int:
    """The child's wait status, forwarding meanwhile each signal a process sent (``kill``);
    one the terminal sent to the whole process group reached the child already."""
    while True:
        info = signal.sigwaitinfo(waited)
        if info.si_signo == signal.SIGCHLD:
            pid, status = os.waitpid(child, os.WNOHANG)
            if pid == child:
                return status
        elif info.si_code <= 0:  # SI_USER, SI_QUEUE, SI_TKILL: from a process, not the kernel
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, info.si_signo)


def _ended(status: int, report: IO[bytes], debug: bool) -> int:
    """The parent's exit code for the child's wait ``status`` (module docstring)."""
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status)
    signum = os.WTERMSIG(status)
    if signum in CRASHES:
        _say(crash_line(signum, _read(report), debug))
        return 2
    if signum == signal.SIGINT:  # after its "interrupted" line, or after its output, as a Ctrl-C came at exit
        return 128 + signum
    with contextlib.suppress(OSError, ValueError):  # SIGKILL has no handler to reset (EINVAL)
        signal.signal(signum, signal.SIG_DFL)  # ended by SIGTERM, SIGKILL...: end the same way
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signum})
    os.kill(os.getpid(), signum)
    return 128 + signum


def _say(line: str) -> None:
    with contextlib.suppress(OSError):
        os.write(2, f"{line}\n".encode("utf-8", "replace"))


def _read(report: IO[bytes]) -> str:
    report.seek(0)
    return report.read(1 << 20).decode("utf-8", "replace")


def crash_line(signum: int, report: str, debug: bool = False) -> str:
    """One line for a child killed by ``signum``: what, where (the innermost Python frame
    of the crashed thread, from the faulthandler ``report``), and how to see more."""
    name = signal.strsignal(signum) or f"signal {signum}"
    where = innermost_frame(report)
    at = f" at {where}" if where else ""
    more = "the report is above" if debug else "re-run with --debug for the full report"
    return f"drrag: internal error: crashed in native code ({name}){at} ({more})"


def innermost_frame(report: str) -> str:
    """"FILE:LINE in FUNCTION" of the crashed thread's most recent frame in a faulthandler
    report ("Current thread 0x... (most recent call first):" then '  File "...", line N in f'),
    the file as its last two path parts; "" when the report has none."""
    lines = report.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("Current thread")), None)
    for line in lines[start + 1 if start is not None else 0 :]:
        text = line.strip()
        if text.startswith('File "') and '", line ' in text:
            path, _, rest = text[len('File "') :].partition('", line ')
            number, _, function = rest.partition(" in ")
            short = "/".join(path.replace("\\", "/").split("/")[-2:])
            return f"{short}:{number.strip()} in {function.strip()}" if function else f"{short}:{number.strip()}"
    return ""
