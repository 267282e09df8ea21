"""ta-to-tile for row programs: reductions along rows and the maps around them (softmax,
logsumexp, layernorm, RMSNorm, any pointwise function of [rows, cols] tensors).

The form, after ta-fuse-reductions: every reduction (ta.online, ta.reduce, a ta.contract
to one value per row) runs over the last index of a [rows, cols] domain; ta.map ops give
a value per row (rank 1) or per element (rank 2). Each CTA owns bm rows:

    for each phase (reductions whose terms read inputs and earlier row values only):
        for each block of bn columns:   load the row block; the terms, masked past the
                                        columns; fold them into the running state
                                        (sum: s + rowsum; max: max(m, rowmax); a sum
                                        stabilised by x: l * exp(m - m') + rowsum(exp(x - m') t))
    the row maps; store the row outputs
    for each block of bn columns:       the element maps on the row block; store

This is ta.online's own recurrence (dialects/ta_online.py), one tile of columns at a
time; the layouts pass gives the tiles a blocked layout: a warp per row, 16-byte loads.

When the column count is static and one block holds it (cols <= bn), there are no column
loops: each input's row block is loaded once and every phase and element map reads it, so
the row crosses global memory once. Each reduction then folds its one block into its neutral
state in straight-line code; the state tiles carry ``tile.state`` = [ta op, slot] (and their
neutral starts ``tile.state_init``), the provenance a reduction loop's ``tile.computes`` gives.
"""

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith, func, scf

from tilec.dialects import ta_builders as tb
from tilec.dialects.layout import blocked_for
from tilec.dialects.schedule import Schedule
from tilec.dialects.ta import tensor_dims
from tilec.dialects.ta_online import centred_parts, moment
from tilec.dialects.tile import schedule_attr

from .._loops import positions
from .bodies import translate
from .common import NoTileLowering, ceildiv, check_schedule, const_index
from .epilogue import _clone_constants
from .rows_fold import Folds, is_stabilised
from tilec.dialects.dims import binary, const, parse_dim
from ..ta_to_loops import new_signature

_REDUCTIONS = ("ta.online", "ta.reduce", "ta.contract")
DEFAULT = Schedule(bm=8, bn=256, warps=4)


@dataclass
class RowProgram:
    domain: list          # [rows, cols] dim expressions
    reductions: list      # ta ops reducing cols, in order
    row_maps: list        # rank-1 ta.map ops
    elem_maps: list       # rank-2 ta.map ops
    returned: list


def match(fn) -> RowProgram:
    """The row program of ``fn``; NoTileLowering names the op that does not fit."""
    ops = [op for op in fn.entry_block.operations if op.operation.name not in ("arith.constant", "func.return")]
    returned = list(list(fn.entry_block.operations)[-1].operation.operands)
    domains = {tuple(str(d) for d in tensor_dims(a.type)) for a in fn.arguments if ir.RankedTensorType(a.type).rank == 2}
    domains |= {tuple(str(d) for d in tensor_dims(op.result.type)) for op in ops
                if ir.RankedTensorType(op.result.type).rank == 2}
    reductions = [op for op in ops if op.operation.name in _REDUCTIONS]
    for op in reductions:
        domains.add(tuple(_reduction_domain(op)))
    if len(domains) != 1:
        raise NoTileLowering(f"a row program ranges over one [rows, cols] domain; this function has "
                             f"{len(domains) or 'no'} ({', '.join(map(str, sorted(domains)))})")
    domain = list(next(iter(domains)))
    for op in ops:
        if op.operation.name not in _REDUCTIONS + ("ta.map",):
            raise NoTileLowering(f"'{op.operation.name}' has no row-program form")
        if ir.RankedTensorType(op.result.type).rank not in (1, 2):
            raise NoTileLowering("a row program's values are one per row or one per element")
    maps = [op for op in ops if op.operation.name == "ta.map"]
    return RowProgram(domain, reductions, [m for m in maps if ir.RankedTensorType(m.result.type).rank == 1],
                      [m for m in maps if ir.RankedTensorType(m.result.type).rank == 2], returned)


