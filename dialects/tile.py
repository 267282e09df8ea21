"""The ``tile`` dialect: one CTA's program over tiles.

Values: register tiles are static ``tensor<128x64xf32>``; global tensors are
``memref<?x?xbf16>``; shared-memory buffers are ``memref<stages x R x C x T, 3>``
(address space 3) whose placement is the ``#tile.layout<shape, stride, swizzle>``
attribute of their ``tile.alloc`` (see ``layout.py``). Loops are upstream
``scf.for`` carrying a ``tile.stages`` attribute: the software-pipeline depth. Global loads, stores and
async copies are masked by the tensor bounds: out-of-bounds elements read
``padding`` (or zero) and are not written.
"""


from collections.abc import Sequence
from typing import Any

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Region, Result

from ._verify import Invalid, affine_maps_single, int_attr, is_float, projected_dims, str_attr, verifier
from .reduce_kinds import NAMES
from .layout import BlockedLayout, Layout, MmaLayout, OperandLayout, SliceLayout, Swizzle
from .op_rules import rule
from .schedule import Schedule

SHARED = 3  # the address space of shared memory


class Tile(ext.Dialect, name="tile"):
    """One CTA's program: tiles, shared memory, async copies, mma."""


class LayoutAttr(Tile.Attribute, name="layout"):
    """Shared-memory placement: ``#tile.layout<[128, 64], [64, 1], [3, 3, 3]>``
    (shape, stride, swizzle bits/base/shift); a split stride is [block, inner, outer]:
    ``#tile.layout<[64, 256], [64, [64, 1, 4096]], [3, 3, 3]>``."""

    shape: ir.ArrayAttr
    stride: ir.ArrayAttr
    swizzle: ir.ArrayAttr


def layout_attr(layout: Layout) -> ir.Attribute:
    """The IR attribute of a layout (inside an active context)."""
    ints = lambda xs: ir.ArrayAttr.get([ints(x) if isinstance(x, tuple) else
                                        ir.IntegerAttr.get(ir.IntegerType.get_signless(64), x) for x in xs])
    sw = layout.swizzle
    return LayoutAttr.get(ints(layout.shape), ints(layout.stride), ints((sw.bits, sw.base, sw.shift)))


def layout_of(attr: ir.Attribute) -> Layout:
    """The layout an attribute describes; Invalid when it is malformed."""
    def value(v):
        if isinstance(v, ir.ArrayAttr):
            return tuple(ir.IntegerAttr(x).value for x in ir.ArrayAttr(v))
        return ir.IntegerAttr(v).value

    try:
        params = [[value(v) for v in ir.ArrayAttr(p)] for p in ir.DynamicAttr(attr).params]
        shape, stride, swizzle = params
    except (ValueError, TypeError):
        raise Invalid("layout must be #tile.layout<[shape], [stride], [bits, base, shift]>") from None
    if any(isinstance(x, tuple) for x in shape + swizzle):
        raise Invalid("layout shape and swizzle are lists of integers")
    if len(swizzle) != 3 or any(x < 0 for x in swizzle):
        raise Invalid("layout swizzle must be three non-negative integers [bits, base, shift]")
    try:
        return Layout(tuple(shape), tuple(stride), Swizzle(*swizzle))
    except ValueError as err:
        raise Invalid(str(err)) from None


class MmaAttr(Tile.Attribute, name="mma"):
    """Register layout of mma accumulator fragments over a grid of warps: ``#tile.mma<[4, 1]>``;
    a third number splits the rows into slabs (``#tile.mma<[4, 1, 2]>``: layout.MmaLayout)."""

    warps: ir.ArrayAttr


class MmaOperandAttr(Tile.Attribute, name="mma_operand"):
    """Register layout of an mma's A (0) or B (1) operand: ``#tile.mma_operand<[2, 2], 0>``."""

    warps: ir.ArrayAttr
    index: ir.IntegerAttr


