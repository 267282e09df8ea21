"""The turns of a warp-specialised kernel's consumer warpgroups: attention's at the tensor
cores (tile.turn_wait / tile.turn_pass on named barriers, the ping-pong schedule): balanced
for every trip count, one holder at a time, and unable to stall the mbarrier ring; and a
ping-pong contraction's at the ring (an mbarrier token, check_ring_turns)."""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.tile import encloses, schedule_of

from tilec.verify.solver import Outcome, prove, structural as _structural
from tilec.verify.symbolic import Program


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


def check_ring_turns(p: Program, full, empty) -> list[tuple[str, str, Outcome]]:
    """The turns at the mbarrier ring of consumer warpgroups that each run on their own (a
    ping-pong contraction; none: no rows). An mbarrier wait names a phase by its parity only,
    so it is right only if the barrier is at most one phase behind: a warpgroup whose first
    wait on full comes before the other warpgroups' waits of the iterations before it may
    pass on a phase two behind. So the waits on full are ordered by a token, a barrier array
    ``turn`` of W stages, each counting one warpgroup's warps:

    - warpgroup g, at the CTA's n-th tile (n = g + W m), waits on turn[g] before its first
      wait on full, and arrives on turn[(g + 1) mod W] after its last one, both in its tile
      loop, unguarded;
    - only warpgroup g - 1 arrives on turn[g], once per tile: its arrive after tile n - 1 is
      its ((n - 1) div W)-th and completes that phase, for which the wait at tile n asks (a
      fresh barrier passes the wait at tile 0, parity 1); and turn[g] cannot run a phase
      ahead, as warpgroup g - 1 arrives again only after g has passed it the token round.

    By induction on n, tile n's waits on full come after every wait of tiles before it: the
    waits on full run in ring order, as one consumer's would, and the ring's facts hold."""
    if p.warpgroups < 2:
        return []
    w, wg = p.warpgroups, p.wg
    cons = [e for e in p.events if e.data.get("role") == "consumer"]
    turns = [e for e in cons if e.kind in ("wait", "arrive") and e.data["bar"] not in (full, empty)]
    bars = {e.data["bar"] for e in turns}
    waits = [e for e in turns if e.kind == "wait"]
    arrives = [e for e in turns if e.kind == "arrive"]
    if len(bars) != 1 or len(waits) != 1 or len(arrives) != 1:
        return [("pipeline", f"the {w} consumer warpgroups on their own take turns at the ring (a wait and an arrive "
                 f"per tile on one barrier array)", _structural(False, f"{len(waits)} turn waits and {len(arrives)} "
                                                                      f"turn arrives on {len(bars)} barrier arrays"))]
    turn, wait, arrive = next(iter(bars)), waits[0], arrives[0]
    rows = []
    shape = ir.MemRefType(turn.type).shape[0]
    arrivals = ir.IntegerAttr(turn.owner.attributes["arrivals"]).value
    warps = schedule_of(p.fn).warps // w
    rows.append(("pipeline", f"the turn barrier has a stage per warpgroup ({w}) and counts one warpgroup's warps "
                 f"({warps})", _structural(shape == w and arrivals == warps,
                                           f"{shape} stages counting {arrivals} arrivals")))
    tile_loop = p.loops["tiles'"][3]
    inside = lambda e: encloses(tile_loop, e.op) and "guard" not in e.data and e.loop == ""
    main = [i for i, e in enumerate(p.events) if e.loop == "main" and e.kind == "wait" and e.data["bar"] == full]
    at = p.events.index
    producer_uses = any(e.data.get("bar") == turn for e in p.events if e.data.get("role") == "producer")
    ordered = bool(main) and inside(wait) and inside(arrive) and at(wait) < main[0] and at(arrive) > main[-1] \
        and not producer_uses
    rows.append(("races", "each warpgroup waits for its turn before its first wait on full and passes it on after its "
                 "last, once per tile, in its tile loop", _structural(ordered, "a turn op is outside the tile loop, "
                                                                               "guarded, or not around the waits on full")))
    stages = prove(z3.And(wait.data["stage"] == wg, arrive.data["stage"] == (wg + 1) % w), p.assumptions,
                   watch={"wg": wg})
    rows.append(("pipeline", f"warpgroup g waits on turn[g] and arrives on turn[(g + 1) mod {w}]", stages))
    tile, lb, _, _, step = p.loops["tiles"]
    n = z3.Int("n")
    nth = lambda x: z3.substitute(x, (tile, lb + n * step), (wg, n % w))
    want = z3.If(n == 0, 1, ((n - 1) / w) % 2)
    rows.append(("pipeline", f"at the CTA's n-th tile the wait is for phase (n - 1) div {w} of turn[n mod {w}] "
                 "(tile 0: parity 1, which a fresh barrier passes)",
                 prove(nth(wait.data["parity"]) == want, p.assumptions + [n >= 0, step >= 1],
                       watch={"n": n, "parity": nth(wait.data["parity"]), **p.params})))
    return rows
