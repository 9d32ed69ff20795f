"""How a completion uses the CPU: the llama.cpp threads it runs on, what it cost, the
weight buffers a model loads into on CPUs where llama.cpp's repacked ones crash, and
llama.cpp's log kept off the user's terminal (:func:`quiet_llama`).

:class:`~drrag_cli.llm.llm.LocalLLM` picks the threads before every completion
(:func:`threads_now`) and keeps llama.cpp's own counters of it in ``last_call``
(:class:`CallStats`); ``benchmarks/ask_bench.py --sample`` prints them per question.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drrag_cli.cpu import has_flag

_LOADAVG = Path("/proc/loadavg")


def cores() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def threads_now(configured: int = 0) -> int:
    """Threads for the next completion: ``llm.threads`` when set; with 0 (auto) the cores no
    other task is running on right now, at least one.

    llama.cpp's threads meet at a spinning barrier after every operation of the graph, so a
    thread that another process pushes off its core stalls the others until it is back: on
    2 cores beside ~5 runnable tasks, 1 thread answered 2.2x faster than 2. The runnable
    count is the kernel's (``/proc/loadavg``, 4th field; the median of three reads); this
    thread, about to compute, is one of them. Without /proc: every core."""
    if configured:
        return configured
    n = cores()
    counts = []
    for i in range(3):
        if i:
            time.sleep(0.001)
        try:
            counts.append(int(_LOADAVG.read_text().split()[3].split("/")[0]))
        except (OSError, ValueError, IndexError):
            return n
    others = max(0, sorted(counts)[1] - 1)
    return max(1, n - others)


@dataclass(frozen=True)
class CallStats:
    """Where one completion's time went, from llama.cpp's own counters
    (``benchmarks/ask_bench.py --sample`` prints them per question)."""

    prompt_tokens: int
    reused_tokens: int  # prompt tokens whose KV cells the context already held from the last call
    evaluated_tokens: int  # prompt tokens llama.cpp evaluated (the others, as it counted them)
    prompt_eval_s: float  # evaluating them
    generated_tokens: int  # single-token decodes: each generated token but the last
    generate_eval_s: float  # those decodes
    wall_s: float  # the whole call; the rest is sampling (grammar) and Python
    threads: int  # llama.cpp threads it ran on (threads_now)
    least_prob: float | None = None  # the lowest probability of a token the model chose (greedy, free answers)
    strayed: bool = False  # a copied answer (sampling.SpanOnly) where the model's own choice left the fed text

    def to_json(self) -> dict[str, float | int]:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in self.__dict__.items()}


def amx_cpu() -> bool:
    """True on CPUs with AMX. llama.cpp repacks weights into an AMX buffer there, and its
    first decode segfaults on some of them (ggml-org/llama.cpp#20824, seen on this
    project's CI-class machines with the embedded Q4_K_M Gemma)."""
    return has_flag("amx_int8")


@contextlib.contextmanager
def plain_cpu_buffers(active: bool) -> Iterator[None]:
    """Load with ``use_extra_bufts = False`` (no repacked weight buffers) while active.

    llama-cpp-python has no keyword for this model parameter; ``Llama.__init__`` reads
    the defaults from ``llama_model_default_params``, so that one function is wrapped for
    the duration of the load (under llm.py's ``_LOCK``) and restored after.
    """
    if not active:
        yield
        return
    from llama_cpp import llama_cpp as low

    original = low.llama_model_default_params

    def defaults() -> Any:
        params = original()
        params.use_extra_bufts = False
        return params

    low.llama_model_default_params = defaults
    try:
        yield
    finally:
        low.llama_model_default_params = original


_SILENCED: list[Any] = []  # the log callback, referenced for the process's lifetime (llama.cpp keeps the pointer)
_SILENCING = threading.Lock()  # the preload thread and the caller may both load first


def quiet_llama() -> None:
    """Keep llama.cpp and llama-cpp-python off the user's stdout and stderr, for the whole
    process, without touching either: call it before any load, quantize or state restore.

    llama.cpp writes its log through one callback (``llama_log_set``); ours drops every line.
    llama-cpp-python's own ``print`` lines (``Llama(verbose=True)``: system info, metadata,
    chat format) are dropped by a module-level ``print`` in ``llama_cpp.llama``. The model is
    then built with ``verbose=True`` so that llama-cpp-python never enters
    ``suppress_stdout_stderr``: with ``verbose=False`` it dup2's /dev/null onto fds 1 and 2 and
    swaps ``sys.stdout`` for the whole process while a model loads, and an answer that the main
    thread printed meanwhile (the preload runs on its own thread) went to /dev/null (issue 53).
    A later version that prints elsewhere shows a line too many; it never hides output."""
    import ctypes

    import llama_cpp
    import llama_cpp.llama as llama_module

    with _SILENCING:
        if _SILENCED:
            return

        @llama_cpp.llama_log_callback
        def drop(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
            return None

        llama_cpp.llama_log_set(drop, ctypes.c_void_p(0))
        llama_module.print = _dropped  # type: ignore[attr-defined]  # shadows the builtin in that module only
        _SILENCED.append(drop)


def _dropped(*args: object, **kwargs: object) -> None:
    """llama-cpp-python's ``print``: nothing (:func:`quiet_llama`)."""