class BlockedAttr(Tile.Attribute, name="blocked"):
    """Register layout of row-program tiles: ``#tile.blocked<4, 8, 32, 1>`` (warps, vector width,
    lanes a row, warps sharing a row; layout.py's BlockedLayout)."""

    warps: ir.IntegerAttr
    vec: ir.IntegerAttr
    lanes: ir.IntegerAttr
    split: ir.IntegerAttr


class SliceAttr(Tile.Attribute, name="slice"):
    """A vector of a 2-d register layout without ``dim``: ``#tile.slice<"mma", [4, 1], 1>``
    (parent kind and parameters, then the dropped dim)."""

    parent: ir.StringAttr
    params: ir.ArrayAttr
    dim: ir.IntegerAttr


def _ints(xs) -> ir.ArrayAttr:
    return ir.ArrayAttr.get([ir.IntegerAttr.get(ir.IntegerType.get_signless(64), x) for x in xs])


def register_layout_attr(layout) -> ir.Attribute:
    """The encoding attribute of a register layout (layout.py's MmaLayout, BlockedLayout, ...)."""
    i64 = lambda x: ir.IntegerAttr.get(ir.IntegerType.get_signless(64), x)
    if isinstance(layout, MmaLayout):
        return MmaAttr.get(_ints(_mma_params(layout)))
    if isinstance(layout, OperandLayout):
        return MmaOperandAttr.get(_ints(_mma_params(layout.parent)), i64(layout.index))
    if isinstance(layout, BlockedLayout):
        return BlockedAttr.get(i64(layout.warps), i64(layout.vec), i64(layout.lanes), i64(layout.split))
    parent = layout.parent
    kind, params = ("mma", _mma_params(parent)) if isinstance(parent, MmaLayout) else \
        ("blocked", [parent.warps, parent.vec, parent.lanes, parent.split])
    return SliceAttr.get(ir.StringAttr.get(kind), _ints(params), i64(layout.dim))


def _mma_params(layout: MmaLayout) -> list[int]:
    """[wm, wn], and the slabs when there are several: ``#tile.mma<[4, 1, 2]>``."""
    return [layout.wm, layout.wn] + ([layout.slabs] if layout.slabs > 1 else [])


def _mma_layout(values: list[int], encoding) -> MmaLayout:
    if len(values) not in (2, 3) or min(values) < 1:
        raise Invalid(f"tile encoding {encoding}: an mma layout is [wm, wn] or [wm, wn, slabs] of positive numbers")
    return MmaLayout(*values)


def _blocked_layout(values: list[int], encoding) -> BlockedLayout:
    if len(values) != 4 or min(values) < 1:
        raise Invalid(f"tile encoding {encoding}: a blocked layout is [warps, vec, lanes, split] of positive numbers")
    try:
        return BlockedLayout(*values)
    except ValueError as error:
        raise Invalid(f"tile encoding {encoding}: {error}") from None


def register_layout(t: ir.Type):
    """The register layout of a tile type's encoding, or None when it has none."""
    encoding = ir.RankedTensorType(t).encoding
    if encoding is None:
        return None
    try:
        params = ir.DynamicAttr(encoding).params
    except (ValueError, TypeError):
        raise Invalid(f"tile encoding {encoding} is not a register layout") from None
    ints = lambda a: [ir.IntegerAttr(x).value for x in ir.ArrayAttr(a)]
    text = str(encoding)
    if text.startswith("#tile.mma<"):
        return _mma_layout(ints(params[0]), encoding)
    if text.startswith("#tile.mma_operand<"):
        return OperandLayout(_mma_layout(ints(params[0]), encoding), ir.IntegerAttr(params[1]).value)
    if text.startswith("#tile.blocked<"):
        return _blocked_layout([ir.IntegerAttr(p).value for p in params[:4]], encoding)
    if text.startswith("#tile.slice<"):
        kind, values = ir.StringAttr(params[0]).value, ints(params[1])
        parent = _mma_layout(values, encoding) if kind == "mma" else _blocked_layout(values, encoding)
        return SliceLayout(parent, ir.IntegerAttr(params[2]).value)
    raise Invalid(f"tile encoding {encoding} is not a register layout")


