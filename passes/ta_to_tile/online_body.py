"""The pieces of the attention tile program (see online.py for its shape)."""

from torch_mlir import ir
from torch_mlir.dialects import arith, scf

from tilec.dialects import STAGES_ATTR
from tilec.dialects.affine import affine
from tilec.dialects import ta_builders as tb
from tilec.dialects.dims import binary, const, DimError, parse_dim
from tilec.dialects.layout import smem_tile_layout
from tilec.dialects.ta import tensor_dims
from tilec.dialects.tile import layout_attr

from .common import clone_constants, const_index, NeedsStaticSize, NoTileLowering
from .views import RowViews
from .._loops import positions

_I64 = lambda: ir.IntegerType.get_signless(64)


def _def_tree(value, body) -> list:
    """The ops of ``body`` that ``value`` depends on, in order."""
    needed, stack = set(), [value]
    while stack:
        v = stack.pop()
        owner = v.owner
        if isinstance(owner, ir.Block) or owner.operation.block != body or owner.operation in needed:
            continue
        needed.add(owner.operation)
        stack += list(owner.operation.operands)
    return [op for op in body.operations if op.operation in needed]


class AttentionBody:
    def __init__(self, fn, norm, numer, epilogue, options, running_max=None):
        self.fn, self.norm, self.numer, self.epilogue_maps, self.s = fn, norm, numer, epilogue, options
        self.running_max = running_max  # the group's max op, when the epilogue reads it
        results = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value).results
        self.out_element = ir.RankedTensorType(results[0]).element_type
        self.extents = [ir.StringAttr(e).value for e in ir.ArrayAttr(numer.attributes["extents"])]
        self.dims = [parse_dim(e) for e in self.extents]
        self.j = ir.IntegerAttr(numer.attributes["dim"]).value
        body = numer.regions[0].blocks[0]
        self.x_value, t_value = list(list(body.operations)[-1].operation.operands)
        self.x_ops = _def_tree(self.x_value, body)
        at_s = [op for op in self.x_ops if op.operation.name == "ta.at" and
                not isinstance(op.operation.operands[0].owner, ir.Block) and
                op.operation.operands[0].owner.name == "ta.contract"]
        if len(at_s) != 1:
            raise NoTileLowering("the stabiliser must read one contraction (the scores)")
        self.contract = at_s[0].operation.operands[0].owner
        self._roles(positions(ir.AffineMapAttr(at_s[0].attributes["map"]).value))
        self.kept = positions(ir.AffineMapAttr(numer.attributes["map"]).value)  # the output's dims, in order
        extra = [d for d in self.kept if d not in self.batch and d != self.i]
        if len(extra) != 1 or sorted(self.kept) != sorted(self.batch + [self.i, extra[0]]):
            raise NoTileLowering("the numerator must keep the batch dims, the query index and one head dim")
        self.d = extra[0]
        self.v_value = self._value_tensor(t_value)
        size = ir.RankedTensorType(self.v_value.type).shape[-1]
        if ir.ShapedType.is_dynamic_size(size):
            dim = self.dims[self.d]
            raise NeedsStaticSize(f"the head dim '{dim}' sizes the register tiles: give it a default or fix it at "
                                  f"compile time (--shape {dim}=...)", dim.value if dim.op == "sym" else None)
        if size % 8:  # the value head dim is P·V's n (the query/key head dim, the scores' k, is checked below)
            error = NoTileLowering(f"the value head dim '{self.dims[self.d]}' = {size} must be a multiple of 8: it "
                                   f"is P·V's n, and the tensor-core mma (m16n8k16) multiplies 8 columns at a time")
            error.location = _where_read(self.v_value)
            raise error
        self.head_dim = size                      # the value's head dim: P·V's n, the output's width
        self.qk_dim = self._score_head_dim()      # the query/key head dim: the scores' k
        self.element_bytes = 4 if isinstance(ir.RankedTensorType(self.v_value.type).element_type, ir.F32Type) else 2
        self.query_dim = self.dims[self.i]
        count = const(1)
        for d in self.batch:
            count = binary("*", count, self.dims[d])
        self.batch_count = count

    def _roles(self, scores: list) -> None:
        """The query index i (the scores' index Q has and K lacks), the key index j (the group's)
        and the batch dims (the rest) of the online domain, wherever they stand in the tensors."""
        cmaps = [positions(ir.AffineMapAttr(m).value) for m in ir.ArrayAttr(self.contract.attributes["maps"])]
        if len(cmaps[2]) != len(scores) or self.j not in scores:
            raise NoTileLowering("the stabiliser must read the scores at the key index")
        self.c_to_o = dict(zip(cmaps[2], scores))  # contract domain dim -> online domain dim
        self.q_dims = [self.c_to_o.get(c) for c in cmaps[0]]  # None: the reduced head dim e
        self.k_dims = [self.c_to_o.get(c) for c in cmaps[1]]
        if self.q_dims.count(None) != 1 or self.k_dims.count(None) != 1 or self.j in self.q_dims:
            raise NoTileLowering("the scores must be Q[..., i, ..., e] * K[..., j, ..., e] over one head dim e")
        for what, dims in (("Q", self.q_dims), ("K", self.k_dims)):
            if dims[-1] is not None:
                raise NoTileLowering(f"{what} must have its head dim last (its rows are read as contiguous vectors)")
        query = [d for d in scores if d in self.q_dims and d not in self.k_dims]
        if len(query) > 1:  # K shared across a dim of Q (one key head): rows along the longest
            query = [max(query, key=lambda d: (self._default_size(d), d == scores[-2]))]
        if len(query) != 1:
            raise NoTileLowering("the scores must have one query index (read by Q, not by K)")
        self.i = query[0]
        self.batch = [d for d in scores if d not in (self.i, self.j)]

    def _default_size(self, d: int) -> int:
        """The extent of domain dim ``d`` at the parameters' defaults (0 when one has none)."""
        defaults = {n.name: ir.IntegerAttr(n.attr).value for n in ir.DictAttr(self.fn.attributes["ta.params"])
                    if isinstance(n.attr, ir.IntegerAttr)} if "ta.params" in self.fn.attributes else {}
        try:
            return self.dims[d].evaluate(defaults)
        except (DimError, ZeroDivisionError):
            return 0

    def _value_tensor(self, t):
        owner = t.owner
        if not isinstance(owner, ir.Block) and owner.operation.name == "arith.extf":
            owner = owner.operation.operands[0].owner
        if isinstance(owner, ir.Block) or owner.operation.name != "ta.at":
            raise NoTileLowering("the numerator must sum an element of a value tensor")
        self.v_dims = positions(ir.AffineMapAttr(owner.attributes["map"]).value)
        if self.j not in self.v_dims or self.d not in self.v_dims or \
                any(x not in self.batch for x in self.v_dims if x not in (self.j, self.d)):
            raise NoTileLowering("the value tensor must be indexed by batch dims, the key index and the head dim")
        return owner.operation.operands[0]

    # -- arguments and indices -------------------------------------------------------------------
    def bind_arguments(self, new, args, builder) -> None:
        self.b = builder
        self.mem = dict(zip(self.fn.arguments, args))
        self.out = args[len(list(self.fn.arguments))]
        self.views = RowViews(new, builder)

    def clone_constants(self) -> None:
        self.scalars = clone_constants(self.fn)

    def program_ids(self):
        self.q0, self.batch_ids = block_ids(self.s.bm, self.batch, lambda d: self.b.dim(self.dims[d]))

    def key_extent(self):
        return self.b.dim(self.dims[self.j])

    def causal_offset(self):
        """c when the stabiliser is -inf wherever j > i + c (a mask 'j <= i + c'), else None.

        Key blocks that lie wholly beyond i + c for every row of the CTA contribute
        exp(-inf - m) = 0 and can be skipped."""
        return causal_offset(self.x_ops, self.i, self.j)

    def _source(self, value):
        """(kernel argument, affine map from the value's dims to the argument's) through a remap."""
        owner = value.owner
        if not isinstance(owner, ir.Block) and owner.operation.name == "ta.remap":
            return self.mem[owner.operation.operands[0]], ir.AffineMapAttr(owner.attributes["map"]).value
        if value not in self.mem:
            raise NoTileLowering("Q, K and V must be kernel inputs (or grouped-head views of them)")
        rank = ir.RankedTensorType(value.type).rank
        return self.mem[value], ir.AffineMap.get_identity(rank)

    def _offsets(self, value, coords: list):
        """Offsets into the argument behind ``value`` for the value's coordinates ``coords``."""
        arg, amap = self._source(value)
        return [self._affine(e, coords) for e in amap.results], arg

    def _affine(self, expr, coords):
        """``expr`` over index values ``coords`` as arith ops (dialects/affine.py's evaluator)."""
        floordiv = lambda a, b: arith.FloorDivSIOp(a, b).result  # noqa: E731
        return affine(expr, coords, const=const_index, floordiv=floordiv,
                      add=lambda a, b: arith.AddIOp(a, b).result, mul=lambda a, b: arith.MulIOp(a, b).result,
                      mod=lambda a, b: arith.SubIOp(a, arith.MulIOp(floordiv(a, b), b).result).result,
                      ceildiv=lambda a, b: arith.CeilDivSIOp(a, b).result)

    # -- shared memory and copies ------------------------------------------------------------------
    def alloc(self, rows: int, stages: int, width: int):
        element = ir.RankedTensorType(self.v_value.type).element_type
        layout = smem_tile_layout(rows, width, 16 if not isinstance(element, ir.F32Type) else 32, self.s.swizzle)
        t = ir.MemRefType.get([stages, rows, width], element,
                              memory_space=ir.IntegerAttr.get(_I64(), 3))
        return ir.Operation.create("tile.alloc", results=[t], attributes={"layout": layout_attr(layout)}).result

    def tile_offsets(self, value, dims: list, row: int, row0, what: str) -> tuple:
        """(argument, offsets) of the tile of ``value`` (Q, K or V; a grouped-head view of an
        input too) whose rows are its index ``row`` from ``row0`` and whose columns its head
        dim (None in ``dims``, the value's indices as online domain dims) from 0."""
        coords = []
        for x in dims:
            if x is not None and x != row and x not in self.batch_ids:
                raise NoTileLowering(f"{what} has an index that is neither a batch dim, its row nor its head dim")
            coords.append(const_index(0) if x is None else row0 if x == row else self.batch_ids[x])
        offsets, arg = self._offsets(value, coords)
        if self._arg_dim(value, len(dims) - 1, what) != len(offsets) - 1 or dims[-1] is not None:
            raise NoTileLowering(f"{what} must have its head dim last (its rows are read as contiguous vectors)")
        return arg, self.views.window(arg, offsets, self._arg_dim(value, dims.index(row), what), what)

    def _arg_dim(self, value, at: int, what: str) -> int:
        """The argument's dim the value's dim ``at`` reads (through a grouped-head remap)."""
        owner = value.owner
        if isinstance(owner, ir.Block) or owner.operation.name != "ta.remap":
            return at
        results = list(ir.AffineMapAttr(owner.attributes["map"]).value.results)
        for k, e in enumerate(results):
            if isinstance(e, ir.AffineDimExpr) and e.position == at:
                return k
        if at == ir.RankedTensorType(value.type).rank - 1 and _column_block(results[-1], at):
            return len(results) - 1  # the head dim at a column offset of the argument's last dim
        raise NoTileLowering(f"{what} must read its rows and its head dim as dims of its own")

    def copy_q(self, sq) -> None:
        lhs, rhs = self.contract.operation.operands
        arg, offsets = self.tile_offsets(lhs, self.q_dims, self.i, self.q0, "Q")
        ir.Operation.create("tile.async_copy", operands=[arg, *offsets, sq, const_index(0)])
        ir.Operation.create("tile.commit_group")
        self.k_value = rhs

    def _score_head_dim(self) -> int:
        """The head dim of Q and K (the scores' reduced index): static, a multiple of 16, the same for
        both; the value's head dim may differ (it sizes P·V and the output, not the scores)."""
        sizes = []
        for value, what in zip(self.contract.operation.operands, ("query", "key")):
            size = ir.RankedTensorType(value.type).shape[-1]
            dim = tensor_dims(value.type)[-1]
            if ir.ShapedType.is_dynamic_size(size):
                raise NeedsStaticSize(f"the {what} head dim '{dim}' sizes the register tiles: give it a default or "
                                      f"fix it at compile time (--shape {dim}=...)", dim.value if dim.op == "sym" else None)
            if size % 16:
                raise NoTileLowering(f"the {what} head dim '{dim}' = {size} must be a multiple of 16: it is "
                                     f"the scores' k (Q·Kᵀ), and the tensor-core mma (m16n8k16) steps k by 16")
            sizes.append(size)
        if sizes[0] != sizes[1]:
            raise NoTileLowering(f"the query and key head dims differ ({sizes[0]} and {sizes[1]})")
        return sizes[0]

    def copy_kv(self, block, stage, sk, sv) -> None:
        j0 = arith.MulIOp(block, const_index(self.s.bn)).result
        v_dims = [None if x == self.d else x for x in self.v_dims]
        for value, dims, buf, what in ((self.k_value, self.k_dims, sk, "K"), (self.v_value, v_dims, sv, "V")):
            arg, offsets = self.tile_offsets(value, dims, self.j, j0, what)
            ir.Operation.create("tile.async_copy", operands=[arg, *offsets, buf, stage])
        ir.Operation.create("tile.commit_group")

    def smem_load(self, buf, stage, shape, transpose: bool):
        element = ir.MemRefType(buf.type).element_type
        attrs = {"transpose": ir.UnitAttr.get()} if transpose else {}
        return ir.Operation.create("tile.smem_load", results=[ir.RankedTensorType.get(shape, element)],
                                   operands=[buf, stage], attributes=attrs).result

    def initial_state(self) -> list:
        """(m, l, acc) before the first key block: -inf, 0, 0."""
        return [self.constant_tile([self.s.bm], float("-inf")), self.constant_tile([self.s.bm], 0.0),
                self.constant_tile([self.s.bm, self.head_dim], 0.0)]

    def key_loop(self, n_blocks, number: dict, start=None, state=None):
        """The loop over key blocks carrying (m, l, acc) from -inf, 0, 0, pipelined over the
        schedule's stages; ``number`` (ta op -> its place) gives the provenance the verifier
        reads: the loop carries (m, l) of the normaliser (m of the group's max op where there is
        one) and acc of the numerator. A rotated loop starts at ``start`` from ``state`` (m, l,
        acc and the P it carries)."""
        init = state or self.initial_state()
        loop = scf.ForOp(start or const_index(0), n_blocks, const_index(1), init)
        loop.attributes[STAGES_ATTR] = ir.IntegerAttr.get(_I64(), self.s.stages)
        loop.attributes["tile.computes"] = ir.ArrayAttr.get(
            [ir.IntegerAttr.get(_I64(), number[op.operation])
             for op in (self.running_max or self.norm, self.norm, self.numer)])
        return loop

    def mma(self, a, b, acc):
        return ir.Operation.create("tile.mma", results=[acc.type], operands=[a, b, acc]).result

    from .online_math import (constant_tile, epilogue, online_step, p_residual, rescale,  # noqa: E402
                              softmax_step, stabiliser, store, tile_map)


