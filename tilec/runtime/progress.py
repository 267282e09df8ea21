"""One progress line for long jobs (compiling candidates, measuring them): how many are done,
the best so far and the time left, redrawn in place on a terminal and printed a line at a
time elsewhere (a CI log). Standard library only: the GPU host's measure uses it too.

    bar = Progress("measure", total=30)
    bar.update(done=3, best="0.2031 ms  bm=128,bn=256", left=21.0)
    bar.close()
"""

from __future__ import annotations

import sys
import time


def parse_budget(text: str | None) -> tuple[int | None, float | None]:
    """``--budget``: ``N`` candidates or ``Ns`` seconds of GPU time -> (count, seconds), None
    where not given. Raises ValueError with the reason for anything else."""
    if text is None:
        return None, None
    value = text.strip()
    try:
        if value.endswith("s"):
            seconds = float(value[:-1])
            if seconds > 0:
                return None, seconds
        elif int(value) > 0:
            return int(value), None
    except ValueError:
        pass
    raise ValueError(f"--budget takes a number of candidates (30) or of GPU seconds (60s), not '{text}'")


class Progress:
    """A progress line on ``stream`` (stderr by default)."""

    def __init__(self, what: str, total: int, stream=None):
        self.what, self.total, self.stream = what, total, stream or sys.stderr
        self.start = time.perf_counter()
        self.live = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.width = 0

    def update(self, done: int, best: str | None = None, left: float | None = None, note: str | None = None) -> None:
        elapsed = time.perf_counter() - self.start
        line = f"{self.what} [{done:>{len(str(self.total))}}/{self.total}] {elapsed:5.1f} s"
        if left is not None:
            line += f", ~{left:.0f} s left"
        if best:
            line += f"; best {best}"
        if note:
            line += f"; {note}"
        if self.live:
            self.stream.write("\r" + line.ljust(self.width))
            self.width = max(self.width, len(line))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.live and self.width:
            self.stream.write("\n")
            self.stream.flush()