class ScheduleAttr(Tile.Attribute, name="schedule"):
    """The schedule a tile function was built under (see schedule.py), on its
    ``tile.schedule`` attribute: ``#tile.schedule<{bm = 128 : i64, ..., swizzle = true}>``."""

    options: ir.DictAttr


def schedule_attr(schedule: Schedule) -> ir.Attribute:
    """The IR attribute of a schedule (inside an active context)."""
    i64 = ir.IntegerType.get_signless(64)
    return ScheduleAttr.get(ir.DictAttr.get({
        k: ir.BoolAttr.get(v) if isinstance(v, bool) else ir.IntegerAttr.get(i64, v)
        for k, v in schedule.items().items()}))


def walk_ops(block):
    """Every op of ``block`` and, in program order after each, the ops of its nested regions."""
    for op in block.operations:
        yield op
        for region in op.operation.regions:
            for inner in region.blocks:
                yield from walk_ops(inner)


def encloses(outer, op) -> bool:
    """Whether ``op`` is nested (at any depth) in a region of ``outer``."""
    parent = op.operation.parent
    while parent is not None:
        if parent == outer.operation:
            return True
        parent = parent.parent
    return False


def scheduled_functions(module):
    """(function, its Schedule) for each tile function of ``module`` (an ir.Module or its
    operation): the functions ``ta-to-tile`` built, which a tile -> tile pass rewrites."""
    for fn in module.regions[0].blocks[0].operations:
        if fn.operation.name == "func.func" and "tile.schedule" in fn.attributes:
            yield fn, schedule_of(fn)


def schedule_of(op) -> Schedule:
    """The Schedule on a tile function (its ``tile.schedule`` attribute); Invalid when absent or malformed."""
    attrs = op.attributes if hasattr(op, "attributes") else op.operation.attributes
    if "tile.schedule" not in attrs:
        raise Invalid("a tile function carries its schedule as the 'tile.schedule' attribute (run ta-to-tile)")
    try:
        options = ir.DictAttr(ir.DynamicAttr(attrs["tile.schedule"]).params[0])
        values = {named.name: ir.BoolAttr(named.attr).value if isinstance(named.attr, ir.BoolAttr)
                  else ir.IntegerAttr(named.attr).value for named in options}
        return Schedule(**values)
    except (ValueError, TypeError, IndexError) as err:
        raise Invalid(f"malformed tile.schedule attribute: {err}") from None


def _tile(t: ir.Type, what: str) -> ir.RankedTensorType:
    if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
        raise Invalid(f"{what} must be a statically shaped tensor, got {t}")
    if not is_float(t.element_type):
        raise Invalid(f"{what} must have an f32, f16 or bf16 element type")
    return ir.RankedTensorType(t)


def _memref(t: ir.Type, what: str, shared: bool) -> ir.MemRefType:
    if not isinstance(t, ir.MemRefType):
        raise Invalid(f"{what} must be a memref, got {t}")
    t = ir.MemRefType(t)
    space = t.memory_space
    is_shared = space is not None and ir.IntegerAttr(space).value == SHARED
    if is_shared != shared:
        raise Invalid(f"{what} must be in {'shared memory (address space 3)' if shared else 'global memory'}, got {t}")
    return t


def _check_program_id(op):
    axis = int_attr(op, "axis")
    if axis not in (0, 1, 2):
        raise Invalid(f"axis must be 0, 1 or 2, got {axis}")


class ProgramIdOp(Tile.Operation, name="program_id"):
    """The CTA's index along grid ``axis``.

    Example:  %pid = "tile.program_id"() {axis = 0 : i64} : () -> index
    """

    axis: ir.IntegerAttr
    res: Result[ir.IndexType]
    verify_invariants = verifier(_check_program_id)


