"""The progress bar of `drrag index`: a long file's chunking gets a line of its own."""

from __future__ import annotations

from drrag_cli.cli.progress import RichProgress


def test_a_step_within_a_phase_has_its_own_line_until_it_ends() -> None:
    bar = RichProgress()  # not started: nothing is drawn, the tasks are still kept
    bar.phase("reading files", 3)
    bar.advance()
    bar.within("chunking big.txt", 37, 100)
    lines = [(t.description, t.completed) for t in bar.progress.tasks]
    assert lines == [("reading files", 1), ("chunking big.txt", 37)]
    bar.within("chunking big.txt", 100, 100)
    assert [t.description for t in bar.progress.tasks] == ["reading files"]
    bar.within("chunking bad.txt", 5, 100)  # a file that failed half-way: the next file's advance ends it
    bar.advance()
    assert [(t.description, t.completed) for t in bar.progress.tasks] == [("reading files", 2)]
