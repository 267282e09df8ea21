"""How measuring spends its budget: which candidates are timed, and how often.

A first pass times each candidate once, in the given order (the model's, best predicted
first), while the budget lasts: ``count`` candidates, or ``seconds`` of which the first pass
may use SCREEN_SHARE. Then the contenders, the first pass's best within CONTEND of it (at
most ``contenders``) and the first ALWAYS of the order, take turns for the other ``rounds`` - 1
rounds while the time lasts, so that the GPU's clock drift falls on all of them alike and the
winner's figure is a median.
Pure: ``time_one(name)`` does the timing and ``clock`` tells the time, so it runs anywhere.

    times = time_in_rounds(["c0", "c1"], time_one, count=None, seconds=60.0, rounds=3, contenders=8)
    # {"c0": [0.21, 0.20, 0.21], "c1": [0.35]}
"""

from __future__ import annotations

import statistics
import time

SCREEN_SHARE = 0.7   # of a time budget, what the first pass may take; the rest is for the other rounds
# after the first pass, a candidate within 25% of the best is timed again (one round of one
# candidate varied by up to 20% on the H200 under a long run of GEMMs, 2026-12-01) ...
CONTEND = 0.25
CONTENDERS = 10      # ... up to this many, and the first ALWAYS of the order whatever their first
ALWAYS = 3           # round said (the most power-hungry GEMMs measured 0.20 or 0.24 ms by round)


def time_in_rounds(names: list[str], time_one, count: int | None, seconds: float | None, rounds: int,
                   contenders: int = CONTENDERS, bar=None, clock=time.perf_counter, start: float | None = None,
                   spent: float = 0.0, time_round=None) -> dict[str, list[float]]:
    """{name: [milliseconds per round]} for the candidates timed (see the module's docstring);
    ``start`` is when the budget began (default: now) and ``spent`` what of it went before the
    first timing (a warm-up), left out of the time-left estimate; ``bar`` a Progress;
    ``time_round(names)`` times a round of contenders (default: time_one for each in turn;
    measure.py interleaves their launches)."""
    time_round = time_round or (lambda chosen: [time_one(name) for name in chosen])
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
    chosen += [s for s in names[:ALWAYS] if s in times and s not in chosen]
    # a round costs what the first pass took per candidate, then what the last round took
    cost = (clock() - start - spent) / max(len(times), 1) * len(chosen)
    for _ in range(rounds - 1):
        if not chosen or seconds is not None and clock() - start + cost > seconds:
            break
        round_start = clock()
        for name, ms in zip(chosen, time_round(chosen)):
            times[name].append(ms)
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