class NumProgramsOp(Tile.Operation, name="num_programs"):
    """The number of CTAs launched along grid ``axis``. A persistent kernel (its function
    carries ``tile.persistent``) is launched with fewer CTAs than ``tile.grid`` counts tiles
    (at most one per SM) and loops over the tiles from its program id in steps of this.

    Example:  %ctas = "tile.num_programs"() {axis = 0 : i64} : () -> index
    """

    axis: ir.IntegerAttr
    res: Result[ir.IndexType]
    verify_invariants = verifier(_check_program_id)


def _check_global_access(memref_t, offsets, tile_t, what):
    if len(offsets) != memref_t.rank:
        raise Invalid(f"expects {memref_t.rank} offsets for the {memref_t.rank}-d {what}, got {len(offsets)}")
    # the tile covers the trailing dims; leading dims (a batch) are picked by their offsets
    if tile_t.rank > memref_t.rank:
        raise Invalid(f"tile rank {tile_t.rank} must not exceed the {what} rank {memref_t.rank}")
    if tile_t.element_type != memref_t.element_type:
        raise Invalid(f"tile element type {tile_t.element_type} must equal the {what}'s {memref_t.element_type}")


def _check_load(op):
    res = _tile(op.res.type, "result")
    src, *offsets = op.operation.operands
    _check_global_access(_memref(src.type, "source", shared=False), offsets, res, "source")
    pad = op.attributes["padding"] if "padding" in op.attributes else None
    if not isinstance(pad, ir.FloatAttr):
        raise Invalid("requires a float attribute 'padding' (value of out-of-bounds elements)")


class LoadOp(Tile.Operation, name="load"):
    """Load the tile at ``offsets`` of a global tensor; out-of-bounds elements read ``padding``.
    A tile of lower rank covers the trailing dims (leading offsets pick e.g. the batch).

    Example:
        %a = "tile.load"(%A, %m0, %k0) {padding = 0.0 : f32}
             : (memref<?x?xbf16>, index, index) -> tensor<128x32xbf16>
    """

    src: Operand[ir.MemRefType]
    offsets: Sequence[Operand[ir.IndexType]]
    padding: ir.FloatAttr
    res: Result[ir.RankedTensorType]
    verify_invariants = verifier(_check_load)


def _check_store(op):
    value, dst, *offsets = op.operation.operands
    _check_global_access(_memref(dst.type, "destination", shared=False), offsets, _tile(value.type, "value"),
                         "destination")


class StoreOp(Tile.Operation, name="store"):
    """Store a tile at ``offsets`` of a global tensor; out-of-bounds elements are skipped.

    Example:
        "tile.store"(%c, %C, %m0, %n0) : (tensor<128x128xbf16>, memref<?x?xbf16>, index, index) -> ()
    """

    value: Operand[ir.RankedTensorType]
    dst: Operand[ir.MemRefType]
    offsets: Sequence[Operand[ir.IndexType]]
    verify_invariants = verifier(_check_store)


def _check_alloc(op):
    buf = _memref(op.res.type, "result", shared=True)
    if not buf.has_static_shape or buf.rank < 2:
        raise Invalid(f"result must be a static memref of stages x tile, got {buf}")
    if "layout" not in op.attributes:
        raise Invalid("requires attribute 'layout'")
    layout = layout_of(op.attributes["layout"])
    if tuple(buf.shape[1:]) != layout.shape:
        raise Invalid(f"layout shape {list(layout.shape)} must equal the tile shape {buf.shape[1:]}")
    if layout.cosize > layout.size:
        raise Invalid(f"layout reaches offset {layout.cosize - 1} outside the {layout.size}-element tile")


