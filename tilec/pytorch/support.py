"""What raising linalg into ta is built on: element types, the ``Unsupported`` error with
the user's source frame, a linalg op's loop domain (unit loops dropped), and the ta.remap
forms of reshapes.
"""

from __future__ import annotations

import math
import os
import re

import torch
from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects import ta_builders as tb
from tilec.dialects.dims import parse_dim

from ..diagnostics import SourceLoc
from .bodies import Lazy, Predicate
from .views import View

_FRAME = re.compile(r'"(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)')
_LIBRARY = (f"{os.sep}torch{os.sep}", f"{os.sep}tilec{os.sep}pytorch{os.sep}", f"{os.sep}torch_mlir{os.sep}")


def user_frame(location) -> SourceLoc | None:
    """The innermost frame of a torch.export location that is the user's code (not torch's
    or this importer's); the innermost frame of all when every frame is a library's."""
    frames = [SourceLoc(m["file"], int(m["line"]), max(int(m["col"]), 1)) for m in _FRAME.finditer(str(location))]
    users = [f for f in frames if not any(part in f.file for part in _LIBRARY)]
    return (users or frames or [None])[0]


class Unsupported(Exception):
    """A linalg op tilec has no ta rule for."""

    def __init__(self, op_name: str, reason: str, loc: SourceLoc | None):
        super().__init__(f"{op_name}: {reason}")
        self.op_name, self.reason, self.loc = op_name, reason, loc


_WIDENED = ("f64", "bf16", "f16")


def element(t: ir.Type) -> ir.Type:
    """The element type of an intermediate ta tensor: floats are f32, as in the spec language
    (a fused kernel keeps intermediates in registers; torch's bf16 roundings between ops go)."""
    return ir.F32Type.get() if str(t) in _WIDENED else t


def ta_type(shape, elem: ir.Type) -> ir.RankedTensorType:
    """An intermediate tensor's ta type."""
    return tb.tensor_type([parse_dim(str(n)) for n in shape], element(elem))


def io_type(shape, elem: ir.Type) -> ir.RankedTensorType:
    """An input's or output's ta type: its own precision (f64 as f32); a boolean input (an
    attention mask) is taken as bf16 0/1, which holds it exactly, and read as ``x != 0``."""
    if str(elem) == "i1":
        elem = ir.BF16Type.get()
    return tb.tensor_type([parse_dim(str(n)) for n in shape], ir.F32Type.get() if str(elem) == "f64" else elem)


def reshape_remap(source, groups, expand: bool, sizes_in, result_type) -> View:
    """expand_shape / collapse_shape of ``source`` (laid out as linalg has it) by a ta.remap."""
    outer = lambda sizes, group, i: math.prod(sizes[k] for k in group[i + 1:])
    d = ir.AffineDimExpr.get
    if expand:  # source dim g = row-major position of the result dims of group g
        exprs = [sum((d(k) * outer(result_type.shape, g, i) for i, k in enumerate(g)), ir.AffineConstantExpr.get(0))
                 for g in groups]
    else:  # source dim k of group g = a digit of result dim g
        exprs = [None] * len(sizes_in)
        for r, g in enumerate(groups):
            for i, k in enumerate(g):
                exprs[k] = ir.AffineExpr.get_mod(ir.AffineExpr.get_floor_div(d(r), outer(sizes_in, g, i)), sizes_in[k])
    amap = ir.AffineMap.get(result_type.rank, 0, exprs)
    remapped = ir.Operation.create("ta.remap", results=[ta_type(result_type.shape, result_type.element_type)],
                                   operands=[source], attributes={"map": ir.AffineMapAttr.get(amap)}).result
    return without_unit_dims(remapped)


def unwidened(value, read: ir.AffineMap):
    """(tensor, map) for a contraction operand: a ta.map that only widens a tensor (torch's
    bf16 matmul reads f32 copies) is read through, so the kernel takes the bf16 input."""
    owner = None if isinstance(value, (Lazy, Predicate)) else value.owner
    if owner is None or isinstance(owner, ir.Block) or owner.name != "ta.map":
        return value, read
    ops = list(owner.regions[0].blocks[0].operations)
    names = [o.name for o in ops]
    if names != ["ta.at", "arith.extf", "ta.yield"] or ops[1].operands[0] != ops[0].result:
        return value, read
    inner = ir.AffineMapAttr(ops[0].attributes["map"]).value
    return ops[0].operands[0], tb.compose(read, inner)


def splat(value):
    """The scalar attribute of an ``arith.constant dense<x>`` tensor, else None."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.constant":
        return None
    attr = owner.attributes["value"]
    if not isinstance(attr, ir.DenseElementsAttr) or not ir.DenseElementsAttr(attr).is_splat:
        return None
    return ir.DenseElementsAttr(attr).get_splat_value()


def squeezed(shape) -> list[int]:
    """A graph input's or output's shape as the ta function takes it: no size-1 dims (the
    caller reshapes, which is free), unless that leaves none."""
    kept = [n for n in shape if n != 1]
    return kept if kept else list(shape)


def without_unit_dims(value) -> View:
    """An argument seen without its size-1 dims (a ta.remap drops them)."""
    t = ir.RankedTensorType(value.type)
    live = [k for k, n in enumerate(t.shape) if n != 1]
    if len(live) == t.rank:
        return View.whole(value)
    results, dims = [], []
    for k in range(t.rank):
        dims.append(live.index(k) if k in live else None)
        results.append(ir.AffineDimExpr.get(live.index(k)) if k in live else ir.AffineConstantExpr.get(0))
    amap = ir.AffineMap.get(len(live), 0, results)
    remapped = ir.Operation.create("ta.remap", results=[io_type([t.shape[k] for k in live], t.element_type)],
                                   operands=[value], attributes={"map": ir.AffineMapAttr.get(amap)}).result
    return View(remapped, tuple(dims))


class Domain:
    """A linalg op's loops with the unit ones dropped (ta tensors have no unit dims)."""

    def __init__(self, operands: list, maps):
        extents = [_extent(operands, maps, d) for d in range(maps[0].n_dims)]
        self.live = [d for d, n in enumerate(extents) if n != 1]
        self.position = {d: p for p, d in enumerate(self.live)}
        self.shape = [extents[d] for d in self.live]

    def index_value(self, dim: int) -> ir.Value:
        """Inside the map over this domain: the index of linalg loop ``dim`` (0 for a unit one)."""
        if dim in self.position:
            return tb.index(self.position[dim])
        return arith.ConstantOp(ir.IndexType.get(), 0).result

    def results(self, amap) -> list:
        """Per result of a linalg map: the ta domain dim it reads, or None (constant, unit)."""
        out = []
        for r in amap.results:
            live = isinstance(r, ir.AffineDimExpr) and ir.AffineDimExpr(r).position in self.position
            out.append(ir.AffineDimExpr.get(self.position[ir.AffineDimExpr(r).position]) if live else None)
        return out


def _extent(operands, maps, d: int) -> int:
    for value, amap in zip(operands, maps):
        for k, r in enumerate(amap.results):
            if isinstance(r, ir.AffineDimExpr) and ir.AffineDimExpr(r).position == d:
                return ir.RankedTensorType(value.type).shape[k]
    raise ValueError(f"loop dim d{d} indexes no operand")


def stand_in(shape, stride, dtype) -> torch.Tensor:
    """A CPU tensor of zeros to trace a graph with in place of a real input: laid out as the
    input is, since a view in the graph may rely on its strides (a ``.contiguous()`` that
    torch.export dropped as a no-op where it traced)."""
    return torch.empty_strided(tuple(shape), tuple(stride), dtype=dtype).zero_()
