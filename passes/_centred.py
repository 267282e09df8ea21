"""The step of a centred sum (ta.online with ``moment``): Chan's combine of two partial states.

A partial state of keys K, for a centre x and a weight t, is

    count n = |K|,  total l = sum_K x,  and for r = 0..q:  S_r = sum_K (x - s)^r t,  s = l / n

(S_0 = n and S_1 = 0 when t = 1). Two states A and B of disjoint keys combine, with
s' = (l_A + l_B) / (n_A + n_B), by the binomial step (a - s') = (a - s) + (s - s'):

    S'_q = sum_r C(q, r) ((s_A - s')^(q - r) S_r^A + (s_B - s')^(q - r) S_r^B)

For q = 2, t = 1 that is Chan et al.'s M2 = M2_A + M2_B + (s_A - s')^2 n_A + (s_B - s')^2 n_B
(= M2_A + M2_B + delta^2 n_A n_B / n). ta-to-loops combines one key at a time (B: n = 1,
s = x, S_0 = t, S_r = 0 above: Welford's update); a row program one column block at a time
(B: the block's count, sum and its own centred sums, computed from registers). Every term is a
product of small numbers: no sum of x^2 is ever formed, so nothing cancels when |mean| >> std.
The means are l / max(n, 1): an empty state (n = 0, l = 0) has mean 0 and adds nothing.
"""

from dataclasses import dataclass, field
from math import comb

from torch_mlir import ir
from torch_mlir.dialects import arith


@dataclass
class Moments:
    """A partial state as f32 scalars: ``sums[r]`` is S_r (None: 0); ``mean`` when known."""

    count: ir.Value
    total: ir.Value
    sums: dict = field(default_factory=dict)
    mean: ir.Value | None = None


def mean(count: ir.Value, total: ir.Value) -> ir.Value:
    """total / max(count, 1): the mean of a state, 0 for an empty one.

    Example: mean(n, l) of a block of 3 columns summing to 6.0 is 2.0."""
    one = arith.ConstantOp(ir.F32Type.get(), 1.0).result
    return arith.DivFOp(total, arith.MaximumFOp(count, one).result).result


def combine(q: int, a: Moments, b: Moments) -> ir.Value:
    """S_q of the union of the keys of ``a`` and ``b`` (emitted at the insertion point).

    Example: combine(2, Moments(n, l, {0: n, 2: m2}), Moments(one, x, {0: one}, mean=x)) is
    Welford's m2 + (s - s')^2 n + (x - s')^2 for one more key x."""
    count = arith.AddFOp(a.count, b.count).result
    total = arith.AddFOp(a.total, b.total).result
    shift = mean(count, total)
    result = None
    for part in (a, b):
        delta = arith.SubFOp(part.mean or mean(part.count, part.total), shift).result
        for r, value in sorted(part.sums.items()):
            if value is None or r > q:
                continue
            term = value
            for _ in range(q - r):  # (s - s')^(q - r) S_r
                term = arith.MulFOp(term, delta).result
            if comb(q, r) != 1:
                term = arith.MulFOp(term, arith.ConstantOp(ir.F32Type.get(), float(comb(q, r))).result).result
            result = term if result is None else arith.AddFOp(result, term).result
    return result
