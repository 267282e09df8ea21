"""Tile maps of the attention program: the stabiliser, the online step, the epilogue.
(Methods of AttentionBody.)"""

import math

from torch_mlir import ir
from torch_mlir.dialects import arith, math as math_d

from tilec.dialects import ta_builders as tb

from .bodies import translate
from .common import NoTileLowering, const_index
from .._loops import positions

_I64 = lambda: ir.IntegerType.get_signless(64)


def tile_map(self, shape, element, body):
    op = ir.Operation.create("tile.map", results=[ir.RankedTensorType.get(list(shape), element)], regions=1)
    with ir.InsertionPoint(op.regions[0].blocks.append()):
        ir.Operation.create("tile.yield", operands=[body()])
    return op.result


def _elem(tile, dims: list, rank: int):
    t = ir.RankedTensorType(tile.type)
    return ir.Operation.create("tile.elem", results=[t.element_type], operands=[tile],
                               attributes={"map": ir.AffineMapAttr.get(tb.projection(rank, dims))}).result


def _tile_index(dim: int):
    return ir.Operation.create("tile.index", results=[ir.IndexType.get()],
                               attributes={"dim": ir.IntegerAttr.get(_I64(), dim)}).result


def constant_tile(self, shape, value: float):
    f32 = ir.F32Type.get()
    return tile_map(self, shape, f32, lambda: arith.ConstantOp(f32, value).result)


def _exp_or_one(a, m):
    one = arith.ConstantOp(ir.F32Type.get(), 1.0).result
    equal = arith.CmpFOp(arith.CmpFPredicate.OEQ, a, m).result
    return arith.SelectOp(equal, one, math_d.ExpOp(arith.SubFOp(a, m).result).result).result


def stabiliser(self, scores, kt):
    """x on the bm x bn block of keys kt, -inf beyond the last key."""
    s = self.s
    j0 = arith.MulIOp(kt, const_index(s.bn)).result
    loads = {}
    for op in self.x_ops:  # tensors other than the scores, read as tiles of this block
        if op.operation.name == "ta.at" and op.operation.operands[0] != self.contract.result:
            src = op.operation.operands[0]
            dims = positions(ir.AffineMapAttr(op.attributes["map"]).value)
            tile_dims = [d for d in dims if d in (self.i, self.j)]
            if dims[:len(dims) - len(tile_dims)] != [d for d in dims if d in self.batch]:
                raise NoTileLowering("a tensor read by the stabiliser must keep its batch dims in front")
            coords = [self.batch_ids[d] if d in self.batch else self.q0 if d == self.i else j0 for d in dims]
            offsets, arg = self._offsets(src, coords)
            if arg in self.views.merged:
                raise NoTileLowering("a tensor the stabiliser reads may not also be Q, K or V")
            element = ir.RankedTensorType(src.type).element_type
            shape = [s.bm if d == self.i else s.bn for d in tile_dims]
            tile = ir.Operation.create("tile.load", results=[ir.RankedTensorType.get(shape, element)],
                                       operands=[arg, *offsets],
                                       attributes={"padding": ir.FloatAttr.get(element, 0.0)}).result
            loads[op.result] = (tile, [0 if d == self.i else 1 for d in tile_dims])
    key_extent = self.key_extent()

    def read(op):
        if op.operation.operands[0] == self.contract.result:
            return _elem(scores, [0, 1], 2)
        tile, dims = loads[op.result]
        return _elem(tile, dims, 2)

    def index(d):
        return arith.AddIOp(self.q0, _tile_index(0)).result if d == self.i else \
            arith.AddIOp(j0, _tile_index(1)).result if d == self.j else self.batch_ids[d]

    def body():
        (x,) = translate(self.x_ops, self.b.params, self.scalars.__getitem__, read, index, wanted=self.x_value)
        inside = arith.CmpIOp(arith.CmpIPredicate.slt, arith.AddIOp(j0, _tile_index(1)).result, key_extent).result
        return arith.SelectOp(inside, x, arith.ConstantOp(ir.F32Type.get(), -math.inf).result).result

    return tile_map(self, [s.bm, s.bn], ir.F32Type.get(), body)


def _reduce(tile, kind: str):
    t = ir.RankedTensorType(tile.type)
    return ir.Operation.create("tile.reduce", results=[ir.RankedTensorType.get([t.shape[0]], t.element_type)],
                               operands=[tile], attributes={"kind": ir.StringAttr.get(kind),
                                                            "dim": ir.IntegerAttr.get(_I64(), 1)}).result


