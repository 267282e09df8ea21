"""tile-warp-specialize: a staged contraction becomes sm_90a's warp-specialised kernel.

    %sa, %sb = tile.alloc (swizzled)                 %sa, %sb = tile.alloc (the copy engine's layout)
    scf.for %i < stages - 1 {tile.prologue}           %full, %empty = tile.mbarrier_alloc
      tile.async_copy A, B -> stage %i                tile.warp_specialize {
    scf.for %kt < nk iter_args(%acc) {tile.stages}     producer: per kt: wait empty[s], expect the
      tile.wait_group; tile.barrier          -->         bytes on full[s], tile.tma_copy A and B
      tile.smem_load %sa, %sb [kt % stages]          }, {
      tile.async_copy A, B -> stage of kt + stages-1   consumers: per kt: wait full[s], tile.wgmma
      %acc = tile.mma                                    (async), tile.wgmma_wait {pending = 1},
    tile.wait_group {pending = 0}                        release the stage before; then the epilogue
    epilogue; tile.store                                 and tile.store
                                                     }

The function's schedule (``tile.schedule``) says how: ``consumers`` warpgroups (and the
register split between them and the producer), ``stages``; ``persistent``: both roles loop over
output tiles t = pid, pid + C, ... with the ring running on across them; ``pingpong``: each
consumer warpgroup takes its own tiles, in turn at the ring (a store through the copy engine,
``tma-store``, is the next pass's: tile_tma_store.py). The consumers' multiply is
asynchronous, one group in flight: iteration kt issues its wgmma, waits until only that group
is pending and releases the stage of iteration kt - 1 (so stages >= 2). The copy engine
zero-fills what lies outside a tensor, so no size has to divide the tiles; the store stays
masked. The epilogue, the output tile's place (the raster) and the copies' offsets are the
staged program's own ops, cloned into the roles.

A function is left as it is when its schedule has no consumer warpgroups (an mma.sync kernel)
or it is specialised already (attention, which its matcher builds so).
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith, scf

from tilec.dialects import PERSISTENT_ATTR, PROLOGUE_ATTR, STAGES_ATTR
from tilec.dialects.layout import MmaLayout
from tilec.dialects.schedule import Schedule
from tilec.dialects.target import target_of
from tilec.dialects.tile import schedule_of, walk_ops
from tilec.passes import PassInfo
from tilec.passes.ta_to_tile import layouts
from tilec.passes.ta_to_tile.common import ceildiv, const_index, constant_tile

from .clone import Clones
from .ring import (barriers, fill_stage, over_tiles, release_after, ring_slot, specialize, take_turn, tma_alloc,
                   wgmma_wait)

_I64 = lambda: ir.IntegerType.get_signless(64)


@dataclass(frozen=True)
class Options:
    pass


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


def run(module, options: Options) -> None:
    for fn in module.regions[0].blocks[0].operations:
        if fn.operation.name != "func.func" or "tile.schedule" not in fn.attributes:
            continue
        s = schedule_of(fn)
        if not s.consumers or any(op.operation.name == "tile.warp_specialize" for op in walk_ops(fn.regions[0].blocks[0])):
            continue  # keep: an mma.sync kernel, or one specialised already
        lacking = target_of(fn).lacks(*s.features())
        if lacking:
            raise _refusal(fn, f"consumers={s.consumers} (a warp-specialised kernel) needs {', '.join(lacking)}, "
                               f"which {target_of(fn).name} does not have")
        staged = read(fn)
        if staged is not None:
            rewrite(staged, s)


def _refusal(fn, message: str) -> ValueError:
    """The pass's error, located at the function it refuses."""
    error = ValueError(f"tile-warp-specialize: {message}")
    error.location = fn.location
    return error


