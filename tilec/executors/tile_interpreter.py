"""Run tile IR on the CPU: every CTA of the grid in turn, with torch for the arithmetic.

Shared memory is real: each tile.alloc is a flat buffer addressed through its
layout (shape/stride + swizzle), so a wrong swizzle reads wrong numbers. Async
copies are queued per commit group and land only at a tile.wait_group that
retires their group, so a missing wait reads stale data, as it would on a GPU.
A target's own ops run by its rules (dialects/op_rules.py: sm_90a's in
tilec/targets/sm_90a/executors/cta_ops.py): copy-engine copies land when their mbarrier phase
completes, and the roles of a warp-specialised kernel take turns at their mbarrier waits. An
asynchronous wgmma reads its shared tiles only when a tile.wgmma_wait retires its group
(``InFlight``), and a consumer's release lets the producer run at once: a stage released
before its multiply has read it is overwritten first, as it may be on a GPU.
"""

from __future__ import annotations

from collections import deque

import torch
from torch_mlir import ir

from tilec.dialects import PERSISTENT_ATTR
from tilec.dialects.access import element, inside, read
from tilec.dialects.affine import affine
from tilec.dialects.dims import parse_dim
from tilec.dialects.raster import raster_of
from tilec.dialects.reduce_kinds import KINDS
from tilec.dialects.tile import layout_of, schedule_of
from tilec.dialects.index_ops import INDEX, defined
from tilec.dialects.op_rules import no_rule, rule
from tilec.dialects.scalar_ops import PYTHON, evaluate

from ..diagnostics import TilecError, mlir_loc
from .loop_runner import _argument_roles
from .oracle_scalar import TORCH, _broadcast_view, scalar_op
from ..signature import Signature, dtype_of


# CTAs a persistent kernel runs on in the interpreter: few, so that a CTA takes several tiles
# and some take one more than others
PERSISTENT_CTAS = 3


class InFlight:
    """The result of an asynchronous wgmma: acc + A·B, its tiles read when its group retires."""

    def __init__(self, acc, product):
        self.acc, self.product, self.value = acc, product, None

    def retire(self) -> None:
        acc = self.acc.value if isinstance(self.acc, InFlight) else self.acc  # older groups retire first
        self.value = acc + self.product()


class _Shared:
    """A shared-memory buffer: stages x tile, each stage placed by ``layout``."""

    def __init__(self, memref_type, layout):
        t = ir.MemRefType(memref_type)
        self.stages, self.layout = t.shape[0], layout
        self.data = torch.zeros(self.stages * layout.size, dtype=dtype_of(t.element_type))
        rows, cols = layout.shape
        r, c = torch.meshgrid(torch.arange(rows), torch.arange(cols), indexing="ij")
        self.offsets = layout.offset(r, c)

    def write(self, stage: int, tile: torch.Tensor) -> None:
        self.data[stage * self.layout.size + self.offsets] = tile.to(self.data.dtype)

    def read(self, stage: int) -> torch.Tensor:
        return self.data[stage * self.layout.size + self.offsets]


def store_window(value: torch.Tensor, dst: torch.Tensor, offsets: list[int]) -> None:
    """Write the tile at ``offsets`` of ``dst``, skipping elements outside it."""
    index, mask = window(dst, offsets, list(value.shape))
    dst[tuple(i[mask] if isinstance(i, torch.Tensor) else i for i in index)] = value[mask].to(dst.dtype)


def window(tensor: torch.Tensor, offsets: list[int], shape: list[int]):
    """(index tuple, in-bounds mask) for the tile at ``offsets`` covering the trailing dims
    (dialects/access.py's meaning over every coordinate of the tile at once); the index is
    clamped into the tensor, each part of the tile's shape."""
    coords = torch.meshgrid(*[torch.arange(n) for n in shape], indexing="ij") if shape else []
    at = element(TORCH, [torch.tensor(o) for o in offsets], coords)
    mask = inside(TORCH, at, list(tensor.shape)).expand(shape) if at else torch.ones(shape, dtype=torch.bool)
    index = tuple(a.clamp(0, max(size - 1, 0)).expand(shape) for a, size in zip(at, tensor.shape))
    return index, mask


class ProgramEnded(Exception):
    """A CTA's program ended before its last op (a tile.split_sum whose tile another CTA finishes)."""