class AllocOp(Tile.Operation, name="alloc"):
    """A shared-memory buffer of ``stages`` tiles placed by ``layout``.

    Example (3 stages of a swizzled 128x64 bf16 tile):
        %sa = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>}
              : () -> memref<3x128x64xbf16, 3>
    """

    layout: LayoutAttr
    res: Result[ir.MemRefType]
    verify_invariants = verifier(_check_alloc)


def _check_async_copy(op):
    src, *offsets, dst, _stage = op.operation.operands
    src = _memref(src.type, "source", shared=False)
    dst = _memref(dst.type, "destination", shared=True)
    if len(offsets) != src.rank:
        raise Invalid(f"expects {src.rank} offsets for the {src.rank}-d source, got {len(offsets)}")
    if not 3 <= dst.rank <= src.rank + 1:
        raise Invalid(f"destination {dst} must be stages x a 2-d tile of the source's trailing dims")
    if src.element_type != dst.element_type:
        raise Invalid("source and destination element types differ")


class AsyncCopyOp(Tile.Operation, name="async_copy"):
    """Start copying the tile at ``offsets`` into stage ``stage`` of a shared buffer
    (cp.async; out-of-bounds elements become zero). Completes at a later wait_group.

    Example:
        "tile.async_copy"(%A, %m0, %k0, %sa, %s)
            : (memref<?x?xbf16>, index, index, memref<3x128x64xbf16, 3>, index) -> ()
    """

    src: Operand[ir.MemRefType]
    offsets: Sequence[Operand[ir.IndexType]]
    dst: Operand[ir.MemRefType]
    stage: Operand[ir.IndexType]
    verify_invariants = verifier(_check_async_copy)


class CommitGroupOp(Tile.Operation, name="commit_group"):
    """Close the group of async copies issued since the last commit.

    Example:  "tile.commit_group"() : () -> ()
    """


def _check_wait(op):
    if int_attr(op, "pending") < 0:
        raise Invalid("pending must be non-negative")


class WaitGroupOp(Tile.Operation, name="wait_group"):
    """Wait until at most ``pending`` committed groups are still in flight.

    Example:  "tile.wait_group"() {pending = 1 : i64} : () -> ()
    """

    pending: ir.IntegerAttr
    verify_invariants = verifier(_check_wait)


class BarrierOp(Tile.Operation, name="barrier"):
    """All threads of the CTA meet here (__syncthreads).

    Example:  "tile.barrier"() : () -> ()
    """


def _check_split_sum(op):
    acc = _tile(op.acc.type, "accumulator")
    if acc.rank != 2 or not isinstance(acc.element_type, ir.F32Type):
        raise Invalid(f"accumulator must be a 2-d f32 tile, got {acc}")
    if op.res.type != op.acc.type:
        raise Invalid(f"result must have the accumulator's type {acc}, got {op.res.type}")
    splits = int_attr(op, "splits")
    if not 2 <= splits <= Schedule.MAX_SPLIT_K:
        raise Invalid(f"splits must be 2 to {Schedule.MAX_SPLIT_K}, got {splits}")
    if op.operation.parent.name != "func.func" and rule("roles", op.operation.parent.name) is None:
        raise Invalid("must run once per CTA: at the top of the function (or of a warp role), not in a loop")


class SplitSumOp(Tile.Operation, name="split_sum"):
    """One of ``splits`` CTAs' parts of an output tile's sum over K (split-K): write ``acc`` as
    part ``part`` of workspace slot ``slot`` of the launch and count the arrival; the CTA that
    arrives last goes on with the tile's total, its parts summed in part order (0, 1, ...: the
    same sum whichever CTA is last), and leaves the slot's count at zero; every other CTA's
    program ends here. ``k_begin`` is the first K tile this CTA's loop multiplies (its part of K
    starts there: what the proof of the split reads). The workspace (``splits`` f32 tiles and a
    count per slot) belongs to the launch.

    Example:
        %total = "tile.split_sum"(%acc, %slot, %part, %k_begin) {splits = 4 : i64}
                 : (tensor<128x128xf32>, index, index, index) -> tensor<128x128xf32>
    """

    acc: Operand[ir.RankedTensorType]
    slot: Operand[ir.IndexType]
    part: Operand[ir.IndexType]
    k_begin: Operand[ir.IndexType]
    splits: ir.IntegerAttr
    res: Result[ir.RankedTensorType]
    verify_invariants = verifier(_check_split_sum)