def read(fn) -> Staged | None:
    """The staged contraction of ``fn``, or None when its main loop multiplies with no tile.mma."""
    block = fn.regions[0].blocks[0]
    top = list(block.operations)
    loop = next((op for op in top if op.operation.name == "scf.for" and STAGES_ATTR in op.attributes), None)
    if loop is None:
        return None
    body = list(loop.regions[0].blocks[0].operations)
    mmas = [op for op in body if op.operation.name == "tile.mma"]
    if not mmas:
        return None
    loads = []
    for mma in mmas:
        a, b = (v.owner for v in list(mma.operands)[:2])
        if isinstance(a, ir.Block) or isinstance(b, ir.Block) or \
                {a.operation.name, b.operation.name} != {"tile.smem_load"}:
            raise _refusal(fn, "a warp-specialised kernel multiplies its operands as they are stored "
                               "(tile.smem_load), with no map in between")
        loads.append((a, b))
    prologue = _first(fn, top, lambda op: op.operation.name == "scf.for" and PROLOGUE_ATTR in op.attributes,
                      "a prologue loop (tile.prologue) filling the first stages")
    copies = [op for op in prologue.regions[0].blocks[0].operations if op.operation.name == "tile.async_copy"]
    if [c.operands[len(c.operands) - 2] for c in copies] != [loads[0][0].operands[0]] + [b.operands[0] for _, b in loads]:
        raise _refusal(fn, "the prologue copies A's tile, then each B's, into the buffers the mma reads")
    pid = _first(fn, top, lambda op: op.operation.name == "tile.program_id"
                 and ir.IntegerAttr(op.attributes["axis"]).value == 0, "a tile.program_id {axis = 0}").result
    grid = tuple(op.result for op in top[:top.index(pid.owner)] if op.operation.name == "arith.ceildivsi")
    if len(grid) != 2:
        raise _refusal(fn, "the staged program rasters its tiles over two ceil-divided extents")
    store = _first(fn, top, lambda op: op.operation.name == "tile.store", "a tile.store of the result")
    return Staged(fn, pid, grid, prologue, loop, mmas, loads, copies, store)


def _first(fn, ops: list, wanted, what: str):
    """The first of ``ops`` that is ``wanted``; the pass's error naming ``what`` when none is."""
    found = next((op for op in ops if wanted(op)), None)
    if found is None:
        raise _refusal(fn, f"the staged contraction has no {what}")
    return found


