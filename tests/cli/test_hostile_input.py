"""Hostile questions at the CLI edge: undecodable bytes, 100 KB, blanks, parser syntax,
RTL / emoji / combining text, NUL and control characters (issue 13, items 2 and 6).

Every one ends in exit 0 with valid UTF-8 JSON, or exit 1 with one line on stderr.
"""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import drrag_cmd

HOSTILE = [
    'heron AND OR ( ) " : ^ ~ * [ ] { } ! + - \\ /',
    "title:heron^3 text:~2 Mara*",
    "مرحبا Mara Quint שלום",
    "🙂🚀 Heron e\u0301\u0302\u0303 Tromsø",
    "Mara\x00Quint\x1b[31m born?\x07",
    os.fsdecode(b"caf\xe9 Mara \xff\xfe Quint"),  # what sys.argv holds for invalid UTF-8
    "-",
    "x" * 1999,
]


@pytest.fixture()
def indexed(cli, corpus: Path):  # noqa: ANN001, ANN201
    assert cli("index", str(corpus), "--json")[0] == 0
    return cli


def ok_json(code: int, out: str, err: str) -> dict:
    assert code == 0, err
    out.encode("utf-8")  # no lone surrogate reached stdout
    return json.loads(out)


def one_line_error(code: int, err: str, *needles: str) -> None:
    assert code == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for needle in needles:
        assert needle in err, err


@pytest.mark.parametrize("mode", ["bm25", "hybrid"])
def test_hostile_queries_search_with_valid_json(indexed, mode: str) -> None:  # noqa: ANN001
    for query in HOSTILE:
        data = ok_json(*indexed("search", "--mode", mode, "--json", "--", query))
        assert "\ufffd" in data["query"] if "\udcff" in query else "\ufffd" not in data["query"]
        assert "\x00" not in data["query"] and data["mode"] == mode


def test_question_errors_are_one_line(indexed) -> None:  # noqa: ANN001
    big = "why " * 25_000
    for cmd in (["search", "--mode", "bm25"], ["search", "--mode", "hybrid"], ["search", "-s", "cfs"], ["ask"]):
        code, _, err = indexed(*cmd, "--json", "--", big)
        one_line_error(code, err, "100,000 characters", "limit of 2,000", "search.max_question_chars")
        for blank in ("", "  \t ", "\x00", os.fsdecode(b"\xff\xfe")):
            code, out, err = indexed(*cmd, "--json", "--", blank)
            one_line_error(code, err, "the question is")
            assert out == ""
    code, _, err = indexed("search", "-x", "--json")
    one_line_error(code, err, "No such option: -x", "drrag search -- '-x'")


def test_the_limit_is_a_setting(indexed, tmp_path: Path) -> None:  # noqa: ANN001
    (tmp_path / "drrag.yaml").write_text("search:\n  max_question_chars: 50\n")
    code, _, err = indexed("search", "x" * 51, "--mode", "bm25")
    one_line_error(code, err, "51 characters", "limit of 50")
    assert indexed("search", "x" * 50, "--mode", "bm25")[0] == 0
    (tmp_path / "drrag.yaml").write_text("search:\n  max_question_chars: 0\n")
    code, _, err = indexed("search", "x", "--mode", "bm25")
    one_line_error(code, err, "'search.max_question_chars'", "at least 1")


def test_ask_with_hostile_text_answers_with_valid_json(indexed) -> None:  # noqa: ANN001
    query = "Where was Mara Quint born?\x00 " + os.fsdecode(b"\xff") + ' AND ( " ^ 🙂 مرحبا'
    data = ok_json(*indexed("ask", "--strategy", "bm25", "-k", "2", "--json", "--", query))
    assert data["question"].startswith("Where was Mara Quint born?  \ufffd") and data["citations"]


def test_print_json_is_valid_utf8_whatever_reaches_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from drrag_cli.cli.common import print_json

    raw = io.BytesIO()
    stdout = io.TextIOWrapper(raw, encoding="utf-8", errors="surrogateescape")  # C-locale stdout
    monkeypatch.setattr(sys, "stdout", stdout)
    print_json({"source": os.fsdecode(b"notes/caf\xe9.md"), "\ud800key": [math.nan, math.inf, 1.5, "\udfff"]})
    data = json.loads(raw.getvalue().decode("utf-8"))  # strict: raises on a raw invalid byte
    assert data == {"source": "notes/caf\ufffd.md", "\ufffdkey": [None, None, 1.5, "\ufffd"]}


def test_real_argv_bytes_in_a_subprocess(indexed, tmp_path: Path) -> None:  # noqa: ANN001
    """The OS hands argv over as bytes: invalid UTF-8 in a real process, not a simulation."""
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    args = [os.fsencode(a) for a in drrag_cmd("search", "--mode", "bm25", "--json", "--")]
    run = subprocess.run([*args, b"Mara \xff\xfe Quint"], cwd=tmp_path, capture_output=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout.decode("utf-8"))
    assert data["query"] == "Mara \ufffd\ufffd Quint" and data["results"]
    run = subprocess.run([*args, b"\xff\xfe"], cwd=tmp_path, capture_output=True, env=env, timeout=120)
    assert run.returncode == 1 and run.stdout == b"" and len(run.stderr.splitlines()) == 1, run.stderr
