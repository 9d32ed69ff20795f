"""The README is a manual: its commands exist with the flags it shows, `.ci/run` runs its two
set-up commands, and it and the docs stay short, dated nowhere, and linked to files that exist."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"^```")
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
DRRAG = re.compile(r"(?:^|\s|\$ )(?:\.venv/bin/)?drrag\s")


def code_blocks(text: str) -> list[list[str]]:
    """The lines of each fenced block, in order."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if FENCE.match(line):
            if current is None:
                current = []
            else:
                blocks.append(current)
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def prose(text: str) -> list[str]:
    """The lines outside fenced blocks."""
    outside, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
        elif not inside:
            outside.append(line)
    return outside


def commands(lines: list[str]) -> list[str]:
    """Shell commands with their `\\`-continued lines joined."""
    joined: list[str] = []
    pending = ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1].strip() + " "
            continue
        joined.append((pending + line.strip()).strip())
        pending = ""
    return [c for c in joined if c]


def drrag_calls(command: str) -> list[list[str]]:
    """Each `drrag ...` invocation in a shell command, as its words after `drrag`, up to a pipe,
    `&&`, `;` or a comment."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars="|&;")
    lexer.whitespace_split = True
    words = list(lexer)
    calls: list[list[str]] = []
    current: list[str] | None = None
    for word in words:
        if word in {"|", "||", "&&", "&", ";"}:
            current = None
        elif current is not None:
            current.append(word)
        elif word in {"drrag", ".venv/bin/drrag"}:
            current = []
            calls.append(current)
    return calls


def readme_calls() -> list[list[str]]:
    calls: list[list[str]] = []
    for block in code_blocks(README.read_text(encoding="utf-8")):
        shell = [line.removeprefix("$ ") for line in block if DRRAG.search(line)]
        for command in commands(shell):
            calls += drrag_calls(command)
    return calls


# click's classes, duck-typed: typer may vendor its own copy of click (0.29+)
Command = Any


def command_for(root: Command, words: list[str]) -> tuple[Command, list[str]]:
    """The (sub)command the words name, and the words after it."""
    command = root
    rest = list(words)
    while getattr(command, "commands", None) and rest and rest[0] in command.commands:
        command = command.commands[rest.pop(0)]
    return command, rest


def options(command: Command) -> set[str]:
    names = {"--help", "-h"}
    for param in command.params:
        if param.param_type_name == "option":
            names.update(param.opts)
            names.update(param.secondary_opts)
    return names


@pytest.fixture(scope="module")
def cli() -> Command:
    from drrag_cli.cli.main import app

    group = typer.main.get_command(app)
    assert group.commands, "the drrag app has no commands"
    return group


def test_readme_names_real_commands_and_flags(cli: Command) -> None:
    calls = readme_calls()
    assert len(calls) >= 20, "the README's code blocks should show the commands"
    missing = []
    for words in calls:
        command, rest = command_for(cli, words)
        if command is cli:
            missing.append(f"drrag {' '.join(words)}: no such command")
            continue
        known = options(command) | options(cli)  # --debug / --version are global
        for word in rest:
            flag = word.split("=", 1)[0]
            if flag.startswith("-") and flag not in {"-", "--"} and flag not in known:
                missing.append(f"drrag {command.name} has no {flag} (README: drrag {' '.join(words)})")
    assert not missing, "\n".join(missing)


def test_every_command_group_is_in_the_readme(cli: Command) -> None:
    shown = {words[0] for words in readme_calls() if words}
    hidden = {name for name, cmd in cli.commands.items() if not cmd.hidden}
    assert hidden - shown == set(), f"commands the README never shows: {sorted(hidden - shown)}"


def test_ci_runs_the_readme_commands() -> None:
    setup = next(b for b in code_blocks(README.read_text(encoding="utf-8")) if any("pip install" in x for x in b))
    readme = [c for c in commands(setup) if not c.startswith("#")]
    ci = commands((ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines())
    assert len(readme) == 2, readme
    for command in readme:
        assert command in ci, f".ci/run does not run the README's: {command}"


def test_readme_is_short_undated_and_in_lines_a_terminal_shows() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    long = [line for line in prose(text) if len(line) > 120]
    assert not long, long
    assert not DATE.search(text)


@pytest.mark.parametrize("name", ["BENCHMARKS.md", "SCALING.md", "RETRIEVAL.md", "ANSWERS.md", "HOSTILE.md"])
def test_docs_carry_no_dates(name: str) -> None:
    path = ROOT / "docs" / name
    if path.exists():
        assert not DATE.search(path.read_text(encoding="utf-8")), f"docs/{name} holds a date: history is git's"


def test_benchmarks_doc_is_a_current_table() -> None:
    lines = (ROOT / "docs" / "BENCHMARKS.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 400
    head = "\n".join(lines[:20])
    assert "benchmarks/run_all.sh" in head and "|---|" in head


def test_readme_links_exist() -> None:
    text = README.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if "://" not in target:
            assert (ROOT / target).exists(), f"README links to a missing file: {target}"
