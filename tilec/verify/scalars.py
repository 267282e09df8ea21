"""Scalar semantics shared by every check: the Z3 value of each arith/math op, and the
evaluation of a body (ta.map, ta.online, tile.map) on Z3 terms.

Inputs are uninterpreted functions of their indices (``Values.tensor``); exp, log, erf and
the other math functions, and dtype casts, are uninterpreted functions that the two sides
of a check share, so a check proves equality in real arithmetic modulo those functions.
"""

from __future__ import annotations

import math

import z3
from torch_mlir import ir


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

    def scalar(self, op, args: list):
        name = op.operation.name
        arith = {"arith.addf": self._plus, "arith.subf": lambda a, b: a - b,
                 "arith.mulf": lambda a, b: a * b, "arith.divf": lambda a, b: a / b,
                 "arith.negf": lambda a: -a,
                 "arith.maximumf": lambda a, b: z3.If(a >= b, a, b), "arith.minimumf": lambda a, b: z3.If(a <= b, a, b),
                 "arith.select": lambda c, a, b: z3.If(c, a, b)}
        if name in arith:
            return arith[name](*args)
        integer = {"arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b,
                   "arith.floordivsi": lambda a, b: a / b, "arith.divsi": lambda a, b: a / b,
                   "arith.remsi": lambda a, b: a % b}
        if name in integer:
            return integer[name](*args)
        if name in ("arith.andi", "arith.ori", "arith.xori") and ir.IntegerType(op.result.type).width == 1:
            a, b = (x if z3.is_bool(x) else x != 0 for x in args)  # i1: a condition, or a constant 0/1
            return {"arith.andi": z3.And, "arith.ori": z3.Or, "arith.xori": z3.Xor}[name](a, b)
        if name == "arith.cmpi":
            pred = ir.IntegerAttr(op.attributes["predicate"]).value
            return [lambda a, b: a == b, lambda a, b: a != b, lambda a, b: a < b, lambda a, b: a <= b,
                    lambda a, b: a > b, lambda a, b: a >= b][pred](*args)
        if name == "arith.constant":
            attr = op.attributes["value"]
            if not isinstance(attr, ir.FloatAttr):
                return z3.IntVal(ir.IntegerAttr(attr).value)
            value = ir.FloatAttr(attr).value
            if math.isinf(value):  # one uninterpreted constant per infinity, the same on both sides
                return self.function("inf" if value > 0 else "ninf", 0)()
            return z3.RealVal(value)
        if name in ("arith.index_cast",):
            return args[0]
        if name == "arith.sitofp":
            return z3.ToReal(args[0])
        if name in ("arith.extf", "arith.truncf"):  # a rounding: the same unknown function on both sides
            src, dst = str(op.operation.operands[0].type), str(op.result.type)
            return self.function(f"{name}_{src}_{dst}", 1)(args[0])
        if name == "arith.cmpf":
            predicate = ir.IntegerAttr(op.attributes["predicate"]).value
            table = {2: lambda a, b: a > b, 3: lambda a, b: a >= b, 4: lambda a, b: a < b, 5: lambda a, b: a <= b,
                     1: lambda a, b: a == b, 6: lambda a, b: a != b}
            return table.get(predicate, lambda a, b: self.function(f"cmpf{predicate}", 2)(a, b) > 0)(*args)
        if name.startswith("math."):
            return self.function(name, len(args))(*args)
        raise ValueError(f"the verifier has no value rule for '{name}'")
