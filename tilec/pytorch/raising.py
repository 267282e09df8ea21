"""Raise torch-mlir's linalg-on-tensors into a ta function.

Each linalg op becomes the ta op that says the same thing:

    linalg.matmul / batch_matmul, a generic summing products   -> ta.contract
    linalg.generic, all loops parallel                           -> ta.map (body copied)
    linalg.generic reducing with addf / maximumf / minimumf      -> ta.map + ta.reduce
    linalg.generic reducing booleans with andi / ori (all, any)  -> ta.reduce max / min, compared
    linalg.transpose / broadcast, unit-dim expand/collapse_shape -> a View (no op)
    other reshapes, static tensor.extract_slice                  -> ta.remap
    tensor.concat (torch.cat)                                    -> ta.map choosing a part by index
    collapse_shape + batch_matmul (an N-D matmul)                -> ta.contract over every batch dim
    elementwise ops on integers or booleans (index masks)        -> inlined where read
    tensor.empty, linalg.fill as an accumulator's start          -> nothing

Shapes are the example inputs' (static); intermediates are f32 as in the spec
language (see support.element). An op with no rule raises ``Unsupported``
naming the op and the user's source line torch.export recorded.
"""

from __future__ import annotations

import math

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects import ta_builders as tb
from tilec.dialects.reduce_kinds import KINDS

from .bodies import BodyCopier, Lazy, Predicate, combiner
from .contractions import ContractionRules
from .support import (Domain, Unsupported, element, io_type, reshape_remap, splat, squeezed, ta_type, unwidened,
                      user_frame, without_unit_dims)
from .views import View

_REDUCE_KIND = {"arith.addf": "sum", "arith.maximumf": "max", "arith.minimumf": "min",
                "arith.maxnumf": "max", "arith.minnumf": "min"}
# all (andi, starting from true) and any (ori, from false) over booleans
_BOOLEAN_REDUCE = {"arith.andi": True, "arith.ori": False}
_OEQ, _UNE = 1, 13  # arith.cmpf predicates: ordered equal, unordered not equal
_VIEW_OPS = ("linalg.transpose", "linalg.broadcast", "tensor.expand_shape", "tensor.collapse_shape")


