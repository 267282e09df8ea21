"""Scalar semantics shared by every check: the Z3 value of each arith/math op (the meanings of
dialects/scalar_ops.py on Z3 terms), and the evaluation of a body (ta.map, ta.online, tile.map)
on Z3 terms.

Inputs are uninterpreted functions of their indices (``Values.tensor``); exp, log, erf and
the other math functions, and dtype casts, are uninterpreted functions that the two sides
of a check share, so a check proves equality in real arithmetic modulo those functions.
"""

from __future__ import annotations

import functools
import math

import z3

from tilec.dialects import scalar_ops
from tilec.dialects.scalar_ops import Domain, NoRule


def evaluate(block, vals: "Values", read, outer):
    """The Z3 value a ta.map / ta.online / tile.map body yields (a list for several).

    ``read(op, local)`` gives the value of the ops that read tiles or tensors (ta.at,
    tile.elem, ta.index, tile.index, ta.param) or None; ``outer(v)`` the values defined
    outside the body; every other op is evaluated by ``vals``."""
    local = {}
    get = lambda v: local[v] if v in local else outer(v)
    for op in block.operations:
        name = op.operation.name
        if name in ("ta.yield", "tile.yield"):
            values = [get(v) for v in op.operation.operands]
            return values[0] if len(values) == 1 else values
        special = read(op, local)
        local[op.result] = special if special is not None else vals.scalar(op, [get(v) for v in op.operation.operands])
    raise ValueError("a body without a terminator")


class Values:
    """Z3 values of scalar ops; uninterpreted functions shared by kernel and reference."""

    def __init__(self, params: dict):
        self.params, self.functions = params, {}

    def function(self, name: str, arity: int, domain=z3.RealSort()):
        key = (name, arity)
        if key not in self.functions:
            self.functions[key] = z3.Function(name, *([domain] * arity), z3.RealSort())
        return self.functions[key]

    def _plus(self, a, b):
        """a + b, where an infinity absorbs the other side: every Z3 real is finite, and a
        finite x + (-inf) is -inf in IEEE arithmetic (an additive mask: torch's SDPA adds
        where(j <= i, 0, -inf) to the scores); a select with an infinite branch is added into."""
        infinities = [self.function("ninf", 0)(), self.function("inf", 0)()]
        infinite = lambda v: any(z3.eq(v, x) for x in infinities)
        for x, y in ((a, b), (b, a)):
            if infinite(y) and not infinite(x):
                return y
            if z3.is_app_of(y, z3.Z3_OP_ITE) and any(infinite(v) for v in y.children()[1:]):
                c, then, other = y.children()
                return z3.If(c, self._plus(x, then), self._plus(x, other))
        return a + b

    def tensor(self, name: str, indices: list):
        return self.function(f"tensor_{name}", len(indices), z3.IntSort())(*indices)

    @functools.cached_property
    def domain(self) -> Domain:
        """The scalar ops' meanings (dialects/scalar_ops.py) as Z3 terms: real arithmetic (no
        NaN: an ordered comparison and its unordered twin agree), an infinity absorbing a sum
        (``_plus``), math's ops and the roundings uninterpreted functions both sides share."""
        ninf, inf = self.function("ninf", 0)(), self.function("inf", 0)()
        cond = lambda x: x if z3.is_bool(x) else x != 0  # i1: a condition, or a constant 0/1
        return Domain(
            "z3", add=self._plus, floordiv=lambda a, b: a / b, div_nonneg=lambda a, b: a / b,
            rem_nonneg=lambda a, b: a % b, max=lambda a, b: z3.If(a >= b, a, b), min=lambda a, b: z3.If(a <= b, a, b),
            not_=z3.Not, and_=lambda a, b: z3.And(cond(a), cond(b)), or_=lambda a, b: z3.Or(cond(a), cond(b)),
            xor=lambda a, b: z3.Xor(cond(a), cond(b)), select=z3.If,
            # one uninterpreted constant per infinity, the same on both sides
            const=lambda v, t: z3.IntVal(v) if isinstance(v, int) else (inf if v > 0 else ninf) if math.isinf(v)
            else z3.RealVal(v),
            to_float=lambda a, t: z3.ToReal(a),
            cast=lambda name, a, src, dst: self.function(f"{name}_{src}_{dst}", 1)(a),
            math=lambda name, *args: self.function(name, len(args))(*args))

    def scalar(self, op, args: list):
        try:
            return scalar_ops.evaluate(op, args, self.domain)
        except NoRule as missing:
            raise ValueError(f"the verifier has no value rule for '{op.operation.name}' ({missing})") from None
