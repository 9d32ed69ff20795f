"""What this machine's CPU computes in hardware: the flags Linux lists in /proc/cpuinfo.

Read where a runtime is chosen (the embedding's bfloat16 batches, llama.cpp's buffers), never
cached: a run reads it once or twice. Without /proc (not Linux) no flag is set.
"""

from __future__ import annotations

from pathlib import Path

CPUINFO = Path("/proc/cpuinfo")


def has_flag(flag: str) -> bool:
    """Whether /proc/cpuinfo lists ``flag`` ("amx_bf16", "amx_int8") among the CPU's flags."""
    try:
        return flag in CPUINFO.read_text(encoding="utf-8", errors="replace").split()
    except OSError:
        return False