class Raiser(ContractionRules):
    """Raises one linalg function into ``fn`` (a func.func with ta types, entry block empty)."""

    def __init__(self, source_fn, names: list[str]):
        self.source_fn, self.names = source_fn, names
        self.views: dict = {}
        self.fills: dict = {}  # linalg.fill results: their scalar constant op
        # batched-matmul results (and elementwise ops on them) kept with their batch dims
        # apart: linalg value -> (View over the uncollapsed shape, that shape)
        self.unmerged: dict = {}

    def unsupported(self, op, reason: str) -> Unsupported:
        return Unsupported(op.operation.name, reason, user_frame(op.location))

    def raise_body(self, args: list) -> list:
        """Raise every op of the source function; ``args`` are the ta arguments."""
        for arg, ta_arg in zip(self.source_fn.arguments, args):
            shape = ir.RankedTensorType(arg.type).shape
            if ir.RankedTensorType(ta_arg.type).rank < len(shape):  # taken squeezed: unit dims unread
                live = iter(range(len(shape)))
                self.views[arg] = View(ta_arg, tuple(None if n == 1 else next(live) for n in shape))
            else:
                self.views[arg] = without_unit_dims(ta_arg)
            if str(ir.RankedTensorType(arg.type).element_type) == "i1":  # a boolean input, taken as 0/1
                view = self.views[arg]
                self.views[arg] = View(Predicate(view.value, _UNE, 0.0), view.dims)
        for op in self.source_fn.entry_block.operations:
            name = op.operation.name
            if name == "func.return":
                return [self.materialize(self.view_of(op, v), v.type, output=True) for v in op.operation.operands]
            with op.location:
                self._raise(op, name)
        raise self.unsupported(self.source_fn, "function has no return")

    def _raise(self, op, name: str) -> None:
        if name in ("arith.constant", "tensor.empty"):
            return  # constants are copied into the bodies that use them
        if name == "linalg.fill":
            self.fills[op.results[0]] = op.operation.operands[0]
            return
        if name in ("linalg.matmul", "linalg.batch_matmul"):
            self._named_contraction(op)
        elif name == "linalg.generic":
            self._generic(op)
        elif name == "tensor.extract_slice":
            self.views[op.results[0]] = self._slice(op)
        elif name == "tensor.concat":
            self.views[op.results[0]] = self._concat(op)
        elif name == "tensor.collapse_shape" and _merges_rows(op):
            # [B, T, C] -> [B*T, C] (a Linear on an activation): kept apart, so the contraction
            # and the maps after it run over B and T and the expand_shape back costs nothing
            self.unmerged[op.results[0]] = self._rows_apart(op)
        elif name == "tensor.expand_shape" and op.operation.operands[0] in self.unmerged and \
                self.unmerged[op.operation.operands[0]][1] == list(ir.RankedTensorType(op.results[0].type).shape):
            self.views[op.results[0]] = self.unmerged[op.operation.operands[0]][0]  # the batch dims apart again
        elif name in _VIEW_OPS:
            self.views[op.results[0]] = self._view(op, name)
        else:
            raise self.unsupported(op, "no ta rule for this op")

    def _rows_apart(self, op) -> tuple:
        """(View, shape) of a collapse_shape that merges the leading dims into rows, with those
        dims kept apart: [B, T, H, D] -> [B*T, H*D] is [B, T, H*D] (the heads back after
        attention), a reshape of the trailing dims only, whose index arithmetic names no B or T."""
        source = op.operation.operands[0]
        groups = _groups(op)
        shape = list(ir.RankedTensorType(source.type).shape)
        lead = len(groups[0])
        if all(len(g) == 1 for g in groups[1:]):
            return self.view_of(op, source), shape
        kept = shape[:lead] + [math.prod(shape[k] for k in g) for g in groups[1:]]
        t = ir.RankedTensorType(source.type)
        materialized = self.materialize(self.view_of(op, source), source.type)
        apart = [[k] for k in range(lead)] + groups[1:]
        return reshape_remap(materialized, apart, False, shape, ir.RankedTensorType.get(kept, t.element_type)), kept

    # -- views ------------------------------------------------------------------------

    def _view(self, op, name: str) -> View:
        src = self.view_of(op, op.operation.operands[0])
        result_type = ir.RankedTensorType(op.results[0].type)
        if name == "linalg.transpose":
            return src.transposed(list(ir.DenseI64ArrayAttr(op.attributes["permutation"])))
        if name == "linalg.broadcast":
            return src.broadcast(result_type.rank, list(ir.DenseI64ArrayAttr(op.attributes["dimensions"])))
        groups = [[ir.IntegerAttr(i).value for i in ir.ArrayAttr(g)]
                  for g in ir.ArrayAttr(op.attributes["reassociation"])]
        sizes_in = ir.RankedTensorType(op.operation.operands[0].type).shape
        expand = name == "tensor.expand_shape"
        view = src.reassociated(groups, expand, sizes_in, result_type.shape)
        if view is not None:
            return view
        # a real reshape: index arithmetic in a ta.remap of the source, laid out as linalg has it
        source = self.materialize(src, op.operation.operands[0].type)
        return reshape_remap(source, groups, expand, sizes_in, result_type)

    def _slice(self, op) -> View:
        """tensor.extract_slice with static offsets and strides: a ta.remap."""
        src_type, result_type = ir.RankedTensorType(op.operation.operands[0].type), ir.RankedTensorType(op.results[0].type)
        if len(op.operation.operands) > 1 or src_type.rank != result_type.rank:
            raise self.unsupported(op, "a slice with dynamic offsets or one that drops dims")
        offsets = list(ir.DenseI64ArrayAttr(op.attributes["static_offsets"]))
        strides = list(ir.DenseI64ArrayAttr(op.attributes["static_strides"]))
        source = self.materialize(self.view_of(op, op.operation.operands[0]), src_type)
        exprs = [ir.AffineDimExpr.get(k) * strides[k] + offsets[k] for k in range(src_type.rank)]
        amap = ir.AffineMap.get(result_type.rank, 0, exprs)
        remapped = ir.Operation.create("ta.remap", results=[ta_type(result_type.shape, result_type.element_type)],
                                       operands=[source], attributes={"map": ir.AffineMapAttr.get(amap)}).result
        return without_unit_dims(remapped)

    def _concat(self, op) -> View:
        """tensor.concat along dim d (torch.cat, e.g. RoPE's rotate_half): a ta.map whose element
        at index i of d is part p's at i - offset(p) for the part i falls in. Each part is read
        at (i - offset(p)) mod size(p), inside the part at every i and exact where it is chosen."""
        result_type = ir.RankedTensorType(op.results[0].type)
        d = ir.IntegerAttr(op.attributes["dim"]).value
        parts, offset = [], 0
        for value in op.operation.operands:
            size = ir.RankedTensorType(value.type).shape[d]
            if size == ir.ShapedType.get_dynamic_size():
                raise self.unsupported(op, "a concatenation of parts of dynamic size")
            if size:
                parts.append((self.materialize(self.view_of(op, value), value.type), offset, size))
            offset += size
        if not parts:
            raise self.unsupported(op, "a concatenation of empty parts")
        rank, f32 = result_type.rank, ir.F32Type.get()
        dims = [ir.AffineDimExpr.get(k) for k in range(rank)]
        identity = ir.AffineMap.get_identity(rank)
        spread = []  # each part remapped onto the whole result's index space
        for tensor, start, size in parts:
            shifted = ir.AffineMap.get(rank, 0, dims[:d] + [(dims[d] - start) % size] + dims[d + 1:])
            t = ir.RankedTensorType(tensor.type)
            spread.append((ir.Operation.create("ta.remap", results=[ta_type(result_type.shape, t.element_type)],
                                               operands=[tensor], attributes={"map": ir.AffineMapAttr.get(shifted)}
                                               ).result, start + size))

        def element_of(tensor) -> ir.Value:
            value = tb.at(tensor, identity)
            return arith.ExtFOp(f32, value).result if value.type != f32 else value

        def body() -> ir.Value:
            i = tb.index(d)
            value = element_of(spread[-1][0])
            for tensor, end in reversed(spread[:-1]):
                inside = arith.CmpIOp(arith.CmpIPredicate.slt, i, arith.ConstantOp(ir.IndexType.get(), end).result)
                value = arith.SelectOp(inside.result, element_of(tensor), value).result
            return value

        return without_unit_dims(tb.build_map(ta_type(result_type.shape, result_type.element_type), body))

    def view_of(self, op, value) -> View:
        if value in self.views:
            return self.views[value]
        if value in self.unmerged:  # read as linalg has it: collapse the batch dims now
            view, shape = self.unmerged[value]
            t = ir.RankedTensorType(value.type)
            source = self.materialize(view, ir.RankedTensorType.get(shape, t.element_type))
            lead = len(shape) - t.rank + 1
            groups = [list(range(lead))] + [[k] for k in range(lead, len(shape))]
            self.views[value] = reshape_remap(source, groups, False, shape, t)
            return self.views[value]
        if value in self.fills:
            raise self.unsupported(op, "reads a filled tensor (only an accumulator may start from a fill)")
        raise self.unsupported(op, f"reads a value tilec did not raise ({value.owner.name})")

    def materialize(self, view: View, linalg_type, output: bool = False) -> ir.Value:
        """A ta tensor with the linalg value's shape (a ta.map when the view permutes or drops
        dims); an ``output`` has the linalg value's own precision."""
        t = ir.RankedTensorType(linalg_type)
        shape = squeezed(t.shape) if output else list(t.shape)  # outputs are returned squeezed too
        result_type = (io_type if output else ta_type)(shape, t.element_type)
        if isinstance(view.value, (Lazy, Predicate)):
            raise self.unsupported(self.source_fn, "returns an integer or boolean tensor")
        if view.is_whole and ir.RankedTensorType(view.value.type) == result_type:
            return view.value
        live = iter(range(len(shape)))
        dims = [None if len(shape) < t.rank and n == 1 else ir.AffineDimExpr.get(next(live)) for n in t.shape]
        amap = view.read_map(dims, len(shape))
        elem = ir.RankedTensorType(result_type).element_type

        def body():
            value = tb.at(view.value, amap)
            if value.type == elem:
                return value
            wider = ir.FloatType(elem).width > ir.FloatType(value.type).width
            return (arith.ExtFOp if wider else arith.TruncFOp)(elem, value).result

        return tb.build_map(result_type, body)

    def _zero_start(self, op, out, kind: str) -> None:
        """The accumulator must start at the reduction's identity (a fill with it)."""
        fill = self.fills.get(out)
        value = fill.owner.attributes["value"] if fill is not None and "value" in fill.owner.attributes else None
        if value is None or not isinstance(value, ir.FloatAttr) or ir.FloatAttr(value).value != KINDS[kind].neutral:
            raise self.unsupported(op, f"a {kind} that does not start from {KINDS[kind].neutral}")

    # -- generics ---------------------------------------------------------------------

    def _generic(self, op) -> None:
        if self._unmerged_elementwise(op):
            return
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["indexing_maps"])]
        iterators = [str(ir.Attribute(a)).split("<")[-1].rstrip(">") for a in ir.ArrayAttr(op.attributes["iterator_types"])]
        reduced = [k for k, it in enumerate(iterators) if it == "reduction"]
        n_in = len(op.operation.operands) - len(op.results)
        block = op.regions[0].blocks[0]
        yielded = list(list(block.operations)[-1].operation.operands)
        used = [k for k, r in enumerate(op.results) if list(r.uses)]
        if len(used) > 1:
            raise self.unsupported(op, "more than one of its results is used")
        k = used[0] if used else 0
        out_arg = block.arguments[n_in + k]
        out_map = maps[n_in + k]
        value = yielded[k]
        if reduced:
            kind, value = combiner(value, out_arg)
            if kind in _BOOLEAN_REDUCE:
                self._boolean_reduction(op, kind, value, k, maps, reduced)
                return
            kind = _REDUCE_KIND.get(kind)
            if kind is None:
                raise self.unsupported(op, "a reduction other than a sum, max or min of its body")
            lhs_rhs = self._contraction_operands(op, value, block, n_in)
            if kind == "sum" and lhs_rhs is not None:
                lhs, rhs, lhs_map, rhs_map = lhs_rhs
                out = op.operation.operands[n_in + k]
                self.views[op.results[k]] = self._contract(op, lhs, rhs, out, [lhs_map, rhs_map, out_map],
                                                           ir.RankedTensorType(out.type))
                return
            self._zero_start(op, op.operation.operands[n_in + k], kind)
        elif any(a == out_arg for a in _uses_of_block_args(block, value)):
            raise self.unsupported(op, "an elementwise body that reads its output")
        domain = Domain(list(op.operation.operands), maps)
        elem = element(ir.RankedTensorType(op.results[k].type).element_type)
        reads = self._reads(op, maps, block, n_in, domain)
        if not reduced and not isinstance(elem, (ir.F32Type, ir.F16Type, ir.BF16Type)):
            # integer and boolean tensors (masks built from indices) are not ta tensors:
            # their body is copied into each map that reads them
            full = Lazy(op, value, reads, domain)
        else:
            copier = BodyCopier(self, op, reads, domain.index_value)
            full = tb.build_map(ta_type(domain.shape, elem), lambda: copier.copy(value))
        live_reduced = [domain.position[d] for d in reduced if d in domain.position]
        result = tb.reduce(full, kind, live_reduced) if live_reduced else full
        remaining = [p for p in range(len(domain.live)) if p not in live_reduced]
        dims = [remaining.index(ir.AffineDimExpr(r).position) if r is not None else None
                for r in domain.results(out_map)]
        self.views[op.results[k]] = View(result, tuple(dims))

    def _boolean_reduction(self, op, combine: str, value, k: int, maps, reduced) -> None:
        """all_j b (andi) or any_j b (ori) over booleans, as a float reduction compared with a
        constant: all_j (x == -inf) is max_j x == -inf and any_j (x != -inf) is max_j x != -inf
        (SDPA's guard of fully masked rows: the max is the softmax's own, so the guard fuses
        with it), +inf likewise with min; any other b is reduced as its 0/1 indicator."""
        n_in = len(op.operation.operands) - len(op.results)
        start = self.fills.get(op.operation.operands[n_in + k])
        attr = start.owner.attributes["value"] if start is not None and "value" in start.owner.attributes else None
        start_value = ir.BoolAttr(attr).value if isinstance(attr, ir.BoolAttr) else \
            bool(ir.IntegerAttr(attr).value) if isinstance(attr, ir.IntegerAttr) else None
        if start_value != _BOOLEAN_REDUCE[combine]:
            raise self.unsupported(op, f"{'all' if combine == 'arith.andi' else 'any'} that does not start "
                                       f"from {str(_BOOLEAN_REDUCE[combine]).lower()}")
        block = op.regions[0].blocks[0]
        domain = Domain(list(op.operation.operands), maps)
        copier = BodyCopier(self, op, self._reads(op, maps, block, n_in, domain), domain.index_value)
        form = {}

        def body():
            b = copier.copy(value)
            x = _compared_with_infinity(b, combine)
            if x is not None:
                operand, predicate, constant = x
                form.update(kind="max" if constant < 0 else "min", predicate=predicate, constant=constant)
                return operand
            form.update(kind="min" if combine == "arith.andi" else "max", predicate=_OEQ, constant=1.0)
            f32 = ir.F32Type.get()
            one, zero = (arith.ConstantOp(f32, c).result for c in (1.0, 0.0))
            return arith.SelectOp(b, one, zero).result

        full = tb.build_map(ta_type(domain.shape, ir.F32Type.get()), body)
        live_reduced = [domain.position[d] for d in reduced if d in domain.position]
        result = tb.reduce(full, form["kind"], live_reduced) if live_reduced else full
        remaining = [p for p in range(len(domain.live)) if p not in live_reduced]
        dims = [remaining.index(ir.AffineDimExpr(r).position) if r is not None else None
                for r in domain.results(maps[n_in + k])]
        self.views[op.results[k]] = View(Predicate(result, form["predicate"], form["constant"]), tuple(dims))

    def _unmerged_elementwise(self, op) -> bool:
        """An elementwise op on batched-matmul results (identity maps) or on a Linear's rows
        (with, besides, inputs that do not read the merged rows, like a bias): done with the
        merged dims apart, so a following expand_shape costs nothing."""
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["indexing_maps"])]
        n_in = len(op.operation.operands) - len(op.results)
        inputs = op.operation.operands[:n_in]
        block = op.regions[0].blocks[0]
        # the output and the merged inputs are read as they are; other inputs through _beside_rows
        as_they_are = [maps[-1]] + [m for v, m in zip(inputs, maps) if v in self.unmerged]
        if len(op.results) != 1 or not any(v in self.unmerged for v in inputs) or \
                not all(tb.is_identity(m) for m in as_they_are) or \
                any(o.name == "linalg.index" for o in block.operations):
            return False
        layouts = {(self.unmerged[v][0].dims, tuple(self.unmerged[v][1])) for v in inputs if v in self.unmerged}
        if len(layouts) != 1:
            return False
        dims, shape = layouts.pop()
        like = next(self.unmerged[v][0].value for v in inputs if v in self.unmerged)
        rank = ir.RankedTensorType(like.type).rank
        lead = len(shape) - maps[-1].n_dims + 1  # linalg dim 0 stands for the first ``lead`` dims
        reads = {}
        for arg, v, amap in zip(block.arguments, inputs, maps):
            if v in self.unmerged:
                read = (self.unmerged[v][0].value, ir.AffineMap.get_identity(rank))
            else:
                read = splat(v)
                read = self._beside_rows(op, v, amap, dims, lead, rank) if read is None else read
            if read is None:
                return False
            reads[arg] = read
        elem = element(ir.RankedTensorType(op.results[0].type).element_type)
        copier = BodyCopier(self, op, reads, lambda dim: None)
        value = list(block.operations)[-1].operation.operands[0]
        result = tb.build_map(ta_type(ir.RankedTensorType(like.type).shape, elem), lambda: copier.copy(value))
        self.unmerged[op.results[0]] = (View(result, dims), list(shape))
        return True

    def _beside_rows(self, op, value, amap, dims, lead, rank):
        """(ta tensor, projection) reading ``value`` (indexed by ``amap`` in the merged domain)
        in the domain with the merged dims apart; None when it reads the merged dim."""
        results = []
        for r in amap.results:
            if not isinstance(r, ir.AffineDimExpr) or ir.AffineDimExpr(r).position == 0:
                return None
            t = dims[lead + ir.AffineDimExpr(r).position - 1]
            results.append(ir.AffineDimExpr.get(t) if t is not None else None)
        read = self.view_of(op, value).read_map(results, rank)
        return None if read is None else unwidened(self.view_of(op, value).value, read)

    def _reads(self, op, maps, block, n_in, domain) -> dict:
        """Block argument -> (ta tensor, projection) for each input."""
        reads = {}
        for i in range(n_in):
            constant = splat(op.operation.operands[i])
            if constant is not None:  # a constant tensor of one value: that scalar, copied in
                reads[block.arguments[i]] = constant
                continue
            view = self.view_of(op, op.operation.operands[i])
            read = view.read_map(domain.results(maps[i]), len(domain.live))
            if read is None:
                raise self.unsupported(op, f"input {i} is indexed by something other than loop dims")
            reads[block.arguments[i]] = unwidened(view.value, read)
        return reads

    def _contraction_operands(self, op, value, block, n_in):
        """(lhs, rhs, lhs map, rhs map) when ``value`` is a product of two inputs (maybe widened)."""
        owner = value.owner
        if isinstance(owner, ir.Block) or owner.name != "arith.mulf":
            return None
        sides = []
        for v in owner.operands:
            while not isinstance(v.owner, ir.Block) and v.owner.name == "arith.extf":
                v = v.owner.operands[0]
            if not isinstance(v.owner, ir.Block) or list(block.arguments).index(v) >= n_in:
                return None
            sides.append(list(block.arguments).index(v))
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["indexing_maps"])]
        return (op.operation.operands[sides[0]], op.operation.operands[sides[1]], maps[sides[0]], maps[sides[1]])


