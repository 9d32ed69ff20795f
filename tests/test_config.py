"""config.example.yaml documents every key with its default; loading validates everything."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from drrag_cli.config import AnswerSettings, Settings, load_settings
from drrag_cli.errors import ConfigError

EXAMPLE = Path(__file__).resolve().parents[1] / "config.example.yaml"


def test_example_lists_every_key_with_its_default() -> None:
    import yaml

    raw = yaml.safe_load(EXAMPLE.read_text())
    defaults = Settings().to_dict()
    for section, expected in defaults.items():
        assert raw[section] == expected, section
    assert set(raw) == set(defaults)
    assert dataclasses.replace(load_settings(EXAMPLE), source="defaults") == Settings()


def test_replace_validates_like_the_file_and_never_mutates() -> None:
    s = Settings()
    nine = s.replace({"search.k": 9, "llm.temperature": 1})  # an int is a fine float
    assert (nine.search.k, nine.llm.temperature, s.search.k) == (9, 1.0, 5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.search.k = 9  # type: ignore[misc]
    with pytest.raises(ConfigError, match="'search.k'"):
        s.replace({"search.k": "9"})
    with pytest.raises(ConfigError, match="unknown"):
        s.replace({"search.nope": 1})
    with pytest.raises(ConfigError, match="must be at least 1"):
        s.replace({"retrieval.k": 0})
    with pytest.raises(ConfigError, match="must be at least 64"):
        s.replace({"llm.n_ctx": 8})
    with pytest.raises(ConfigError, match="unknown setting"):
        s.replace({"nosection.k": 1})
    assert s.replace({"answer.no_bias": 2}).answer.no_bias == 2.0 and s.answer.no_bias == "auto"
    with pytest.raises(ConfigError, match=r"'answer.no_bias'.*expected a number or auto \(got 'high'\)"):
        s.replace({"answer.no_bias": "high"})


@pytest.mark.parametrize(
    ("yaml_text", "needle"),
    [
        ("search:\n  mode: fuzzy\n", "'search.mode' in {path}: must be one of hybrid, bm25, dense (got 'fuzzy')"),
        ("retrieval:\n  first_stage: psychic\n", "'retrieval.first_stage' in {path}: must be one of"),
        ("retrieval:\n  cfs_rule: any\n", "'retrieval.cfs_rule' in {path}: must be one of first, best"),
        ("retrieval:\n  strategy: cfs+magic\n", "'retrieval.strategy' in {path}: unknown strategy 'magic'"),
        ("retrieval:\n  strategy: note+dslr\n", "'retrieval.strategy' in {path}: 'note+dslr': note"),
        ("refine:\n  empty: maybe\n", "'refine.empty' in {path}: must be one of keep-best, drop"),
        ("refine:\n  scorer: oracle\n", "'refine.scorer' in {path}: must be one of dense"),
        ("refine:\n  method: dsrl\n", "'refine.method' in {path}: must be one of none, dslr"),
        ("rewrite:\n  method: hyde\n", "'rewrite.method' in {path}: must be one of none, dmqr"),
        ("rewrite:\n  strategies: [gqr, xyz]\n", "'rewrite.strategies' in {path}: must be one of gqr, kwr"),
        ("rewrite:\n  strategies: []\n", "'rewrite.strategies' in {path} is empty"),
        ("rewrite:\n  strategies: [adaptive, kwr]\n", "adaptive picks the others itself"),
        ("classifier:\n  threshold: .nan\n", "'classifier.threshold' in {path}: must be a finite number (got nan)"),
        ("serve:\n  timeout: .inf\n", "'serve.timeout' in {path}: must be a finite number (got inf)"),
        ("refine:\n  threshold: -.inf\n", "'refine.threshold' in {path}: must be a finite number (got -inf)"),
        ("answer:\n  readers: [compare, nonsense]\n", "unknown reader 'nonsense' in 'answer.readers' in {path}"),
    ],
)
def test_every_choice_is_checked_when_the_file_is_loaded(tmp_path: Path, yaml_text: str, needle: str) -> None:
    path = tmp_path / "drrag.yaml"
    path.write_text(yaml_text)
    with pytest.raises(ConfigError) as info:
        load_settings(path)
    assert needle.format(path=path) in str(info.value) and "\n" not in str(info.value)


def test_empty_file_means_defaults(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text("# nothing\n")
    assert load_settings(tmp_path / "c.yaml").search == Settings().search


def test_a_config_path_that_is_no_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is not a file"):
        load_settings(tmp_path)  # a folder, like /dev/null: there, but nothing to read
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "missing.yaml")


def test_overrides_apply_after_the_file_and_none_means_not_given(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text("retrieval:\n  k: 6\n  strategy: qdc\n")
    s = load_settings(tmp_path / "c.yaml", {"retrieval.k": 3, "retrieval.strategy": None})
    assert (s.retrieval.k, s.retrieval.strategy, s.source) == (3, "qdc", str(tmp_path / "c.yaml"))
    with pytest.raises(ConfigError, match="'retrieval.k' in command-line options: must be at least 1"):
        load_settings(tmp_path / "c.yaml", {"retrieval.k": 0})


def test_a_nan_threshold_on_the_command_line_is_one_line(cli) -> None:  # noqa: ANN001
    """NaN passed every minimum (each comparison with it is False) and then decided nothing."""
    code, out, err = cli("ask", "x", "--threshold", "nan")
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "'classifier.threshold' in command-line options: must be a finite number (got nan)" in err


def test_answer_readers_switch_the_code_readers_and_compare_false_still_means_none(tmp_path: Path) -> None:

    assert Settings().answer.reader_names == AnswerSettings().readers
    path = tmp_path / "drrag.yaml"
    path.write_text("answer:\n  readers: []\n")
    assert load_settings(path).answer.reader_names == ()
    path.write_text("answer:\n  readers: [table, compare]\n")
    assert load_settings(path).answer.reader_names == ("table", "compare")
    path.write_text("answer:\n  compare: false\n")  # deprecated alias of readers: []
    assert load_settings(path).answer.reader_names == ()
