"""The turns of a warp-specialised kernel's consumer warpgroups at the tensor cores
(tile.turn_wait / tile.turn_pass on named barriers, the ping-pong schedule): balanced for
every trip count, one holder at a time, and unable to stall the mbarrier ring."""

from __future__ import annotations

from tilec.dialects.tile import schedule_of

from .solver import Outcome, structural as _structural
from .symbolic import Program


def check_turns(p: Program, stages: int) -> list[tuple[str, str, Outcome]]:
    """The consumer warpgroups' turns at the tensor cores (tile.turn_wait / tile.turn_pass on
    named barriers; none: no rows). Warpgroup g waits on barrier g and passes to barrier
    g + 1 mod W: one token goes round the ring. For every trip count and every g, the waits
    on barrier g equal the passes into it (each bar.sync completes, none is left over);
    each warpgroup's turn ops alternate wait, pass from its first wait, with the token put
    in (the last warpgroup's pass) before any wait: so one warpgroup holds the turn at a
    time and passes it on. A turn may span a wait on full[s]: that needs only the producer,
    whose wait on empty needs the releases of S iterations before, which the other
    warpgroups made in their earlier turns when S >= 2."""
    turns = [e for e in p.events if e.kind in ("turn_wait", "turn_pass")]
    if not turns:
        return []
    sched = schedule_of(p.fn)
    outside = [e for e in turns if e.data["role"] != "consumer" or e.loop not in ("", "main")]
    count = lambda kind, who, loop: sum(1 for e in turns if e.kind == kind and e.data["who"] == who and e.loop == loop)
    balanced = not outside and all(count("turn_wait", "all", loop) == count("turn_pass", "all", loop)
                                   for loop in ("", "main")) and \
        count("turn_wait", "first", "") == count("turn_pass", "last", "") and \
        count("turn_wait", "first", "main") == count("turn_pass", "last", "main") == 0
    rows = [("pipeline", f"the {sched.consumers} consumer warpgroups' turns balance: for every trip count, each named "
             f"barrier is waited on as often as it is passed to", _structural(
                 balanced, "a named barrier is waited on more or less often than it is passed to, or a turn op is "
                           "outside the consumers' straight line and main loop"))]
    # the order each warpgroup meets its turn ops in: straight line, the loop body (any count), straight line
    main = [i for i, e in enumerate(p.events) if e.loop == "main"]
    at = lambda e: p.events.index(e)
    before = [e for e in turns if e.loop == "" and (not main or at(e) < main[0])]
    body = [e for e in turns if e.loop == "main"]
    after = [e for e in turns if e.loop == "" and main and at(e) > main[-1]]
    kinds = lambda events: [e.kind.removeprefix("turn_") for e in events]
    token_first = bool(before) and before[0].kind == "turn_pass" and before[0].data["who"] == "last"
    sequence = kinds(before[1:] if token_first else before) + kinds(body) * 2 + kinds(after)
    alternate = token_first and all(k == ("wait", "pass")[n % 2] for n, k in enumerate(sequence[:-1])) and \
        sequence[-1:] == ["wait"] and after[-1].data["who"] == "first"
    rows.append(("races", "one warpgroup holds the turn at a time: the last warpgroup puts the token in first, then "
                 "each warpgroup waits and passes in alternation, and warpgroup 0 takes the token back at the end",
                 _structural(alternate, f"the turn ops run {['pass(last)'] if token_first else []} + {sequence}")))
    rows.append(("pipeline", f"a turn that spans a wait on full[s] cannot stall the ring: it has {stages} >= 2 stages",
                 _structural(stages >= 2, f"{stages} stage(s)")))
    return rows
