"""Vector reads for tile.gather in blocked tile.maps (pointwise programs: RoPE, head views).

A blocked tile's thread holds ``vec`` consecutive columns of a row ([i][c][e], e innermost),
and a gather reads its source at an affine map of index values. Where the map keeps every
source index but the last fixed along the tile's columns and moves the last one with the
column, one step per column up to the wrap of a ``mod`` (``x[b, t, h, d + 32]``, RoPE's
``x[b, t, h, d mod 32]`` at tile column d), the ``vec`` elements of [i][c][:] are consecutive
in the source unless the ``mod`` wraps inside them: then the last index is not the first plus
vec - 1, which is what the kernel checks. Where they are consecutive, inside the tensor and
the address aligned, the element e = 0 loads them all with one 16-byte (or 8-, 4-byte) load
and every element takes its own from that register vector; elsewhere each element is read
on its own, padded outside, as the scalar rule does. What is read is the same either way: the tile semantics of
tile.gather (one element at the map) is unchanged, only how many bytes one load moves.

Which operand is the column: an index value of the map body that is ``tile.index`` dim 1
plus a value defined outside the body (the pointwise lowering's ``j0 + c``); an operand is
fixed along the columns when nothing it is computed from reads ``tile.index`` dim 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir

from .cuda_scalar import float_literal

_VECTOR = {4: "unsigned int", 8: "uint2", 16: "uint4"}


@dataclass
class VectorGather:
    """How one gather is read a vector at a time: its register vector and whether it was loaded."""

    name: str       # the C array of the vector (``vec`` elements)
    loaded: str     # the C bool: the vector load was taken
    vec: int
    column: int     # which index operand is the tile's column


def plan(self, map_op, vec: int, element_bytes: dict) -> dict:
    """{gather op: VectorGather} for the gathers of blocked tile.map ``map_op`` that read ``vec``
    consecutive source elements per thread (``element_bytes``: C type -> bytes)."""
    body = map_op.regions[0].blocks[0]
    found = {}
    for inner in body.operations:
        if inner.operation.name != "tile.gather" or vec < 2:
            continue
        element = self.value(inner.operation.operands[0])[3]
        column = _column_operand(inner, body)
        if vec * element_bytes[element] not in _VECTOR or column is None:
            continue
        found[inner.operation] = VectorGather(self.fresh("gv"), self.fresh("gf"), vec, column)
    return found


def declare(self, plans: dict) -> None:
    """The register vectors, before the loop over a thread's ``vec`` elements."""
    for op, vg in plans.items():
        element = self.value(op.operands[0])[3]
        self.line(f"alignas(16) {element} {vg.name}[{vg.vec}];")
        self.line(f"bool {vg.loaded} = false;")


def read(self, op, vg: VectorGather, at: list, end: str, dims_c: list, bounds: str, gname: str, element: str,
         element_bytes: int) -> str:
    """The element of gather ``op`` at this e (source indices ``at``, inside the tensor where
    ``bounds``; ``end``: the last source index at e + vec - 1): element 0 loads the vector where
    the vec indices run on without a wrap, inside the tensor and aligned; each element takes its
    own from it, or reads alone (padded outside) where it was not loaded."""
    from .cuda_ops import _strides

    flat = " + ".join(f"{i} * {s}" for i, s in zip(at, _strides(dims_c)))
    vector = _VECTOR[vg.vec * element_bytes]
    inside = f"({bounds}) && {end} == {at[-1]} + {vg.vec - 1} && {end} < {dims_c[-1]}"
    aligned = f"reinterpret_cast<unsigned long long>({gname} + {flat}) % {vg.vec * element_bytes} == 0"
    self.line(f"if (e == 0 && {inside} && {aligned}) {{")
    self.line(f"    *reinterpret_cast<{vector}*>({vg.name}) = *reinterpret_cast<const {vector}*>({gname} + {flat});")
    self.line(f"    {vg.loaded} = true;")
    self.line("}")
    pad = float_literal(ir.FloatAttr(op.attributes["padding"]).value)
    pad = pad if element == "float" else f"{element}({pad})"
    var = self.fresh("g")
    self.line(f"const {element} {var} = {vg.loaded} ? {vg.name}[e] : (({bounds}) ? {gname}[{flat}] : {pad});")
    return var


def _column_operand(gather, body):
    """The index operand that is the tile's column, where the gather's source indices but the
    last are fixed along the columns and the last steps by one with the column (up to a wrap
    of a ``mod``, which the vector read checks at run time); else None."""
    operands = list(gather.operation.operands)[1:]
    column = [k for k, v in enumerate(operands) if _is_column(v, body)]
    if len(column) != 1:
        return None
    k = column[0]
    if any(_reads_columns(v, body) for j, v in enumerate(operands) if j != k):
        return None
    results = list(ir.AffineMapAttr(gather.attributes["map"]).value.results)
    if any(_uses_dim(e, k) for e in results[:-1]) or not _unit_step(results[-1], k):
        return None
    return k


def _is_column(value, body) -> bool:
    """``tile.index`` dim 1, alone or plus a value from outside the body."""
    owner = value.owner
    if _is_column_index(value):
        return True
    if isinstance(owner, ir.Block) or owner.name != "arith.addi":
        return False
    a, b = owner.operands
    return _is_column_index(a) and not _in_body(b, body) or _is_column_index(b) and not _in_body(a, body)


def _is_column_index(value) -> bool:
    owner = value.owner
    return not isinstance(owner, ir.Block) and owner.name == "tile.index" and \
        ir.IntegerAttr(owner.attributes["dim"]).value == 1


def _in_body(value, body) -> bool:
    owner = value.owner
    return not isinstance(owner, ir.Block) and owner.operation.block == body


def _reads_columns(value, body) -> bool:
    """Whether an index value of the body is computed from ``tile.index`` dim 1."""
    if _is_column_index(value):
        return True
    if not _in_body(value, body):
        return False
    return any(_reads_columns(v, body) for v in value.owner.operands)


def _uses_dim(expr, k: int) -> bool:
    if isinstance(expr, ir.AffineDimExpr):
        return expr.position == k
    if isinstance(expr, ir.AffineBinaryExpr):
        return _uses_dim(expr.lhs, k) or _uses_dim(expr.rhs, k)
    return False


def _unit_step(expr, k: int) -> bool:
    """``d_k``, plus a constant, modulo a constant: one step of d_k is one step of the index,
    or a wrap of the ``mod`` (which changes the difference over a vector)."""
    if isinstance(expr, ir.AffineDimExpr):
        return expr.position == k
    if isinstance(expr, ir.AffineModExpr):
        return isinstance(expr.rhs, ir.AffineConstantExpr) and expr.rhs.value > 0 and _unit_step(expr.lhs, k)
    if not isinstance(expr, ir.AffineAddExpr):
        return False
    lhs, rhs = expr.lhs, expr.rhs
    return isinstance(rhs, ir.AffineConstantExpr) and _unit_step(lhs, k) or \
        isinstance(lhs, ir.AffineConstantExpr) and _unit_step(rhs, k)