def _check_smem_load(op):
    buf = _memref(op.src.type, "source", shared=True)
    res = _tile(op.res.type, "result")
    stage = list(buf.shape[1:])
    if "transpose" in op.attributes:  # ldmatrix.trans: the register tile is the stage transposed
        stage = stage[::-1]
    if list(res.shape) != stage or res.element_type != buf.element_type:
        raise Invalid(f"result must be one {stage} {buf.element_type} stage of the buffer, got {res}")


class SmemLoadOp(Tile.Operation, name="smem_load"):
    """Read stage ``stage`` of a shared buffer into registers (ldmatrix on sm_80+); with a
    ``transpose`` unit attribute the register tile is the stage transposed (ldmatrix.trans).

    Example:
        %a = "tile.smem_load"(%sa, %s) : (memref<3x128x64xbf16, 3>, index) -> tensor<128x64xbf16>
    """

    src: Operand[ir.MemRefType]
    stage: Operand[ir.IndexType]
    res: Result[ir.RankedTensorType]
    verify_invariants = verifier(_check_smem_load)


def _check_mma(op):
    a, b, acc = (_tile(v.type, w) for v, w in ((op.a, "a"), (op.b, "b"), (op.acc, "acc")))
    if a.rank != 2 or b.rank != 2 or acc.rank != 2:
        raise Invalid("a, b and acc must be 2-d tiles")
    (m, k), (k2, n) = a.shape, b.shape
    if k != k2 or list(acc.shape) != [m, n]:
        raise Invalid(f"shapes do not multiply: {m}x{k} * {k2}x{n} into {acc.shape[0]}x{acc.shape[1]}")
    floats = (ir.BF16Type, ir.F16Type, ir.F32Type)
    if not all(isinstance(t.element_type, floats) for t in (a, b)):
        raise Invalid("a and b must be bf16, f16 or f32 tiles")
    if not isinstance(acc.element_type, ir.F32Type):
        raise Invalid("acc must be f32")
    if op.res.type != op.acc.type:
        raise Invalid("result type must equal the accumulator type")


class MmaOp(Tile.Operation, name="mma"):
    """res = acc + a @ b on register tiles (mma.sync m16n8k16 on sm_80+ for 16-bit a and b;
    f32 FMAs when either is f32 or their types differ, both widened exactly).

    Example:
        %c1 = "tile.mma"(%a, %b, %c0) : (tensor<128x32xbf16>, tensor<32x128xbf16>,
              tensor<128x128xf32>) -> tensor<128x128xf32>
    """

    a: Operand[ir.RankedTensorType]
    b: Operand[ir.RankedTensorType]
    acc: Operand[ir.RankedTensorType]
    res: Result[ir.RankedTensorType]
    verify_invariants = verifier(_check_mma)


def _check_reduce(op):
    str_attr(op, "kind", NAMES)
    src, res = _tile(op.src.type, "source"), _tile(op.res.type, "result")
    dim = int_attr(op, "dim")
    if not 0 <= dim < src.rank:
        raise Invalid(f"dim {dim} is out of range for rank {src.rank}")
    kept = [s for i, s in enumerate(src.shape) if i != dim]
    if list(res.shape) != kept or res.element_type != src.element_type:
        raise Invalid(f"result must be the source without dim {dim}: {kept}")


