"""The ``--out`` folder of an eval: append-only ``per_question.jsonl`` plus the reports.

A run first writes ``results.json`` with its settings fingerprint (``"run"``), then
appends one line per question × strategy × k and flushes it, so a crash or Ctrl-C loses
at most the unit in flight. A later run with the same fingerprint reads the lines back
and skips those units; a torn last line (killed mid-write) is cut off. A folder made
with other settings is refused, naming what differs, unless ``force`` starts it over.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from drrag_cli.errors import InputError

if TYPE_CHECKING:
    from drrag_cli.evaluate.result import EvalResult

PER_QUESTION = "per_question.jsonl"
RESULTS = "results.json"
REPORTS = (RESULTS, "results.md", "recall_vs_k.png")

Key = tuple[str, str, int]  # (qid, strategy, k)


def _diff(old: dict[str, Any], new: dict[str, Any]) -> str:
    keys = [k for k in dict.fromkeys([*old, *new]) if old.get(k) != new.get(k)]
    return "; ".join(f"{k}: {json.dumps(old.get(k))} then, {json.dumps(new.get(k))} now" for k in keys[:3])


class OutDir:
    def __init__(self, path: Path, run: dict[str, Any], force: bool = False) -> None:
        self.path = path
        self.run = run
        if path.exists() and not path.is_dir():
            raise InputError(f"eval output {path} is a file; give a folder (it is created if missing)")
        path.mkdir(parents=True, exist_ok=True)
        self.lines = path / PER_QUESTION
        self.records: dict[Key, dict[str, Any]] = {}
        if self.lines.exists():
            reason = self._mismatch()
            if reason and not force:
                raise InputError(
                    f"eval output folder {path} holds results of another eval ({reason}); use another "
                    "folder, or force a fresh start (force=True, drrag eval --force) to discard them"
                )
            if reason:
                self._reset()
            else:
                self.records = self._read()
        self._fh: IO[str] | None = None

    def _mismatch(self) -> str | None:
        try:
            old = json.loads((self.path / RESULTS).read_text(encoding="utf-8")).get("run")
        except (OSError, ValueError, AttributeError):
            old = None
        if not isinstance(old, dict):
            return f"{PER_QUESTION} without a readable {RESULTS}, so its settings are unknown"
        return _diff(old, self.run) or None

    def _reset(self) -> None:
        for name in (PER_QUESTION, *REPORTS):
            (self.path / name).unlink(missing_ok=True)

    def _read(self) -> dict[Key, dict[str, Any]]:
        data = self.lines.read_bytes()
        chunks = data.split(b"\n")
        records: dict[Key, dict[str, Any]] = {}
        for n, chunk in enumerate(chunks, 1):
            if not chunk.strip():
                continue
            try:
                rec = json.loads(chunk)
                key = (str(rec["qid"]), str(rec["strategy"]), int(rec["k"]))
            except (ValueError, KeyError, TypeError):
                if n == len(chunks):  # torn last line of a killed run: cut it off
                    with self.lines.open("r+b") as fh:
                        fh.truncate(len(data) - len(chunk))
                    break
                raise InputError(
                    f"{self.lines}: line {n} is not a per-question record; fix or delete it, or force a fresh start"
                ) from None
            records[key] = rec
        else:
            if data and not data.endswith(b"\n"):  # complete last line without newline
                with self.lines.open("ab") as fh:
                    fh.write(b"\n")
        return records

    def append(self, record: dict[str, Any]) -> None:
        if self._fh is None:
            self._fh = self.lines.open("a", encoding="utf-8")
        self._fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._fh.flush()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def write_results(self, result: EvalResult) -> list[str]:
        """results.json, results.md and (with matplotlib) recall_vs_k.png; returns notes."""
        from drrag_cli.evaluate.report import write_reports
        from drrag_cli.index.layout import write_text_atomic

        notes = write_reports(result, self.path) if result.records else []
        if notes:
            result.meta["notes"] = notes
        write_text_atomic(self.path / RESULTS, json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
        return notes
