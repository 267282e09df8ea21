"""GEMM operands computed by a prologue map: the mapped element equals the reference's.

A contraction operand may be a ta.map of one input (``relu(A)``, ``B * s[k]``, a widening
cast); the kernel copies the input into shared memory and the mma reads
``tile.map{f(elem(staged tile), elem(tile.load s))}``. With the index of the staged element
proved (operand_indices: the copy puts X[reference index] there), this checks, for every
element of the operand tile and every k step:

    k < K (and the other index inside its extent):  f_kernel = f_reference
    k >= K:                                          f_kernel = 0

the second because the copy fills past K with zeros and f(0) need not be 0, so a
remainder tile adds nothing only if the map itself is masked. Inputs are uninterpreted
functions of their indices, the vector reads of the kernel at its own offsets (masked as
tile.load masks them), exp and casts uninterpreted (real arithmetic).
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from .scalars import Values, evaluate
from .tile_values import TileValues
from .solver import Outcome, prove
from .symbolic import Program


def staged(p: Program, map_op):
    """The staged tile (``("smem", ...)``) a prologue tile.map reads, or None."""
    for inner in map_op.regions[0].blocks[0].operations:
        if inner.operation.name == "tile.elem":
            known = p.values.get(inner.operation.operands[0])
            if isinstance(known, tuple) and known[0] == "smem":
                return known
    return None


def check_prologue(p: Program, ref, n: int, map_op, domain: dict, local: tuple, k, ranges: list) -> Outcome:
    """Operand ``n`` (0: A, 1: B) of the mma: its prologue ``map_op`` (None: the staged tile as
    it is) against the reference's (``ref.prologues[n]``, None: the input as it is)."""
    vals = Values(p.params)
    name, positions = (ref.lhs, ref.maps[0]) if n == 0 else (ref.rhs, ref.maps[1])
    x = vals.tensor(name, [domain[d] for d in positions])  # the staged element (its index is proved apart)
    kernel = x if map_op is None else _kernel_value(p, vals, map_op, local, x)
    reference = x if ref.prologues[n] is None else _reference_value(p, vals, ref, *ref.prologues[n], domain)
    inside = z3.And(*[domain[d] < ref.extents[d] for d in positions if d != ref.reduced])
    claim = z3.And(z3.Implies(z3.And(k < ref.size_k, inside), kernel == reference),
                   z3.Implies(k >= ref.size_k, kernel == 0))
    watch = {"k": k, "kernel": kernel, "reference": reference, **p.params}
    return prove(claim, p.assumptions + ranges + [d >= 0 for d in domain.values()], watch=watch)


def _kernel_value(p: Program, vals: Values, map_op, local: tuple, x):
    """The prologue map at the staged element (``x``, its tile read as that element) by the tile
    ops' one semantics (tile_values.py): a loaded vector inside its dims, else its padding."""
    tv = TileValues.over(p, vals)
    for inner in map_op.regions[0].blocks[0].operations:
        if inner.operation.name == "tile.elem":
            src = inner.operation.operands[0]
            known = p.values.get(src)
            if isinstance(known, tuple) and known[0] == "smem":
                tv.substitute[src] = lambda coords: x
            elif not (isinstance(known, tuple) and known[0] == "gload"):
                raise ValueError("a prologue map reads a tile that is neither staged nor loaded")
    return tv.value(map_op.result, list(local))


def _reference_value(p: Program, vals: Values, ref, map_op, op_map: list, domain: dict):
    read = ta_reader(p, vals, ref.names, lambda dims: [domain[op_map[d]] for d in dims])
    return evaluate(map_op.regions[0].blocks[0], vals, read, lambda v: vals.scalar(v.owner, []))


def ta_reader(p: Program, vals: "Values", names: dict, indices, other=None):
    """``read`` for evaluate() over a ta.map body: ta.param is its parameter, ta.at of an input
    the input at ``indices(dims)``, ta.at of another value ``other(src, dims)``."""
    def read(op, _):
        name = op.operation.name
        if name == "ta.param":
            return p.params[ir.StringAttr(op.attributes["name"]).value]
        if name != "ta.at":
            return None
        src = op.operation.operands[0]
        dims = [ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(op.attributes["map"]).value.results]
        if src in names:
            return vals.tensor(names[src], indices(dims))
        if other is None:
            raise ValueError("a prologue map reads a value that is not an input")
        return other(src, dims)
    return read