def _reduction_domain(op) -> list:
    """The [rows, cols] domain of a reduction over cols; NoTileLowering for any other reduction."""
    name = op.operation.name
    if name == "ta.online":
        extents = [ir.StringAttr(e).value for e in ir.ArrayAttr(op.attributes["extents"])]
        if len(extents) != 2 or ir.IntegerAttr(op.attributes["dim"]).value != 1:
            raise NoTileLowering("a row program's online reductions run over the last of two indices")
        return extents
    if name == "ta.reduce":
        dims = [ir.IntegerAttr(d).value for d in ir.ArrayAttr(op.attributes["dims"])]
        src = op.operation.operands[0]
        if ir.RankedTensorType(src.type).rank != 2 or dims != [1]:
            raise NoTileLowering("a row program reduces the last index of a [rows, cols] tensor")
        return [str(d) for d in tensor_dims(src.type)]
    maps = [positions(ir.AffineMapAttr(m).value) for m in ir.ArrayAttr(op.attributes["maps"])]
    if maps != [[0, 1], [0, 1], [0]]:
        raise NoTileLowering("a contraction in a row program sums the products of two [rows, cols] tensors")
    return [str(d) for d in tensor_dims(op.operation.operands[0].type)]


def lower(fn, prog: RowProgram, s):
    """Replace ``fn`` by the row program's tile function under the schedule ``s``."""
    inputs = list(fn.arguments)
    element_bytes = min((ir.RankedTensorType(a.type).element_type.width // 8 for a in inputs
                         if ir.RankedTensorType(a.type).rank == 2), default=4)
    if s == Schedule():  # no schedule given: the row program's own default
        s = default_schedule(_static_cols(fn), element_bytes, any(is_stabilised(op) for op in prog.reductions),
                             any(ir.RankedTensorType(v.type).rank == 2 for v in prog.returned))
    check_schedule(s, "rows", {}, fn)
    new, b, args = new_signature(fn)
    mem = dict(zip(inputs, args))
    outs = args[len(inputs):len(inputs) + len(prog.returned)]
    if len(set(prog.returned)) != len(prog.returned) or any(v in mem for v in prog.returned):
        raise NoTileLowering("each output of a row program is its own computed value")
    low = _Lowering(fn, prog, s, b, mem)
    with ir.InsertionPoint(new.entry_block), fn.location:
        low.build(outs)
        func.ReturnOp([])
    grid_x = binary("/", binary("+", parse_dim(prog.domain[0]), const(s.bm - 1)), const(s.bm))
    new.attributes["tile.schedule"] = schedule_attr(s)
    new.attributes["tile.grid"] = ir.ArrayAttr.get([ir.StringAttr.get(str(grid_x)), ir.StringAttr.get("1")])
    new.attributes["tile.threads"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), s.threads)
    fn.operation.erase()
    return new, blocked_for(s.bn, element_bytes, s.warps, s.bm)


