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

from .gemm_values import _outer, ta_reader
from .scalars import Values, evaluate
from .solver import Outcome, prove
from .symbolic import Program, dim


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
    def read(op, _):
        name = op.operation.name
        if name == "tile.index":
            return local[ir.IntegerAttr(op.attributes["dim"]).value]
        if name != "tile.elem":
            return None
        known = p.values.get(op.operation.operands[0])
        coords = [local[ir.AffineDimExpr(e).position] for e in ir.AffineMapAttr(op.attributes["map"]).value.results]
        if isinstance(known, tuple) and known[0] == "smem":
            return x
        if isinstance(known, tuple) and known[0] == "gload":
            return _gload(p, vals, known, coords, op.operation.operands[0].owner)
        raise ValueError("a prologue map reads a tile that is neither staged nor loaded")
    return evaluate(map_op.regions[0].blocks[0], vals, read, lambda v: _outer(p, v, vals))


def _gload(p: Program, vals: Values, known, coords: list, load_op):
    """A tile.load element: the input inside its dims, else the padding."""
    _, name, offsets = known
    dims = next(d for role, n, d in p.args.values() if n == name)
    lead = len(offsets) - len(coords)
    index = offsets[:lead] + [o + c for o, c in zip(offsets[lead:], coords)]
    inside = z3.And(*[z3.And(i >= 0, i < dim(d, p.params)) for i, d in zip(index, dims)])
    pad = z3.RealVal(ir.FloatAttr(load_op.attributes["padding"]).value)
    return z3.If(inside, vals.tensor(name, index), pad)


def _reference_value(p: Program, vals: Values, ref, map_op, op_map: list, domain: dict):
    read = ta_reader(p, vals, ref.names, lambda dims: [domain[op_map[d]] for d in dims])
    return evaluate(map_op.regions[0].blocks[0], vals, read, lambda v: vals.scalar(v.owner, []))
