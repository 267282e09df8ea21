"""Gathers of a blocked tile read as vectors: a tile.gather whose map is contiguous along the
thread's ``vec`` elements is loaded 16 bytes (or 8, or 4) at once.

A pointwise program reads each input through a tile.gather at an affine map of the element's
position (passes/ta_to_tile/pointwise.py), one element a gather. In the blocked layout a
thread's elements [i][c][0..vec) sit at columns col0 + e of one row, col0 a multiple of vec
(``BlockedLayout.position``). Call the gather's column operand x (the block's first column
j0, a multiple of the block width, plus the column in the tile). A map result r has form P
when r(x + e) = r(x) + e for e < vec and r(x) is a multiple of vec:

    P(x)
    P(a + k)       P(a), k does not move with x and is a multiple of vec
    P(a mod m)     P(a), vec divides m (a mod m <= m - vec, so the vec values do not wrap)

If the last result has form P and no other result moves with x, the thread's vec reads are
one aligned vector: RoPE's q at d, rotate_half's reads at ``d mod 32`` and ``d mod 32 + 32``,
cos and sin at (t, d), a view's ``h * 64 + d``. The vector is read where all of it lies in
the tensor, element by element with the gather's padding at its edge. Only in the aligned
variant (16-byte aligned base pointers, rows of whole 16-byte chunks), and where the
tensor's last dim is a multiple of vec (so every row starts on a vector).
"""

from __future__ import annotations

from math import gcd

from torch_mlir import ir

from .cuda_address import _affine_c, _strides
from .cuda_bounds import gather_bounds
from .cuda_text import float_literal
from .cuda_text import ELEMENT_BYTES, VECTOR_TYPES
_INDEP, _COL = "indep", "col"


def gather_vectors(self, op, vec: int, row: str, col0: str) -> dict:
    """{tile.gather result: C element of its vector} for the gathers in the body of blocked
    tile.map ``op`` that read whole vectors, each loaded at the insertion point (inside the
    thread's row and column-group loops, before the loop over its ``vec`` elements); ``row``
    and ``col0`` (C) are the element's row and first column in the tile."""
    if not self.aligned or vec == 1:
        return {}
    body = op.regions[0].blocks[0]
    made = {r for inner in body.operations for r in inner.operation.results}
    found = {}
    for inner in body.operations:
        if inner.operation.name != "tile.gather":
            continue
        text = _vector_read(self, inner, made, vec, row, col0)
        if text is not None:
            found[inner.result] = text
    return found


def _vector_read(self, op, made: set, vec: int, row: str, col0: str) -> str | None:
    """Load the thread's vector of gather ``op``; returns its element ``[e]`` (C), or None
    (nothing emitted) when the map is not contiguous along the vector."""

    src, *operands = op.operation.operands
    _, gname, dims, element = self.value(src)
    width = vec * ELEMENT_BYTES.get(element, 0)
    if width not in VECTOR_TYPES:
        return None
    at = [_index(self, v, made, vec, row, col0) for v in operands]
    if None in at:
        return None
    results = list(ir.AffineMapAttr(op.attributes["map"]).value.results)
    if not results:  # a rank-0 read: one element, the same for the whole vector
        return None
    forms = [_form(r, at, vec) for r in results]
    if forms[-1] != (_COL,) or any(f is None or f[0] != _INDEP for f in forms[:-1]):
        return None
    names = []
    texts = [t for t, _, _ in at]
    for expr in results:
        names.append(self.fresh("x"))
        self.line(f"const long long {names[-1]} = {_affine_c(expr, texts)};")
    dims_c = self.dims_c(dims)
    shape = ir.MemRefType(src.type).shape
    extents = [None if ir.ShapedType.is_dynamic_size(n) else n for n in shape]
    last, size = names[-1], dims_c[-1]
    # the bounds the element reads would test (cuda_bounds.py); the last index's upper one is
    # tested here, for the whole vector or for each element
    kept = gather_bounds(self, op, names, extents)
    other = [b for b in kept if not b.startswith(f"{last} ")]
    low = [b for b in kept if b == f"{last} >= 0"]
    flat = " + ".join(f"{i} * {s}" for i, s in zip(names, _strides(dims_c)))
    whole = " && ".join(other + low + [f"{last} + {vec} <= {size}", f"{size} % {vec} == 0"])
    each = " && ".join(other + [f"{last} + e >= 0", f"{last} + e < {size}"])
    pad = float_literal(ir.FloatAttr(op.attributes["padding"]).value)
    pad = pad if element == "float" else f"{element}({pad})"
    name = self.fresh("v")
    self.line(f"alignas(16) {element} {name}[{vec}];")
    self.line(f"if ({whole}) {{  // the thread's {vec} elements: one aligned vector")
    vector = VECTOR_TYPES[width]
    self.line(f"    *reinterpret_cast<{vector}*>({name}) = *reinterpret_cast<const {vector}*>({gname} + {flat});")
    self.line("} else {")
    self.line("    #pragma unroll")
    self.line(f"    for (int e = 0; e < {vec}; ++e) {name}[e] = ({each}) ? {gname}[{flat} + e] : {pad};")
    self.line("}")
    return f"{name}[e]"