class CTA:
    """The state of one CTA while it runs the function body."""

    def __init__(self, pid: tuple[int, int], values: dict, warps: int = 1, grid: tuple[int, int] = (1, 1),
                 workspace: dict | None = None):
        self.pid, self.values, self.grid = pid, dict(values), grid
        self.workspace = {} if workspace is None else workspace  # the launch's: tile.split_sum's tiles and counts
        self.warps = warps          # consumer warps: each arrives on an mbarrier
        self.roles = None           # the warp roles while a tile.warp_specialize runs
        self.pending: list = []
        self.groups: deque = deque()
        self.wgmma_groups: deque = deque()   # asynchronous wgmmas in flight, oldest first
        self.bulk: deque = deque()           # copy-engine stores not yet read from shared memory, oldest first
        self.warpgroup = None       # the consumer warpgroup running on its own (tile.warpgroup_id)

    def get(self, v):
        return self.values[v]

    def run_block(self, block, args=()):
        for arg, value in zip(block.arguments, args):
            self.values[arg] = value
        for op in block.operations:
            name = op.operation.name
            if name in ("scf.yield", "func.return"):
                return [self.get(v) for v in op.operation.operands]
            results = self.step(op, name)
            for r, v in zip(op.operation.results, results):
                self.values[r] = v
        return []

    def step(self, op, name):
        operands = [self.get(v) for v in op.operation.operands]
        own = None if name.startswith(("arith.", "scf.")) or hasattr(self, "op_" + name.removeprefix("tile.")) \
            else rule("interpret", name)  # a target's own op: its rule from the target's folder (op_rules)
        if name != "scf.for" and not getattr(own, "reads_in_flight", False):
            operands = [self.settled(v, op) for v in operands]
        if name in INDEX:
            if not defined(name, *operands):  # a division's meaning is given for a >= 0, b > 0 alone
                raise TilecError(f"{name} of {operands[0]} by {operands[1]}: an index division of tile IR divides "
                                 f"a value >= 0 by one > 0", mlir_loc(op.location, "<tile>"))
            return [INDEX[name](*operands)]
        if name == "arith.cmpi":
            return [evaluate(op, operands, PYTHON)]
        if name == "scf.if":
            if operands[0]:
                self.run_block(op.regions[0].blocks[0])
            return []
        if name == "arith.constant":
            attr = op.attributes["value"]
            return [ir.IntegerAttr(attr).value if isinstance(op.result.type, ir.IndexType)
                    else scalar_op(op, name, [])]
        if name == "scf.for":
            lb, ub, step, *carried = operands
            for iv in range(lb, ub, step):
                carried = self.run_block(op.regions[0].blocks[0], [iv, *carried])
            return carried
        if own is not None:
            return own(self, op, operands)
        handler = getattr(self, "op_" + name.removeprefix("tile."), None)
        if handler is None:
            raise TilecError(no_rule("the tile interpreter cannot run", name), mlir_loc(op.location, "<tile>"))
        return handler(op, operands)

    @staticmethod
    def settled(value, op):
        if not isinstance(value, InFlight):
            return value
        if value.value is None:
            raise TilecError("the result of an asynchronous wgmma is read before a tile.wgmma_wait retired its group",
                             mlir_loc(op.location, "<tile>"))
        return value.value

    def op_program_id(self, op, operands):
        return [self.pid[ir.IntegerAttr(op.attributes["axis"]).value]]

    def op_num_programs(self, op, operands):
        return [self.grid[ir.IntegerAttr(op.attributes["axis"]).value]]

    def op_split_sum(self, op, operands):
        """Write this CTA's part of its slot; the last of ``splits`` arrivals goes on with the
        parts summed in part order."""
        acc, slot, part, _ = operands
        splits = ir.IntegerAttr(op.attributes["splits"]).value
        parts = self.workspace.setdefault(slot, {})
        if part in parts or not 0 <= part < splits:
            raise TilecError(f"tile.split_sum: part {part} of slot {slot} written twice, or not below {splits}",
                             mlir_loc(op.location, "<tile>"))
        parts[part] = acc
        if len(parts) < splits:
            raise ProgramEnded()
        del self.workspace[slot]  # its count back at zero for the next launch
        total = parts[0]
        for p in range(1, splits):
            total = total + parts[p]
        return [total]

    def op_alloc(self, op, operands):
        return [_Shared(op.result.type, layout_of(op.attributes["layout"]))]

    def op_load(self, op, operands):
        src, *offsets = operands
        shape = ir.RankedTensorType(op.result.type).shape
        index, mask = window(src, offsets, shape)
        pad = ir.FloatAttr(op.attributes["padding"]).value
        return [torch.where(mask, src[index], torch.tensor(pad, dtype=src.dtype))]

    def op_store(self, op, operands):
        value, dst, *offsets = operands
        store_window(value, dst, offsets)
        return []

    def retire_stores(self, pending: int) -> None:
        """The copy engine reads (and writes out) this thread's oldest stores until ``pending`` remain."""
        while len(self.bulk) > pending:
            self.bulk.popleft()()

    def op_async_copy(self, op, operands):
        src, *offsets, dst, stage = operands
        index, mask = window(src, offsets, list(dst.layout.shape))
        tile = torch.where(mask, src[index], torch.zeros((), dtype=src.dtype))
        self.pending.append((dst, stage, tile))  # lands when a wait_group retires its group
        return []

    def op_commit_group(self, op, operands):
        self.groups.append(self.pending)
        self.pending = []
        return []

    def op_wait_group(self, op, operands):
        while len(self.groups) > ir.IntegerAttr(op.attributes["pending"]).value:
            for dst, stage, tile in self.groups.popleft():
                dst.write(stage, tile)
        return []

    def op_barrier(self, op, operands):
        return []  # the CTA runs as one thread of control here

    def op_smem_load(self, op, operands):
        buf, stage = operands
        tile = buf.read(stage)
        return [tile.t().contiguous() if "transpose" in op.attributes else tile]

    def op_mma(self, op, operands):
        a, b, acc = operands
        return [acc + a.float() @ b.float()]

    def op_reduce(self, op, operands):
        kind, dim = ir.StringAttr(op.attributes["kind"]).value, ir.IntegerAttr(op.attributes["dim"]).value
        src = operands[0]
        return [KINDS[kind].reduce(src, dim)]

    def op_map(self, op, operands):
        shape = ir.RankedTensorType(op.result.type).shape
        local = {}
        for inner in op.regions[0].blocks[0].operations:
            name = inner.operation.name
            args = [local[v] if v in local else self._scalar(self.settled(self.get(v), op))
                    for v in inner.operation.operands]
            if name == "tile.yield":
                return [args[0].expand(shape).to(dtype_of(op.result.type)).clone()]
            if name == "tile.elem":
                amap = ir.AffineMapAttr(inner.attributes["map"]).value
                dims = [ir.AffineDimExpr(e).position for e in amap.results]
                local[inner.result] = _broadcast_view(args[0], dims, len(shape))
            elif name == "tile.index":
                d = ir.IntegerAttr(inner.attributes["dim"]).value
                local[inner.result] = torch.arange(shape[d]).reshape([shape[d] if k == d else 1
                                                                      for k in range(len(shape))])
            elif name == "tile.gather":
                local[inner.result] = _gather(inner, args[0], args[1:], shape)
            else:
                local[inner.result] = scalar_op(inner, name, args)
        raise TilecError("tile.map without tile.yield")

    @staticmethod
    def _scalar(value):
        return torch.tensor(value) if isinstance(value, int) else value


