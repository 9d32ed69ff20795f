"""`drrag models recommend`: which of this machine's models answers best within a time budget,
from a short run measured here.

    report = recommend(budget_s=5.0, questions=12)   # report["best"]: the model to set

Every candidate (the embedded model, the installed catalogue ones, and those Ollama, LM
Studio and the Hugging Face cache keep: :mod:`drrag_cli.llm.found`) answers the same
probes: the sample corpus's two-document questions, each with the passages CFS feeds the
answer stage for it (``probes.json``, written by ``benchmarks/make_probes.py``), through
the real answer prompt with no reader, so the model answers every one. A model's row: the
probes it got right, the median seconds an answer took on this machine's cores, and its load
time. The pick: the most right answers among those whose median is within the budget, the
faster on a tie; when none is, the fastest. A model whose file exceeds what memory is free
is not loaded, and says so. One model is loaded at a time.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

MEMORY_SHARE = 0.8  # a model file may take at most this share of the memory now available


def probes(limit: int | None = None) -> list[dict[str, Any]]:
    """The shipped probes: question, gold answer, the passages fed (title, text)."""
    found = json.loads(files("drrag_cli.evaluate").joinpath("probes.json").read_text(encoding="utf-8"))
    return found[:limit] if limit else found


def candidates() -> tuple[list[tuple[str, str]], list[str]]:
    """([(name, llm.model_path setting)], skipped lines): the embedded model first, then the
    installed and the found ones; one file (a hard link, a symlink) is measured once."""
    from drrag_cli.llm.found import discover
    from drrag_cli.llm.llm import LocalLLM
    from drrag_cli.models import installed

    models = [("embedded", str(LocalLLM().model_path))]
    models += [(m["name"], m["path"]) for m in installed() if m.get("path")]
    found = discover()
    models += [(m.ref, str(m.path)) for m in found.models]  # the ref is what llm.model_path takes
    seen: set[tuple[int, int]] = set()
    out = []
    for name, path in models:
        stat = os.stat(path)
        if (stat.st_dev, stat.st_ino) not in seen:
            seen.add((stat.st_dev, stat.st_ino))
            out.append((name, path))
    return out, found.skipped


def available_memory() -> int | None:
    """Bytes of memory available now (``MemAvailable``), None where /proc/meminfo is not."""
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def measure(path: str, asked: list[dict[str, Any]], budget_s: float) -> dict[str, Any]:
    """One model over ``asked``: right answers, median seconds an answer, load seconds. A
    model whose first answers each take over three budgets stops early (``stopped``)."""
    from drrag_cli.answer.answer import generate_answer
    from drrag_cli.config import LLMSettings
    from drrag_cli.evaluate.metrics import accuracy
    from drrag_cli.llm.llm import LocalLLM
    from drrag_cli.types import Passage

    start = time.perf_counter()
    llm = LocalLLM(LLMSettings(model_path=path), shared=False)  # its own load, freed after
    llm.model  # noqa: B018 — loads
    row: dict[str, Any] = {"load_s": round(time.perf_counter() - start, 2), "right": 0, "asked": 0}
    seconds = []
    try:
        for probe in asked:
            fed = [Passage(f"probe-{i}", p["title"], p["text"], 0, 0, len(p["text"]))
                   for i, p in enumerate(probe["passages"])]  # fmt: skip
            t0 = time.perf_counter()
            answer = generate_answer(llm, probe["question"], fed, readers=())
            seconds.append(time.perf_counter() - t0)
            row["asked"] += 1
            row["right"] += int(accuracy(answer.text, [probe["answer"]]) > 0)
            if len(seconds) >= 2 and min(seconds) > 3 * budget_s:
                row["stopped"] = f"each answer took over 3 x the {budget_s:g} s budget"
                break
    finally:
        llm.close()
    row["median_s"] = round(statistics.median(seconds), 2) if seconds else None
    return row


def choose(rows: list[dict[str, Any]], budget_s: float) -> dict[str, Any] | None:
    """The row to recommend: most right within the budget (faster on a tie), else the fastest."""
    timed = [r for r in rows if r.get("median_s") is not None]
    within = [r for r in timed if r["median_s"] <= budget_s and not r.get("stopped")]
    if within:
        return max(within, key=lambda r: (r["right"] / max(r["asked"], 1), -r["median_s"]))
    return min(timed, key=lambda r: r["median_s"]) if timed else None


def recommend(
    budget_s: float = 5.0, questions: int | None = None, say: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """Measure every candidate on the probes; the report with ``rows`` and ``best``."""
    say = say or (lambda _msg: None)
    asked = probes(questions)
    models, skipped = candidates()
    free = available_memory()
    rows = []
    for name, path in models:
        row: dict[str, Any] = {"name": name, "path": path, "size": os.path.getsize(path)}
        if free is not None and row["size"] > MEMORY_SHARE * free:
            row["skipped"] = f"{row['size'] / 1e9:.1f} GB file, {free / 1e9:.1f} GB of memory available"
        else:
            say(f"measuring {name} on {len(asked)} questions")
            row.update(measure(path, asked, budget_s))
        rows.append(row)
    best = choose(rows, budget_s)
    return {
        "budget_s": budget_s, "questions": len(asked), "cores": os.cpu_count(), "memory_available": free,
        "rows": rows, "best": best["name"] if best else None, "model_path": _setting(best) if best else None,
        "within_budget": bool(best and best["median_s"] <= budget_s and not best.get("stopped")),
        "skipped_found": skipped,
    }  # fmt: skip


def _setting(row: dict[str, Any]) -> str:
    """What ``llm.model_path`` takes for a row: "" for the embedded model, a found model's
    ref, an installed model's path."""
    if row["name"] == "embedded":
        return ""
    return row["name"] if ":" in row["name"] else row["path"]
