"""ta-raise-softmax: a softmax written out in ops becomes ta.softmax (ta-decompose-softmax's inverse).

    y = exp(x - max_j x) / sum_j exp(x - max_j x)   -->   y = softmax_j(x)

PyTorch code's softmax arrives this way (torch-mlir lowers it to a max, a subtraction, exp, a
sum and a division, each its own op). As ``ta.softmax`` it is one op that ta-grad{saved=true}
differentiates as FlashAttention does (the statistic saved, D from the output: ta_grad/saved.py);
the forward lowerings decompose it again (ta-decompose-softmax). The match reads each value
with its ta.map producers inlined (_fusion_algebra.py ``expression``): the division's numerator
must be ``exp(X - m)`` with m the max over j of X and the denominator the sum over j of that same
numerator, both read at the row; X, if not one tensor already, becomes a ta.map of its own.
Anything else is left as it is.
"""

from dataclasses import dataclass

from torch_mlir import ir

from tilec.dialects import ta_builders as tb
from tilec.dialects.ta import tensor_dims

from . import PassInfo
from ._fusion_algebra import NotFusable, expression
from ._fusion_build import _Emitter


@dataclass(frozen=True)
class Options:
    pass


def _reduction(ref, kind: str, row: tuple):
    """The ta.reduce of ``kind`` over one dim j that ``ref`` reads at ``row`` (the indices
    without j), and j; else None."""
    if ref[0] != "ref" or isinstance(ref[1].owner, ir.Block) or ref[1].owner.name != "ta.reduce":
        return None
    op = ref[1].owner
    dims = [ir.IntegerAttr(d).value for d in ir.ArrayAttr(op.attributes["dims"])]
    if ir.StringAttr(op.attributes["kind"]).value != kind or len(dims) != 1:
        return None
    if ref[2] != tuple(d for d in range(len(row) + 1) if d != dims[0]):
        return None
    return op, dims[0]


def _softmax_of(op):
    """(X as an expression over the map's indices, j) when ``op`` computes softmax_j(X), else None."""
    n = ir.RankedTensorType(op.result.type).rank
    ids = tuple(range(n))
    try:
        e = expression(op.result, ids)
    except NotFusable:
        return None
    if e[0] != "op" or e[1] != "arith.divf":
        return None
    numerator, denominator = e[4]
    found = _reduction(denominator, "sum", ids[:-1])
    if found is None or numerator[0] != "op" or numerator[1] != "math.exp":
        return None
    total, j = found
    shifted = numerator[4][0]
    if shifted[0] != "op" or shifted[1] != "arith.subf":
        return None
    x, m = shifted[4]
    found = _reduction(m, "max", ids[:-1])
    if found is None or found[1] != j:
        return None
    try:  # the sum's summand and the max's operand, read over the same indices
        if expression(total.operation.operands[0], ids) != numerator or \
                expression(found[0].operation.operands[0], ids) != x:
            return None
    except NotFusable:
        return None
    return x, j


def _raise(fn) -> None:
    for op in list(fn.entry_block.operations):
        if op.operation.name != "ta.map" or \
                not isinstance(ir.RankedTensorType(op.result.type).element_type, ir.F32Type):
            continue
        match = _softmax_of(op)
        if match is None:
            continue
        x, j = match
        n = ir.RankedTensorType(op.result.type).rank
        with ir.InsertionPoint(op), op.location:
            if x[0] == "ref" and x[2] == tuple(range(n)) and x[1].type == op.result.type:
                src = x[1]
            else:
                src = tb.build_map(tb.tensor_type(tensor_dims(op.result.type), ir.F32Type.get()),
                                   lambda: _Emitter(n, {c: c for c in range(n)}, {})(x))
            y = tb.along(src, "softmax", j)
        op.result.replace_all_uses_with(y)
        op.operation.erase()


def run(module: ir.Operation, options: Options) -> None:
    for op in list(module.regions[0].blocks[0].operations):
        if op.operation.name == "func.func":
            _raise(op)


PASS = PassInfo("ta-raise-softmax", "a softmax written out in ops (max, exp, sum, divide) -> ta.softmax",
                Options, run, __doc__)
