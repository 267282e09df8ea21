"""Turn elaborated spec values into ta ops (see values.py for the value kinds)."""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import arith, math

from tilec.dialects import ta_builders as tb
from tilec.dialects.dims import DimExpr
from tilec.dialects.reduce_kinds import KINDS

from ..diagnostics import SourceLoc, TilecError
from .values import Idx, Leaf, Pw, Scalar, free_indices, is_bool

ELEMENT_TYPES = {"f32": ir.F32Type.get, "f16": ir.F16Type.get, "bf16": ir.BF16Type.get}

# max and min of two values combine as the reduction kinds do (NaN-propagating: dialects/reduce_kinds.py)
_FLOAT_OPS = {"+": arith.AddFOp, "-": arith.SubFOp, "*": arith.MulFOp, "/": arith.DivFOp,
              **{k: getattr(arith, KINDS[k].arith) for k in ("max", "min")}}
_MATH_OPS = {"exp": math.ExpOp, "log": math.LogOp, "sqrt": math.SqrtOp, "rsqrt": math.RsqrtOp,
             "tanh": math.TanhOp, "abs": math.AbsFOp, "erf": math.ErfOp}
_INDEX_OPS = {"+": arith.AddIOp, "-": arith.SubIOp, "*": arith.MulIOp, "/": arith.FloorDivSIOp}
_CMPF = {"<": "OLT", "<=": "OLE", ">": "OGT", ">=": "OGE", "==": "OEQ", "!=": "UNE"}
_CMPI = {"<": "slt", "<=": "sle", ">": "sgt", ">=": "sge", "==": "eq", "!=": "ne"}


def mlir_loc(loc: SourceLoc) -> ir.Location:
    return ir.Location.file(loc.file, loc.line, loc.col)


class Emitter:
    """Appends ta ops for one statement at the current insertion point."""

    def __init__(self, extents: dict[str, DimExpr], source: str):
        self.extents = extents
        self.source = source

    def error(self, message: str, loc: SourceLoc) -> TilecError:
        return TilecError(message, loc, self.source)

    def _type(self, order, element) -> ir.RankedTensorType:
        return tb.tensor_type([self.extents[i] for i in order], element)

    def materialize(self, v, order: tuple[str, ...], element: ir.Type, loc: SourceLoc) -> ir.Value:
        """A tensor over ``order`` holding ``v`` (as-is when it already is one)."""
        if isinstance(v, Leaf) and v.indices == order and ir.RankedTensorType(v.value.type).element_type == element:
            return v.value
        if is_bool(v):
            raise self.error("a comparison is not a number; use it in 'where' or select(...)", loc)
        def body():
            result = _Body(self, order).number(v, loc)
            return arith.TruncFOp(element, result).result if element != result.type else result

        with mlir_loc(loc):
            return tb.build_map(self._type(order, element), body)

    def operand(self, v, order, loc) -> tuple[ir.Value, tuple[str, ...]]:
        """``v`` as a contraction operand: leaves keep their element type (bf16 stays bf16)."""
        if isinstance(v, Leaf):
            return v.value, v.indices
        return self.materialize(v, order, ir.F32Type.get(), loc), order

    def contract(self, a, b, reduced: tuple[str, ...], loc: SourceLoc, prefer: tuple = ()) -> Leaf:
        """sum over ``reduced`` of a * b, as one ta.contract; a and b are (value, order) pairs. The
        result's indices come in ``prefer``'s order (the statement's left-hand side) where it has
        them, so no transpose is left between the contraction and what it is assigned to."""
        lhs, lhs_idx = self.operand(*a, loc)
        rhs, rhs_idx = (lhs, lhs_idx) if b == a else self.operand(*b, loc)  # x * x: one tensor
        domain = tuple(dict.fromkeys(lhs_idx + rhs_idx))
        kept = [i for i in domain if i not in reduced]
        out = tuple(sorted(kept, key=lambda i: (prefer.index(i) if i in prefer else len(prefer) + kept.index(i))))
        amap = lambda idx: tb.projection(len(domain), [domain.index(i) for i in idx])
        with mlir_loc(loc):
            maps = [amap(lhs_idx), amap(rhs_idx), amap(out)]
            return Leaf(tb.contract(lhs, rhs, maps, self._type(out, ir.F32Type.get())), out)

    def reduce(self, kind: str, v, order, reduced: tuple[str, ...], loc: SourceLoc) -> Leaf:
        """ta.reduce / ta.softmax / ta.logsumexp of ``v`` (laid out in ``order``) over ``reduced``."""
        src = self.materialize(v, order, ir.F32Type.get(), loc)
        dims = [order.index(i) for i in reduced]
        out = order if kind == "softmax" else tuple(i for i in order if i not in reduced)
        with mlir_loc(loc):
            if kind in ("softmax", "logsumexp"):
                return Leaf(tb.along(src, kind, dims[0]), out)
            return Leaf(tb.reduce(src, kind, dims), out)

    def remap(self, value: ir.Value, subscripts: list[Idx], loc: SourceLoc) -> Leaf:
        """src[f(i, j, ...)] for affine subscripts f, as a ta.remap over the named indices."""
        names = free_indices(Pw("tuple", tuple(subscripts), loc))
        pos = {name: k for k, name in enumerate(names)}
        exprs = [self._affine(s.expr, pos, loc) for s in subscripts]
        element = ir.RankedTensorType(value.type).element_type
        with mlir_loc(loc):
            amap = ir.AffineMap.get(len(names), 0, exprs)
            return Leaf(tb.remap(value, amap, self._type(names, element)), names)

    def _affine(self, expr, pos, loc) -> ir.AffineExpr:
        kind = expr[0]
        if kind == "var":
            return ir.AffineDimExpr.get(pos[expr[1]])
        if kind == "int":
            return ir.AffineConstantExpr.get(expr[1])
        if kind == "param":
            raise self.error(f"shape parameter '{expr[1]}' cannot appear in a subscript", loc)
        a, b = self._affine(expr[1], pos, loc), self._affine(expr[2], pos, loc)
        if kind == "+":
            return a + b
        if kind == "-":
            return a - b
        constant = lambda e: isinstance(e, ir.AffineConstantExpr)
        if kind == "*" and (constant(a) or constant(b)):
            return a * b
        if kind == "/" and constant(b) and ir.AffineConstantExpr(b).value > 0:
            return ir.AffineFloorDivExpr.get(a, b)
        raise self.error("subscripts must be affine: multiply or divide indices only by constants", loc)


