"""tile-warp-specialize for a staged attention kernel (the online matcher's program).

    producer (one thread):  Q -> shared once, on its own mbarrier q[0];
                            for each key block kt: wait empty[s], expect the K and V bytes
                            on full[s], start the copy engine on K and V
    consumers:              wait q[0]; for each key block kt: wait full[s];
                            S = Q·Kᵀ (wgmma, both from shared memory; it waits for every
                            wgmma group, the block before's P·V too);
                            release the block before's stage on empty[s];
                            the stabiliser and the online step on S in registers;
                            acc = acc·c + P·V (wgmma, P from registers, V from shared
                            memory), issued and left in flight;
                            after the loop: wait for the last P·V, release its stage,
                            then the epilogue and the store
                            (with three consumer warpgroups P·V completes in its block,
                            which releases its own stage: no register is left for more)

The stabiliser, the online step, the epilogue and the copies' offsets are the staged
program's own ops, cloned into the roles in their order, its mma ops becoming wgmma ones. A
ping-pong schedule's turns at the tensor cores are tile-pingpong's to add. The copy engine
zero-fills keys past the end of the sequence; the stabiliser masks them to -inf as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith, scf

from tilec.dialects import PROLOGUE_ATTR, STAGES_ATTR
from tilec.dialects.schedule import Schedule
from tilec.passes.ta_to_tile import layouts
from tilec.passes.ta_to_tile.common import const_index

from ..clone import Clones
from ..ring import barriers, fill_stage, release_after, ring_slot, specialize, wgmma_wait
from .common import copy_alloc, erase_after, erase_unused, first_of, refusal, slice_of

_I64 = lambda: ir.IntegerType.get_signless(64)


@dataclass
class StagedAttention:
    """What the rewrite reads of a staged attention kernel."""

    fn: object
    q_copy: object         # the tile.async_copy of Q's tile, before the prologue
    prologue: object       # the scf.for filling the first stages with K and V blocks
    kv_copies: list        # its copies: K's, then V's
    loop: object           # the key loop (tile.stages), carrying the online state
    scores: object         # its first tile.mma: S = Q·Kᵀ from shared tiles
    loads: tuple           # the tile.smem_load of Q, K, V
    store: object          # the tile.store of the output tile


def read(fn) -> StagedAttention | None:
    """The staged attention of ``fn``, or None when its main loop reduces no rows (a contraction)."""
    top = list(fn.regions[0].blocks[0].operations)
    loop = next((op for op in top if op.operation.name == "scf.for" and STAGES_ATTR in op.attributes), None)
    if loop is None:
        return None
    body = list(loop.regions[0].blocks[0].operations)
    if not any(op.operation.name == "tile.reduce" for op in body):
        return None
    mmas = [op for op in body if op.operation.name == "tile.mma"]
    loads = [op for op in body if op.operation.name == "tile.smem_load"]
    if not mmas or len(loads) != 3 or [v.owner for v in list(mmas[0].operands)[:2]] != loads[:2] or \
            any(op.operands[1] != loads[2].result for op in mmas[1:]):
        raise refusal(fn, "the staged attention multiplies Q·Kᵀ from shared tiles, then P·V with V's")
    prologue = first_of(fn, top, lambda op: op.operation.name == "scf.for" and PROLOGUE_ATTR in op.attributes,
                        "a prologue loop (tile.prologue) filling the first stages")
    kv = [op for op in prologue.regions[0].blocks[0].operations if op.operation.name == "tile.async_copy"]
    q_copy = first_of(fn, top, lambda op: op.operation.name == "tile.async_copy", "a copy of Q's tile")
    if [c.operands[len(c.operands) - 2] for c in [q_copy, *kv]] != [load.operands[0] for load in loads]:
        raise refusal(fn, "the staged attention copies Q once, then K's and V's blocks, into the tiles it loads")
    store = first_of(fn, top, lambda op: op.operation.name == "tile.store", "a tile.store of the result")
    return StagedAttention(fn, q_copy, prologue, kv, loop, mmas[0], tuple(loads), store)


def rewrite(g: StagedAttention, s: Schedule) -> None:
    """Replace the staged program of ``g`` by the warp-specialised one (the module docstring)."""
    block = g.fn.regions[0].blocks[0]
    top = [op.operation for op in block.operations]
    old_allocs = [load.operands[0].owner for load in g.loads]
    first_alloc = top[min(top.index(a.operation) for a in old_allocs)]
    # Q's offsets are computed before the tiles, every role reading them
    q_offsets = list(g.q_copy.operands)[1:-2]
    for op in sorted(slice_of(top[top.index(first_alloc):top.index(g.q_copy.operation)], q_offsets), key=top.index):
        op.move_before(first_alloc)
    top = [op.operation for op in block.operations]
    shared = set(top[:top.index(first_alloc)])
    clones = Clones(g.fn, lambda op: op in shared)
    n_blocks = g.loop.operands[1]
    qk, hd = (ir.MemRefType(a.results[0].type).shape[2] for a in old_allocs[::2])
    with ir.InsertionPoint(first_alloc), g.fn.location:
        sq, sk, sv = (copy_alloc(a.results[0], n) for a, n in zip(old_allocs, (1, s.stages, s.stages)))
        q_bar = barriers(1, 1)
        full = barriers(s.stages, 1)
        empty = barriers(s.stages, s.warps)  # every consumer warp releases a stage
    with ir.InsertionPoint(g.q_copy), g.fn.location:
        zero = const_index(0)
        spec = specialize(s.consumers, occupancy=s.occupancy)
        with ir.InsertionPoint(spec.regions[0].blocks.append()):
            _producer(g, s, clones.fresh(), (sq, sk, sv), (q_bar, full, empty), n_blocks, zero, qk + hd)
        with ir.InsertionPoint(spec.regions[1].blocks.append()):
            _consumers(g, s, clones.fresh(), (sq, sk, sv), (q_bar, full, empty), n_blocks, zero)
    erase_after(spec, block)
    erase_unused(block, old_allocs)
    layouts.relayout(g.fn, layouts.mma_parent(g.fn, s.warps))


def _producer(g, s, here, tiles, rings, n_blocks, zero, row_elements: int) -> None:
    """Q once; then per key block wait for the stage's release, expect, copy K and V."""
    sq, sk, sv = tiles
    q_bar, full, empty = rings
    ir.Operation.create("tile.mbarrier_expect", operands=[q_bar, zero], attributes={
        "bytes": ir.IntegerAttr.get(_I64(), s.bm * ir.MemRefType(sq.type).shape[2] * 2)})
    q = list(g.q_copy.operands)
    ir.Operation.create("tile.tma_copy", operands=[q[0], *q[1:-2], sq, zero, q_bar])
    loop = scf.ForOp(const_index(0), n_blocks, const_index(1))
    with ir.InsertionPoint(loop.body):
        kt = loop.induction_variable
        stage = fill_stage(kt, s.stages, empty, full, s.bn * row_elements * 2)
        here.map(g.prologue.induction_variable, kt)
        offsets = here.bring([v for c in g.kv_copies for v in list(c.operands)[1:-2]])
        for copy, buffer in zip(g.kv_copies, (sk, sv)):
            count = len(list(copy.operands)) - 3
            ir.Operation.create("tile.tma_copy", operands=[copy.operands[0], *offsets[:count], buffer, stage, full])
            offsets = offsets[count:]
        scf.YieldOp([])


