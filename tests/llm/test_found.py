"""The GGUF models Ollama, LM Studio and the Hugging Face cache keep: found, listed, and
answered with by name (the stores: tests/llm/stores.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drrag_cli.errors import ModelError
from drrag_cli.llm.found import discover, resolve
from drrag_cli.llm.gguf import read_header
from drrag_cli.llm.llm import default_model_path
from tests.llm.stores import build_stores


@pytest.fixture(scope="module")
def gguf() -> Path:
    return default_model_path()


@pytest.fixture()
def stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gguf: Path) -> dict[str, Path]:
    return build_stores(tmp_path, monkeypatch, gguf)


def test_the_header_is_read_without_loading_the_model(gguf: Path, tmp_path: Path) -> None:
    header = read_header(gguf)
    assert (header.architecture, header.quantisation, header.size_label) == ("gemma3", "Q4_K_M", "270M")
    assert 250e6 < header.parameters < 300e6 and header.split == 0
    text = tmp_path / "notes.gguf"
    text.write_text("not a model")
    with pytest.raises(ValueError, match="notes.gguf has no readable GGUF header"):
        read_header(text)


def test_each_store_s_model_is_found_and_what_cannot_be_used_is_one_line(stores: dict[str, Path]) -> None:
    found = discover()
    assert {m.ref: m.path for m in found.models} == {
        "ollama:tiny:latest": stores["ollama"], "lmstudio:acme/tiny-GGUF": stores["lmstudio"],
        "hf:acme/tiny-GGUF": stores["hf"],
    }  # fmt: skip
    assert all(m.header and m.header.architecture == "gemma3" for m in found.models)
    lines = sorted(found.skipped)
    assert len(lines) == 3 and all("\n" not in line for line in lines)
    assert lines[0].startswith("ollama:broken:1b: manifest ") and "not readable" in lines[0]
    assert lines[1].startswith("ollama:ghost:1b: its model blob ") and "missing" in lines[1]
    assert lines[2].startswith("ollama:tensors:1b: stored as non-GGUF tensor layers")


def test_a_model_is_used_by_its_source_and_name_or_a_unique_name(stores: dict[str, Path]) -> None:
    assert resolve("ollama:tiny:latest") == resolve("ollama:tiny") == resolve("tiny") == stores["ollama"]
    assert resolve("lmstudio:acme/tiny-GGUF") == stores["lmstudio"] and resolve("hf:acme/tiny-GGUF") == stores["hf"]
    with pytest.raises(ModelError, match="names 2 models .lmstudio:acme/tiny-GGUF, hf:acme/tiny-GGUF."):
        resolve("acme/tiny-GGUF")
    with pytest.raises(ModelError, match="no GGUF file or found model named 'ollama:ghost:1b'"):
        resolve("ollama:ghost:1b")


def test_models_list_shows_the_found_models_and_the_skipped(cli, stores: dict[str, Path]) -> None:  # noqa: ANN001
    code, out, _ = cli("models", "list", "--json")
    listed = json.loads(out)
    assert code == 0 and [m["ref"] for m in listed["found"]] == ["ollama:tiny:latest", "lmstudio:acme/tiny-GGUF",
                                                                  "hf:acme/tiny-GGUF"]  # fmt: skip
    assert listed["found"][0]["quantisation"] == "Q4_K_M" and len(listed["skipped"]) == 3
    code, out, _ = cli("models", "list")
    assert code == 0 and "ollama:tiny:latest  found  0.3 GB, gemma3 270M, Q4_K_M" in out
    assert "skipped ollama:ghost:1b" in out


def test_ask_answers_with_a_found_model_by_name(cli, stores: dict[str, Path], corpus: Path) -> None:  # noqa: ANN001
    """The model answers (no reader may: answer.readers []), once, from each store's file."""
    config = corpus.parent / "drrag.yaml"
    config.write_text(f"index:\n  path: {corpus.parent / 'ix'}\nanswer:\n  readers: []\n")
    assert cli("index", str(corpus), "--config", str(config), "--json")[0] == 0
    for ref, source in [("ollama:tiny", "ollama"), ("lmstudio:acme/tiny-GGUF", "lmstudio"),
                        ("hf:acme/tiny-GGUF", "hf")]:  # fmt: skip
        code, out, err = cli("ask", "What is Osprey?", "--model", ref, "--config", str(config), "--json")
        assert code == 0, err
        result = json.loads(out)
        assert result["llm_calls"] == 1 and result["model"] == str(stores[source]), ref
    code, _, err = cli("ask", "What is Osprey?", "--model", "ollama:nothing", "--config", str(config))
    assert code == 1 and err.startswith("drrag: error: no GGUF file or found model named 'ollama:nothing'")
    assert len(err.strip().splitlines()) == 1
