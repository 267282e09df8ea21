"""The pieces of the recomputed-sums tile program (see recompute.py for its shape)."""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import arith, scf

from tilec.dialects import STAGES_ATTR
from tilec.dialects.dims import binary, const
from tilec.dialects.layout import smem_tile_layout
from tilec.dialects.ta import tensor_dims
from tilec.dialects.tile import layout_attr

from .bodies import translate
from .common import ceildiv, clone_constants, const_index, NeedsStaticSize, NoTileLowering
from .online_body import _is_neg_inf, block_ids, causal_offset
from .online_math import _elem, _tile_index, constant_tile, tile_map
from .recompute_match import Found, Operand, analyse
from .recompute_shared import def_ops, keys_of, shared_values
from .views import RowViews
from .._loops import positions

__all__ = ["RecomputeBody", "analyse"]

_I64 = lambda: ir.IntegerType.get_signless(64)
_SIXTEEN_BIT = (ir.BF16Type, ir.F16Type)


class RecomputeBody:
    def __init__(self, fn, found: Found, options):
        self.fn, self.f, self.s = fn, found, options
        self.resident, self.streamed = {}, {}  # (value, dims) -> Operand, in first-use order
        for r_op, t_op in found.contracts.values():
            self.resident.setdefault((r_op.value, r_op.dims), r_op)
            self.streamed.setdefault((t_op.value, t_op.dims), t_op)
        for s in found.sums:
            self.streamed.setdefault((s.x.value, s.x.dims), s.x)
        staged = list(self.resident.values()) + list(self.streamed.values())
        for o in staged:
            self._check_width(o)
        types = {str(ir.RankedTensorType(o.value.type).element_type) for o in staged}
        element = ir.RankedTensorType(staged[0].value.type).element_type
        if len(types) != 1 or not isinstance(element, _SIXTEEN_BIT):
            raise NoTileLowering(f"a recomputed-sums kernel multiplies 16-bit inputs of one type (bf16 or f16) on "
                                 f"tensor cores; these are {', '.join(sorted(types))}")
        self.element = element
        self.row_dim = found.dims[found.r]
        count = const(1)
        for d in found.batch:
            count = binary("*", count, found.dims[d])
        self.batch_count = count

    def _check_width(self, o: Operand) -> None:
        size = o.width
        if ir.ShapedType.is_dynamic_size(size):  # the driver binds it to its default, or asks for --shape
            dim = tensor_dims(o.value.type)[-1]
            raise NeedsStaticSize(f"the head dim '{dim}' sizes the register tiles: give it a default or fix it at "
                                  f"compile time (--shape {dim}=...)", dim.value if dim.op == "sym" else None)
        if size % 16:
            raise NoTileLowering(f"a head dim of {size} must be a multiple of 16 (the mma's k and n steps)")

    def sizes(self) -> dict:
        """What the schedule's legality reads: the staged widths and the accumulators'."""
        return {"element_bytes": 2, "resident": sum(o.width for o in self.resident.values()),
                "streamed": sum(o.width for o in self.streamed.values()),
                "head_dim": max(s.x.width for s in self.f.sums)}

    # -- arguments and indices -------------------------------------------------------------------
    def bind_arguments(self, new, args, builder) -> None:
        self.b = builder
        n_in = len(list(self.fn.arguments))
        self.mem = dict(zip(self.fn.arguments, args))
        self.outs = args[n_in:n_in + len(self.f.returned)]
        self.views = RowViews(new, builder)

    def clone_constants(self) -> None:
        self.scalars = clone_constants(self.fn)

    def program_ids(self) -> None:
        self.r0, self.batch_ids = block_ids(self.s.bm, self.f.batch, lambda d: self.b.dim(self.f.dims[d]))

    def loop_extent(self):
        return self.b.dim(self.f.dims[self.f.t])

    def causal(self) -> tuple:
        """(c_stop, c_start): every W is 0 wherever t > r + c_stop (the dQ kernel of a causal
        attention: key blocks past its rows skipped), or wherever r > t + c_start (its dK/dV
        kernel: query blocks before its keys skipped); None where no mask says so."""
        def common(i, j):
            offsets = {causal_offset(sm.w_ops, i, j) if _exp_of_mask(sm.w_ops) else None for sm in self.f.sums}
            return offsets.pop() if len(offsets) == 1 else None
        return common(self.f.r, self.f.t), common(self.f.t, self.f.r)

    def block_range(self):
        """(first block, block count) of the loop over t: all of them, less the blocks a causal
        mask zeroes for every row of the CTA."""
        s, c_stop, c_start = self.s, *self.causal()
        n_blocks = ceildiv(self.loop_extent(), const_index(s.bn))
        start = const_index(0)
        if c_stop is not None:  # rows r0 .. r0 + bm - 1 read t <= r + c_stop
            last = arith.AddIOp(self.r0, const_index(s.bm + c_stop)).result
            n_blocks = arith.MinSIOp(n_blocks, ceildiv(last, const_index(s.bn))).result
        if c_start is not None:  # they read t >= r - c_start >= r0 - c_start
            first = arith.MaxSIOp(arith.SubIOp(self.r0, const_index(c_start)).result, const_index(0)).result
            start = arith.DivSIOp(first, const_index(s.bn)).result
        return start, n_blocks

    def _window(self, o: Operand, row0):
        """(argument, offsets) of ``o``'s tile whose rows start at ``row0``."""
        coords = [const_index(0) if x is None else row0 if x == o.row else self.batch_ids[x] for x in o.dims]
        arg = self.mem[o.value]
        return arg, self.views.window(arg, coords, o.dims.index(o.row), "a staged operand")

    # -- shared memory and copies ------------------------------------------------------------------
    def _alloc(self, rows: int, stages: int, width: int):
        layout = smem_tile_layout(rows, width, 16, self.s.swizzle)
        t = ir.MemRefType.get([stages, rows, width], self.element, memory_space=ir.IntegerAttr.get(_I64(), 3))
        return ir.Operation.create("tile.alloc", results=[t], attributes={"layout": layout_attr(layout)}).result

    def copy_resident(self) -> dict:
        """The operands read at r, copied to shared memory once (one group); their buffers by key."""
        bufs = {key: self._alloc(self.s.bm, 1, o.width) for key, o in self.resident.items()}
        self.stream_bufs = {key: self._alloc(self.s.bn, self.s.stages, o.width) for key, o in self.streamed.items()}
        for key, o in self.resident.items():
            arg, offsets = self._window(o, self.r0)
            ir.Operation.create("tile.async_copy", operands=[arg, *offsets, bufs[key], const_index(0)])
        ir.Operation.create("tile.commit_group")
        return bufs

    def copy_streamed(self, block, stage) -> None:
        """Block ``block`` of every operand read at t into pipeline stage ``stage`` (one group)."""
        t0 = arith.MulIOp(block, const_index(self.s.bn)).result
        for key, o in self.streamed.items():
            arg, offsets = self._window(o, t0)
            ir.Operation.create("tile.async_copy", operands=[arg, *offsets, self.stream_bufs[key], stage])
        ir.Operation.create("tile.commit_group")

    def loop(self, start, n_blocks):
        """The loop over blocks of t carrying one accumulator per sum from 0, pipelined; it computes
        the group's sums (their places in the ta function, read by the verifier)."""
        init = [constant_tile(self, [self.s.bm, s.x.width], 0.0) for s in self.f.sums]
        loop = scf.ForOp(start, n_blocks, const_index(1), init)
        loop.attributes[STAGES_ATTR] = ir.IntegerAttr.get(_I64(), self.s.stages)
        number = {op.operation: n for n, op in enumerate(self.fn.entry_block.operations)}
        loop.attributes["tile.computes"] = ir.ArrayAttr.get(
            [ir.IntegerAttr.get(_I64(), number[s.op.operation]) for s in self.f.sums])
        return loop

    def _smem_load(self, buf, stage, shape, transpose: bool):
        attrs = {"transpose": ir.UnitAttr.get()} if transpose else {}
        return ir.Operation.create("tile.smem_load", results=[ir.RankedTensorType.get(shape, self.element)],
                                   operands=[buf, stage], attributes=attrs).result

    def load_tiles(self, resident: dict, stage) -> dict:
        """Register tiles of this step: each resident operand as an mma's A, each streamed one as the
        B of a contraction (transposed) and of a sum, as they are used."""
        s, tiles = self.s, {}
        for r_op, t_op in self.f.contracts.values():
            key_r, key_t = (r_op.value, r_op.dims), (t_op.value, t_op.dims)
            if ("a", key_r) not in tiles:
                tiles[("a", key_r)] = self._smem_load(resident[key_r], const_index(0), [s.bm, r_op.width], False)
            if ("bt", key_t) not in tiles:
                tiles[("bt", key_t)] = self._smem_load(self.stream_bufs[key_t], stage, [t_op.width, s.bn], True)
        for sm in self.f.sums:
            key = (sm.x.value, sm.x.dims)
            if ("b", key) not in tiles:
                tiles[("b", key)] = self._smem_load(self.stream_bufs[key], stage, [s.bn, sm.x.width], False)
        return tiles

    def _mma(self, a, b, acc):
        return ir.Operation.create("tile.mma", results=[acc.type], operands=[a, b, acc]).result

    def contractions(self, tiles: dict) -> dict:
        """C = R·Tᵀ for every recomputed contraction: a [bm, bn] tile (rows r, columns t)."""
        out = {}
        for value, (r_op, t_op) in self.f.contracts.items():
            out[value] = self._mma(tiles[("a", (r_op.value, r_op.dims))], tiles[("bt", (t_op.value, t_op.dims))],
                                   constant_tile(self, [self.s.bm, self.s.bn], 0.0))
        return out

    def step(self, t, tiles: dict, scores: dict, accs: list) -> list:
        """acc_k + W_k·X_k for each sum; W_k on the contractions' tiles, 0 beyond t's extent."""
        s, f32 = self.s, ir.F32Type.get()
        t0 = arith.MulIOp(t, const_index(s.bn)).result
        extent = self.loop_extent()
        coord = lambda d: arith.AddIOp(self.r0, _tile_index(0)).result if d == self.f.r else \
            arith.AddIOp(t0, _tile_index(1)).result if d == self.f.t else self._batch(d)

        def read(op):
            src = op.operation.operands[0]
            if src in scores:
                return _elem(scores[src], [0, 1], 2)
            return self._gather(op, coord)

        common = {}  # key -> the [bm, bn] tile of a value several W compute alike (recompute_shared.py)

        def built(ops, value):
            keys = keys_of(ops)
            known = {v: (lambda tile=common[k]: _elem(tile, [0, 1], 2)) for v, k in keys.items() if k in common}
            return translate(def_ops(value, ops, set(known)), self.b.params, self.scalars.__getitem__, read, coord,
                             wanted=value, known=known)[0]

        for key, value, ops in shared_values([sm.w_ops for sm in self.f.sums]):
            common[key] = tile_map(self, [s.bm, s.bn], f32, lambda value=value, ops=ops: built(ops, value))
        out = []
        for sm, acc in zip(self.f.sums, accs):
            def body(sm=sm):
                inside = arith.CmpIOp(arith.CmpIPredicate.slt, coord(self.f.t), extent).result
                w = built(sm.w_ops, sm.w)
                return arith.SelectOp(inside, w, arith.ConstantOp(f32, 0.0).result).result
            w = tile_map(self, [s.bm, s.bn], f32, body)
            w_low = tile_map(self, [s.bm, s.bn], self.element,
                             lambda w=w: arith.TruncFOp(self.element, _elem(w, [0, 1], 2)).result)
            x = tiles[("b", (sm.x.value, sm.x.dims))]
            acc = self._mma(w_low, x, acc)
            if self.residual():
                # an output of another type (f32) must not carry W's rounding: the residual
                # w - round(w), rounded again, goes through a second mma (error ~2^-16)
                rest = tile_map(self, [s.bm, s.bn], self.element, lambda w=w, w_low=w_low: arith.TruncFOp(
                    self.element, arith.SubFOp(_elem(w, [0, 1], 2), arith.ExtFOp(
                        f32, _elem(w_low, [0, 1], 2)).result).result).result)
                acc = self._mma(rest, x, acc)
            out.append(acc)
        return out

    def residual(self) -> bool:
        """Does W·X take a second mma for W's rounding residual (an output of another type than X's)?"""
        return any(ir.RankedTensorType(v.type).element_type != self.element for v in self.f.returned)

    def _batch(self, d):
        if d not in self.batch_ids:
            raise NoTileLowering("W reads an index that is neither r, t nor a batch dim")
        return self.batch_ids[d]

    def _gather(self, op, coord):
        """One element of a kernel input W reads (a vector such as the saved log-sum-exp)."""
        src = op.operation.operands[0]
        dims = positions(ir.AffineMapAttr(op.attributes["map"]).value)
        element = ir.RankedTensorType(src.type).element_type
        rank = len(dims)
        return ir.Operation.create("tile.gather", results=[element], operands=[self.mem[src], *map(coord, dims)],
                                   attributes={"map": ir.AffineMapAttr.get(ir.AffineMap.get_identity(rank)),
                                               "padding": ir.FloatAttr.get(element, 0.0)}).result

    # -- epilogue ----------------------------------------------------------------------------------
    def epilogue(self, accs: list) -> None:
        """The maps after the group on the accumulators, then a masked store of each output."""
        tiles = {sm.op.result: (acc, sm.kept) for sm, acc in zip(self.f.sums, accs)}
        for op in self.f.epilogue:
            element = ir.RankedTensorType(op.result.type).element_type
            kept = None

            def read(inner):
                nonlocal kept
                tile, dims = tiles[inner.operation.operands[0]]
                if positions(ir.AffineMapAttr(inner.attributes["map"]).value) != list(range(len(dims))) or \
                        kept not in (None, dims):
                    raise NoTileLowering("the maps after recomputed sums must read them elementwise")
                kept = dims
                return _elem(tile, [0, 1], 2)

            def body(op=op, read=read):
                return translate(op.regions[0].blocks[0].operations, self.b.params, self.scalars.__getitem__, read)[0]

            sources = [inner.operation.operands[0] for inner in op.regions[0].blocks[0].operations
                       if inner.operation.name == "ta.at"]
            width = ir.RankedTensorType(tiles[sources[0]][0].type).shape[-1]
            result = tile_map(self, [self.s.bm, width], element, body)
            tiles[op.result] = (result, kept)
        for value, out in zip(self.f.returned, self.outs):
            tile, kept = tiles[value]
            coords = [self.r0 if x == self.f.r else const_index(0) if x == kept[-1] else self.batch_ids[x]
                      for x in kept]
            offsets = self.views.window(out, coords, kept.index(self.f.r), "a recomputed sum's output")
            ir.Operation.create("tile.store", operands=[tile, out, *offsets])


def _exp_of_mask(ops) -> bool:
    """Does every -inf a select of ``ops`` puts in reach the sum only through math.exp (so a
    masked element's W is exp(-inf ...) = 0, never -inf or NaN)? Through additions and
    subtractions of other values, and scaling, only."""
    selects = [op for op in ops if op.operation.name == "arith.select" and
               any(_is_neg_inf(v) for v in list(op.operation.operands)[1:])]
    names = {op.result: op.operation.name for op in ops}
    users: dict = {}
    for op in ops:
        for v in op.operation.operands:
            users.setdefault(v, []).append(op)
    for sel in selects:
        stack = [sel.result]
        while stack:
            v = stack.pop()
            if not users.get(v):
                return False  # reached W itself before an exp
            for user in users[v]:
                name = names[user.result]
                if name == "math.exp":
                    continue
                if name not in ("arith.subf", "arith.addf", "arith.mulf"):
                    return False
                stack.append(user.result)
    return bool(selects)