class _Body:
    """Emits the scalar body of one ta.map over the index order ``order``."""

    def __init__(self, emitter: Emitter, order: tuple[str, ...]):
        self.em = emitter
        self.order = order
        self.memo: dict = {}

    def number(self, v, loc) -> ir.Value:
        """``v`` as an f32 value (index values converted)."""
        if is_bool(v):
            raise self.em.error("a comparison is not a number; use it in 'where' or select(...)", loc)
        value = self.value(v, loc)
        if isinstance(value.type, ir.IndexType):
            as_int = arith.IndexCastOp(ir.IntegerType.get_signless(64), value).result
            return arith.SIToFPOp(ir.F32Type.get(), as_int).result
        return value

    def value(self, v, loc) -> ir.Value:
        key = v if not isinstance(v, Leaf) else ("leaf", id(v.value), v.indices)
        if key not in self.memo:
            self.memo[key] = self._emit(v, loc)
        return self.memo[key]

    def _emit(self, v, loc) -> ir.Value:
        if isinstance(v, Scalar):
            return arith.ConstantOp(ir.F32Type.get(), v.value).result
        if isinstance(v, Leaf):
            return self._at(v)
        if isinstance(v, Idx):
            return self._index(v.expr)
        return self._pointwise(v)

    def _at(self, leaf: Leaf) -> ir.Value:
        amap = tb.projection(len(self.order), [self.order.index(i) for i in leaf.indices])
        at = tb.at(leaf.value, amap)
        if not isinstance(at.type, ir.F32Type):
            at = arith.ExtFOp(ir.F32Type.get(), at).result
        return at

    def _index(self, expr) -> ir.Value:
        kind = expr[0]
        index = ir.IndexType.get()
        if kind == "var":
            return tb.index(self.order.index(expr[1]))
        if kind == "param":
            return tb.param(expr[1])
        if kind == "int":
            return arith.ConstantOp(index, expr[1]).result
        return _INDEX_OPS[kind](self._index(expr[1]), self._index(expr[2])).result

    def _pointwise(self, v: Pw) -> ir.Value:
        fn, args = v.fn, v.args
        if fn in _CMPI and all(isinstance(a, Idx) for a in args):
            lhs, rhs = (self.value(a, v.loc) for a in args)
            return arith.CmpIOp(getattr(arith.CmpIPredicate, _CMPI[fn]), lhs, rhs).result
        if fn in _CMPF:
            lhs, rhs = (self.number(a, v.loc) for a in args)
            return arith.CmpFOp(getattr(arith.CmpFPredicate, _CMPF[fn]), lhs, rhs).result
        if fn in ("and", "or"):
            lhs, rhs = (self._condition(a, v.loc) for a in args)
            return (arith.AndIOp if fn == "and" else arith.OrIOp)(lhs, rhs).result
        if fn == "select":
            cond = self._condition(args[0], v.loc)
            return arith.SelectOp(cond, self.number(args[1], v.loc), self.number(args[2], v.loc)).result
        xs = [self.number(a, v.loc) for a in args]
        if fn in _FLOAT_OPS:
            return _FLOAT_OPS[fn](*xs).result
        if fn == "neg":
            return arith.NegFOp(xs[0]).result
        if fn == "sigmoid":  # 1 / (1 + exp(-x))
            one = arith.ConstantOp(ir.F32Type.get(), 1.0).result
            denominator = arith.AddFOp(one, math.ExpOp(arith.NegFOp(xs[0]).result).result).result
            return arith.DivFOp(one, denominator).result
        return _MATH_OPS[fn](xs[0]).result

    def _condition(self, v, loc) -> ir.Value:
        if not is_bool(v):
            raise self.em.error("expected a condition (a comparison such as j <= i)", loc)
        return self.value(v, loc)
