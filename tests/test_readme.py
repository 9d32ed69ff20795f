"""`.ci/run` must run exactly the README's two set-up commands."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_commands() -> None:
    readme = (ROOT / "README.md").read_text().splitlines()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    install = next(line for line in readme if line.startswith("python3 -m venv .venv &&"))
    tests = next(line for line in readme if line.startswith(".venv/bin/ruff check"))
    assert install in ci and tests in ci