def block_ids(bm: int, batch: list, extent) -> tuple:
    """(the first row of the CTA's block, {batch dim: its index}): program id 0 times ``bm``, and
    program id 1 split over the ``batch`` dims (``extent(d)`` their sizes), the last varying fastest."""
    pid = lambda axis: ir.Operation.create("tile.program_id", results=[ir.IndexType.get()], attributes={
        "axis": ir.IntegerAttr.get(_I64(), axis)}).result
    row0, flat, ids = arith.MulIOp(pid(0), const_index(bm)).result, pid(1), {}
    for d in reversed(batch):
        ids[d] = arith.RemSIOp(flat, extent(d)).result
        flat = arith.DivSIOp(flat, extent(d)).result
    return row0, ids


def causal_offset(ops, i: int, j: int):
    """c when the ops select -inf wherever j > i + c (a mask 'j <= i + c' on the indices ``i``
    and ``j`` of their domain), else None."""
    index_of = {}
    for op in ops:
        if op.operation.name == "ta.index":
            index_of[op.result] = ir.IntegerAttr(op.attributes["dim"]).value
    for op in ops:
        if op.operation.name != "arith.select":
            continue
        cond, kept, fill = op.operation.operands
        masked_when_true = _is_neg_inf(kept)  # select(c, -inf, x): c says where it is masked
        if not masked_when_true and not _is_neg_inf(fill):
            continue
        cmp = cond.owner
        if isinstance(cmp, ir.Block) or cmp.operation.name != "arith.cmpi":
            continue
        pred = ir.IntegerAttr(cmp.attributes["predicate"]).value
        lhs, rhs = (index_of.get(v) for v in cmp.operation.operands)
        if (lhs, rhs) == (i, j):  # i REL j  ->  j REL' i
            pred = _SWAPPED.get(pred)
        elif (lhs, rhs) != (j, i):
            continue
        if masked_when_true:  # the keys kept are where the comparison fails
            pred = _NEGATED.get(pred)
        if pred in (2, 3):   # keep j < i, j <= i
            return 0 if pred == 3 else -1
    return None


