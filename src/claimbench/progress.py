"""A progress bar for runs: done/total, ETA, failures so far (rich on a terminal, lines otherwise)."""
from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, title: str, slugs: list[str] | None = None) -> None:
        self.total, self.title = total, title
        # Cells left per benchmark, so a plain line can say which are done and which runs.
        self._left: dict[str, int] = {}
        for s in slugs or ():
            self._left[s] = self._left.get(s, 0) + 1
        self.done = self.failed = 0
        self._bar = None
        self._last_line = 0.0
        self._t0 = time.monotonic()

    def __enter__(self) -> "Progress":
        if self.total and sys.stderr.isatty():
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress,
                                       TextColumn, TimeElapsedColumn, TimeRemainingColumn)

            self._bar = RichProgress(TextColumn("{task.description}"), BarColumn(),
                                     MofNCompleteColumn(), TextColumn("failures: {task.fields[failed]}"),
                                     TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                                     transient=False)
            self._bar.__enter__()
            self._task = self._bar.add_task(self.title, total=self.total, failed=0)
        return self

    def update(self, planned, res: dict) -> None:
        self.done += 1
        slug = getattr(getattr(planned, "cell", None), "slug", None)
        if slug in self._left:
            self._left[slug] -= 1
        if res["status"] not in ("ok", "not_applicable"):
            self.failed += 1
        if self._bar is not None:
            self._bar.update(self._task, advance=1, failed=self.failed)
            return
        now = time.monotonic()
        if now - self._last_line > 10 or self.done == self.total:
            self._last_line = now
            rate = (now - self._t0) / self.done
            eta = rate * (self.total - self.done)
            where = ""
            if self._left:
                finished = sum(1 for n in self._left.values() if n == 0)
                where = f", {finished}/{len(self._left)} benchmarks done"
                if slug and self._left.get(slug, 0) > 0:
                    where += f", now {slug}"
            print(f"[{self.title}] {self.done}/{self.total} cells{where}, {self.failed} failures, "
                  f"ETA {eta:.0f} s", file=sys.stderr, flush=True)

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)
