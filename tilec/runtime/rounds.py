"""How measuring spends its budget: which candidates are timed, and how often.

A first pass times each candidate once, in the given order (the model's, best predicted
first), while the budget lasts: ``count`` candidates, or ``seconds`` of which the first pass
may use SCREEN_SHARE. Then the contenders, the first pass's best within CONTEND of it (at
most ``contenders``), take turns for the other ``rounds`` - 1 rounds while the time lasts, so
that the GPU's clock drift falls on all of them alike and the winner's figure is a median.
Pure: ``time_one(name)`` does the timing and ``clock`` tells the time, so it runs anywhere.

    times = time_in_rounds(["c0", "c1"], time_one, count=None, seconds=60.0, rounds=3, contenders=8)
    # {"c0": [0.21, 0.20, 0.21], "c1": [0.35]}
"""

from __future__ import annotations

import statistics
import time

SCREEN_SHARE = 0.7   # of a time budget, what the first pass may take; the rest is for the other rounds
CONTEND = 0.10       # after the first pass, a candidate within 10% of the best is timed again ...
CONTENDERS = 8       # ... up to this many


def time_in_rounds(names: list[str], time_one, count: int | None, seconds: float | None, rounds: int,
                   contenders: int = CONTENDERS, bar=None, clock=time.perf_counter, start: float | None = None,
                   spent: float = 0.0) -> dict[str, list[float]]:
    """{name: [milliseconds per round]} for the candidates timed (see the module's docstring);
    ``start`` is when the budget began (default: now) and ``spent`` what of it went before the
    first timing (a warm-up), left out of the time-left estimate; ``bar`` a Progress."""
    start = clock() if start is None else start
    limit = min(len(names), count or len(names))
    times: dict[str, list[float]] = {}
    for n, name in enumerate(names[:limit]):
        if seconds is not None and clock() - start >= seconds * SCREEN_SHARE:
            break
        times[name] = [time_one(name)]
        if bar:
            per = (clock() - start - spent) / (n + 1)
            left = per * (limit - n - 1 + min(contenders, n + 1) * (rounds - 1))
            bar.update(n + 1, best(times), min(left, seconds - (clock() - start)) if seconds else left)
    ranked = sorted(times, key=lambda s: times[s][0])
    chosen = [s for s in ranked[:max(contenders, 1)] if times[s][0] <= times[ranked[0]][0] * (1 + CONTEND)]
    # a round costs what the first pass took per candidate, then what the last round took
    cost = (clock() - start - spent) / max(len(times), 1) * len(chosen)
    for _ in range(rounds - 1):
        if not chosen or seconds is not None and clock() - start + cost > seconds:
            break
        round_start = clock()
        for name in chosen:
            times[name].append(time_one(name))
        cost = clock() - round_start
    if bar:
        if times:
            bar.update(len(times), best(times), 0.0)
        bar.close()
    return times


def best(times: dict) -> str:
    """The best so far, as the progress line shows it."""
    name = min(times, key=lambda s: statistics.median(times[s]))
    return f"{statistics.median(times[name]):.4f} ms  {name}"
