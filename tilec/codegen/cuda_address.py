"""Addresses in the emitted CUDA: row-major strides and offsets of global tensors, guarded
element reads, affine index maps as C (floor semantics), and tile.gather's reads.

    strides(["M", "K"])      # ["1LL * K", "1LL"]: elements between consecutive indices, outermost first
"""

from __future__ import annotations

from torch_mlir import ir

from tilec.dialects.affine import affine

from ..diagnostics import TilecError
from .cuda_bounds import gather_bounds
from .cuda_text import float_literal


def _strides(dims_c: list[str]) -> list[str]:
    strides, acc = [], "1LL"
    for d in reversed(dims_c):
        strides.append(acc)
        acc = f"{acc} * {d}"
    return list(reversed(strides))

def _base(dims_c, lead_offsets) -> str:
    strides = _strides(dims_c)
    return " + ".join([f"{o} * {s}" for o, s in zip(lead_offsets, strides)] or ["0LL"])

def _global_element(self, op, coords) -> str:
    src, *offs = op.operation.operands
    _, gname, dims, element = self.value(src)
    dims_c = self.dims_c(dims)
    offsets = [self.value(o) for o in offs]
    lead = len(offsets) - len(coords)
    index = [f"({o} + {c})" for o, c in zip(offsets[lead:], coords)]
    # a tensor read only at batch offsets (a per-head vector) needs no bound: those are in range
    bounds = " && ".join(f"{i} < {d}" for i, d in zip(index, dims_c[lead:])) or "true"
    return guarded_read(self, gname, offsets[:lead] + index, dims_c, bounds, element, op)

def guarded_read(self, gname: str, index: list, dims_c: list, bounds: str, element: str, op) -> str:
    """One element of row-major ``gname`` at ``index`` where ``bounds`` holds, ``op``'s padding
    elsewhere (tile.load's element reads, tile.gather)."""
    flat = " + ".join(f"{i} * {s}" for i, s in zip(index, _strides(dims_c))) or "0"  # rank 0: its one element
    pad = float_literal(ir.FloatAttr(op.attributes["padding"]).value)
    pad = pad if element == "float" else f"{element}({pad})"
    var = self.fresh("g")
    self.line(f"const {element} {var} = ({bounds}) ? {gname}[{flat}] : {pad};")
    return var

def _affine_c(expr, names: list[str]) -> str:
    """An affine expression in C over the index names, with floor semantics for floordiv and mod
    (dialects/affine.py's evaluator in the C text domain)."""
    try:
        return affine(expr, names, const=lambda n: f"{n}LL", add=lambda a, b: f"({a} + {b})",
                      mul=lambda a, b: f"({a} * {b})", mod=lambda a, b: f"floor_mod({a}, {b})",
                      floordiv=lambda a, b: f"floor_div({a}, {b})",
                      ceildiv=lambda a, b: f"floor_div({a} + {b} - 1LL, {b})")
    except ValueError:
        raise TilecError(f"the CUDA emitter has no rule for the affine expression {expr}") from None

def gather(self, op, indices: list[str]) -> str:
    """tile.gather: the source element at the map of the C ``indices``, padding outside the tensor."""
    src = op.operation.operands[0]
    _, gname, dims, element = self.value(src)
    dims_c = self.dims_c(dims)
    at = []
    for expr in ir.AffineMapAttr(op.attributes["map"]).value.results:
        at.append(self.fresh("x"))
        self.line(f"const long long {at[-1]} = {_affine_c(expr, indices)};")
    shape = ir.MemRefType(src.type).shape
    extents = [None if ir.ShapedType.is_dynamic_size(n) else n for n in shape]
    # the bounds every element already meets (cuda_bounds.py) are left out of the guard
    bounds = " && ".join(gather_bounds(self, op, at, extents)) or "true"
    return guarded_read(self, gname, at, dims_c, bounds, element, op)
