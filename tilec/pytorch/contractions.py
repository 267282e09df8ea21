"""The contraction rules of the raiser (``Raiser`` inherits them): linalg.matmul and
batch_matmul as ta.contract, a matmul of N-D tensors (collapse_shape + batch_matmul) over
every batch dim, grouped K/V heads regrouped and read through, a Linear on [B, T, C] with B
and T kept apart.
"""

from __future__ import annotations

import math

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects import ta_builders as tb

from .bodies import Lazy, Predicate
from .support import Domain, element, ta_type, unwidened
from .views import View


class ContractionRules:
    """Raiser methods for contractions (they use its views, fills and unmerged values)."""

    def _named_contraction(self, op) -> None:
        batch = op.operation.name == "linalg.batch_matmul"
        if "indexing_maps" in op.attributes:
            maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["indexing_maps"])]
        else:
            d = [ir.AffineDimExpr.get(k) for k in range(4 if batch else 3)]
            b, (m, n, k) = (d[:1], d[1:]) if batch else ([], d)
            maps = [ir.AffineMap.get(len(d), 0, r) for r in (b + [m, k], b + [k, n], b + [m, n])]
        lhs, rhs, out = op.operation.operands
        unbatched = self._batched_matmul(lhs, rhs) if batch else None
        if unbatched is not None:  # matmul of >3-D tensors: contract over all batch dims
            src_lhs, src_rhs, shape = unbatched
            d = [ir.AffineDimExpr.get(k) for k in range(len(shape) + 1)]
            b, (m, n, k) = d[:-3], d[-3:]
            maps = [ir.AffineMap.get(len(d), 0, r) for r in (b + [m, k], b + [k, n], b + [m, n])]
            out_type = ir.RankedTensorType.get(shape, ir.RankedTensorType(out.type).element_type)
            view = self._contract(op, src_lhs, src_rhs, out, maps, out_type)
            self.unmerged[op.results[0]] = (view, shape)
            return
        if not batch and lhs in self.unmerged:  # a Linear on [B, T, C]: contract over B, T apart
            rows, rows_shape = self.unmerged[lhs]
            lead = rows_shape[:-1]
            d = [ir.AffineDimExpr.get(k) for k in range(len(lead) + 2)]
            free, (n, k) = d[:-2], d[-2:]
            maps = [ir.AffineMap.get(len(d), 0, r) for r in (free + [k], [k, n], free + [n])]
            shape = lead + [ir.RankedTensorType(out.type).shape[-1]]
            out_type = ir.RankedTensorType.get(shape, ir.RankedTensorType(out.type).element_type)
            typed = _Typed(ir.RankedTensorType.get(rows_shape, ir.RankedTensorType(lhs.type).element_type))
            self.unmerged[op.results[0]] = (self._contract(op, typed, rhs, out, maps, out_type, rows), shape)
            return
        self.views[op.results[0]] = self._contract(op, lhs, rhs, out, maps, ir.RankedTensorType(out.type))

    def _batched_matmul(self, lhs, rhs):
        """torch-mlir lowers a matmul of N-D tensors to collapse_shape (batch dims into one)
        then batch_matmul: (lhs source, rhs source, result shape) when it is that."""
        sources = []
        for value in (lhs, rhs):
            owner = value.owner
            if isinstance(owner, ir.Block) or owner.name != "tensor.collapse_shape":
                return None
            sources.append(owner.operands[0])
        shapes = [ir.RankedTensorType(v.type).shape for v in sources]
        if shapes[0][:-2] != shapes[1][:-2]:  # grouped heads: K or V expanded as [B, Hkv, G, ...]
            if math.prod(shapes[0][:-2]) != math.prod(shapes[1][:-2]):
                return None
            short = 0 if len(shapes[0]) < len(shapes[1]) else 1
            regrouped = self._regrouped(sources[1 - short], shapes[short][:-2])
            if regrouped is None:
                return None
            sources[1 - short] = regrouped
            shapes[1 - short] = list(shapes[short][:-2]) + list(shapes[1 - short][-2:])
        return sources[0], sources[1], shapes[0][:-2] + [shapes[0][-2], shapes[1][-1]]

    def _regrouped(self, source, batch: list):
        """``source`` ([b0, b1, ..., rows, cols]) with its batch dims regrouped into ``batch``
        (consecutive dims merged: [B, Hkv, G] as [B, Hkv*G]), read through a ta.remap of its
        raised tensor: merged index h reads dim k at (h floordiv the sizes after k) mod its size,
        a broadcast dim (G copies of a K/V head) not at all. A stand-in the contraction reads;
        None when the dims do not regroup so."""
        shape = list(ir.RankedTensorType(source.type).shape)
        groups, k = [], 0
        for size in batch:
            group = []
            while k < len(shape) - 2 and math.prod(shape[j] for j in group) < size:
                group.append(k)
                k += 1
            if math.prod(shape[j] for j in group) != size:
                return None
            groups.append(group)
        if k != len(shape) - 2:
            return None
        view = self.view_of(source.owner, source)
        if isinstance(view.value, (Lazy, Predicate)):
            return None
        d = ir.AffineDimExpr.get
        at = {}  # linalg dim of the source -> its index in the regrouped domain
        for g, group in enumerate(groups):
            for n, j in enumerate(group):
                inner = math.prod(shape[i] for i in group[n + 1:])
                expr = ir.AffineExpr.get_floor_div(d(g), ir.AffineConstantExpr.get(inner)) if inner > 1 else d(g)
                at[j] = ir.AffineExpr.get_mod(expr, ir.AffineConstantExpr.get(shape[j])) if n else expr
        at[len(shape) - 2], at[len(shape) - 1] = d(len(batch)), d(len(batch) + 1)
        rank = ir.RankedTensorType(view.value.type).rank
        results = [next(at[j] for j, t in enumerate(view.dims) if t == r) for r in range(rank)]
        out_shape = list(batch) + shape[-2:]
        element = ir.RankedTensorType(view.value.type).element_type
        remapped = ir.Operation.create("ta.remap", results=[ta_type(out_shape, element)], operands=[view.value],
                                       attributes={"map": ir.AffineMapAttr.get(
                                           ir.AffineMap.get(len(out_shape), 0, results))}).result
        stand_in = _Typed(ir.RankedTensorType.get(out_shape, ir.RankedTensorType(source.type).element_type))
        self.views[stand_in] = View.whole(remapped)
        return stand_in

    def _contract(self, op, lhs, rhs, start, maps, out_type, lhs_view: View | None = None) -> View:
        """ta.contract of lhs and rhs (an accumulator ``start`` at 0) with the linalg result
        type ``out_type``; ``lhs_view``: how to read lhs when it is not a raised value."""
        domain = Domain([lhs, rhs], maps)
        n = len(domain.live)
        reads = []
        for value, amap in ((lhs, maps[0]), (rhs, maps[1])):
            view = lhs_view if value is lhs and lhs_view is not None else self.view_of(op, value)
            read = view.read_map(domain.results(amap), n)
            if read is None:
                raise self.unsupported(op, "an operand indexed by something other than loop dims")
            reads.append(unwidened(view.value, read))
        out_results = domain.results(maps[2])
        kept = [k for k, r in enumerate(out_results) if r is not None]
        out_map = ir.AffineMap.get(n, 0, [out_results[k] for k in kept])
        shape = [out_type.shape[k] for k in kept]
        self._zero_start(op, start, "sum")
        result = ir.Operation.create(
            "ta.contract", results=[ta_type(shape, ir.F32Type.get())], operands=[reads[0][0], reads[1][0]],
            attributes={"maps": ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in (reads[0][1], reads[1][1], out_map)])}
        ).result
        if element(out_type.element_type) != ir.F32Type.get():
            acc = result
            result = tb.build_map(ta_type(shape, out_type.element_type), lambda: arith.TruncFOp(
                element(out_type.element_type), tb.at(acc, ir.AffineMap.get_identity(len(shape)))).result)
        dims = [None] * out_type.rank
        for t, k in enumerate(kept):
            dims[k] = t
        return View(result, tuple(dims))


class _Typed:
    """A stand-in with only a type: the uncollapsed shape a contraction's domain is read from."""

    def __init__(self, t: ir.Type):
        self.type = t
