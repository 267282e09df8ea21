"""ta-decompose-softmax: softmax and logsumexp into max / exp / sum / div.

    softmax(x, j)    -->  m = max_j x;  e = exp(x - m);  e / sum_j e
    logsumexp(x, j)  -->  m = max_j x;  m + log(sum_j exp(x - m))

Subtracting the row max keeps exp from overflowing; it is the form the
reduction-fusion pass turns into an online (single-pass) recurrence.
"""

from dataclasses import dataclass

from torch_mlir import ir, rewrite
from torch_mlir.dialects import arith, math

from tilec.dialects import ta_builders as tb
from tilec.dialects.ta import LogsumexpOp, SoftmaxOp

from . import PassInfo


@dataclass(frozen=True)
class Options:
    pass


def _shifted_exp(x: ir.Value, dim: int):
    """(max_j x, exp(x - max_j x)) for x reduced along ``dim``."""
    rank = ir.RankedTensorType(x.type).rank
    full = tb.projection(rank, list(range(rank)))
    row = tb.projection(rank, [d for d in range(rank) if d != dim])
    m = tb.reduce(x, "max", [dim])
    e = tb.build_map(x.type, lambda: math.ExpOp(arith.SubFOp(tb.at(x, full), tb.at(m, row)).result).result)
    return m, e, full, row


def decompose_softmax(op, rewriter):
    """softmax(x, j) --> exp(x - max_j x) / sum_j exp(x - max_j x)"""
    x, dim = op.src, ir.IntegerAttr(op.attributes["dim"]).value
    with rewriter.ip, op.location:
        _, e, full, row = _shifted_exp(x, dim)
        s = tb.reduce(e, "sum", [dim])
        y = tb.build_map(x.type, lambda: arith.DivFOp(tb.at(e, full), tb.at(s, row)).result)
    rewriter.replace_op(op, [y])


def decompose_logsumexp(op, rewriter):
    """logsumexp(x, j) --> max_j x + log(sum_j exp(x - max_j x))"""
    x, dim = op.src, ir.IntegerAttr(op.attributes["dim"]).value
    with rewriter.ip, op.location:
        m, e, _, _ = _shifted_exp(x, dim)
        s = tb.reduce(e, "sum", [dim])
        rank = ir.RankedTensorType(m.type).rank
        same = tb.projection(rank, list(range(rank)))
        y = tb.build_map(m.type, lambda: arith.AddFOp(tb.at(m, same), math.LogOp(tb.at(s, same)).result).result)
    rewriter.replace_op(op, [y])


def run(module: ir.Operation, options: Options) -> None:
    patterns = rewrite.RewritePatternSet()
    patterns.add(SoftmaxOp, decompose_softmax)
    patterns.add(LogsumexpOp, decompose_logsumexp)
    rewrite.apply_patterns_and_fold_greedily(module, patterns.freeze())


PASS = PassInfo("ta-decompose-softmax", "softmax and logsumexp into max, exp, sum and div", Options, run,
                __doc__)
