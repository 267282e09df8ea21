"""ta-grad{saved=true}: a forward that saves what its backward reads, and that backward.

For ``@f(x...) -> (y...)`` the pass adds

    @f_fwd(x...) -> (y..., lse...)             f, and the row log-sum-exp of each ta.softmax's
                                               input (one per softmax, in program order)
    @f_bwd(x..., y..., lse..., dy...) -> (dx...)

where the backward computes no softmax row again. It reads each softmax as the saved
statistic gives it, and the row term of softmax's gradient from the saved output:

    y = softmax(x)                  ->  y = exp(x - lse)               (lse = logsumexp(x))
    D = Σ_j ȳ·y, ȳ = Σ_d c̄·v       ->  D = Σ_d c̄·c                   (c = Σ_j y·v, saved)

The second is Fubini on finite sums: Σ_j (Σ_d c̄_d v_jd) y_j = Σ_d c̄_d (Σ_j y_j v_jd). It
applies where the softmax's one use is a contraction ``c`` over the softmax's dim whose value
the function returns (itself, or through maps that cast it to the output's type, which
FlashAttention's backward reads the same way: D then sees the output's rounding), the softmax
feeding it directly or through maps that cast it (PyTorch code's P); elsewhere D stays Σ_j ȳ·y. With both,
attention's backward is FlashAttention-2's: P = exp(s - lse), dP = dO·Vᵀ, D = rowsum(dO ∘ O),
dS = P ∘ (dP - D), dV = Pᵀ·dO, dK = dSᵀ·Q, dQ = dS·K; the backward carries the
``ta.recompute`` attribute, under which ta-fuse-reductions computes P and dS where the
sums read them (no score-sized tensor is stored).
"""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import arith, func, math

from tilec.dialects import ta_builders as tb
from tilec.dialects.ta import tensor_dims

from .. import refusal
from . import tensors
from .tensors import F32, identity, rank, widen



def forward(fn, name: str) -> tuple[func.FuncOp, list[str]]:
    """``@{name}_fwd``: ``fn`` that also returns each softmax input's row log-sum-exp (and the
    statistics' names; the caller names its results)."""
    fwd = fn.operation.clone(ir.InsertionPoint.after(fn)).opview
    fwd.attributes["sym_name"] = ir.StringAttr.get(f"{name}_fwd")
    block = fwd.regions[0].blocks[0]
    ret = list(block.operations)[-1]
    softmaxes = [op for op in block.operations if op.operation.name == "ta.softmax"]
    names = [f"lse{k}" if len(softmaxes) > 1 else "lse" for k in range(len(softmaxes))]
    with ir.InsertionPoint(ret), fwd.location:
        lses = [tb.along(op.operation.operands[0], "logsumexp", ir.IntegerAttr(op.attributes["dim"]).value)
                for op in softmaxes]
        results = list(ret.operation.operands) + lses
        func.ReturnOp(results)
    ret.operation.erase()
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    fwd.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(list(ftype.inputs),
                                                                          [r.type for r in results]))
    return fwd, names


