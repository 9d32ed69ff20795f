"""How a completion uses the CPU: the llama.cpp threads it runs on, what it cost, and the
weight buffers a model loads into on CPUs where llama.cpp's repacked ones crash.

:class:`~drrag_cli.llm.llm.LocalLLM` picks the threads before every completion
(:func:`threads_now`) and keeps llama.cpp's own counters of it in ``last_call``
(:class:`CallStats`); ``benchmarks/ask_bench.py --sample`` prints them per question.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    try:
        return "amx_int8" in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


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


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Silence llama.cpp's C-level log lines written straight to fd 2."""
    try:
        saved = os.dup(2)
    except OSError:  # no real stderr (embedded interpreters): nothing to silence
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)