class ReduceOp(Tile.Operation, name="reduce"):
    """Reduce a register tile along ``dim`` (row max / row sum for softmax).

    Example:
        %m = "tile.reduce"(%s) {kind = "max", dim = 1 : i64} : (tensor<128x64xf32>) -> tensor<128xf32>
    """

    src: Operand[ir.RankedTensorType]
    kind: ir.StringAttr
    dim: ir.IntegerAttr
    res: Result[ir.RankedTensorType]
    verify_invariants = verifier(_check_reduce)


def _check_map(op):
    res = _tile(op.res.type, "result")
    blocks = list(op.body.blocks)
    if len(blocks) != 1 or len(blocks[0].arguments) != 0:
        raise Invalid("body must be one block without arguments")
    ops = list(blocks[0].operations)
    if not ops or ops[-1].name != "tile.yield" or ops[-1].operands[0].type != res.element_type:
        raise Invalid(f"body must end with tile.yield of one {res.element_type}")


class MapOp(Tile.Operation, name="map"):
    """Pointwise computation on register tiles (epilogues, exp, rescale); the
    body reads elements of other tiles with ``tile.elem``.

    Example:
        %p = "tile.map"() ({
          %x = "tile.elem"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<128x64xf32>) -> f32
          %y = "tile.elem"(%m) {map = affine_map<(i, j) -> (i)>} : (tensor<128xf32>) -> f32
          %d = arith.subf %x, %y : f32
          %e = math.exp %d : f32
          "tile.yield"(%e) : (f32) -> ()
        }) : () -> tensor<128x64xf32>
    """

    res: Result[ir.RankedTensorType]
    body: Region
    verify_invariants = verifier(_check_map)


def _enclosing(op, name):
    parent = op.operation.parent
    if parent is None or parent.name != name:
        raise Invalid(f"must be inside a {name} body")
    return parent.opview


def _check_elem(op):
    res = _tile(_enclosing(op, "tile.map").res.type, "enclosing tile.map result")
    src = _tile(op.src.type, "source")
    amap = affine_maps_single(op, "map")
    dims = projected_dims(amap, "tile.elem")
    if amap.n_dims != res.rank or len(dims) != src.rank:
        raise Invalid(f"map must send the {res.rank} dims of the tile.map to the {src.rank} source dims")
    if [res.shape[d] for d in dims] != list(src.shape):
        raise Invalid(f"source shape {src.shape} does not match the map {amap} over {res.shape}")
    if op.res.type != src.element_type:
        raise Invalid("result must be the source's element type")


class ElemOp(Tile.Operation, name="elem"):
    """Inside tile.map: the element of ``src`` at ``map`` of the current position
    (broadcasts: a bias row is ``affine_map<(i, j) -> (j)>``).

    Example:  %x = "tile.elem"(%s) {map = affine_map<(i, j) -> (i)>} : (tensor<128xf32>) -> f32
    """

    src: Operand[ir.RankedTensorType]
    map: ir.AffineMapAttr
    res: Result[Any]
    verify_invariants = verifier(_check_elem)


def _check_gather(op):
    _enclosing(op, "tile.map")
    src, *indices = op.operation.operands
    memref = _memref(src.type, "source", shared=False)
    amap = affine_maps_single(op, "map")
    if amap.n_symbols or amap.n_dims != len(indices) or len(amap.results) != memref.rank:
        raise Invalid(f"map must send the {len(indices)} indices to the {memref.rank} source dims, got {amap}")
    if op.res.type != memref.element_type:
        raise Invalid(f"result must be the source's element type {memref.element_type}")
    if not isinstance(op.attributes["padding"] if "padding" in op.attributes else None, ir.FloatAttr):
        raise Invalid("requires a float attribute 'padding' (the value read outside the tensor)")