def rewrite(g: Staged, s: Schedule) -> None:
    """Replace the staged program of ``g`` by the warp-specialised one (the module docstring)."""
    block = g.fn.regions[0].blocks[0]
    top = [op.operation for op in block.operations]
    old_allocs = [g.loads[0][0].operands[0].owner] + [b.operands[0].owner for _, b in g.loads]
    first_alloc = min(top.index(a.operation) for a in old_allocs)
    # sizes, extents and batch ids are read by every role; the raster (the ops after the program
    # id that the tile's origin needs) is computed in each role, for each of its tiles
    raster = _slice(top[top.index(g.pid.owner.operation) + 1:first_alloc], g.tile_origin)
    shared = {op for op in top[:first_alloc] if op not in raster and op not in _depends_on(top, g.pid)}
    clones = Clones(g.fn, lambda op: op in shared)
    with ir.InsertionPoint(top[first_alloc]), g.fn.location:
        tiles = arith.MulIOp(*g.grid).result
        sa = _copy_alloc(g.loads[0][0].operands[0], s.stages)
        sbs = [_copy_alloc(b.operands[0], s.stages) for _, b in g.loads]
        roles = s.consumers if s.pingpong else 1
        full = barriers(s.stages, 1)
        empty = barriers(s.stages, s.warps // roles)  # every warp of the stage's consumers releases it
        turn = barriers(roles, s.warps // roles) if roles > 1 else None  # ping-pong: whose turn at the ring
    nk = g.loop.operands[1]  # the staged loop's trip count: ceil(K / bk)
    m0_old, n0_old = g.tile_origin
    element_bytes = 2  # wgmma and the copy engine take 16-bit operands here (Schedule.legal)
    nbytes = sum(_tile_elements(a) for a in old_allocs) * element_bytes

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

    def consumer(t, first, nth=None):
        """Wait for each stage, multiply it, release it; then the epilogue and the store.
        Ping-pong (``nth``: this warpgroup, and t as the CTA's n-th tile): its turn at the ring
        first, passed on after the loop."""
        wg = None
        if nth is not None:
            wg, n = nth
            take_turn(turn, wg, roles, n)
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
        if wg is not None:  # its last wait on full is behind it: the next warpgroup's waits may start
            nxt = arith.RemSIOp(arith.AddIOp(wg, const_index(1)).result, const_index(roles)).result
            ir.Operation.create("tile.mbarrier_arrive", operands=[turn, nxt])
        wgmma_wait(0)  # the accumulator is complete, and the last stage read
        release_after(end, const_index(1), empty, s.stages, first)
        for old, new in zip(g.loop.results, loop.results):
            here.map(old, new)
        ir.Operation.create("tile.store", operands=here.bring(list(g.store.operands)))  # tile-tma-store may stage it

    with ir.InsertionPoint(g.prologue), g.fn.location:
        spec = specialize(s.consumers, roles, s.occupancy)
        for region, role in zip(spec.regions, (producer, consumer)):
            with ir.InsertionPoint(region.blocks.append()):
                share = None
                if roles > 1 and role is consumer:
                    share = (ir.Operation.create("tile.warpgroup_id", results=[ir.IndexType.get()]).result, roles)
                over_tiles(s.persistent, g.pid, tiles, nk, role, share)
    _erase_after(spec, block)
    _erase_unused(block, old_allocs)
    if s.persistent:  # grid x counts the tiles; the launch caps it (tile.num_programs CTAs)
        g.fn.attributes[PERSISTENT_ATTR] = ir.UnitAttr.get()
    # warp w (of its warpgroup) holds rows 16w..16w+15: wgmma's accumulator per warpgroup; a
    # ping-pong warpgroup of 128 rows issues a wgmma per 64-row slab, and holds those rows of each
    layouts.relayout(g.fn, MmaLayout(s.warps // roles, 1, s.bm // 64 if roles > 1 else 1))


def _depends_on(top: list, root) -> set:
    """The ops of ``top`` (one block, in order) that read ``root``, directly or through another."""
    found: set = set()
    reached = {root}
    for op in top:
        inner: list = []
        op.walk(lambda o: (inner.append(o), ir.WalkResult.ADVANCE)[1])
        if any(v in reached for o in inner for v in o.operands):
            found.add(op)
            reached.update(op.results)
    return found


def _slice(ops: list, values) -> set:
    """The ops of ``ops`` (one block, in order) that ``values`` are computed from."""
    wanted = {v for v in values}
    found: set = set()
    for op in reversed(ops):
        if any(r in wanted for r in op.results):
            found.add(op)
            wanted.update(op.operands)
    return found


def _copy_alloc(old, stages: int):
    """The tile.alloc the copy engine fills in place of the staged program's ``old``."""
    t = ir.MemRefType(old.type)
    return tma_alloc(t.shape[1:], t.element_type, stages)


def _tile_elements(alloc) -> int:
    shape = ir.MemRefType(alloc.results[0].type).shape
    return shape[1] * shape[2]


def _erase_after(spec, block) -> None:
    """Erase the staged program after the specialised roles, but the function's return."""
    ops = [op.operation for op in block.operations]
    for op in reversed(ops[ops.index(spec.operation) + 1:-1]):
        op.erase()


def _erase_unused(block, allocs) -> None:
    """Erase the staged program's allocations and the index arithmetic nothing reads any more."""
    for alloc in allocs:
        alloc.operation.erase()
    changed = True
    while changed:
        changed = False
        for op in reversed([op.operation for op in block.operations]):
            if op.name.startswith("arith.") and all(not list(r.uses) for r in op.results):
                op.erase()
                changed = True


PASS = PassInfo("tile-warp-specialize", "a staged contraction as sm_90a's warp-specialised kernel (copy engine, "
                "mbarrier ring, wgmma)", Options, run, __doc__)
