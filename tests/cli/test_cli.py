"""The real commands: output shapes, config errors, exit codes (0 ok, 1 user error)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest


def test_index_search_status_json(cli, corpus: Path) -> None:  # noqa: ANN001
    code, out, _ = cli("index", str(corpus), "--json")
    assert code == 0
    report = json.loads(out)
    assert set(report["files"]) == {"added", "updated", "unchanged", "removed", "skipped"}
    assert report["files"]["added"] == 6 and report["passages_embedded"] > 0
    assert {"passages_total", "seconds"} <= set(report)

    code, out, _ = cli("search", "Where was Mara Quint born?", "--json", "-k", "2")
    assert code == 0
    data = json.loads(out)
    assert data["mode"] == "hybrid" and len(data["results"]) == 2
    first = data["results"][0]
    assert set(first) >= {"rank", "score", "passage_id", "title", "source", "lines", "text"}
    assert "Tromsø" in first["text"] and first["lines"] == [1, 1]

    code, out, _ = cli("search", "observatory", "--mode", "bm25")
    assert code == 0 and "report.pdf (p. 1)" in out

    code, out, _ = cli("status", "--json")
    info = json.loads(out)
    assert code == 0 and info["files"] == 6 and info["embedding_model"].endswith("all-MiniLM-L6-v2")
    assert info["size_bytes"] > 0 and info["updated_at"]
    code, out, _ = cli("status")
    assert code == 0 and "passages" in out


def test_help_shows_examples(cli) -> None:  # noqa: ANN001
    for args in ([], ["index"], ["search"], ["status"]):
        code, out, _ = cli(*args, "--help")
        assert code == 0 and "Example" in out, args


def test_no_help_shows_a_developer_note(cli) -> None:  # noqa: ANN001
    """A long command's docstring says why after "Long:" (tests/test_structure.py), past the
    \\f that ends its help; neither the command list nor any command's help may show it."""
    import typer

    from drrag_cli.cli.main import app

    def paths(command: Any, at: tuple[str, ...] = ()) -> list[tuple[str, ...]]:  # noqa: ANN401 — a click command
        subs = getattr(command, "commands", {}).values()  # typer may vendor its own click: no isinstance
        return [at, *(p for sub in subs for p in paths(sub, (*at, sub.name or "")))]

    for args in paths(typer.main.get_command(app)):
        code, out, _ = cli(*args, "--help")
        assert code == 0 and "Long:" not in out, args


def test_help_wraps_to_the_terminal() -> None:
    """typer keeps a help text's single line breaks, so a docstring line longer than the
    terminal became a line and a one-word line at 80 columns ("Documents" / "are"). Every
    command's help paragraphs are one line each (rich wraps them), bar indented examples,
    and an epilog of several examples has one per line."""
    import typer

    from drrag_cli.cli.main import app

    def commands(command: Any) -> list[Any]:  # noqa: ANN401 — a click command
        subs = getattr(command, "commands", {}).values()  # typer may vendor its own click: no isinstance
        return [command, *(c for sub in subs for c in commands(sub))]

    for command in commands(typer.main.get_command(app)):
        help_text = (command.help or "").partition("\f")[0]
        for paragraph in help_text.strip().split("\n\n"):
            lines = paragraph.splitlines()
            assert len(lines) == 1 or all(line.startswith("  ") for line in lines[1:]), (command.name, paragraph)
        assert "  |  " not in (command.epilog or ""), command.name


