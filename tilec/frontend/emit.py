"""Turn elaborated spec values into ta ops (see values.py for the value kinds)."""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import arith, math

from tilec.dialects.dims import DimExpr

from ..diagnostics import SourceLoc, TilecError
from .values import Idx, Leaf, Pw, Scalar, free_indices, is_bool

ELEMENT_TYPES = {"f32": ir.F32Type.get, "f16": ir.F16Type.get, "bf16": ir.BF16Type.get}

_FLOAT_OPS = {"+": arith.AddFOp, "-": arith.SubFOp, "*": arith.MulFOp, "/": arith.DivFOp,
              "max": arith.MaximumFOp, "min": arith.MinimumFOp}
_MATH_OPS = {"exp": math.ExpOp, "log": math.LogOp, "sqrt": math.SqrtOp, "rsqrt": math.RsqrtOp,
             "tanh": math.TanhOp, "abs": math.AbsFOp, "erf": math.ErfOp}
_INDEX_OPS = {"+": arith.AddIOp, "-": arith.SubIOp, "*": arith.MulIOp, "/": arith.FloorDivSIOp}
_CMPF = {"<": "OLT", "<=": "OLE", ">": "OGT", ">=": "OGE", "==": "OEQ", "!=": "UNE"}
_CMPI = {"<": "slt", "<=": "sle", ">": "sgt", ">=": "sge", "==": "eq", "!=": "ne"}


def tensor_type(dims, element: ir.Type) -> ir.RankedTensorType:
    """A ta tensor type: static sizes where known, every dim named in the encoding."""
    shape = [d.static if d.static is not None else ir.ShapedType.get_dynamic_size() for d in dims]
    names = ir.ArrayAttr.get([ir.StringAttr.get(str(d)) for d in dims])
    return ir.RankedTensorType.get(shape, element, names)


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
        return tensor_type([self.extents[i] for i in order], element)

    def materialize(self, v, order: tuple[str, ...], element: ir.Type, loc: SourceLoc) -> ir.Value:
        """A tensor over ``order`` holding ``v`` (as-is when it already is one)."""
        if isinstance(v, Leaf) and v.indices == order and ir.RankedTensorType(v.value.type).element_type == element:
            return v.value
        if is_bool(v):
            raise self.error("a comparison is not a number; use it in 'where' or select(...)", loc)
        op = ir.Operation.create("ta.map", results=[self._type(order, element)], regions=1, loc=mlir_loc(loc))
        block = op.regions[0].blocks.append()
        with ir.InsertionPoint(block), mlir_loc(loc):
            result = _Body(self, order).number(v, loc)
            if element != result.type:
                result = arith.TruncFOp(element, result).result
            ir.Operation.create("ta.yield", operands=[result])
        return op.result

    def operand(self, v, order, loc) -> tuple[ir.Value, tuple[str, ...]]:
        """``v`` as a contraction operand: leaves keep their element type (bf16 stays bf16)."""
        if isinstance(v, Leaf):
            return v.value, v.indices
        return self.materialize(v, order, ir.F32Type.get(), loc), order

    def contract(self, a, b, reduced: tuple[str, ...], loc: SourceLoc) -> Leaf:
        """sum over ``reduced`` of a * b, as one ta.contract; a and b are (value, order) pairs."""
        (lhs, lhs_idx), (rhs, rhs_idx) = self.operand(*a, loc), self.operand(*b, loc)
        domain = tuple(dict.fromkeys(lhs_idx + rhs_idx))
        out = tuple(i for i in domain if i not in reduced)
        pos = {name: k for k, name in enumerate(domain)}
        amap = lambda idx: ir.AffineMapAttr.get(
            ir.AffineMap.get(len(domain), 0, [ir.AffineDimExpr.get(pos[i]) for i in idx]))
        op = ir.Operation.create(
            "ta.contract", results=[self._type(out, ir.F32Type.get())], operands=[lhs, rhs],
            attributes={"maps": ir.ArrayAttr.get([amap(lhs_idx), amap(rhs_idx), amap(out)])},
            loc=mlir_loc(loc))
        return Leaf(op.result, out)

    def reduce(self, kind: str, v, order, reduced: tuple[str, ...], loc: SourceLoc) -> Leaf:
        """ta.reduce / ta.softmax / ta.logsumexp of ``v`` (laid out in ``order``) over ``reduced``."""
        f32 = ir.F32Type.get()
        src = self.materialize(v, order, f32, loc)
        dims = [order.index(i) for i in reduced]
        i64 = ir.IntegerType.get_signless(64)
        if kind == "softmax":
            attrs, out = {"dim": ir.IntegerAttr.get(i64, dims[0])}, order
        elif kind == "logsumexp":
            attrs, out = {"dim": ir.IntegerAttr.get(i64, dims[0])}, tuple(i for i in order if i not in reduced)
        else:
            attrs = {"kind": ir.StringAttr.get(kind),
                     "dims": ir.ArrayAttr.get([ir.IntegerAttr.get(i64, d) for d in dims])}
            out = tuple(i for i in order if i not in reduced)
        op = ir.Operation.create(f"ta.{'reduce' if kind in ('sum', 'max', 'min') else kind}",
                                 results=[self._type(out, f32)], operands=[src],
                                 attributes=attrs, loc=mlir_loc(loc))
        return Leaf(op.result, out)

    def remap(self, value: ir.Value, subscripts: list[Idx], loc: SourceLoc) -> Leaf:
        """src[f(i, j, ...)] for affine subscripts f, as a ta.remap over the named indices."""
        names = free_indices(Pw("tuple", tuple(subscripts), loc))
        pos = {name: k for k, name in enumerate(names)}
        exprs = [self._affine(s.expr, pos, loc) for s in subscripts]
        element = ir.RankedTensorType(value.type).element_type
        op = ir.Operation.create(
            "ta.remap", results=[self._type(names, element)], operands=[value],
            attributes={"map": ir.AffineMapAttr.get(ir.AffineMap.get(len(names), 0, exprs))},
            loc=mlir_loc(loc))
        return Leaf(op.result, names)

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
        positions = [ir.AffineDimExpr.get(self.order.index(i)) for i in leaf.indices]
        amap = ir.AffineMap.get(len(self.order), 0, positions)
        element = ir.RankedTensorType(leaf.value.type).element_type
        at = ir.Operation.create("ta.at", results=[element], operands=[leaf.value],
                                 attributes={"map": ir.AffineMapAttr.get(amap)}).result
        if not isinstance(element, ir.F32Type):
            at = arith.ExtFOp(ir.F32Type.get(), at).result
        return at

    def _index(self, expr) -> ir.Value:
        kind = expr[0]
        index = ir.IndexType.get()
        if kind == "var":
            dim = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), self.order.index(expr[1]))
            return ir.Operation.create("ta.index", results=[index], attributes={"dim": dim}).result
        if kind == "param":
            return ir.Operation.create("ta.param", results=[index],
                                       attributes={"name": ir.StringAttr.get(expr[1])}).result
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
