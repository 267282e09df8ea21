"""Layout properties, proved on bit-vectors with the very functions the emitter prints.

- a shared-memory layout is a bijection of its tile onto [0, size);
- the 8 lanes of each ldmatrix phase read 16-byte rows in 8 different bank groups;
- the 8 lanes of each cp.async phase write 16-byte chunks in 8 different bank groups;
- the accumulator fragments of the warp tiling hold every tile element exactly once.
"""

from __future__ import annotations

import z3

from tilec.dialects.layout import Layout, WarpTiling

from .solver import BV, prove


def _in(var: BV, bound: int):
    return var < bound


def bijection(layout: Layout):
    rows, cols = layout.shape
    r1, c1, r2, c2 = (BV.var(n) for n in ("r1", "c1", "r2", "c2"))
    bounds = [_in(r1, rows), _in(c1, cols), _in(r2, rows), _in(c2, cols)]
    o1, o2 = layout.offset(r1, c1), layout.offset(r2, c2)
    distinct = z3.Or(r1.term != r2.term, c1.term != c2.term)
    claim = z3.And(z3.Implies(distinct, o1.term != o2.term), z3.ULT(o1.term, layout.size))
    return prove(claim, bounds, watch={"row": r1.term, "col": c1.term, "row'": r2.term, "col'": c2.term,
                                       "offset": o1.term, "offset'": o2.term})


def _bank_group(layout: Layout, row, col, element_bytes: int):
    return (layout.offset(row, col) * element_bytes // 16) % 8


def ldmatrix_conflict_free(layout: Layout, tiling: WarpTiling, operand: str, transposed: bool, bk: int,
                           element_bytes: int):
    """Lanes l != l' of one 8-lane phase never read the same bank group."""
    l1, l2, warp, frag, kk = (BV.var(n) for n in ("lane", "lane'", "warp", "fragment", "k_step"))
    if operand == "a":
        load, frags, warps = tiling.ldmatrix_a, tiling.mi, tiling.wm
    else:
        load, frags, warps = tiling.ldmatrix_b, (tiling.ni + 1) // 2, tiling.wn
    assumptions = [_in(l1, 32), _in(l2, 32), l1 != l2, (l1 // 8) == (l2 // 8), _in(warp, warps),
                   _in(frag, frags), _in(kk, bk // 16)]
    if operand == "b" and tiling.ni % 2:  # the odd last n tile: ldmatrix.x2 reads lanes 0-15's addresses
        assumptions += [z3.Or(frag < tiling.ni // 2, l1 < 16), z3.Or(frag < tiling.ni // 2, l2 < 16)]
    g1 = _bank_group(layout, *load(warp, l1, frag, kk, transposed), element_bytes)
    g2 = _bank_group(layout, *load(warp, l2, frag, kk, transposed), element_bytes)
    return prove(g1 != g2, assumptions, watch={"lane": l1.term, "lane'": l2.term, "warp": warp.term,
                                               "fragment": frag.term, "k_step": kk.term, "bank group": g1.term})


def cp_async_conflict_free(layout: Layout, threads: int, element_bytes: int):
    """The 16-byte chunks written by lanes of one 8-lane phase fall in different bank groups."""
    rows, cols = layout.shape
    per_chunk = 16 // element_bytes
    chunks_per_row = cols // per_chunk
    l1, l2, warp, it = (BV.var(n) for n in ("lane", "lane'", "warp", "iteration"))
    iters = -(-rows * chunks_per_row // threads)

    def place(lane):
        chunk = (warp * 32 + lane) + it * threads
        return chunk, chunk // chunks_per_row, (chunk % chunks_per_row) * per_chunk

    (k1, r1, c1), (k2, r2, c2) = place(l1), place(l2)
    assumptions = [_in(l1, 32), _in(l2, 32), l1 != l2, (l1 // 8) == (l2 // 8), _in(warp, threads // 32),
                   _in(it, iters), _in(k1, rows * chunks_per_row), _in(k2, rows * chunks_per_row)]
    g1, g2 = _bank_group(layout, r1, c1, element_bytes), _bank_group(layout, r2, c2, element_bytes)
    return prove(g1 != g2, assumptions, watch={"lane": l1.term, "lane'": l2.term, "warp": warp.term,
                                               "iteration": it.term})


def fragments_cover_tile(tiling: WarpTiling):
    """(warp, lane, mi, ni, register) -> (row, col) is injective into bm x bn; with as many
    slots as tile elements, every element is held exactly once."""
    names = ("warp", "lane", "mi", "ni", "reg")
    a = [BV.var(n) for n in names]
    b = [BV.var(n + "'") for n in names]
    limits = (tiling.warps, 32, tiling.mi, tiling.ni, 4)
    assumptions = [_in(v, n) for v, n in zip(a, limits)] + [_in(v, n) for v, n in zip(b, limits)]
    place = lambda v: tiling.accumulator(v[0] % tiling.wm, v[0] // tiling.wm, *v[1:])
    (r1, c1), (r2, c2) = place(a), place(b)
    distinct = z3.Or(*[x.term != y.term for x, y in zip(a, b)])
    claim = z3.And(z3.Implies(distinct, z3.Or(r1.term != r2.term, c1.term != c2.term)),
                   z3.ULT(r1.term, tiling.bm), z3.ULT(c1.term, tiling.bn))
    assert tiling.warps * 32 * tiling.mi * tiling.ni * 4 == tiling.bm * tiling.bn
    return prove(claim, assumptions, watch={**{n: v.term for n, v in zip(names, a)},
                                            **{n + "'": v.term for n, v in zip(names, b)}})
