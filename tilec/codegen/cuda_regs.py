"""Register tiles of attention programs: tiles spread over the threads like mma accumulators.

A [bm, n] tile is ``T name[mi][ni][4]`` per thread (the accumulator fragments of a warp
tiling in which each warp owns whole rows, so row reductions stay inside a warp); a [bm]
row vector is ``float name[mi][2]`` (the two rows, lane/4 and lane/4 + 8, of each
16-row slice). tile.map becomes a loop over the thread's fragment elements, tile.reduce a
loop over its columns and two shuffles across the 4 lanes that share a row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from torch_mlir import ir

from tilec.dialects.layout import MmaLayout, SliceLayout, WarpTiling
from tilec.dialects.tile import register_layout

from ..diagnostics import TilecError
from .cexpr import CExpr
from .cuda_address import _global_element, gather
from .cuda_ranges import invariant_masks, narrow_compares, narrowed
from . import cuda_scaled
from .cuda_scalar import scalar_statement
from .cuda_text import ctype


@dataclass
class Frag:
    name: str
    tiling: WarpTiling
    element: str
    scale: float | None = None  # held as y of x = scale * y (cuda_scaled.py): read through element()


@dataclass
class Rows:
    name: str
    tiling: WarpTiling


@dataclass
class Columns:
    """A value per column of an mma tile (a bias) read from global memory once, where it is
    loaded: ``T name[ni][2]``, the columns of n tile ni whose accumulator registers r have r % 2
    = c. ``op``: the tile.load, read element by element where an element map reads it otherwise."""
    name: str
    op: object

    def at(self, reg: str) -> str:
        """The value at the column of accumulator register ``reg`` of n tile ``ni``."""
        return f"{self.name}[ni][({reg}) % 2]"


def load_columns(self, op) -> bool:
    """Read a tile.load of a value per column of an mma tile into registers, each column a
    thread's registers hold once (a bias read where each element is computed is read once per
    row of the thread's mma tiles, 4 or 8 times: ptxas reloads guarded reads rather than hold
    them). False when ``op`` is not such a load."""
    t = ir.RankedTensorType(op.result.type)
    layout = register_layout(t)
    if t.rank != 1 or not isinstance(layout, SliceLayout) or layout.dim != 0 or \
            not isinstance(layout.parent, MmaLayout):
        return False
    tiling = layout.parent.tiling(self.bm, t.shape[0])  # the accumulator's tiling (its columns)
    name = self.fresh("cv")
    self.line(f"{ctype(t.element_type)} {name}[{tiling.ni}][2];  // a value per column, read once")
    self.line("#pragma unroll")
    self.line(f"for (int ni = 0; ni < {tiling.ni}; ++ni)")
    self.line("#pragma unroll")
    self.line("for (int c = 0; c < 2; ++c) {")
    self.indent += 1
    _, col = tiling.accumulator(*map(CExpr, ("0", "warp_n", "lane", "0", "ni", "c")))
    self.line(f"const int col = {col.text};")
    self.line(f"{name}[ni][c] = {_global_element(self, op, ['col'])};")
    self.indent -= 1
    self.line("}")
    self.names[op.result] = Columns(name, op)
    return True


def tiling_for(t: ir.RankedTensorType) -> WarpTiling:
    """The mma warp tiling of a 2-d tile, or of the parent a row vector was sliced from."""
    layout = register_layout(t)
    if isinstance(layout, SliceLayout) and layout.dim == 1 and isinstance(layout.parent, MmaLayout):
        return layout.parent.tiling(t.shape[0], 8 * layout.parent.wn)
    if not isinstance(layout, MmaLayout):
        raise TilecError(f"a register tile {t} needs an mma layout (or a row vector of one) here")
    return layout.tiling(*t.shape)


def _position(self, tiling, reg: str):
    row, col = tiling.accumulator(*map(CExpr, ("warp_m", "warp_n", "lane", "mi", "ni")), CExpr(reg))
    return row.text, col.text


def materialize_map(self, op) -> None:
    t = ir.RankedTensorType(op.result.type)
    element = ctype(t.element_type)
    name = self.fresh("r")
    alias = {}
    if t.rank == 2:
        tiling = tiling_for(t)
        self.line(f"{element} {name}[{tiling.mi}][{tiling.ni}][4];")
        loops = [("mi", tiling.mi), ("ni", tiling.ni), ("e", 4)]
        target, reg = f"{name}[mi][ni][e]", "e"
        scaled = cuda_scaled.scale_of(op)  # x = c * y held as y: no multiply an element
        if scaled is not None:
            alias = {scaled[0].result: scaled[1]}
        result = Frag(name, tiling, element, scaled[2] if scaled else None)
    else:
        tiling = tiling_for(t)
        self.line(f"float {name}[{tiling.mi}][2];")
        loops = [("mi", tiling.mi), ("h", 2)]
        target, reg = f"{name}[mi][h]", "(h * 2)"
        result = Rows(name, tiling)
    masks = invariant_masks(self, op, list(t.shape))
    narrow = narrow_compares(self, op, list(t.shape))  # the per-element tests, in 32 bits
    if masks:  # one test per tile: the masks fixed to true where they hold at every element
        self.line(f"if ({' && '.join(masks.values())}) {{")
        self.indent += 1
        _map_loops(self, op, t, tiling, loops, target, reg, {v: "true" for v in masks}, narrow, alias)
        self.indent -= 1
        self.line("} else {")
        self.indent += 1
    _map_loops(self, op, t, tiling, loops, target, reg, {}, narrow, alias)
    if masks:
        self.indent -= 1
        self.line("}")
    self.names[op.result] = result


def _map_loops(self, op, t, tiling, loops, target, reg, known, narrow, alias) -> None:
    for var, count in loops:
        self.line("#pragma unroll")
        self.line(f"for (int {var} = 0; {var} < {count}; ++{var})")
    self.line("{")
    self.indent += 1
    row, col = _position(self, tiling, reg)
    value = map_body(self, op, row, col, lambda src, dims: _element(self, src, dims, t.rank, row, col, reg), known,
                     narrow, alias)
    self.line(f"{target} = {value};")
    self.indent -= 1
    self.line("}")


def map_body(self, op, row: str, col: str, read, known: dict | None = None, narrow: dict | None = None,
             alias: dict | None = None) -> str:
    """Emit the body of tile.map ``op`` at tile position (row, col); ``read(src, dims)`` gives the
    C expression of a tile.elem of ``src`` (its layout's own register); ``known``: values of the
    body fixed to a C expression (masks that hold on the whole tile); ``narrow``: comparisons
    tested in 32 bits (cuda_ranges.narrow_compares, emitted before the loops); ``alias``: a
    value of the body taken as another one (a scaled tile's multiply, cuda_scaled.py).
    Returns the yielded value."""
    known, narrow, alias = known or {}, narrow or {}, alias or {}
    local = dict(known)

    def get(v):
        if v in local:
            return local[v]
        outer = self.value(v)
        return scalar_statement(self, outer[1], []) if isinstance(outer, tuple) else outer

    for inner in op.regions[0].blocks[0].operations:
        name = inner.operation.name
        if inner.operation.results and inner.result in local:
            continue
        if inner.operation.results and inner.result in alias:
            local[inner.result] = get(alias[inner.result])
            continue
        if name == "tile.yield":
            return get(inner.operation.operands[0])
        if name == "tile.elem":
            src = inner.operation.operands[0]
            dims = [ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(inner.attributes["map"]).value.results]
            local[inner.result] = read(src, dims)
        elif name == "tile.index":
            d = ir.IntegerAttr(inner.attributes["dim"]).value
            var = self.fresh("x")  # a position inside the tile: an int (C widens it where it meets 64 bits)
            self.line(f"const int {var} = {row if d == 0 else col};")
            local[inner.result] = var
        elif inner.operation.name == "arith.cmpi" and inner.result in narrow:
            var = self.fresh("v")
            self.line(f"const bool {var} = {narrowed(narrow[inner.result], get)};")
            local[inner.result] = var
        elif name == "tile.gather":

            local[inner.result] = gather(self, inner, [get(v) for v in list(inner.operation.operands)[1:]])
        elif (folded := _folded(inner, known)) is not None:
            local[inner.result] = get(folded)
        else:
            local[inner.result] = scalar_statement(self, inner, [get(v) for v in inner.operation.operands])
    raise TilecError("tile.map without tile.yield")


def _folded(inner, known: dict):
    """The body's value that ``inner`` equals, so that it needs no statement of its own, or None:
    a select on a mask known to hold on the whole tile is its first choice; x + 0.0 is x (an
    additive mask's 0 where the mask holds: 64 FADDs a key block of attention's scores, which
    IEEE forbids the C compiler to drop, as -0.0 + 0.0 is +0.0; the result differs at most in a
    zero's sign, which the verifier's real numbers and every comparison with the oracle hold
    equal).

    Example: ``%x = arith.addf %s, %z`` with ``%z = arith.select %mask, %c0, %ninf`` and %mask
    known true is %s."""
    operands = list(inner.operation.operands)
    name = inner.operation.name
    if name == "arith.select" and known.get(operands[0]) == "true":
        return operands[1]
    if name != "arith.addf":
        return None
    zero = [k for k, v in enumerate(operands) if _is_plus_zero(v, known)]
    return operands[1 - zero[0]] if zero else None


def _is_plus_zero(value, known: dict) -> bool:
    """Is ``value`` the constant +0.0 of the map's body, directly or as the choice of a select
    on a mask known to hold?"""
    owner = value.owner
    if isinstance(owner, ir.Block):
        return False
    owner = owner.operation
    if owner.name == "arith.select":  # one a known mask decides: its choice
        chosen = _folded(owner, known)
        return chosen is not None and _is_plus_zero(chosen, known)
    if owner.name != "arith.constant" or not isinstance(owner.attributes["value"], ir.FloatAttr):
        return False
    zero = ir.FloatAttr(owner.attributes["value"]).value
    return zero == 0.0 and math.copysign(1.0, zero) > 0


def _element(self, src, dims, rank, row, col, reg) -> str:
    tile = self.value(src)
    if isinstance(tile, Frag) and tile.scale is not None:
        return cuda_scaled.element(self, tile.name, reg, tile.scale)
    if isinstance(tile, Frag):
        return f"{tile.name}[mi][ni][{reg}]"
    if isinstance(tile, Rows):
        return f"{tile.name}[mi][{'h' if rank == 1 else f'({reg}) / 2'}]"
    if isinstance(tile, Columns) and list(dims) == [1]:  # read at the element's own column
        return tile.at(reg)
    if hasattr(tile, "op") and tile.op.operation.name == "tile.load":
        coords = [row if d == 0 else col for d in dims]
        return _global_element(self, tile.op, coords)
    raise TilecError(f"a register tile of kind {type(tile).__name__} cannot be read element by element")


def ctype_of(tile) -> str:
    return tile.element if isinstance(tile, Frag) else "float"