class Saved:
    """What the backward reads instead of computing again: the saved outputs (returned value ->
    its argument) and each softmax's statistic (softmax op's result -> its lse argument)."""

    def __init__(self, returned: list, output_args: list, softmaxes: list, lse_args: list):
        self.output_of = dict(zip(returned, output_args))
        self.lse_of = dict(zip([op.result for op in softmaxes], lse_args))
        self.totals = {}  # forward value -> its adjoint, as the sweep totals it
        block = softmaxes[0].operation.block if softmaxes else None
        self.forward_ops = {op.operation for op in block.operations} if block is not None else set()

    def saved_value(self, c: ir.Value) -> ir.Value | None:
        """The saved argument holding ``c`` (returned as it is, or through maps that only cast it)."""
        seen = set()
        while c not in self.output_of and c not in seen:
            seen.add(c)
            for use in c.uses:
                owner = use.owner
                if owner.name != "ta.at" or owner.parent is None or owner.parent.name != "ta.map":
                    continue
                if owner.parent in self.forward_ops and _only_casts(owner.parent, owner, c):
                    c = owner.parent.results[0]
                    break
        return self.output_of.get(c)

    def softmax(self, op, ybar: ir.Value) -> list:
        """softmax's gradient, its row term from the saved contraction where there is one."""
        row_term = self._row_term(op)
        if row_term is None:
            return tensors.softmax(op, ybar)
        x, y = op.operation.operands[0], op.result
        dim, n = ir.IntegerAttr(op.attributes["dim"]).value, rank(x)
        full, row = identity(n), tb.projection(n, [d for d in range(n) if d != dim])
        return [(x, tb.build_map(tensors.f32_type(x), lambda: arith.MulFOp(widen(tb.at(y, full)), arith.SubFOp(
            tb.at(ybar, full), tb.at(row_term, row)).result).result))]

    def _row_term(self, op) -> ir.Value | None:
        """Σ_d c̄·c over the saved c = contract(y, v) reducing the softmax's dim (FlashAttention's
        D), as a tensor over the softmax's other dims; None where the form does not hold."""
        y, dim = op.result, ir.IntegerAttr(op.attributes["dim"]).value
        uses = self._contracted(y)
        if uses is None:
            return None
        c_op = uses[0].owner
        c = c_op.results[0]
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(c_op.attributes["maps"])]
        if any(not all(isinstance(e, ir.AffineDimExpr) for e in m.results) for m in maps):
            return None
        pos = [[ir.AffineDimExpr(e).position for e in m.results] for m in maps]
        y_pos = pos[uses[0].operand_number]
        reduced = set(range(maps[0].n_dims)) - set(pos[2])
        row = [p for k, p in enumerate(y_pos) if k != dim]
        if reduced != {y_pos[dim]} or not set(row) <= set(pos[2]) or c not in self.totals:
            return None
        saved = self.saved_value(c)
        if saved is None:
            return None
        out, cbar = pos[2], self.totals[c]
        whole = identity(len(out))
        product = tb.build_map(tensors.f32_type(c), lambda: arith.MulFOp(tb.at(cbar, whole),
                                                                          widen(tb.at(saved, whole))).result)
        summed = [k for k, p in enumerate(out) if p not in row]  # a row program: the output's rows, summed
        for k in reversed(summed):
            product = tb.reduce(product, "sum", [k])
        order = [p for p in out if p in row]
        if order == row:
            return product
        return tb.build_map(tb.tensor_type([tensor_dims(y.type)[k] for k in range(rank(y)) if k != dim], F32()),
                            lambda: tb.at(product, tb.projection(len(row), [row.index(p) for p in order])))

    def _contracted(self, y: ir.Value) -> list | None:
        """The one forward use of softmax ``y`` by a contraction ([use]), directly or through a
        map that only casts it (PyTorch code's P as imported: a copy, or a rounding, which
        D = Σ_d c̄·c then reads as FlashAttention's D does, as it reads O's); None otherwise."""
        uses = self._forward_uses(y)
        while len(uses) == 1 and uses[0].owner.name == "ta.at":
            cast = uses[0].owner.parent
            if cast.name != "ta.map" or not _only_casts(cast, uses[0].owner, uses[0].owner.operands[0]):
                return None
            uses = self._forward_uses(cast.results[0])
        if len(uses) != 1 or uses[0].owner.name != "ta.contract":
            return None
        return uses

    def _forward_uses(self, value: ir.Value) -> list:
        """The uses of ``value`` by the forward's ops (a read in a forward map's body included),
        not by the adjoints'."""
        def forward(owner):
            return owner in self.forward_ops or (owner.name == "ta.at" and owner.parent is not None
                                                 and owner.parent in self.forward_ops)
        return [u for u in value.uses if forward(u.owner)]

    def read_statistics(self) -> None:
        """Each softmax (of the forward computed again) as exp(x - lse) from its saved lse."""
        for y, lse in self.lse_of.items():
            op = y.owner
            x, dim, n = op.operands[0], ir.IntegerAttr(op.attributes["dim"]).value, rank(y)
            full, row = identity(n), tb.projection(n, [d for d in range(n) if d != dim])
            with ir.InsertionPoint(op), op.location:
                p = tb.build_map(y.type, lambda: _as(math.ExpOp(arith.SubFOp(
                    widen(tb.at(x, full)), tb.at(lse, row)).result).result, y))
            y.replace_all_uses_with(p)
            op.erase()


def _as(value: ir.Value, like: ir.Value) -> ir.Value:
    element = ir.RankedTensorType(like.type).element_type
    return value if isinstance(element, ir.F32Type) else arith.TruncFOp(element, value).result


def _only_casts(map_op, at_op, c: ir.Value) -> bool:
    """Whether ``map_op``'s body is ``cast(at(c, identity))``: the element of c, maybe rounded."""
    ops = list(map_op.regions[0].blocks[0].operations)
    amap = ir.AffineMapAttr(at_op.attributes["map"]).value
    if not tb.is_identity(amap) or rank(c) != rank(map_op.results[0]):
        return False
    value = at_op.results[0]
    for inner in ops:
        name = inner.operation.name
        if inner.operation == at_op:
            continue
        if name in ("arith.truncf", "arith.extf") and inner.operation.operands[0] == value:
            value = inner.result
        elif name == "ta.yield":
            return inner.operation.operands[0] == value
        else:
            return False
    return False


def check_names(fn, names: list[str], taken: list[str]) -> None:
    clash = sorted(set(names) & set(taken))
    if clash:
        raise refusal("ta-grad", fn, f"the saved statistics would be named {', '.join(clash)}, which the "
                                     f"function already uses: rename its tensors")
