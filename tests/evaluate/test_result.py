"""Rows per question type (evaluate/result.by_type): pure aggregation over records."""

from __future__ import annotations

from drrag_cli.evaluate.result import by_type, question_type


def _record(qtype: str, strategy: str, recall: float) -> dict:
    return {"qtype": qtype, "strategy": strategy, "k": 4, "recall": recall, "docs_fed": 4, "tokens_fed": 100,
            "timings": {"total_s": 0.1, "retrieve_s": 0.1}}


def test_musique_types_are_reported_by_hop_count() -> None:
    assert [question_type(t) for t in ("2hop", "3hop1", "3hop2", "4hop3", "bridge", "")] == [
        "2hop", "3hop", "3hop", "4hop", "bridge", ""]


def test_rows_per_type_in_the_runs_strategy_order() -> None:
    records = [_record("2hop", "cfs", 1.0), _record("3hop1", "cfs", 0.0), _record("3hop2", "cfs", 1 / 3),
               _record("2hop", "qdc", 0.5), _record("3hop2", "qdc", 2 / 3)]
    rows = by_type(records, ["qdc", "cfs"], [4])
    assert list(rows) == ["2hop", "3hop"]
    assert [(r["strategy"], r["recall"], r["n"]) for r in rows["3hop"]] == [("qdc", 0.6667, 1), ("cfs", 0.1667, 2)]
    assert [(r["strategy"], r["recall"], r["n"]) for r in rows["2hop"]] == [("qdc", 0.5, 1), ("cfs", 1.0, 1)]


def test_one_type_or_none_gives_no_breakdown() -> None:
    assert by_type([_record("2hop", "cfs", 1.0), _record("2hop", "cfs", 0.5)], ["cfs"], [4]) == {}
    assert by_type([_record("", "cfs", 1.0), {**_record("", "cfs", 0.0), "qtype": None}], ["cfs"], [4]) == {}
