"""The checks of a tile.tma_store: a register tile stored through shared-memory staging
buffers by the copy engine (tilec/targets/sm_90a/dialects/tile_hopper.py,
tilec/targets/sm_90a/codegen/cuda_store.py).

What the store writes is a tile.store's (the value at each element, clipped to the tensor), and
the value, coverage and in-bounds rows prove it as for one. What is its own, proved here:

layout     the staging layout is a bijection onto the chunk and one box of the copy engine's
           swizzle mode, 1024-byte aligned (bit-vectors, as an operand tile's)
banks      a warp's writes of accumulator element pairs (row 8 m + lane div 4, column
           8 j + 2 (lane mod 4)) touch each bank once per wavefront
buffers    for every chunk c of a tile (buffer c mod B), none of the ``staging_pending``
           stores still allowed to read when it is written (chunks (c - j) mod C, of this
           tile or the one before) used the same buffer: so the copy engine has read a buffer
           before it is rewritten, at every store of every tile count
sets       consumer warpgroups storing on their own write disjoint sets of buffers inside the
           staging tile (warpgroup g's first buffer, from the program, for two symbolic g)
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.layout import tma_boxes
from tilec.dialects.tile import layout_of
from tilec.targets.sm_90a.dialects.tile_hopper import staging_of, staging_pending

from tilec.verify import layouts
from .hopper import _boxes
from tilec.verify.solver import BV, Outcome, prove, structural
from tilec.verify.symbolic import WARPGROUP_ID, Program

STAGING = "every element of the staging tile and every lane"
SEQUENCE = "every store of the storing thread (any tile count), every chunk"


def check_staged_stores(p: Program) -> list[tuple[str, str, Outcome, str]]:
    """(property, check, Outcome, domain) rows of each tile.tma_store; see the module docstring."""
    rows = []
    for event in (e for e in p.events if e.kind == "store" and e.op.operation.name == "tile.tma_store"):
        op = event.op
        buffers, n_rows, chunk = staging_of(op)
        staging = op.operation.operands[-2]
        layout = layout_of(staging.owner.attributes["layout"])
        eb = 4 if str(ir.MemRefType(staging.type).element_type) == "f32" else 2
        name = f"staging tile {n_rows}x{chunk}"
        rows.append(("swizzle", f"{name}: the layout is a bijection onto the chunk", layouts.bijection(layout),
                     STAGING))
        boxes = tma_boxes(layout, eb)
        if boxes is None or boxes[1] != chunk:
            rows.append(("swizzle", f"{name}: the copy engine reads the layout as one box",
                         Outcome("counterexample", 0.0, {}, "no tensor map reads this layout as one box"), STAGING))
            continue
        rows.append(("swizzle", f"{name}: the copy engine's box reads where the layout places each element, "
                     f"1024-byte aligned", _boxes(layout, boxes, eb), STAGING))
        rows.append(("banks", f"{name}: a warp's element pairs touch each bank once per wavefront",
                     _pairs_conflict_free(layout, eb), STAGING))
        chunks = ir.RankedTensorType(op.operation.operands[0].type).shape[1] // chunk
        rows.append(("races", f"{name}: a buffer is rewritten only after the copy engine read it ({chunks} chunks "
                     f"per tile through {buffers} buffers)", buffer_reuse(chunks, buffers), SEQUENCE))
        rows.append(("races", f"{name}: the stores of different warpgroups use disjoint buffers",
                     _disjoint_sets(p, event, buffers), SEQUENCE))
    return rows


def buffer_reuse(chunks: int, buffers: int, pending=staging_pending) -> Outcome:
    """Store s (s >= 0) is chunk c = s mod C of its tile and writes buffer c mod B after waiting
    until at most P(c) stores are pending, the latest ones: s - j for 1 <= j <= P(c), chunk
    (c - j) mod C (of this tile or the one before). None of them may use buffer c mod B. What
    a store uses depends on its chunk alone, so this holds at every s, every tile count."""
    c = z3.Int("chunk")
    allowed = z3.IntVal(pending(chunks - 1, chunks, buffers))
    for k in reversed(range(chunks - 1)):
        allowed = z3.If(c == k, pending(k, chunks, buffers), allowed)
    most = max(pending(k, chunks, buffers) for k in range(chunks))
    claim = z3.And(*[z3.Implies(j <= allowed, ((c - j) % chunks) % buffers != c % buffers)
                     for j in range(1, most + 1)])
    return prove(claim, [c >= 0, c < chunks], watch={"chunk": c})


def _disjoint_sets(p: Program, event, buffers: int) -> Outcome:
    op, first = event.op, event.data["first"]
    sets = ir.IntegerAttr(op.attributes["sets"]).value
    total = ir.MemRefType(op.operation.operands[-2].type).shape[0]
    if p.warpgroups == 1:
        return prove(z3.And(first >= 0, first + buffers <= total), p.assumptions)
    if sets < p.warpgroups:
        return structural(False, f"{p.warpgroups} warpgroups store on their own into {sets} set(s) of buffers")
    g1, g2 = z3.Ints("g g'")
    wg = z3.Int(WARPGROUP_ID)
    f1, f2 = z3.substitute(first, (wg, g1)), z3.substitute(first, (wg, g2))
    apart = z3.Or(f1 + buffers <= f2, f2 + buffers <= f1)
    claim = z3.And(f1 >= 0, f1 + buffers <= total, z3.Implies(g1 != g2, apart))
    return prove(claim, [*p.assumptions, g1 >= 0, g1 < p.warpgroups, g2 >= 0, g2 < p.warpgroups],
                 watch={"g": g1, "g'": g2})


def _pairs_conflict_free(layout, eb: int) -> Outcome:
    """Lanes l != l' of one wavefront (128 bytes: 32 lanes of 4-byte pairs, 16 of 8-byte ones)
    writing the pairs at (8 m + l div 4, 8 j + 2 (l mod 4)) fall in different 4-byte banks
    groups of their access."""
    l1, l2, m, j = (BV.var(x) for x in ("lane", "lane'", "row block", "column block"))
    rows, cols = layout.shape
    access = 2 * eb
    lanes = 128 // access
    word = lambda lane: (layout.offset(m * 8 + lane // 4, j * 8 + (lane % 4) * 2) * eb // access) % lanes
    return prove(word(l1) != word(l2), [l1 < 32, l2 < 32, l1 != l2, l1 // lanes == l2 // lanes, m < rows // 8,
                                       j < cols // 8],
                 watch={"lane": l1.term, "lane'": l2.term, "row block": m.term, "column block": j.term})