def _where_read(value):
    """Where the spec reads ``value``: the remap of a read such as V[b, h / G, j, d], or, for a
    plain read (no op of its own in the ta), the input's declaration."""
    owner = value.owner
    return value.location if isinstance(owner, ir.Block) else owner.location


def _column_block(expr, head: int) -> bool:
    """Whether ``expr`` is ``d_head + sum of terms c * x or c`` with each c a multiple of 8 and no x
    naming the head dim: the head dim read at a column offset of a merged dim (V of [B, T, Hkv*D]
    at (h // G) * D + d, Q of GPT-2's [B, T, 3C] at h * D + d, K at C + h * D + d), each tile row
    one contiguous run from a 16-byte boundary."""
    terms, stack = [], [expr]
    while stack:
        e = stack.pop()
        if isinstance(e, ir.AffineAddExpr):
            stack += [ir.AffineAddExpr(e).lhs, ir.AffineAddExpr(e).rhs]
        else:
            terms.append(e)
    heads = [t for t in terms if isinstance(t, ir.AffineDimExpr) and ir.AffineDimExpr(t).position == head]
    return len(heads) == 1 and all(t is heads[0] or _aligned_term(t, head) for t in terms)


def _aligned_term(term, head: int) -> bool:
    """A constant, or a product with a constant, that is a multiple of 8 and does not name the head dim."""
    if isinstance(term, ir.AffineConstantExpr):
        return ir.AffineConstantExpr(term).value % 8 == 0
    if not isinstance(term, ir.AffineMulExpr) or tb.uses_dim(term, head):
        return False
    c = ir.AffineMulExpr(term).rhs
    return isinstance(c, ir.AffineConstantExpr) and ir.AffineConstantExpr(c).value % 8 == 0


# arith.cmpi predicates: 0 eq, 1 ne, 2 slt, 3 sle, 4 sgt, 5 sge
_SWAPPED = {0: 0, 1: 1, 2: 4, 3: 5, 4: 2, 5: 3}   # a P b  <=>  b P' a
_NEGATED = {0: 1, 1: 0, 2: 5, 3: 4, 4: 3, 5: 2}   # not (a P b)  <=>  a P' b


def _is_neg_inf(value) -> bool:
    owner = value.owner
    return not isinstance(owner, ir.Block) and owner.operation.name == "arith.constant" and \
        isinstance(owner.attributes["value"], ir.FloatAttr) and ir.FloatAttr(owner.attributes["value"]).value == float("-inf")