def default_schedule(cols, element_bytes: int, stabilised: bool = False, elementwise: bool = True) -> Schedule:
    """Without a schedule: where the types fix a row of at most ``MAX_ROW_BLOCK`` columns, one
    column block holding it (the row read once; a multiple of a warp's 16-byte vectors, so no
    lane idles past the mask more than one vector); else DEFAULT's 256-column blocks (a warp per
    row). Rows of up to WARP_ROW columns (and no stabilised sum: see below) stay in one warp,
    two rows a warp where they fit the 64 elements a lane holds (bn <= 1024), else one. Wider
    rows, and a stabilised sum's over WIDE_STABILISED columns, are one a CTA, shared by as many
    warps as give each lane WIDE_LANE_ELEMENTS of them (4 to 16 warps), where the program has
    element outputs; a program of row values alone reads each row once in column blocks too,
    and keeps them there.

    Measured on the H200 (bench/results/rows-h200-2026-12-02-one-block.json and the blocks in
    pytorch-h200-2026-12-02-blocks-one-block-rows.json): one block took Llama's residual +
    RMSNorm from 0.079 to 0.040 ms and GPT-2's LayerNorm at T = 4k from 0.039 to 0.033, and a
    standalone RMSNorm at C = 768 from 3074 to 3295 GB/s; a softmax, whose exponentials stay
    live beside the row (168 registers at bn = 1024, a warp a row), fell from 2628 to 2007
    GB/s, so a stabilised sum over a row a warp would hold keeps the column loops. The rows
    shared by warps: bench/results/rows-h100-2026-12-07-run{1,2}.json (docs/benchmarks.md)."""
    if cols is None or cols > Schedule.MAX_ROW_BLOCK:
        return DEFAULT
    granule = 32 * (16 // element_bytes)  # a warp's 16-byte vectors
    if cols > WARP_ROW or stabilised and cols > WIDE_STABILISED:
        if not elementwise:
            return DEFAULT
        warps = min(16, max(4, -(-cols // (32 * WIDE_LANE_ELEMENTS))))
        warps = 1 << (warps - 1).bit_length()  # 4, 8 or 16
        return Schedule(bm=1, bn=-(-cols // (granule * warps)) * granule * warps, warps=warps)
    if stabilised:
        return DEFAULT
    bn = -(-cols // granule) * granule if cols >= granule else max(32, 1 << (cols - 1).bit_length())
    rows = 2 if 2 * (bn // 32) <= 64 else 1  # rows a warp; a lane holds bn / 32 elements of each
    return Schedule(bm=DEFAULT.warps * rows, bn=bn, warps=DEFAULT.warps)


WARP_ROW = 2048         # the widest row one warp holds (64 elements a lane)
WIDE_STABILISED = 1024  # a stabilised sum over a wider row: warps share it
WIDE_LANE_ELEMENTS = 32  # a lane's part of a row its warps share


class _Lowering(Folds):
    """Builds the tile function; ``rows`` maps ta values to [bm] tiles of the CTA's rows."""

    def __init__(self, fn, prog: RowProgram, s, b, mem):
        self.fn, self.prog, self.s, self.b, self.mem = fn, prog, s, b, mem
        self.rows: dict = {}
        # provenance: the position of each ta op in the function, which the verifier reads back
        self.number = {op.operation: n for n, op in enumerate(fn.entry_block.operations)}
        f32 = ir.F32Type.get()
        self.f32 = f32

    def build(self, outs) -> None:
        """The whole program: reduction phases, row maps and stores, then the element loop."""
        s, prog = self.s, self.prog
        self.scalars = _clone_constants(self.fn.entry_block)
        pid = ir.Operation.create("tile.program_id", results=[ir.IndexType.get()], attributes={
            "axis": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0)}).result
        self.r0 = arith.MulIOp(pid, const_index(s.bm)).result
        self.n_cols = self.b.dim(parse_dim(prog.domain[1]))
        self.n_blocks = ceildiv(self.n_cols, const_index(s.bn))
        self.map_op = None
        cols = _static_cols(self.fn)
        # (j0, loads, elems) of the one column block every phase reads, when a block holds the row
        self.block = (const_index(0), {}, {}) if cols is not None and cols <= s.bn else None
        pending, maps = list(prog.reductions), list(prog.row_maps)
        while pending or maps:
            ready = _held_back(pending, [op for op in pending if _row_reads(op) <= set(self.rows)])
            if ready:
                (self.reduction_block if self.block else self.reduction_loop)(ready)
                pending = [op for op in pending if op not in ready]
            computable = [op for op in maps if _row_reads(op) <= set(self.rows)]
            for op in computable:  # in program order, so a map may read the one before
                if _row_reads(op) <= set(self.rows):
                    self.row_value(op)
            maps = [op for op in maps if op not in computable]
            if not ready and not computable:
                raise NoTileLowering("a reduction reads a row value that depends on itself")
        for value, out in zip(prog.returned, outs):
            if ir.RankedTensorType(value.type).rank == 1:
                ir.Operation.create("tile.store", operands=[self.rows[value], out, self.r0])
        elem_outputs = [(v, o) for v, o in zip(prog.returned, outs) if ir.RankedTensorType(v.type).rank == 2]
        if elem_outputs and self.block:
            self.store_elements(elem_outputs, *self.block)
        elif elem_outputs:
            loop = scf.ForOp(const_index(0), self.n_blocks, const_index(1))
            with ir.InsertionPoint(loop.body):
                j0 = arith.MulIOp(loop.induction_variable, const_index(s.bn)).result
                self.store_elements(elem_outputs, j0, {}, {})
                scf.YieldOp([])

    def store_elements(self, outputs, j0, loads, elems) -> None:
        """The element outputs on the column block at ``j0``, each stored."""
        for value, out in outputs:
            tile = self.elem_value(value, j0, loads, elems)
            ir.Operation.create("tile.store", operands=[tile, out, self.r0, j0])

    def row_value(self, op) -> None:
        """The [bm] tile of a rank-1 ta.map."""
        block = op.regions[0].blocks[0]
        element = ir.RankedTensorType(op.result.type).element_type
        self.rows[op.result] = self.tile_map([self.s.bm], element,
                                             lambda: self.translate(block, [self.s.bm], None, {}, {})[0])
        _provenance(self.rows[op.result], self.number[op.operation])

    # -- reading ta values as tiles ----------------------------------------------------------
    def _operand(self, src, dims, shape, j0, loads, elems):
        """(tile, elem map) for ``ta.at(src)`` at ``dims`` inside a map over ``shape``."""
        rank = len(shape)
        if src in self.rows:
            if dims != [0]:
                raise NoTileLowering("a value per row is read at the row index")
            return self.rows[src], tb.projection(rank, [0])
        if src in elems or _is_elem_map(src):
            if dims != [0, 1]:  # a value per element is held at its own [row, col] only
                raise NoTileLowering(f"a value per element is read at {dims}: a row program reads it "
                                     f"at its own [row, column]")
            return self.elem_value(src, j0, loads, elems), tb.projection(rank, dims)
        if src not in self.mem:
            raise NoTileLowering("a row program reads inputs, row values and earlier element values only")
        key = (src, tuple(dims))
        if key not in loads:
            if rank == 1 and 1 in dims or sorted(set(dims)) != dims:
                raise NoTileLowering(f"input '{src.get_name()}' read at {dims}: a row program reads inputs "
                                     f"in index order, columns only inside a column loop")
            extents = [self.s.bm if d == 0 else self.s.bn for d in dims]
            element = ir.RankedTensorType(src.type).element_type
            offsets = [self.r0 if d == 0 else j0 for d in dims]
            loads[key] = ir.Operation.create("tile.load", results=[ir.RankedTensorType.get(extents, element)],
                                             operands=[self.mem[src], *offsets],
                                             attributes={"padding": ir.FloatAttr.get(element, 0.0)}).result
        return loads[key], tb.projection(rank, dims)

    def translate(self, block, shape, j0, loads, elems) -> list:
        """The yielded scalars of ta body ``block`` rebuilt inside the current tile.map body."""
        def read(inner):
            dims = positions(ir.AffineMapAttr(inner.attributes["map"]).value)
            with ir.InsertionPoint(self.map_op):
                tile, emap = self._operand(inner.operation.operands[0], dims, shape, j0, loads, elems)
            return ir.Operation.create("tile.elem", results=[inner.result.type], operands=[tile],
                                       attributes={"map": ir.AffineMapAttr.get(emap)}).result

        def index(d):
            return arith.AddIOp(self.r0 if d == 0 else j0, _tile_index(d)).result

        return translate(block.operations, self.b.params, self.scalars.__getitem__, read, index)

    def tile_map(self, shape, element, build):
        """A tile.map over ``shape`` whose body ``build()`` returns the yielded scalar."""
        op = ir.Operation.create("tile.map", results=[ir.RankedTensorType.get(shape, element)], regions=1)
        saved, self.map_op = getattr(self, "map_op", None), op
        with ir.InsertionPoint(op.regions[0].blocks.append()):
            ir.Operation.create("tile.yield", operands=[build()])
        self.map_op = saved
        return op.result

    def elem_value(self, value, j0, loads, elems):
        """The [bm, bn] tile of a rank-2 ta.map result on the current column block (built once per block)."""
        if value not in elems:
            op = value.owner
            shape = [self.s.bm, self.s.bn]
            if self.map_op is not None:  # inside another map's body: build before that map
                with ir.InsertionPoint(self.map_op):
                    elems[value] = self._elem_map(op, shape, j0, loads, elems)
            else:
                elems[value] = self._elem_map(op, shape, j0, loads, elems)
        return elems[value]

    def _elem_map(self, op, shape, j0, loads, elems):
        block = op.regions[0].blocks[0]
        element = ir.RankedTensorType(op.result.type).element_type
        tile = self.tile_map(shape, element, lambda: self.translate(block, shape, j0, loads, elems)[0])
        _provenance(tile, self.number[op.operation])
        return tile

    def inside(self, j0) -> ir.Value:
        """In a [bm, bn] map body: is this element's column inside the tensor?"""
        col = arith.AddIOp(j0, _tile_index(1)).result
        return arith.CmpIOp(arith.CmpIPredicate.slt, col, self.n_cols).result

    def masked(self, value, j0, neutral: float):
        return arith.SelectOp(self.inside(j0), value, arith.ConstantOp(value.type, neutral).result).result

    def _read(self, value, dims, shape, j0, loads, elems):
        with ir.InsertionPoint(self.map_op):
            tile, emap = self._operand(value, dims, shape, j0, loads, elems)
        return ir.Operation.create("tile.elem", results=[ir.RankedTensorType(value.type).element_type],
                                   operands=[tile], attributes={"map": ir.AffineMapAttr.get(emap)}).result

    def elem(self, tile, rank: int = 1, dims=None):
        """Inside a map of ``rank``: the element of ``tile`` (all dims, or ``dims``)."""
        dims = list(range(rank)) if dims is None else dims
        return ir.Operation.create("tile.elem", results=[ir.RankedTensorType(tile.type).element_type],
                                   operands=[tile], attributes={"map": ir.AffineMapAttr.get(
                                       tb.projection(rank, dims))}).result

    def row_map(self, build):
        return self.tile_map([self.s.bm], self.f32, build)

    def constant(self, shape, value: float):
        return self.tile_map(shape, self.f32, lambda: arith.ConstantOp(self.f32, value).result)


def _static_cols(fn):
    """The column count of a row program where its types fix it, else None."""
    values = list(fn.arguments) + [r for op in fn.entry_block.operations for r in op.operation.results]
    for v in values:
        t = v.type
        if isinstance(t, ir.RankedTensorType) and t.rank == 2 and not t.is_dynamic_dim(1):
            return t.shape[1]
    return None


def _tile_index(dim: int) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    return ir.Operation.create("tile.index", results=[ir.IndexType.get()],
                               attributes={"dim": ir.IntegerAttr.get(i64, dim)}).result


def _is_elem_map(value) -> bool:
    owner = value.owner
    return not isinstance(owner, ir.Block) and owner.name == "ta.map" and ir.RankedTensorType(value.type).rank == 2


def _row_reads(op) -> set:
    """The computed rank-1 values ``op`` reads (directly or through the element maps it reads)."""
    found, stack, seen = set(), [op], set()
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        operands = list(current.operation.operands)
        for region in current.operation.regions:
            for inner in region.blocks[0].operations:
                operands += list(inner.operation.operands)
        for v in operands:
            owner = v.owner
            if isinstance(owner, ir.Block) or not isinstance(v.type, ir.RankedTensorType):
                continue
            if owner.operation.block != op.operation.block:
                continue
            if ir.RankedTensorType(v.type).rank == 1:
                found.add(v)
            elif owner.name == "ta.map":
                stack.append(owner.opview if hasattr(owner, "opview") else owner)
    return found


def _held_back(pending: list, ready: list) -> list:
    """``ready`` less the sums a centred sum still waiting reads: its step needs their block
    reductions, so they are folded in its pass."""
    waiting = [op for op in pending if op not in ready and moment(op)]
    held = {part.operation for op in waiting for part in centred_parts(op, pending).values()}
    return [op for op in ready if op.operation not in held]


def _provenance(tile, number: int) -> None:
    """Mark the tile.map computing ta op ``number`` (translation validation pairs them)."""
    tile.owner.attributes["tile.computes"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), number)
