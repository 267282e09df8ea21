"""The checks a tile.split_sum brings (split-K: S CTAs share an output tile's sum over K).

The op's value, in the value checks, is the sum of the parts written to its slot: the sum over
the whole of K (tile_values.py reads it so). These rows prove what makes that so, for every
size and program id, with c = (pid0, pid1) a CTA and its split family the S CTAs
(pid0, S * (pid1 / S) + s), s < S:

part       the part a CTA writes is its K loop's accumulator as the loop leaves it, once (at
           the top of the program, not under a condition): a map in between (an epilogue
           applied to a part) would sum wrongly
family     the family lies in the grid, writes c's slot, as part s, and stores c's output tile
alone      no other CTA writes that slot: (slot, part) names one CTA, so a slot gets its S
           parts once each and its count reaches S (``splits``) once
workspace  the slot and the part lie inside the launch's workspace (grid x * grid y / S
           slots of S parts; grid y is a multiple of S)
partition  the family's K ranges, [k_begin, k_begin + trip count) in K tiles, hold each
           k < K exactly once: the parts sum over the whole of K, each k once

The memory order of the op (each part's writes made visible before its count, the last CTA
reading after it) is the op's own meaning, run by the interpreter and the CPU model of the
CUDA text; it is not proved here.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.tile import schedule_of

from .solver import Outcome, prove
from .symbolic import Program

DOMAIN = "all shapes and program ids"


def split_event(p: Program):
    """The program's tile.split_sum event, or None."""
    return next((e for e in p.events if e.kind == "split_sum"), None)


def k_begin(p: Program):
    """The first K tile the main loop's first iteration multiplies: the split's, else 0."""
    e = split_event(p)
    return e.data["k_begin"] if e is not None else z3.IntVal(0)


def check_split(p: Program, size_k) -> list[tuple[str, str, Outcome, str]]:
    """(property, check, outcome, domain) rows of the program's tile.split_sum."""
    e = split_event(p)
    S = e.data["splits"]
    pid0, pid1 = (next(x for x in p.pids if str(x) == name) for name in ("pid0", "pid1"))
    slot, part, begin = e.data["slot"], e.data["part"], e.data["k_begin"]
    _, first, end, loop = p.loops["main"]
    store = next(x for x in p.events if x.kind == "store")
    offsets = store.data["offsets"]
    s, s2, q0, q1 = z3.Ints("s s' pid0' pid1'")
    member = lambda term, split: z3.substitute(term, (pid1, (pid1 / S) * S + split))
    watch = {"pid0": pid0, "pid1": pid1, "s": s, **p.params}
    rows = [("equivalence", *_part(e, loop), "every CTA (structural)")]

    inside = z3.And(member(pid1, s) >= 0, member(pid1, s) < p.grid[1])
    same = z3.And(member(slot, s) == slot, member(part, s) == s, *[member(o, s) == o for o in offsets])
    rows.append(("coverage", f"the {S} CTAs (pid0, {S} * (pid1 / {S}) + s) lie in the grid, write the CTA's "
                 "slot as part s and store its tile", prove(z3.And(inside, same), p.assumptions + [s >= 0, s < S],
                                                            watch=watch), DOMAIN))

    other = lambda term: z3.substitute(term, (pid0, q0), (pid1, q1))
    alone = z3.Implies(z3.And(other(slot) == slot, other(part) == part), z3.And(q0 == pid0, q1 == pid1))
    bounds = [q0 >= 0, q0 < p.grid[0], q1 >= 0, q1 < p.grid[1]]
    rows.append(("coverage", f"no other CTA writes the slot's part ((slot, part) names one CTA): its count "
                 f"reaches {S} once", prove(alone, p.assumptions + bounds, watch={**watch, "pid0'": q0, "pid1'": q1}),
                 DOMAIN))

    slots = p.grid[0] * (p.grid[1] / S)
    rows.append(("in-bounds", f"the slot and part lie inside the launch's workspace (grid x * grid y / {S} slots "
                 f"of {S} parts)", prove(z3.And(slot >= 0, slot < slots, part >= 0, part < S, p.grid[1] % S == 0),
                                         p.assumptions, watch=watch), DOMAIN))

    bk = schedule_of(p.fn).bk
    k = z3.Int("k")
    holds = lambda split: z3.And(k / bk >= member(begin, split), k / bk < member(begin, split) + member(end - first, split))
    some = z3.Or(*[holds(z3.IntVal(n)) for n in range(S)])
    once = z3.Implies(z3.And(s != s2, s >= 0, s < S, s2 >= 0, s2 < S), z3.Not(z3.And(holds(s), holds(s2))))
    rows.append(("coverage", f"each k < K lies in the K tiles of exactly one of the {S} parts of a slot",
                 prove(z3.And(some, once), p.assumptions + [k >= 0, k < size_k], watch={**watch, "k": k, "s'": s2}),
                 DOMAIN))
    return rows


def _part(e, loop) -> tuple[str, Outcome]:
    """The ``part`` row: the op writes the main loop's accumulator, once per CTA."""
    acc = e.op.operation.operands[0]
    from_loop = not isinstance(acc.owner, ir.Block) and acc.owner == loop.operation
    once = e.loop == "" and "guard" not in e.data
    ok = from_loop and once
    detail = "" if ok else ("the part written is not the K loop's accumulator" if not from_loop
                            else "the part is written inside a loop or under a condition")
    return ("each CTA writes its K loop's accumulator as its part of the slot, once",
            Outcome("proved" if ok else "counterexample", 0.0, {}, detail))
