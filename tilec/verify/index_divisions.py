"""Every index division of a tile kernel divides a value >= 0 by one > 0.

The meaning of arith's index divisions (divsi, remsi, floordivsi, ceildivsi) is written once
(dialects/index_ops.py) for a dividend >= 0 and a divisor > 0: there C's truncating ``/`` and
``%`` (what the CUDA emitter prints) and the floor division of the interpreter and of Z3 (what
the proofs reason with) are one function. This is the obligation that makes them so, for the
index arithmetic of any tile function (a pipelined kernel's, a row program's, a pointwise
one's). The verifier's walk of a function's index values (tile_values.TileValues) finds each
division with the conditions of the scf.if ops around it; each is proved under the function's
size facts (and the sizes its types fix), for any program id below the grid, any CTA count of
a persistent kernel, any consumer warpgroup and every loop index in its range (a loop's range
is part of the condition of what runs inside it, not assumed of the rest):

    conditions  =>  dividend >= 0  and  divisor > 0

A condition the walk has no rule for may be either, so the division under it is proved as if
it ran. The bodies of tile.map and the ops like it compute on elements, not indices (the
emitter writes their divisions with floor semantics for either sign), and are not walked. A
kernel that divides a negative index (a ring slot of iteration kt - 1 taken at kt = 0, say)
comes back as a counterexample naming the values.
"""

from __future__ import annotations

import z3

from .solver import Outcome, prove
from .tile_values import TileValues

CHECK = "every index division and remainder divides a value >= 0 by one > 0 (C's / and % are then the proofs' floor division)"


def check_index_divisions(fn) -> tuple[str, str, Outcome, str]:
    """(property, check, outcome, domain) of the index divisions of tile function ``fn``."""
    tv = TileValues(fn)
    # a loop's range is in the condition of each division in it, not assumed of the rest (at
    # sizes where the loop runs no iteration, a division after it still runs)
    outside = [f for f in tv.assumptions if not any(f is g for g in tv.loop_facts)]
    claims = [z3.Implies(held, z3.And(a >= 0, b > 0)) for held, a, b in tv.divisions]
    watch = {**tv.params, **{f"dividend {n}": a for n, (_, a, _) in enumerate(tv.divisions)}}
    domain = f"all shapes, program ids, loop iterations and warpgroups ({len(tv.divisions)} divisions)"
    return "in-bounds", CHECK, prove(z3.And(*claims), outside, watch=watch), domain + tv.fixed_text()