def _compared_with_infinity(b, combine: str):
    """(x, predicate, ±inf) when ``b`` is ``x == ±inf`` under all or ``x != ±inf`` under any
    (then all_j b is max_j x == -inf, or min_j x == +inf, and any likewise, NaN included:
    maximumf and minimumf propagate it); else None."""
    owner = b.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.cmpf":
        return None
    predicate = ir.IntegerAttr(owner.attributes["predicate"]).value
    if (combine, predicate) not in (("arith.andi", _OEQ), ("arith.ori", _UNE)):
        return None
    x, c = owner.operands
    constant = c.owner
    if isinstance(constant, ir.Block) or constant.name != "arith.constant" or \
            not isinstance(constant.attributes["value"], ir.FloatAttr):
        return None
    value = ir.FloatAttr(constant.attributes["value"]).value
    return (x, predicate, value) if value in (float("inf"), float("-inf")) else None


def _groups(op) -> list[list[int]]:
    return [[ir.IntegerAttr(i).value for i in ir.ArrayAttr(g)] for g in ir.ArrayAttr(op.attributes["reassociation"])]


def _merges_rows(op) -> bool:
    """A collapse_shape to rank 2 merging the leading dims of a tensor of rank 3 or more into
    rows: every dim but the last ([B, T, C] -> [B*T, C]), or, when the trailing dims are static,
    all but those ([B, T, H, D] -> [B*T, H*D])."""
    t = ir.RankedTensorType(op.operation.operands[0].type)
    groups = _groups(op)
    if t.rank < 3 or len(groups) != 2 or len(groups[0]) < 2:
        return False
    return len(groups[1]) == 1 or all(not ir.ShapedType.is_dynamic_size(t.shape[k]) for k in groups[1])




def _uses_of_block_args(block, value) -> list:
    seen, stack, args = set(), [value], []
    while stack:
        v = stack.pop()
        if isinstance(v.owner, ir.Block):
            args.append(v)
        elif v.owner.operation not in seen:
            seen.add(v.owner.operation)
            stack.extend(v.owner.operands)
    return args