def _gather(op, src: torch.Tensor, indices: list, shape: list) -> torch.Tensor:
    """tile.gather over a whole tile: ``src`` at the map of the (broadcast) indices, ``padding``
    where an index falls outside it (dialects/access.py)."""
    amap = ir.AffineMapAttr(op.attributes["map"]).value
    floor = lambda a, b: torch.div(a, b, rounding_mode="floor")  # noqa: E731
    at = [torch.as_tensor(affine(e, indices, const=torch.tensor, floordiv=floor)).expand(shape)
          for e in amap.results]
    fetch = lambda at: src[tuple(x.clamp(0, max(n - 1, 0)) for x, n in zip(at, src.shape))]  # noqa: E731
    pad = torch.tensor(ir.FloatAttr(op.attributes["padding"]).value, dtype=src.dtype)
    return read(TORCH, at, list(src.shape), fetch, pad)


def run_tile(module: ir.Module, sig: Signature, inputs: dict[str, torch.Tensor],
             env: dict[str, int]) -> dict[str, torch.Tensor]:
    """Run the tile function of ``module`` over its whole grid; returns the outputs. A
    persistent kernel runs on PERSISTENT_CTAS CTAs (at most one per tile), each looping over tiles."""
    fn = module.body.operations[0]
    outputs = {s.name: torch.zeros(s.shape(env), dtype=s.dtype) for s in sig.outputs}
    values = {}
    for (role, name), arg, attrs in zip(_argument_roles(fn), fn.arguments, ir.ArrayAttr(fn.attributes["arg_attrs"])):
        values[arg] = env[name] if role == "param" else inputs[name] if role == "input" else outputs[name]
        if role != "param" and values[arg].dim() != ir.MemRefType(arg.type).rank:  # a row-major view, dims merged
            view = [parse_dim(ir.StringAttr(d).value).evaluate(env) for d in ir.ArrayAttr(ir.DictAttr(attrs)["ta.dims"])]
            values[arg] = values[arg].reshape(view)
    grid = [parse_dim(ir.StringAttr(g).value).evaluate(env) for g in ir.ArrayAttr(fn.attributes["tile.grid"])]
    if PERSISTENT_ATTR in fn.attributes:  # fewer CTAs than tiles, as on a GPU with few SMs
        grid[0] = max(1, min(grid[0], PERSISTENT_CTAS))
    warps = schedule_of(fn).warps
    try:
        raster = raster_of(fn)
    except ValueError as err:
        raise TilecError(str(err)) from None
    group = parse_dim(raster.group).evaluate(env) if raster is not None and grid[0] * grid[1] else 0
    workspace: dict = {}
    for ctaid in range(grid[0] * grid[1]):  # in launch order; a raster says which program ids a CTA runs
        pids = (ctaid % grid[0], ctaid // grid[0]) if raster is None else \
            raster.program_ids(ctaid, grid[0], grid[1], group, lambda a, b: a // b, lambda c, a, b: a if c else b)
        try:
            CTA(pids, values, warps, tuple(grid), workspace).run_block(fn.entry_block)
        except ProgramEnded:
            pass
    if workspace:
        raise TilecError(f"tile.split_sum: {len(workspace)} output tiles had fewer parts added than their splits")
    return outputs
