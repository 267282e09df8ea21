"""Global operands of an accumulator map read two columns at a time.

An epilogue map over an mma accumulator (a bias, a residual) reads tile.load values element
by element: registers e and e + 1 of a fragment sit at columns c and c + 1 of one row, and
e + 2, e + 3 at the same columns eight rows down. Read one element a time, each costs a
2-byte load, a 64-bit index and 64-bit bound tests, and a column vector (a bias[n]) is loaded
again for every row. Here, per map:

- before the loops, per operand, its address at the tile's corner, the room left in it
  (``clamp_i32(N - col0)``, ``clamp_i32(M - row0)``) and whether the corner's column is even
  (and, for a row length known only at run time, whether it is even), so every test in the
  loops is a 32-bit one;
- per (mi, ni), a column vector's two columns, once for every row of the fragment;
- per (mi, ni, h), a tile's two columns of row h;

each as one 4-byte load where both lie inside the tensor and the pair starts at an even
element, else as two guarded element reads with the load's padding. A 16-bit tensor with
rows of odd length (known at compile time) keeps its element reads. The 4-byte load needs a
4-byte aligned base address: the aligned variant's (16 bytes, launch.py picks it) or a
copy-engine kernel's (launch.py copies an input at an odd address first). A map fused into
the store keeps its element reads.

    for mi, ni: { bf16 b[2] = bias[col0 + c .. c + 1];
                  for h: { bf16 x[2] = res[row0 + r(h)][col0 + c .. c + 1];
                           for j: { e = 2h + j; out[mi][ni][e] = f(acc, b[j], x[j]) } } }

(Emitting the map twice instead, pairs with no test where the whole tile is inside, made
ptxas spill 124-770 bytes in GPT-2's GEMMs: it loads every pair ahead.)
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir

from tilec.dialects.dims import parse_dim

from .cexpr import CExpr
from .cuda_scalar import float_literal

_PAIRS = {"__nv_bfloat16": "__nv_bfloat162", "__half": "__half2"}
# a row index times a row length past this no longer fits an int: the product is taken in 64 bits
_INT_ROWS = 1 << 22


@dataclass
class Pair:
    """A tile.load read two columns at a time: ``rows`` (a [bm, bn] tile) or a column vector."""
    gname: str     # the tensor
    element: str   # its C element type
    base: str      # the tensor's address at the tile's corner (C pointer)
    row_room: str  # rows left from the corner, clamped to 32 bits (None: a column vector)
    col_room: str  # columns left from the corner, clamped to 32 bits
    even: str      # whether the corner's column is even (so is every pair's start)
    stride: str    # the row length (C), or None for a column vector
    pad: str       # what a read outside the tensor gives
    name: str = ""  # the register pair of the current (mi, ni[, h]) (an accumulator map's loops)


def pair_reads(self, op) -> dict:
    """{tile.load value: Pair} of the 16-bit row-major tiles ([row, col]) and column vectors
    that the body of accumulator map ``op`` reads at its own element, for the aligned variant;
    emits each one's corner address and room (so call it before the map's loops)."""
    if not self.aligned:
        return {}
    found = {}
    for inner in op.regions[0].blocks[0].operations:
        if inner.operation.name != "tile.elem" or inner.operation.operands[0] in found:
            continue
        value = inner.operation.operands[0]
        dims = [ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(inner.attributes["map"]).value.results]
        src = self.value(value)
        if dims not in ([0, 1], [1]) or not hasattr(src, "op") or src.op.operation.name != "tile.load":
            continue
        pair = _pair(self, src.op, dims)
        if pair is not None:
            found[value] = pair
    return found


def _pair(self, load, dims) -> Pair | None:
    """The Pair of tile.load ``load`` read at ``dims`` ([0, 1]: a tile, [1]: a column vector),
    its corner address, room and parity emitted; None where no pair can be aligned."""
    from .cuda_ops import _strides

    mem, *offs = load.operation.operands
    _, gname, mem_dims, element = self.value(mem)
    if element not in _PAIRS or len(offs) < len(dims):
        return None
    last = parse_dim(mem_dims[-1])
    lead = len(offs) - len(dims)
    rows_of_it = lead or len(dims) == 2  # then a pair is aligned only if every row starts even
    if rows_of_it and last.op == "const" and last.value % 2:
        return None
    dims_c, offsets = self.dims_c(mem_dims), [self.value(o) for o in offs]
    corner = " + ".join(f"{o} * {s}" for o, s in zip(offsets, _strides(dims_c)))
    base, cols, even = self.fresh("pb"), self.fresh("pc"), self.fresh("pe")
    self.line(f"const {element}* {base} = {gname} + ({corner});")
    self.line(f"const int {cols} = clamp_i32({dims_c[-1]} - {offsets[-1]});")
    rows = None
    if len(dims) == 2:
        rows = self.fresh("pr")
        self.line(f"const int {rows} = clamp_i32({dims_c[-2]} - {offsets[-2]});")
    parity = f"(({offsets[-1]}) & 1LL) == 0"
    if rows_of_it and last.op != "const":  # a row length known at run time: even rows too
        parity += f" && (({dims_c[-1]}) & 1LL) == 0"
    self.line(f"const bool {even} = {parity};")
    pad = float_literal(ir.FloatAttr(load.attributes["padding"]).value)
    stride = None
    if rows is not None:
        small = last.op == "const" and last.value < _INT_ROWS
        stride = str(last.value) if small else f"(long long){dims_c[-1]}"
    return Pair(gname, element, base, rows, cols, even, stride, f"{element}({pad})")


def load_pairs(self, pairs: dict, tiling, vectors: bool) -> None:
    """Inside the (mi, ni) loops (``vectors``) or the h loop below them: load each column
    vector's pair, or each tile's pair of row h, into a fresh register pair."""
    col = tiling.accumulator(*map(CExpr, ("warp_m", "warp_n", "lane", "mi", "ni")), 0)[1].text
    row = tiling.accumulator(*map(CExpr, ("warp_m", "warp_n", "lane", "mi", "ni")), CExpr("(h * 2)"))[0].text
    for pair in pairs.values():
        if (pair.row_room is None) != vectors:
            continue
        c = self.fresh("c")
        self.line(f"const int {c} = {col};")
        r = None
        if pair.row_room is not None:
            r = self.fresh("r")
            self.line(f"const int {r} = {row};")
        pair.name = load_pair(self, pair, r, c)


def load_pair(self, pair: Pair, r: str | None, c: str) -> str:
    """Emit the pair at tile row ``r`` (None: a column vector) and columns ``c``, ``c`` + 1 (C
    ints; c even); returns its register array."""
    name = self.fresh("p")
    if r is None:
        at, inside = c, f"{c} + 1 < {pair.col_room}"
        edge = [f"{c} < {pair.col_room}", inside]
    else:
        at = f"{r} * {pair.stride} + {c}"
        inside = f"{r} < {pair.row_room} && {c} + 1 < {pair.col_room}"
        edge = [f"{r} < {pair.row_room} && {c} < {pair.col_room}", inside]
    vector = _PAIRS[pair.element]
    self.line(f"alignas(4) {pair.element} {name}[2];")
    self.line(f"if ({pair.even} && {inside}) {{")
    self.line(f"    *reinterpret_cast<{vector}*>({name}) = *reinterpret_cast<const {vector}*>({pair.base} + {at});")
    self.line("} else {")
    for j in (0, 1):
        self.line(f"    {name}[{j}] = ({edge[j]}) ? {pair.base}[{at}{' + 1' if j else ''}] : {pair.pad};")
    self.line("}")
    return name


def read_pair(pair: Pair) -> str:
    """The element of the current (mi, ni[, h]) at column j (the innermost loop)."""
    return f"{pair.name}[j]"