def softmax_step(self, m, l, x):
    """The block's softmax against the running state: m' = max(m, rowmax x), the rescale
    c = exp(m - m'), the exponentials p = exp(x - m'), l' = l c + rowsum p. Returns
    (m', l', c, p, p in V's type: what P·V multiplies)."""
    s, f32 = self.s, ir.F32Type.get()
    rows, row = [s.bm], [0]
    rowmax = _reduce(x, "max")
    m_new = tile_map(self, rows, f32, lambda: arith.MaximumFOp(_elem(m, row, 1), _elem(rowmax, row, 1)).result)
    c = tile_map(self, rows, f32, lambda: _exp_or_one(_elem(m, row, 1), _elem(m_new, row, 1)))
    # a masked key (x = -inf) adds nothing, even while the whole row is masked: exp(x - m'') with
    # m'' = m', or 0 while every key of the row so far is masked (so never -inf - -inf), is
    # exp(-inf) = 0 for it; a fully masked row ends with l = 0 and acc = 0, so its output is
    # 0 / 0 = NaN, as in the oracle and loop IR. The guard is one select per row, not per element.
    ninf = lambda: arith.ConstantOp(f32, -math.inf).result
    m_safe = tile_map(self, rows, f32, lambda: arith.SelectOp(
        arith.CmpFOp(arith.CmpFPredicate.OEQ, _elem(m_new, row, 1), ninf()).result,
        arith.ConstantOp(f32, 0.0).result, _elem(m_new, row, 1)).result)
    p = tile_map(self, [s.bm, s.bn], f32, lambda: math_d.ExpOp(
        arith.SubFOp(_elem(x, [0, 1], 2), _elem(m_safe, [0], 2)).result).result)
    rowsum = _reduce(p, "sum")
    l_new = tile_map(self, rows, f32, lambda: arith.AddFOp(arith.MulFOp(_elem(l, row, 1), _elem(c, row, 1)).result,
                                                          _elem(rowsum, row, 1)).result)
    element = ir.RankedTensorType(self.v_value.type).element_type  # P·V multiplies in V's type
    p_low = tile_map(self, [s.bm, s.bn], element, lambda: arith.TruncFOp(element, _elem(p, [0, 1], 2)).result
                     if element != f32 else _elem(p, [0, 1], 2))
    return m_new, l_new, c, p, p_low


def rescale(self, acc, c):
    """acc * c, row by row: the accumulator brought to the new running max."""
    f32 = ir.F32Type.get()
    return tile_map(self, [self.s.bm, self.head_dim], f32,
                    lambda: arith.MulFOp(_elem(acc, [0, 1], 2), _elem(c, [0], 2)).result)


def p_residual(self) -> bool:
    """Does P·V take a second mma for P's rounding residual (a result of another type than V)?"""
    element = ir.RankedTensorType(self.v_value.type).element_type
    return element != ir.F32Type.get() and self.out_element != element


def online_step(self, m, l, acc, x, v, before_pv=None):
    """One key block of the recurrence: m' = max(m, rowmax x), rescale by exp(m - m');
    ``before_pv`` builds what the schedule puts right before P·V (a warpgroup's turn)."""
    m_new, l_new, c, p, p_low = softmax_step(self, m, l, x)
    scaled = rescale(self, acc, c)
    if before_pv is not None:
        before_pv()
    acc_new = self.mma(p_low, v, scaled)
    if p_residual(self):
        # a result of another type (f32, or f16 from bf16) must not carry P's rounding: the residual
        # p - round(p), rounded again, goes through a second mma (error ~2^-16, as f32 asks)
        element = ir.RankedTensorType(self.v_value.type).element_type
        rest = tile_map(self, [self.s.bm, self.s.bn], element, lambda: arith.TruncFOp(element, arith.SubFOp(
            _elem(p, [0, 1], 2), arith.ExtFOp(ir.F32Type.get(), _elem(p_low, [0, 1], 2)).result).result).result)
        acc_new = self.mma(rest, v, acc_new)
    return m_new, l_new, acc_new


def epilogue(self, m, l, acc):
    """The ta.map ops after the online group, on tiles: the numerator is acc, the normaliser l,
    the group's max (if any) m."""
    tiles = {self.numer.result: acc, self.norm.result: l}
    kept = {self.numer.result: self.kept,
            self.norm.result: positions(ir.AffineMapAttr(self.norm.attributes["map"]).value)}
    if self.running_max is not None:
        tiles[self.running_max.result] = m
        kept[self.running_max.result] = positions(ir.AffineMapAttr(self.running_max.attributes["map"]).value)
    result = None
    for op in self.epilogue_maps:
        element = ir.RankedTensorType(op.result.type).element_type

        def read(inner):
            src = inner.operation.operands[0]
            if src not in tiles:
                raise NoTileLowering("the attention epilogue may read the online results only")
            # the maps' indices are the output's dims: read in the online domain, they must
            # be the dims the tile's source keeps (rows i, columns d; the batch is the CTA's)
            dims = [self.kept[p] for p in positions(ir.AffineMapAttr(inner.attributes["map"]).value)]
            if dims != kept[src]:
                raise NoTileLowering("the attention epilogue must read the online results elementwise")
            return _elem(tiles[src], [0 if d == self.i else 1 for d in dims if d in (self.i, self.d)], 2)

        def body(op=op, read=read):
            return translate(op.regions[0].blocks[0].operations, self.b.params, self.scalars.__getitem__, read)[0]

        result = tile_map(self, [self.s.bm, self.head_dim], element, body)
        tiles[op.result], kept[op.result] = result, self.kept
    if result is None:
        raise NoTileLowering("attention without a normalising epilogue")
    return result


def store(self, result) -> None:
    """The output tile at rows q0.., head-dim columns 0.. of the CTA's batch element (on sm_90a,
    tile-tma-store stages it for the copy engine where the schedule asks)."""
    if self.kept[-1] != self.d:
        raise NoTileLowering("the attention output must have its head dim last")
    coords = [self.q0 if x == self.i else const_index(0) if x == self.d else self.batch_ids[x] for x in self.kept]
    offsets = self.views.window(self.out, coords, self.kept.index(self.i), "the attention output")
    ir.Operation.create("tile.store", operands=[result, self.out, *offsets])
