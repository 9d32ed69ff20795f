"""config.example.yaml documents every key with its default; loading validates types."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from drrag_cli.config import Settings, load_settings
from drrag_cli.errors import ConfigError

EXAMPLE = Path(__file__).resolve().parents[1] / "config.example.yaml"


def test_example_lists_every_key_with_its_default() -> None:
    import yaml

    raw = yaml.safe_load(EXAMPLE.read_text())
    defaults = Settings()
    for section in dataclasses.fields(Settings):
        if section.name == "source":
            continue
        expected = dataclasses.asdict(getattr(defaults, section.name))
        assert raw[section.name] == expected, section.name
    loaded = load_settings(EXAMPLE)
    loaded.source = "defaults"
    assert loaded == defaults


def test_set_validates_like_the_file() -> None:
    s = Settings()
    s.set("search.k", 9)
    assert s.search.k == 9
    s.set("llm.temperature", 1)  # an int is a fine float
    assert s.llm.temperature == 1.0
    with pytest.raises(ConfigError, match="'search.k'"):
        s.set("search.k", "9")
    with pytest.raises(ConfigError, match="unknown"):
        s.set("search.nope", 1)
    with pytest.raises(ConfigError, match="must be at least 1"):
        s.set("retrieval.k", 0)
    with pytest.raises(ConfigError, match="must be at least 64"):
        s.set("llm.n_ctx", 8)
    with pytest.raises(ConfigError, match="unknown setting"):
        s.set("nosection.k", 1)


def test_empty_file_means_defaults(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text("# nothing\n")
    assert load_settings(tmp_path / "c.yaml").search == Settings().search
