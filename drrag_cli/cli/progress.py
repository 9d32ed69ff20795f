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

    def __enter__(self) -> RichProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def phase(self, name: str, total: int | None) -> None:
        if self.task is not None:
            self.progress.update(self.task, completed=self.progress.tasks[-1].total or 0)
        self.task = self.progress.add_task(name, total=total, rate="")

    def advance(self, n: int = 1) -> None:
        self.progress.advance(self.task, n)
        task = self.progress.tasks[-1]
        if task.description.startswith("embedding") and task.elapsed:
            self.progress.update(self.task, rate=f"{task.completed / task.elapsed:.0f}/s")