def _index(self, v, made: set, vec: int, row: str, col0: str):
    """(C text at the vector's first element, kind, a known divisor) of an index operand of a
    gather (``made``: the values the map's body defines): kind ``indep`` when it does not move
    along the vector, ``col`` when it is the first column plus e, the first column a multiple
    of vec; None otherwise."""
    owner = v.owner
    name = None if isinstance(owner, ir.Block) else owner.operation.name
    if name == "arith.constant":
        value = ir.IntegerAttr(owner.attributes["value"]).value
        return f"{value}LL", _INDEP, abs(value)
    if v not in made:
        text = self.value(v)
        return (text, _INDEP, _divisor(v)) if isinstance(text, str) else None
    if name == "tile.index":
        dim = ir.IntegerAttr(owner.attributes["dim"]).value
        return (row, _INDEP, 1) if dim == 0 else (col0, _COL, vec)
    if name not in ("arith.addi", "arith.subi", "arith.muli"):
        return None
    a, b = (_index(self, x, made, vec, row, col0) for x in owner.operation.operands)
    if a is None or b is None:
        return None
    symbol = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*"}[name]
    text = f"({a[0]} {symbol} {b[0]})"
    if a[1] == b[1] == _INDEP:
        return text, _INDEP, a[2] * b[2] if name == "arith.muli" else gcd(a[2], b[2])
    # the column plus (or minus) a multiple of vec; scaled, negated or doubled it steps otherwise
    other = b if a[1] == _COL else a
    if name == "arith.muli" or other[1] == _COL or (b[1] == _COL and name == "arith.subi") or other[2] % vec:
        return None
    return text, _COL, vec


def _divisor(v) -> int:
    """A number known to divide index value ``v`` (defined outside the map): 1 unless it is a
    constant or a product with one (the block's first column j0 = n * bn)."""
    owner = v.owner
    if isinstance(owner, ir.Block):
        return 1
    name = owner.operation.name
    if name == "arith.constant":
        return abs(ir.IntegerAttr(owner.attributes["value"]).value)
    if name == "arith.muli":
        a, b = (_divisor(x) for x in owner.operation.operands)
        return a * b
    if name in ("arith.addi", "arith.subi"):
        return gcd(*(_divisor(x) for x in owner.operation.operands))
    return 1


def _form(expr, at: list, vec: int):
    """(``indep``, a known divisor) or (``col``,) of an affine map result over the gather's
    operands ``at`` (the docstring's form P for ``col``); None when neither."""
    if isinstance(expr, ir.AffineDimExpr):
        _, kind, div = at[expr.position]
        return (_COL,) if kind == _COL else (_INDEP, div)
    if isinstance(expr, ir.AffineConstantExpr):
        return _INDEP, abs(expr.value)
    a, b = _form(expr.lhs, at, vec), _form(expr.rhs, at, vec)
    if a is None or b is None:
        return None
    if isinstance(expr, ir.AffineAddExpr):
        if a[0] == b[0] == _INDEP:
            return _INDEP, gcd(a[1], b[1])
        if a[0] == _COL and b[0] == _COL:
            return None
        other = b if a[0] == _COL else a
        return (_COL,) if other[1] % vec == 0 else None
    if isinstance(expr, ir.AffineMulExpr):
        if a[0] == b[0] == _INDEP:
            return _INDEP, a[1] * b[1]
        return None
    if isinstance(expr, ir.AffineModExpr):
        if b[0] != _INDEP or not isinstance(expr.rhs, ir.AffineConstantExpr):
            return None
        if a[0] == _COL:
            return (_COL,) if b[1] % vec == 0 else None
        return _INDEP, gcd(a[1], b[1])
    if isinstance(expr, (ir.AffineFloorDivExpr, ir.AffineCeilDivExpr)):
        if b[0] != _INDEP or not isinstance(expr.rhs, ir.AffineConstantExpr):
            return None
        # x + e over e < vec stays inside one block of m when vec divides m and x does
        steady = a[0] == _INDEP or (isinstance(expr, ir.AffineFloorDivExpr) and b[1] % vec == 0)
        return (_INDEP, 1) if steady else None
    return None
