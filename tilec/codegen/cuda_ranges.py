"""Index comparisons of a tile.map that hold at every element of the tile: the emitter's
unswitching of masks.

A mask in a map compares indices that are a value from outside the map plus a tile index
(``j0 + col < T``, the causal ``j0 + col <= q0 + row``). Each side ranges over an interval
of the tile: ``base + [lo, hi]``, the tile index running over its extent. When the
comparison holds at the interval's worst ends it holds at every element, and the emitter runs
the map with it fixed to true (one test per tile, not one per element), the masked body
otherwise. For a key block inside the sequence and below the diagonal, that is every block
but the last and the diagonal ones.

    cmpi slt  a + [alo, ahi],  b + [blo, bhi]   holds everywhere iff   a + ahi <  b + blo
    cmpi sle                                                         a + ahi <= b + blo
    cmpi sgt / sge                                                   a + alo >  / >= b + bhi
"""

from __future__ import annotations

from torch_mlir import ir

_ALWAYS = {2: ("hi", "<", "lo"), 3: ("hi", "<=", "lo"), 4: ("lo", ">", "hi"), 5: ("lo", ">=", "hi")}


def invariant_masks(self, op, shape: list[int]) -> dict:
    """{cmpi result: the C condition under which it is true at every element of the tile}."""
    ranges, out = {}, {}
    for inner in op.regions[0].blocks[0].operations:
        name = inner.operation.name
        if name == "tile.index":
            ranges[inner.result] = ("0", 0, shape[ir.IntegerAttr(inner.attributes["dim"]).value] - 1)
        elif name in ("arith.addi", "arith.cmpi"):
            sides = [ranges.get(v) or _outer(self, v, op) for v in inner.operation.operands]
            if None in sides:
                continue
            (a, alo, ahi), (b, blo, bhi) = sides
            if name == "arith.addi":
                ranges[inner.result] = (f"{a} + {b}", alo + blo, ahi + bhi)
                continue
            rule = _ALWAYS.get(ir.IntegerAttr(inner.attributes["predicate"]).value)
            if rule is not None:
                left, cmp, right = rule
                at = {"lo": (alo, blo), "hi": (ahi, bhi)}
                out[inner.result] = f"(({a}) + {at[left][0]}LL {cmp} ({b}) + {at[right][1]}LL)"
    return out


def _outer(self, value, op):
    """(C expression, 0, 0) of an index value defined outside the map, else None."""
    owner = value.owner
    parent = owner.owner if isinstance(owner, ir.Block) else owner.operation.parent
    if parent == op.operation or not isinstance(value.type, ir.IndexType):
        return None
    name = self.value(value)
    return (name, 0, 0) if isinstance(name, str) else None
