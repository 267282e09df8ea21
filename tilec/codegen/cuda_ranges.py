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

Where a mask does not hold on the whole tile, its test per element is narrowed
(``narrow_compares``): ``a + x  cmp  b + y`` (a, b from outside the map, x, y sums of tile
indices) is ``x - y  cmp  b - a``, and b - a, clamped to [-2^30, 2^30], is computed once
before the map's loops. x - y lies well inside that range (tile extents), so the clamp
changes no outcome, and each element's test is one 32-bit compare where it was a 64-bit sum
and a 64-bit compare.
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


_NARROW = {0: "==", 1: "!=", 2: "<", 3: "<=", 4: ">", 5: ">="}  # the signed predicates and eq/ne
_SMALL = 1 << 20  # a sum of tile indices narrower than this stays far inside the clamp's 2^30


def narrow_compares(self, op, shape: list[int]) -> dict:
    """{cmpi result: (left tile indices, right ones, C operator, name of the clamped b - a)} of
    each comparison in the map of the form ``a + x  cmp  b + y`` (see the module docstring);
    emits the clamped differences, so call it before the map's loops."""
    sums, out = {}, {}
    for inner in op.regions[0].blocks[0].operations:
        name = inner.operation.name
        if name == "tile.index":
            sums[inner.result] = ([], [inner.result], shape[ir.IntegerAttr(inner.attributes["dim"]).value] - 1)
            continue
        if name not in ("arith.addi", "arith.cmpi"):
            continue
        sides = [sums.get(v) or _outer_sum(self, v, op) for v in inner.operation.operands]
        if None in sides:
            continue
        (a, x, xhi), (b, y, yhi) = sides
        if name == "arith.addi":
            sums[inner.result] = (a + b, x + y, xhi + yhi)
            continue
        cmp = _NARROW.get(ir.IntegerAttr(inner.attributes["predicate"]).value)
        if cmp is None or not (x or y) or not (a or b) or max(xhi, yhi) >= _SMALL:
            continue
        d = self.fresh("d")
        self.line(f"const int {d} = clamp_i32(({' + '.join(b) or '0LL'}) - ({' + '.join(a) or '0LL'}));")
        out[inner.result] = (x, y, cmp, d)
    return out


def narrowed(narrow: tuple, name_of) -> str:
    """The C test of a narrowed comparison, its tile indices named by ``name_of``."""
    x, y, cmp, d = narrow
    side = lambda terms: " + ".join(f"(int){name_of(v)}" for v in terms) or "0"
    return f"({side(x)}) - ({side(y)}) {cmp} {d}"


def _outer_sum(self, value, op):
    """([C expression], [], 0) of an index value from outside the map or an index constant of
    its body (a term of the wide side), else None."""
    owner = value.owner
    if not isinstance(owner, ir.Block) and owner.name == "arith.constant" and isinstance(value.type, ir.IndexType):
        return [f"{ir.IntegerAttr(owner.attributes['value']).value}LL"], [], 0
    outer = _outer(self, value, op)
    return None if outer is None else ([outer[0]], [], 0)


def _outer(self, value, op):
    """(C expression, 0, 0) of an index value defined outside the map, else None."""
    owner = value.owner
    parent = owner.owner if isinstance(owner, ir.Block) else owner.operation.parent
    if parent == op.operation or not isinstance(value.type, ir.IndexType):
        return None
    name = self.value(value)
    return (name, 0, 0) if isinstance(name, str) else None
