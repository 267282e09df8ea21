"""Which bounds of a tile.gather hold at every element: the emitter leaves them out of its guard.

A tile.gather reads its tensor at an affine map of index values and pads what lies outside,
so the emitter guards each read with ``0 <= x < extent`` for every index x. Most of those
bounds hold by construction: a batch index is a program id's remainder, a column is a tile
index inside the tile, rotate_half's ``d mod 32 + 32`` stays below 64. Each index value gets
an integer interval, computed from what the function fixes: program ids range over a grid of
constant sizes, a tile.index over its tile's extent, and constants, sums, products,
remainders and quotients by positive constants follow; the map's results (mod and floordiv
by constants included) then get theirs. A bound that holds over the whole interval is true at
every element and is left out; any value without an interval keeps every bound it is in.
For example, rotate_half's read at ``d3 mod 32 + 32`` with d3 a tile index in [0, 63] lies in
[32, 63]: inside a head dim of 64, so neither of its bounds is tested.
"""

from __future__ import annotations

from torch_mlir import ir

from tilec.dialects.affine import affine
from tilec.dialects.dims import DimError, parse_dim


def gather_bounds(self, op, names: list[str], extents: list) -> list[str]:
    """The C bounds tile.gather ``op`` must test, for its indices ``names`` (C) into a tensor of
    ``extents`` (ints for static sizes, else None): those its intervals do not already settle."""
    spans = [value_interval(self, v) for v in list(op.operation.operands)[1:]]
    kept = []
    results = ir.AffineMapAttr(op.attributes["map"]).value.results
    for expr, name, extent, dim_c in zip(results, names, extents, self.dims_c(self.value(op.operation.operands[0])[2])):
        lo, hi = affine_interval(expr, spans) or (None, None)
        if lo is None or lo < 0:
            kept.append(f"{name} >= 0")
        if hi is None or extent is None or hi >= extent:
            kept.append(f"{name} < {dim_c}")
    return kept


def value_interval(self, value) -> tuple[int, int] | None:
    """(lo, hi) of an index value at every element of its tile.map and every CTA, else None."""
    owner = value.owner
    if isinstance(owner, ir.Block):  # a size parameter fixed by the types, else a loop index or a tensor
        size = _fixed_parameter(self.fn, value)
        return None if size is None else (size, size)
    name, operands = owner.operation.name, list(owner.operation.operands)
    if name == "arith.constant":
        v = ir.IntegerAttr(owner.attributes["value"]).value
        return v, v
    if name == "tile.program_id":
        size = _grid_size(self, ir.IntegerAttr(owner.attributes["axis"]).value)
        return None if size is None else (0, size - 1)
    if name == "tile.index":
        tile = ir.RankedTensorType(owner.operation.parent.results[0].type)
        return 0, tile.shape[ir.IntegerAttr(owner.attributes["dim"]).value] - 1
    spans = [value_interval(self, v) for v in operands]
    if None in spans or len(spans) != 2:
        return None
    (alo, ahi), (blo, bhi) = spans
    if name == "arith.addi":
        return alo + blo, ahi + bhi
    if name == "arith.subi":
        return alo - bhi, ahi - blo
    if name == "arith.muli":
        ends = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
        return min(ends), max(ends)
    if name in ("arith.remsi", "arith.divsi") and alo >= 0 and blo == bhi and blo > 0:
        # C's truncating % and / agree with floor ones on non-negative values
        return (0, min(blo - 1, ahi)) if name == "arith.remsi" else (alo // blo, ahi // blo)
    return None


def affine_interval(expr, spans: list) -> tuple[int, int] | None:
    """(lo, hi) of an affine expression over dims with intervals ``spans``, else None
    (dialects/affine.py's evaluator in the interval domain; mod and division by a constant only)."""
    def known(f):  # an unknown operand makes the result unknown
        return lambda a, b: None if a is None or b is None else f(a, b)

    def by_constant(f):
        return known(lambda a, b: f(a, b[0]) if b[0] == b[1] and b[0] > 0 else None)

    def product(a, b):
        ends = [x * y for x in a for y in b]
        return min(ends), max(ends)

    return affine(expr, spans, const=lambda n: (n, n), add=known(lambda a, b: (a[0] + b[0], a[1] + b[1])),
                  mul=known(product),
                  # floor mod: in [0, c), and a itself when a already is
                  mod=by_constant(lambda a, c: a if 0 <= a[0] and a[1] < c else (0, c - 1)),
                  floordiv=by_constant(lambda a, c: (a[0] // c, a[1] // c)),
                  ceildiv=by_constant(lambda a, c: (-(-a[0] // c), -(-a[1] // c))))


def _grid_size(self, axis: int) -> int | None:
    """Grid dim ``axis`` of the function when the sizes it is made of are fixed, else None."""
    grid = ir.ArrayAttr(self.fn.attributes["tile.grid"])
    if axis >= len(grid):
        return None
    fixed = _fixed_sizes(self.fn)
    try:
        expr = parse_dim(ir.StringAttr(grid[axis]).value)
        return expr.evaluate(fixed) if set(expr.symbols) <= set(fixed) else None
    except (DimError, ZeroDivisionError):
        return None


def _fixed_parameter(fn, value) -> int | None:
    """The value of size parameter ``value`` (a function argument) when the types fix it."""
    args = list(fn.arguments)
    if value not in args:
        return None
    entries = ir.DictAttr(ir.ArrayAttr(fn.attributes["arg_attrs"])[args.index(value)])
    if "ta.param" not in entries:
        return None
    return _fixed_sizes(fn).get(ir.StringAttr(entries["ta.param"]).value)


def _fixed_sizes(fn) -> dict:
    """{size name: value} of every size a tensor argument's type makes static (a spec compiled
    with --shape keeps its names in ``ta.dims`` and its sizes in the types)."""
    fixed = {}
    for attrs, arg in zip(ir.ArrayAttr(fn.attributes["arg_attrs"]), fn.arguments):
        entries = ir.DictAttr(attrs)
        if "ta.dims" not in entries or not isinstance(arg.type, ir.MemRefType):
            continue
        for k, d in enumerate(ir.ArrayAttr(entries["ta.dims"])):
            name, size = ir.StringAttr(d).value, ir.MemRefType(arg.type).shape[k]
            if name.isidentifier() and not ir.ShapedType.is_dynamic_size(size):
                fixed[name] = size
    return fixed
