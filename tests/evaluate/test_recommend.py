"""`drrag models recommend`: every model on the machine answers the shipped probes for real
(the embedded one, and one found in another tool's stores, measured once for its three
links); the pick is pure logic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drrag_cli.evaluate.recommend import choose, probes
from drrag_cli.llm.llm import default_model_path
from tests.llm.stores import build_stores


def test_the_pick_is_the_most_right_within_the_budget_else_the_fastest() -> None:
    rows = [
        {"name": "small", "right": 2, "asked": 4, "median_s": 1.0},
        {"name": "big", "right": 4, "asked": 4, "median_s": 9.0},
        {"name": "mid", "right": 3, "asked": 4, "median_s": 4.0},
        {"name": "mid-fast", "right": 3, "asked": 4, "median_s": 3.0},
        {"name": "cut", "right": 1, "asked": 2, "median_s": 2.0, "stopped": "too slow"},
        {"name": "big-file", "skipped": "no memory"},
    ]
    assert choose(rows, 5.0)["name"] == "mid-fast"
    assert choose(rows, 10.0)["name"] == "big"
    assert choose(rows, 0.5)["name"] == "small"  # none within: the fastest
    assert choose([{"name": "x", "skipped": "no memory"}], 5.0) is None


def test_the_probes_are_two_document_questions_with_what_cfs_feeds() -> None:
    asked = probes()
    assert len(asked) == 12 and probes(3) == asked[:3]
    assert all(p["question"] and p["answer"] and len(p["passages"]) >= 2 for p in asked)


def test_recommend_measures_each_model_once_and_names_its_setting(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch  # noqa: ANN001
) -> None:
    from drrag_cli import models

    build_stores(tmp_path, monkeypatch, default_model_path())
    monkeypatch.setattr(models, "installed", lambda: [])  # a developer's installed catalogue model stays out
    code, out, err = cli("models", "recommend", "--questions", "2", "--budget", "600", "--json")
    assert code == 0, err
    report = json.loads(out)
    names = [row["name"] for row in report["rows"]]
    assert names == ["embedded", "ollama:tiny:latest"]  # LM Studio's and HF's are links to the same file
    assert all(row["asked"] == 2 and row["median_s"] > 0 and row["load_s"] > 0 for row in report["rows"])
    assert report["best"] in names and report["within_budget"] and len(report["skipped_found"]) == 3
    assert report["model_path"] == ("" if report["best"] == "embedded" else "ollama:tiny:latest")
    code, out, _ = cli("models", "recommend", "--questions", "1", "--budget", "600")
    assert code == 0 and "recommended: " in out and ("1/1 right" in out or "0/1 right" in out)