def _consumers(g, s, here, tiles, rings, n_blocks, zero) -> None:
    """Q has landed; per key block wait for K and V, the online step, release; the epilogue."""
    sq, sk, sv = tiles
    q_bar, full, empty = rings
    # P·V left in flight into the next block pays with one or two consumer warpgroups; three have
    # 152 registers a thread, and there it measured 5-13% slower (docs/benchmarks.md)
    overlap = s.consumers < 3
    ir.Operation.create("tile.mbarrier_wait", operands=[q_bar, zero, zero])
    init = here.bring(list(g.loop.operands)[3:])
    loop = scf.ForOp(const_index(0), n_blocks, const_index(1), init)
    for name in (STAGES_ATTR, "tile.computes"):
        loop.attributes[name] = g.loop.attributes[name]
    old = g.loop.regions[0].blocks[0]
    with ir.InsertionPoint(loop.body):
        kt = loop.induction_variable
        here.map(old.arguments[0], kt)
        for staged, carried in zip(list(old.arguments)[1:], loop.inner_iter_args):
            here.map(staged, carried)
        stage, parity = ring_slot(kt, s.stages)
        ir.Operation.create("tile.mbarrier_wait", operands=[full, stage, parity])
        # Q·Kᵀ, complete when it returns: so is the block before's P·V, whose stage goes back
        scores = _scores(g, here, sq, sk, stage)
        here.map(g.scores.result, scores)
        if overlap:
            release_after(kt, const_index(1), empty, s.stages)
        ops = [op for op in old.operations]
        for op in ops[ops.index(g.scores) + 1:-1]:  # the stabiliser and the online step
            if op.operation.name != "tile.mma":
                here.copy(op)
                continue
            p, acc = here.bring([op.operands[0], op.operands[2]])  # V: the shared tile at the stage
            here.map(op.result, wgmma(p, sv, stage, acc, asynchronous=overlap))
        if not overlap:
            ir.Operation.create("tile.mbarrier_arrive", operands=[empty, stage])
        scf.YieldOp(here.bring(list(ops[-1].operands)))
    if overlap:
        wgmma_wait(0)  # the last block's P·V
        release_after(n_blocks, const_index(1), empty, s.stages)
    for staged, result in zip(g.loop.results, loop.results):
        here.map(staged, result)
    ir.Operation.create("tile.store", operands=here.bring(list(g.store.operands)))  # tile-tma-store may stage it


def _scores(g, here, sq, sk, stage, asynchronous: bool = False):
    """S = Q·Kᵀ by tile.wgmma from the shared tiles at ``stage``, from the staged program's zero tile."""
    (start,) = here.bring([g.scores.operands[2]])
    return wgmma(sq, sk, stage, start, asynchronous=asynchronous,
                  transpose_b="transpose" in g.loads[1].attributes)


def wgmma(a, b, stage, acc, asynchronous: bool = False, transpose_b: bool = False):
    """acc + a · b[stage] by tile.wgmma (a: a shared tile read at the stage, or a register tile)."""
    attrs = {name: ir.UnitAttr.get() for name, on in (("transpose_b", transpose_b), ("async", asynchronous)) if on}
    return ir.Operation.create("tile.wgmma", results=[ir.RankedTensorType.get(
        ir.RankedTensorType(acc.type).shape, ir.RankedTensorType(acc.type).element_type)],
        operands=[a, b, stage, acc], attributes=attrs).result
