"""The launch raster of a tile function (dialects/raster.py): a bijection onto the program ids.

Every other check speaks of program ids (pid0, pid1) ranging over the grid. A kernel with a
``tile.raster`` is launched as one dimension of blocks x batch CTAs, and CTA L runs the
program ids the raster gives it. Those checks therefore hold for the launched kernel when
the raster maps [0, blocks * batch) one to one onto [0, blocks) x [0, batch):

range      every CTA's program ids lie in the grid;
injective  two CTAs never run the same pair.

An injective map between two finite sets of one size is onto, so each pair is run exactly
once. The raster's own function is evaluated on Z3 integers, blocks, batch and the group
symbolic: the same function the emitter prints. The function clamps the group to [1, batch]
itself, so the group's dim expression need not be read (the kernel may compute it in wrapping
32-bit arithmetic); the check proves the clamp lands there, and the decode one to one for any
group there.
"""

from __future__ import annotations

import z3

from tilec.dialects.raster import ATTR, raster_of

from .solver import Outcome, prove

# the raster divides by products of the grid sizes (nonlinear integer arithmetic): when Z3
# cannot settle it for every size, it is proved for grids up to this many blocks and batch elements
BOUND = 4096


def check_raster(fn) -> list[tuple]:
    """(property, check, outcome, domain) rows of ``fn``'s raster; none without one, one
    ``error`` for a malformed attribute."""
    try:
        raster = raster_of(fn)
    except ValueError as err:
        return [("coverage", f"the launch raster ({ATTR}) can be read", Outcome("error", 0.0, {}, str(err)),
                 "the attribute")]
    if raster is None:
        return []
    blocks, batch, group, cta, cta2 = z3.Ints("blocks batch group cta cta'")
    used = z3.Int("G")  # the group the raster settles on, taken apart from its clamping (below)
    clamped = []

    def bind(name, value):
        if name != "group":
            return value
        clamped.append(value)
        return used

    ids = lambda linear: raster.program_ids(linear, blocks, batch, group, lambda a, b: a / b, z3.If,  # noqa: E731
                                            bind)
    (p0, p1), (q0, q1) = ids(cta), ids(cta2)
    launched = lambda linear: z3.And(linear >= 0, linear < blocks * batch)  # noqa: E731
    # the clamp gives a group in [1, batch] whatever the dim expression's value (wrapped, divided
    # by zero: the kernel computes it in 32 bits); for any such group the decode is one to one
    claim = z3.And(z3.And(*[z3.And(v >= 1, v <= batch) for v in clamped]),
                   z3.Implies(z3.And(used >= 1, used <= batch),
                              z3.And(p0 >= 0, p0 < blocks, p1 >= 0, p1 < batch,
                                     z3.Implies(z3.And(launched(cta2), cta != cta2), z3.Or(p0 != q0, p1 != q1)))))
    facts = [blocks >= 1, batch >= 1, launched(cta)]
    watch = {"blocks": blocks, "batch": batch, "group": group, "G": used, "cta": cta, "cta'": cta2, "pid0": p0,
             "pid1": p1}
    check = (f"the launch raster (heavy-first, groups of {raster.group}) runs each program id pair of the grid "
             "exactly once: CTA L's pids lie in the grid and no two CTAs share them (any group size)")
    outcome = prove(claim, facts, budget=20_000_000, watch=watch)
    if outcome.verdict != "unknown":
        return [("coverage", check, outcome, "all grid sizes")]
    bounded = prove(claim, facts + [blocks <= BOUND, batch <= BOUND], budget=60_000_000, watch=watch)
    return [("coverage", check, bounded, f"grids of up to {BOUND} query blocks and {BOUND} batch elements "
             "(the raster divides by grid sizes; Z3 integer arithmetic)")]
