"""tile-warp-specialize for a staged contraction (the contraction matcher's program).

    producer (one thread):  for each k tile kt: wait empty[s], expect the bytes of A's and
                            each B's tile on full[s], start the copy engine on them
    consumers:              for each kt: wait full[s], tile.wgmma (async) per contraction,
                            tile.wgmma_wait {pending = 1}, release the stage before; then the
                            epilogue and the store of the output tile

with the raster, copy offsets, epilogue and store cloned from the staged program. Each role is
written for the CTA's one output tile from ring iteration ``tile.ring_start``: the ring loops
run from it for the tile's k tiles, the copies' k offsets count from it, so tile-persistent can
move a role into a loop over tiles (and tile-pingpong share those among the warpgroups).
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith, scf

from tilec.dialects import PROLOGUE_ATTR, STAGES_ATTR
from tilec.dialects.layout import MmaLayout
from tilec.dialects.schedule import Schedule
from tilec.passes.ta_to_tile import layouts
from tilec.passes.ta_to_tile.common import const_index, constant_tile

from ..clone import Clones
from ..ring import barriers, fill_stage, release_after, ring_slot, specialize, wgmma_wait
from .common import copy_alloc, depends_on, erase_after, erase_unused, first_of, refusal, slice_of, tile_elements

_I64 = lambda: ir.IntegerType.get_signless(64)


@dataclass
class Staged:
    """What the rewrite reads of a staged contraction (the contraction matcher's program)."""

    fn: object
    pid: object            # tile.program_id {axis 0}: the output tile of the CTA
    grid: tuple            # (tiles along M, tiles along N): the raster's extents
    prologue: object       # the scf.for filling the first stages
    loop: object           # the main loop (tile.stages)
    mmas: list             # its tile.mma ops, one per contraction sharing A
    loads: list            # (A's tile.smem_load, B's) of each mma
    copies: list           # the prologue's tile.async_copy ops: A's, then each B's
    store: object          # the tile.store of the result

    @property
    def tile_origin(self) -> tuple:
        """(m0, n0): the output tile's first row and column, as the store reads them."""
        operands = list(self.store.operands)
        return operands[-2], operands[-1]


def read(fn) -> Staged | None:
    """The staged contraction of ``fn``, or None when its main loop multiplies with no tile.mma
    or reduces rows (an online group: attention.py's)."""
    block = fn.regions[0].blocks[0]
    top = list(block.operations)
    loop = next((op for op in top if op.operation.name == "scf.for" and STAGES_ATTR in op.attributes), None)
    if loop is None:
        return None
    body = list(loop.regions[0].blocks[0].operations)
    mmas = [op for op in body if op.operation.name == "tile.mma"]
    if not mmas or any(op.operation.name == "tile.reduce" for op in body):
        return None
    loads = []
    for mma in mmas:
        a, b = (v.owner for v in list(mma.operands)[:2])
        if isinstance(a, ir.Block) or isinstance(b, ir.Block) or \
                {a.operation.name, b.operation.name} != {"tile.smem_load"}:
            raise refusal(fn, "a warp-specialised kernel multiplies its operands as they are stored "
                               "(tile.smem_load), with no map in between")
        loads.append((a, b))
    prologue = first_of(fn, top, lambda op: op.operation.name == "scf.for" and PROLOGUE_ATTR in op.attributes,
                      "a prologue loop (tile.prologue) filling the first stages")
    copies = [op for op in prologue.regions[0].blocks[0].operations if op.operation.name == "tile.async_copy"]
    if [c.operands[len(c.operands) - 2] for c in copies] != [loads[0][0].operands[0]] + [b.operands[0] for _, b in loads]:
        raise refusal(fn, "the prologue copies A's tile, then each B's, into the buffers the mma reads")
    pid = first_of(fn, top, lambda op: op.operation.name == "tile.program_id"
                 and ir.IntegerAttr(op.attributes["axis"]).value == 0, "a tile.program_id {axis = 0}").result
    grid = tuple(op.result for op in top[:top.index(pid.owner)] if op.operation.name == "arith.ceildivsi")
    if len(grid) != 2:
        raise refusal(fn, "the staged program rasters its tiles over two ceil-divided extents")
    store = first_of(fn, top, lambda op: op.operation.name == "tile.store", "a tile.store of the result")
    return Staged(fn, pid, grid, prologue, loop, mmas, loads, copies, store)


def rewrite(g: Staged, s: Schedule) -> None:
    """Replace the staged program of ``g`` by the warp-specialised one (the module docstring)."""
    block = g.fn.regions[0].blocks[0]
    top = [op.operation for op in block.operations]
    old_allocs = [g.loads[0][0].operands[0].owner] + [b.operands[0].owner for _, b in g.loads]
    first_alloc = min(top.index(a.operation) for a in old_allocs)
    # sizes, extents and batch ids are read by every role; the raster (the ops after the program
    # id that the tile's origin needs) is computed in each role, for each of its tiles
    raster = slice_of(top[top.index(g.pid.owner.operation) + 1:first_alloc], g.tile_origin)
    shared = {op for op in top[:first_alloc] if op not in raster and op not in depends_on(top, g.pid)}
    clones = Clones(g.fn, lambda op: op in shared)
    with ir.InsertionPoint(top[first_alloc]), g.fn.location:
        sa = copy_alloc(g.loads[0][0].operands[0], s.stages)
        sbs = [copy_alloc(b.operands[0], s.stages) for _, b in g.loads]
        full = barriers(s.stages, 1)
        empty = barriers(s.stages, s.warps)  # every consumer warp releases a stage
    nk = g.loop.operands[1]  # the staged loop's trip count: ceil(K / bk)
    m0_old, n0_old = g.tile_origin
    element_bytes = 2  # wgmma and the copy engine take 16-bit operands here (Schedule.legal)
    nbytes = sum(tile_elements(a) for a in old_allocs) * element_bytes

    def origin(t) -> Clones:
        """The clones of a role for output tile ``t``, its (m0, n0) brought first: the staged
        program's raster, cloned with pid -> t."""
        role = clones.fresh()
        role.map(g.pid, t)
        role.bring([m0_old, n0_old])
        return role

    def producer(t, first):
        """Wait for each stage's release, expect its bytes, start every copy."""
        here = origin(t)
        loop = scf.ForOp(first, arith.AddIOp(first, nk).result, const_index(1))
        with ir.InsertionPoint(loop.body):
            kt = loop.induction_variable
            stage = fill_stage(kt, s.stages, empty, full, nbytes)
            here.map(g.prologue.induction_variable, arith.SubIOp(kt, first).result)
            offsets = here.bring([v for c in g.copies for v in list(c.operands)[1:-2]])
            for copy, buffer in zip(g.copies, [sa, *sbs]):
                count = len(list(copy.operands)) - 3
                ir.Operation.create("tile.tma_copy", operands=[copy.operands[0], *offsets[:count], buffer, stage, full])
                offsets = offsets[count:]
            scf.YieldOp([])

    def consumer(t, first):
        """Wait for each stage, multiply it, release it; then the epilogue and the store."""
        here = origin(t)
        accs = [ir.RankedTensorType.get(ir.RankedTensorType(m.result.type).shape, ir.F32Type.get()) for m in g.mmas]
        zeros = [constant_tile(acc, 0.0) for acc in accs]
        end = arith.AddIOp(first, nk).result
        loop = scf.ForOp(first, end, const_index(1), zeros)
        loop.attributes[STAGES_ATTR] = ir.IntegerAttr.get(_I64(), s.stages)
        with ir.InsertionPoint(loop.body):
            kt = loop.induction_variable
            stage, parity = ring_slot(kt, s.stages)
            ir.Operation.create("tile.mbarrier_wait", operands=[full, stage, parity])
            results = []
            for mma, (a, b), sb, carried, acc in zip(g.mmas, g.loads, sbs, loop.inner_iter_args, accs):
                attrs = {name: ir.UnitAttr.get() for name, on in (("transpose_a", "transpose" in a.attributes),
                                                                  ("transpose_b", "transpose" in b.attributes)) if on}
                attrs["async"] = ir.UnitAttr.get()
                wgmma = ir.Operation.create("tile.wgmma", results=[acc], operands=[sa, sb, stage, carried],
                                            attributes=attrs)
                wgmma.attributes["tile.computes"] = mma.attributes["tile.computes"]
                results.append(wgmma.result)
            # the previous tile's groups (one per contraction) have finished reading its stage: release that one
            wgmma_wait(len(g.mmas))
            release_after(kt, const_index(1), empty, s.stages, first)
            scf.YieldOp(results)
        wgmma_wait(0)  # the accumulator is complete, and the last stage read
        release_after(end, const_index(1), empty, s.stages, first)
        for old, new in zip(g.loop.results, loop.results):
            here.map(old, new)
        ir.Operation.create("tile.store", operands=here.bring(list(g.store.operands)))  # tile-tma-store may stage it

    with ir.InsertionPoint(g.prologue), g.fn.location:
        spec = specialize(s.consumers, occupancy=s.occupancy)
        for region, role in zip(spec.regions, (producer, consumer)):
            with ir.InsertionPoint(region.blocks.append()):
                role(g.pid, ir.Operation.create("tile.ring_start", results=[ir.IndexType.get()]).result)
    erase_after(spec, block)
    erase_unused(block, old_allocs)
    # warp w (of the warpgroups) holds rows 16w..16w+15: wgmma's accumulator per warpgroup
    layouts.relayout(g.fn, MmaLayout(s.warps, 1, 1))
