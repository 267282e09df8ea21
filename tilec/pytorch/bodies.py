"""Copy a linalg.generic body into a ta.map body.

Block arguments become ``ta.at`` reads, ``linalg.index`` becomes ``ta.index``,
constants captured from the function are copied in (a ta.map body reads no
outer values), f64 becomes f32, and ``math.fpowi`` by a small constant becomes
a product (ta's bodies take the arith and math ops the lower stages know).
"""

from __future__ import annotations

import numpy as np
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


class Lazy:
    """An elementwise generic over integers or booleans, kept as its body: ta tensors are
    floating point, so a mask built from indices is computed where it is read."""

    def __init__(self, generic, value, reads: dict, domain):
        self.generic, self.value, self.reads, self.domain = generic, value, reads, domain
        self.type = ir.RankedTensorType.get(domain.shape, value.type)


class Predicate:
    """A boolean tensor that is a comparison of a float ta tensor with a constant: how an
    all/any reduction is raised (``all_j x == -inf`` is ``max_j x == -inf``; see
    ``Raiser._boolean_reduction``). Like ``Lazy``, it is computed where it is read."""

    def __init__(self, tensor, predicate: int, constant: float):
        self.tensor, self.predicate, self.constant = tensor, predicate, constant
        self.type = ir.RankedTensorType.get(ir.RankedTensorType(tensor.type).shape, ir.IntegerType.get_signless(1))

    def element(self, amap: ir.AffineMap) -> ir.Value:
        """``tensor[amap] <predicate> constant`` in the body being built."""
        value = tb.at(self.tensor, amap)
        return arith.CmpFOp(self.predicate, value, arith.ConstantOp(value.type, self.constant).result).result


def _reciprocal(value):
    """1/c for a non-zero finite float constant c (in the body being built), or for the square
    root of one (torch's bf16 GELU divides by sqrt(2.0) computed in its body), else None."""
    owner = value.owner
    root = not isinstance(owner, ir.Block) and owner.name == "math.sqrt"
    if root:
        owner = owner.operands[0].owner
    if isinstance(owner, ir.Block) or owner.name != "arith.constant" or \
            not isinstance(owner.attributes["value"], ir.FloatAttr):
        return None
    c = ir.FloatAttr(owner.attributes["value"]).value
    if root:
        c = float(np.sqrt(np.float32(c))) if c > 0 else 0.0  # as the f32 body would compute it
    return 1.0 / c if c != 0 and abs(c) != float("inf") else None


def _is_constant(value, number: int) -> bool:
    owner = value.owner
    return not isinstance(owner, ir.Block) and owner.name == "arith.constant" and \
        isinstance(owner.attributes["value"], ir.IntegerAttr) and ir.IntegerAttr(owner.attributes["value"]).value == number


def _demote(t: ir.Type) -> ir.Type:
    """Body arithmetic is f32 (see raising.element)."""
    return ir.F32Type.get() if str(t) in ("f64", "bf16", "f16") else t


class BodyCopier:
    """Copies the slice of a generic's body that computes one value."""

    def __init__(self, raiser, generic, reads: dict, index_value):
        self.raiser, self.generic, self.reads, self.index_value = raiser, generic, reads, index_value
        self.copied: dict = {}

    def copy(self, value) -> ir.Value:
        key = value
        if key in self.copied:
            return self.copied[key]
        owner = value.owner
        if isinstance(owner, ir.Block):
            if value not in self.reads:
                raise self.raiser.unsupported(self.generic, "its body reads its output")
            read = self.reads[value]
            if isinstance(read, ir.Attribute):  # a splat constant
                result = self._constant(read)
            elif isinstance(read[0], Lazy):
                result = self._inline(*read)
            elif isinstance(read[0], Predicate):
                result = read[0].element(read[1])
            else:
                result = tb.at(*read)
                if str(result.type) in ("bf16", "f16"):  # an input's element, widened once
                    result = arith.ExtFOp(ir.F32Type.get(), result).result
        else:
            result = self._op(owner)
        self.copied[key] = result
        return result

    def _op(self, op) -> ir.Value:
        name = op.name
        if len(op.results) != 1:
            raise self.raiser.unsupported(self.generic, f"its body uses '{name}'")
        if name == "linalg.index":
            return self.index_value(ir.IntegerAttr(op.attributes["dim"]).value)
        if name == "arith.constant":
            return self._constant(op.attributes["value"])
        if name == "arith.cmpi":
            compared = self._index_comparison(op)
            if compared is not None:
                return compared
        operands = [self.copy(v) for v in op.operands]
        result_type = _demote(op.results[0].type)
        if name in ("arith.extf", "arith.truncf") and operands[0].type == result_type:
            return operands[0]  # a widening (or rounding) that f32 arithmetic makes moot
        if name == "math.fpowi":
            return self._power(op, operands[0])
        reciprocal = _reciprocal(operands[1]) if name == "arith.divf" else None
        if reciprocal is not None:  # x / c as x * (1/c): the scale form the lowerings fold (within 1 ulp)
            return arith.MulFOp(operands[0], arith.ConstantOp(operands[0].type, reciprocal).result).result
        attrs = {name: op.attributes[name] for name in op.attributes}
        return ir.Operation.create(name, results=[result_type], operands=operands, attributes=attrs).result

    def _index_comparison(self, op):
        """``cmpi p, (i64(a) - i64(b)), 0`` (torch's tril / triu) as ``cmpi p, a, b`` on the
        indices themselves: the form the spec's ``where j <= i`` has, which the attention
        lowering reads to skip fully masked key blocks."""
        difference, zero = op.operands
        if not _is_constant(zero, 0):
            return None
        subtract = self.copy(difference).owner  # copied first: it may come from an inlined mask
        if isinstance(subtract, ir.Block) or subtract.name != "arith.subi":
            return None
        sides = []
        for v in subtract.operands:
            cast = v.owner
            if isinstance(cast, ir.Block) or cast.name != "arith.index_cast" or \
                    not isinstance(cast.operands[0].type, ir.IndexType):
                return None
            sides.append(cast.operands[0])
        return ir.Operation.create("arith.cmpi", results=[ir.IntegerType.get_signless(1)], operands=sides,
                                   attributes={"predicate": op.attributes["predicate"]}).result

    def _inline(self, lazy: "Lazy", amap: ir.AffineMap) -> ir.Value:
        """The element of ``lazy`` that ``amap`` (this body's domain -> lazy's live dims) reads."""
        def read_through(read):
            if isinstance(read, ir.Attribute):
                return read
            return (read[0], tb.compose(amap, read[1]))

        def index_value(dim: int) -> ir.Value:
            if dim not in lazy.domain.position:
                return arith.ConstantOp(ir.IndexType.get(), 0).result
            return tb.index(ir.AffineDimExpr(amap.results[lazy.domain.position[dim]]).position)

        reads = {arg: read_through(r) for arg, r in lazy.reads.items()}
        return BodyCopier(self.raiser, lazy.generic, reads, index_value).copy(lazy.value)

    def _constant(self, attr) -> ir.Value:
        if isinstance(attr, ir.FloatAttr) and str(attr.type) in ("f64", "bf16", "f16"):
            return arith.ConstantOp(ir.F32Type.get(), ir.FloatAttr(attr).value).result
        return arith.ConstantOp(attr.type, attr).result

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
