"""`drrag models` and `drrag doctor` with the real embedded models."""

from __future__ import annotations

import json
from pathlib import Path


def test_models_json(cli) -> None:  # noqa: ANN001
    code, out, _ = cli("models", "--json")
    assert code == 0
    info = json.loads(out)
    assert info["embedding"]["model_id"].endswith("all-MiniLM-L6-v2")
    assert info["llm"]["embedded"] is True
    assert info["classifier"]["shipped"] is True and 0 < info["classifier"]["threshold"] < 1


def test_doctor_ok_with_index_and_fails_without(cli, corpus: Path) -> None:  # noqa: ANN001
    code, out, err = cli("doctor", "--json")
    assert code == 1 and "index" in err  # everything but the index is fine
    report = json.loads(out)
    assert [c["check"] for c in report["checks"] if not c["ok"]] == ["index"]
    assert cli("index", str(corpus), "--json")[0] == 0
    code, out, _ = cli("doctor", "--json")
    assert code == 0 and json.loads(out)["ok"] is True