@pytest.mark.parametrize(
    ("yaml_text", "needle"),
    [
        ("search:\n  kk: 3\n", "'search.kk'"),
        ("search:\n  k: three\n", "'search.k'"),
        ("serch:\n  k: 3\n", "unknown section 'serch'"),
        ("index:\n  exclude: .git\n", "'index.exclude'"),
        ("search: [1, 2\n", "not valid YAML"),
        ("search:\n  k: 3\nindex:\n  path: ix\nsearch:\n  mode: bm25\n",
         "line 5, column 1 is not valid YAML: 'search' is given twice (first on line 1)"),
        ("search:\n  k: 3\n  k: 5\n", "'k' is given twice (first on line 2)"),
        ("- just\n- a list\n", "mapping"),
    ],
)
def test_config_errors_name_key_and_file(cli, tmp_path: Path, yaml_text: str, needle: str) -> None:  # noqa: ANN001
    (tmp_path / "drrag.yaml").write_text(yaml_text)
    code, out, err = cli("status")
    assert code == 1 and out == ""
    assert needle in err and "drrag.yaml" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_config_file_values_apply_and_cli_overrides(cli, corpus: Path, tmp_path: Path) -> None:  # noqa: ANN001
    (tmp_path / "custom.yaml").write_text(f"index:\n  path: {tmp_path / 'alt'}\nsearch:\n  k: 1\n  mode: bm25\n")
    assert cli("index", str(corpus), "--config", str(tmp_path / "custom.yaml"), "--json")[0] == 0
    assert (tmp_path / "alt" / "CURRENT").exists()
    code, out, _ = cli("search", "Mara", "--config", str(tmp_path / "custom.yaml"), "--json")
    assert code == 0 and len(json.loads(out)["results"]) == 1 and json.loads(out)["mode"] == "bm25"
    code, out, _ = cli("search", "the project", "-c", str(tmp_path / "custom.yaml"), "-k", "3", "--json")
    assert len(json.loads(out)["results"]) == 3


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["search", "x"], "no index"),
        (["status"], "no index"),
        (["index", "does/not/exist"], "does not exist"),
        (["status", "--config", "missing.yaml"], "not found"),
        (["search"], "Missing argument"),
        (["bogus-command"], "No such command"),
    ],
)
def test_user_errors_exit_1_with_one_line(cli, args: list[str], needle: str) -> None:  # noqa: ANN001
    code, out, err = cli(*args)
    assert code == 1, err
    assert needle in err and "Traceback" not in err


def test_bad_search_options_and_empty_corpus(cli, corpus: Path, tmp_path: Path) -> None:  # noqa: ANN001
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = cli("index", str(empty))
    assert code == 1 and "no indexable text" in err
    assert cli("index", str(corpus), "--json")[0] == 0
    code, _, err = cli("search", "x", "--mode", "fuzzy")
    assert code == 1 and "'search.mode'" in err and "must be one of hybrid, bm25, dense" in err
    code, _, err = cli("search", "x", "-k", "0")
    assert code == 1 and "'search.k' in command-line options: must be at least 1" in err
    code, _, err = cli("index", str(corpus), "--chunk-words", "-5")
    assert code == 1 and "'index.chunk_words' in command-line options: must be at least 10" in err


def test_debug_shows_traceback(cli) -> None:  # noqa: ANN001
    from drrag_cli.errors import IndexMissingError

    with pytest.raises(IndexMissingError):
        cli("--debug", "status")


def test_an_error_while_the_model_loads_still_reaches_stderr() -> None:
    """llama.cpp's load silences fd 2 for the whole process: an error printed while the
    preload thread ran was lost (`drrag ask` exited 2 with nothing on stderr). The error
    path now waits for the load. A real subprocess, since only fd 2 shows it."""
    import subprocess
    import sys

    script = (
        "import threading, time\n"
        "from drrag_cli.llm.llm import PRELOAD_THREAD\n"
        "from drrag_cli.llm.perf import quiet_stderr\n"
        "from drrag_cli.cli.main import main\n"
        "def load():\n"
        "    with quiet_stderr():\n"
        "        time.sleep(1.0)\n"
        "threading.Thread(target=load, name=PRELOAD_THREAD, daemon=True).start()\n"
        "time.sleep(0.1)\n"
        "raise SystemExit(main(['status', '--index', '/nonexistent/drrag-index']))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stderr.startswith("drrag: error: ") and len(run.stderr.strip().splitlines()) == 1