class GatherOp(Tile.Operation, name="gather"):
    """Inside tile.map: one element of a global tensor at ``map`` of ``indices`` (any affine
    map, floordiv and mod included: a view, a transpose, RoPE's rotate_half); ``padding``
    where an index falls outside the tensor. The indices are the element's own global
    coordinates, computed in the body.

    Example:
        %x = "tile.gather"(%Q, %b, %t, %d) {map = affine_map<(b, t, d) -> (b, t, (d + 8) mod 16)>,
                                            padding = 0.0 : bf16} : (memref<2x37x16xbf16>, index, index, index) -> bf16
    """

    src: Operand[ir.MemRefType]
    indices: Sequence[Operand[ir.IndexType]]
    map: ir.AffineMapAttr
    padding: ir.FloatAttr
    res: Result[Any]
    verify_invariants = verifier(_check_gather)


def _check_index(op):
    res = _tile(_enclosing(op, "tile.map").res.type, "enclosing tile.map result")
    dim = int_attr(op, "dim")
    if not 0 <= dim < res.rank:
        raise Invalid(f"dim {dim} is out of range for the enclosing tile.map of rank {res.rank}")


class IndexOp(Tile.Operation, name="index"):
    """Inside tile.map: the current position along ``dim`` within the tile (0 .. extent - 1);
    add the tile's offset for the global index (masks such as j <= i).

    Example:  %r = "tile.index"() {dim = 0 : i64} : () -> index
    """

    dim: ir.IntegerAttr
    res: Result[ir.IndexType]
    verify_invariants = verifier(_check_index)


def _check_yield(op):
    _enclosing(op, "tile.map")


class YieldOp(Tile.Operation, name="yield", traits=[ir.IsTerminatorTrait]):
    """Terminates a tile.map body with the result element.

    Example:  "tile.yield"(%v) : (f32) -> ()
    """

    value: Operand[Any]
    verify_invariants = verifier(_check_yield)


def store_parts(op):
    """(value, destination, offsets) of an op that stores a register tile: tile.store, or a
    target's own storing op (its "store-parts" rule, dialects/op_rules.py: sm_90a's tile.tma_store)."""
    own = rule("store-parts", op.operation.name)
    if own is not None:
        return own(op)
    operands = list(op.operation.operands)
    return operands[0], operands[1], operands[2:]


def body_ops(fn) -> list:
    """Every op (an ir.Operation) of tile function ``fn``'s body, the bodies of its loops and of
    the ops whose regions run as threads of control of their own (a "roles" rule,
    dialects/op_rules.py: sm_90a's tile.warp_specialize) included; not tile.map bodies."""
    out = []

    def visit(block):
        for op in block.operations:
            out.append(op.operation)
            if op.operation.name == "scf.for" or rule("roles", op.operation.name) is not None:
                for region in op.operation.regions:
                    visit(region.blocks[0])
    visit(fn.regions[0].blocks[0] if hasattr(fn, "regions") else fn.entry_block)
    return out


def mma_accumulator(op):
    """The accumulator operand of an mma op (``is_mma``): its last (tile.wgmma has a stage before it)."""
    return list(op.operation.operands)[-1]


def is_mma(op) -> bool:
    """Is ``op`` a tensor-core multiply: tile.mma, or a target's own op with an "mma-depth"
    rule (sm_90a's tile.wgmma)?"""
    name = op.operation.name
    return name == "tile.mma" or rule("mma-depth", name) is not None


def holds_mma(fn) -> bool:
    """Does tile function ``fn`` hold an mma (``is_mma``) anywhere in its body?"""
    found = []

    def visit(op):
        found.append(is_mma(op))
        return ir.WalkResult.INTERRUPT if found[-1] else ir.WalkResult.ADVANCE

    fn.operation.walk(visit)
    return any(found)


def mma_depth(op) -> int:
    """The k an mma op sums over: its A tile's columns (tile.mma), or what a target's own op's
    "mma-depth" rule says (sm_90a's tile.wgmma: A's columns, or its rows under transpose_a)."""
    own = rule("mma-depth", op.operation.name)
    if own is not None:
        return own(op)
    return ir.RankedTensorType(op.operation.operands[0].type).shape[1]
