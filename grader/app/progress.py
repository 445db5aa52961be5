"""Progress on long work: a bar on a terminal (tqdm), and a summary line at the end always.

Every long command (batch, validate, benchmark) reports the same way: the bar only where a
person watches (stderr is a terminal and --no-progress was not given), the summary line on
stderr whatever stderr is, so a log or a cron mail says what happened too.
"""
from __future__ import annotations

import sys
import time
from collections import Counter
from typing import IO, Any

from tqdm import tqdm


class Progress:
    """Counts puzzles by how they ended, and shows a bar while it runs when enabled."""

    def __init__(self, total: int, enabled: bool, stream: IO[str] | None = None, what: str = "grading") -> None:
        self.stream = stream or sys.stderr
        self.total, self.enabled = total, enabled and total > 0
        self.status: Counter[str] = Counter()
        self.t0 = time.monotonic()
        self.bar = tqdm(total=total, desc=what, unit=" puzzles", file=self.stream, disable=not self.enabled,
                        dynamic_ncols=True, leave=False)

    @property
    def done(self) -> int:
        return sum(self.status.values())

    @property
    def errors(self) -> int:
        return self.status["error"] + self.status["timeout"]

    def update(self, row: dict[str, Any]) -> None:
        self.status[row.get("status", "error")] += 1
        self.bar.update(1)
        if self.errors:
            self.bar.set_postfix_str(f"{self.errors} failed", refresh=False)

    def finish(self) -> None:
        self.bar.close()

    def summary(self, already: int = 0) -> str:
        """One line: how many were graded and how they ended, and how long it took."""
        solved = self.status["solved"]
        line = (f"graded {self.done} puzzles in {time.monotonic() - self.t0:.1f} s: {solved} solved, "
                f"{self.done - solved - self.errors} not solved, {self.errors} failed")
        return line + (f" ({already} were already done)" if already else "")

    def report(self, already: int = 0) -> None:
        print(self.summary(already), file=self.stream, flush=True)
