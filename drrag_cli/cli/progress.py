"""Progress bars on stderr (rich): index builds and eval runs."""

from __future__ import annotations

from drrag_cli.cli.common import stderr_console


class RichProgress:
    """Rich progress bar on stderr; silent when stderr is not a terminal."""

    def __init__(self) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn("{task.description:<20}"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=stderr_console(),
            transient=False,
        )
        self.task = None
        self.step = None  # the line of a long step within the phase (a large file's chunking)

    def __enter__(self) -> RichProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def phase(self, name: str, total: int | None) -> None:
        self._end_step()
        if self.task is not None:
            self.progress.update(self.task, completed=self.progress.tasks[-1].total or 0)
        self.task = self.progress.add_task(name, total=total, rate="")

    def advance(self, n: int = 1) -> None:
        self._end_step()  # one that ended early: a file that failed half-way
        self.progress.advance(self.task, n)
        task = self.progress.tasks[-1]
        if task.description.startswith("embedding") and task.elapsed:
            self.progress.update(self.task, rate=f"{task.completed / task.elapsed:.0f}/s")

    def within(self, what: str, done: int, total: int) -> None:
        """A long step of the phase (one large file's chunking) on a line of its own under
        the phase's, in percent with its time left, gone when it ends (done == total)."""
        if done >= total:
            self._end_step()
            return
        if self.step is None:
            self.step = self.progress.add_task(what, total=100, rate="")
        self.progress.update(self.step, completed=done * 100 // max(total, 1), description=what)

    def _end_step(self) -> None:
        if self.step is not None:
            self.progress.remove_task(self.step)
            self.step = None
