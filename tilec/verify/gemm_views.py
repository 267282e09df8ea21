"""A contraction over several indices, read as one: the row-major views it rests on.

    C[i, j] = sum over k1 < K1, k2 < K2 of A[i, k1, k2] * B[k1, k2, j]

lowers to one K loop over k < K1*K2, reading A as [M, K1*K2] and B as [K1*K2, N] (the same
memory). The GEMM checks then compare the kernel with the contraction over that one index;
this module proves what makes that the same sum:

- each merged operand's view in the kernel has the input's dims with the run of reduced dims
  replaced by their product (so element [.., k, ..] of the view is element [.., k1, k2, ..]
  of the input for k = k1*K2 + k2, row-major);
- (k1, ..., kn) -> sum k_g * stride_g is one-to-one from the box of the extents into
  [0, K1 * ... * Kn), a set of the same size: a bijection, so the sum over the box is the
  sum over k (reindexing a finite sum).
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from .solver import prove
from .symbolic import Program, dim


def check_views(p: Program, ref) -> list:
    """(check, Outcome) rows for a Reference whose reduced indices were merged (``ref.group``)."""
    if len(ref.group) < 2:
        return []
    rows = [(f"reduced indices {len(ref.group)} as one: row-major flattening is one-to-one onto [0, product)",
             _bijection(ref.group_extents, p.assumptions))]
    maps = [[ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(m).value.results]
            for m in ir.ArrayAttr(ref.contract.attributes["maps"])]
    for value, positions in zip(ref.contract.operation.operands, maps[:2]):
        name = ref.names[value]
        dims = [dim(ir.StringAttr(d).value, p.params) for d in ir.RankedTensorType(value.type).encoding]
        at = positions.index(ref.group[0])
        expected = dims[:at] + [z3.Product(*dims[at:at + len(ref.group)])] + dims[at + len(ref.group):]
        view = next((d for role, n, d in p.args.values() if n == name), None)
        if view is None or len(view) != len(expected):
            rows.append((f"{name}: the kernel reads the row-major view with the reduced dims merged",
                         prove(z3.BoolVal(False), [], watch={"view rank": z3.IntVal(len(view or []))})))
            continue
        claim = z3.And(*[dim(v, p.params) == e for v, e in zip(view, expected)])
        rows.append((f"{name}: the kernel reads the row-major view with the reduced dims merged",
                     prove(claim, p.assumptions, watch=dict(p.params))))
    return rows


def _bijection(extents: list, assumptions: list, strides: list | None = None):
    """sum t_g * stride_g (row-major strides unless given) maps the box into [0, prod) one-to-one."""
    t = [z3.Int(f"t{g}") for g in range(len(extents))]
    u = [z3.Int(f"u{g}") for g in range(len(extents))]
    strides = strides or [z3.Product(*extents[g + 1:]) if g + 1 < len(extents) else z3.IntVal(1)
                          for g in range(len(extents))]
    flat = lambda v: z3.Sum(*[a * s for a, s in zip(v, strides)])
    box = lambda v: z3.And(*[z3.And(a >= 0, a < e) for a, e in zip(v, extents)])
    total = z3.Product(*extents)
    claim = z3.And(z3.Implies(box(t), z3.And(flat(t) >= 0, flat(t) < total)),
                   z3.Implies(z3.And(box(t), box(u), flat(t) == flat(u)), z3.And(*[a == b for a, b in zip(t, u)])))
    return prove(claim, assumptions + [e >= 1 for e in extents], budget=40_000_000)
