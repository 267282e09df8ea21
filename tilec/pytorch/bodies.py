"""Copy a linalg.generic body into a ta.map body.

Block arguments become ``ta.at`` reads, ``linalg.index`` becomes ``ta.index``,
constants captured from the function are copied in (a ta.map body reads no
outer values), f64 becomes f32, and ``math.fpowi`` by a small constant becomes
a product (ta's bodies take the arith and math ops the lower stages know).
"""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects import ta_builders as tb

_MAX_POWER = 8


def combiner(value, out_arg):
    """(op name, the other operand) when ``value`` = op(other, out_arg); else (None, None)."""
    owner = value.owner
    if isinstance(owner, ir.Block) or len(owner.operands) != 2:
        return None, None
    a, b = owner.operands
    if b == out_arg and a != out_arg:
        return owner.name, a
    if a == out_arg and b != out_arg:
        return owner.name, b
    return None, None


def _demote(t: ir.Type) -> ir.Type:
    return ir.F32Type.get() if str(t) == "f64" else t


class BodyCopier:
    """Copies the slice of a generic's body that computes one value."""

    def __init__(self, raiser, generic, reads: dict, positions: dict):
        self.raiser, self.generic, self.reads, self.positions = raiser, generic, reads, positions
        self.copied: dict = {}

    def copy(self, value) -> ir.Value:
        key = value
        if key in self.copied:
            return self.copied[key]
        owner = value.owner
        if isinstance(owner, ir.Block):
            if value not in self.reads:
                raise self.raiser.unsupported(self.generic, "its body reads its output")
            tensor, amap = self.reads[value]
            result = tb.at(tensor, amap)
        else:
            result = self._op(owner)
        self.copied[key] = result
        return result

    def _op(self, op) -> ir.Value:
        name = op.name
        if len(op.results) != 1:
            raise self.raiser.unsupported(self.generic, f"its body uses '{name}'")
        if name == "linalg.index":  # a unit loop's index is 0
            dim = ir.IntegerAttr(op.attributes["dim"]).value
            if dim in self.positions:
                return tb.index(self.positions[dim])
            return arith.ConstantOp(ir.IndexType.get(), 0).result
        if name == "arith.constant":
            attr = op.attributes["value"]
            if isinstance(attr, ir.FloatAttr) and str(attr.type) == "f64":
                return arith.ConstantOp(ir.F32Type.get(), ir.FloatAttr(attr).value).result
            return arith.ConstantOp(op.results[0].type, attr).result
        operands = [self.copy(v) for v in op.operands]
        result_type = _demote(op.results[0].type)
        if name in ("arith.extf", "arith.truncf") and operands[0].type == result_type:
            return operands[0]  # a widening to f64 (or back) that f32 arithmetic makes moot
        if name == "math.fpowi":
            return self._power(op, operands[0])
        attrs = {name: op.attributes[name] for name in op.attributes}
        return ir.Operation.create(name, results=[result_type], operands=operands, attributes=attrs).result

    def _power(self, op, base: ir.Value) -> ir.Value:
        exponent = op.operands[1].owner
        if isinstance(exponent, ir.Block) or exponent.name != "arith.constant":
            raise self.raiser.unsupported(self.generic, "math.fpowi by a non-constant exponent")
        n = ir.IntegerAttr(exponent.attributes["value"]).value
        if not 1 <= n <= _MAX_POWER:
            raise self.raiser.unsupported(self.generic, f"math.fpowi by {n} (1..{_MAX_POWER} are expanded)")
        result = base
        for _ in range(n - 1):
            result = arith.MulFOp(result, base).result
        return result
