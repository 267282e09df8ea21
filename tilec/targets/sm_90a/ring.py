"""The mbarrier ring of sm_90a's warp-specialised kernels, as builders of tile ops.

One producer thread keeps ``stages`` tiles in flight with the copy engine; the consumer
warpgroups read each landed stage and hand it back:

    full[s]   completes when the producer's expected bytes for stage s have landed;
    empty[s]  completes when every consumer warp has released stage s.

Iteration kt uses stage kt % stages in round n = kt / stages: the consumers wait for phase
parity n of full[s], the producer for parity n + 1 of empty[s] (the round before; a fresh
barrier passes parity 1 at once). A consumer whose multiply is still in flight releases a
stage late (``release_after``). The warp-specialised contraction and attention
(tile_warp_specialize/) are built from these.
"""

from torch_mlir import ir
from torch_mlir.dialects import arith, scf

from tilec.dialects.layout import tma_layout
from tilec.dialects.schedule import Schedule
from tilec.dialects.tile import layout_attr
from tilec.passes.ta_to_tile.common import SHARED, const_index

PRODUCER_REGISTERS = 40    # the producer thread needs addresses and a loop counter
CONSUMER_REGISTERS = {1: 240, 2: 232, 3: 152}  # 128 x 40 + consumers x 128 x this <= 64K registers
SHARED_SM_REGISTERS = 216  # one consumer warpgroup, two CTAs an SM: 128 x 40 + 128 x this <= 32K


def specialize(consumers: int, roles: int = 1, occupancy: int = 1):
    """An empty tile.warp_specialize (producer and consumer regions to fill) with the register
    split for ``consumers`` warpgroups (of CTAs ``occupancy`` to an SM); ``roles`` > 1: each
    warpgroup runs the consumer region on its own."""
    i64 = ir.IntegerType.get_signless(64)
    registers = SHARED_SM_REGISTERS if occupancy > 1 else CONSUMER_REGISTERS[consumers]
    attrs = {"producer_registers": ir.IntegerAttr.get(i64, PRODUCER_REGISTERS),
             "consumer_registers": ir.IntegerAttr.get(i64, registers)}
    if roles > 1:
        attrs["consumer_roles"] = ir.IntegerAttr.get(i64, roles)
    return ir.Operation.create("tile.warp_specialize", regions=2, attributes=attrs)


def fill_stage(kt, stages: int, empty, full, nbytes: int):
    """The producer's iteration kt up to its copies: wait for the stage's release (phase parity
    of the round before: the other one), expect ``nbytes`` on full; returns the stage."""
    stage, parity = ring_slot(kt, stages)
    released = arith.SubIOp(const_index(1), parity).result
    ir.Operation.create("tile.mbarrier_wait", operands=[empty, stage, released])
    ir.Operation.create("tile.mbarrier_expect", operands=[full, stage], attributes={
        "bytes": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), nbytes)})
    return stage


def wgmma_wait(pending: int) -> None:
    """Wait until at most ``pending`` asynchronous wgmma groups are in flight."""
    ir.Operation.create("tile.wgmma_wait", attributes={
        "pending": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), pending)})


def release_after(kt, lag, empty, stages: int, start=None) -> None:
    """If kt >= start + lag, release the stage of iteration kt - lag (each consumer warp
    arrives on empty): the delayed release of a ring whose multiply is still in flight ``lag``
    iterations on; ``start``: the loop's first iteration (None: 0)."""
    bound = lag if start is None else arith.AddIOp(start, lag).result
    after = arith.CmpIOp(arith.CmpIPredicate.sge, kt, bound).result
    guard = scf.IfOp(after)
    with ir.InsertionPoint(guard.then_block):
        stage, _ = ring_slot(arith.SubIOp(kt, lag).result, stages)
        ir.Operation.create("tile.mbarrier_arrive", operands=[empty, stage])
        scf.YieldOp([])


def is_release(op) -> bool:
    """Is ``op`` a release of a stage (``release_after``'s scf.if around an arrival on empty)?"""
    inner: list = []
    op.operation.walk(lambda o: (inner.append(o.name), ir.WalkResult.ADVANCE)[1])
    return op.operation.name == "scf.if" and "tile.mbarrier_arrive" in inner


def ring_slot(kt, stages: int):
    """(stage, phase parity) of iteration kt in a ring of ``stages``."""
    n = const_index(stages)
    return arith.RemSIOp(kt, n).result, arith.RemSIOp(arith.DivSIOp(kt, n).result, const_index(2)).result


def tma_alloc(tile, element, stages: int) -> ir.Value:
    """``stages`` shared tiles of shape ``tile`` (16-bit ``element``) placed as the copy engine
    writes them in its 128-byte swizzle (``layout.tma_layout``): what wgmma descriptors describe."""
    layout = tma_layout(tile[0], tile[1], 2)
    t = ir.MemRefType.get([stages, *tile], element, memory_space=ir.IntegerAttr.get(
        ir.IntegerType.get_signless(64), SHARED))
    return ir.Operation.create("tile.alloc", results=[t], attributes={"layout": layout_attr(layout)}).result


def staging(s, out_arg, sets: int) -> ir.Value:
    """The staging buffers of a tma_store: ``sets`` x two chunks of the stored rows, each one
    128-byte swizzle row (64 columns of a 16-bit output: Schedule.legal refuses others) wide, a
    box the copy engine reads."""
    chunk = Schedule.STORE_CHUNK_BYTES // 2
    return tma_alloc((s.bm, chunk), ir.MemRefType(out_arg.type).element_type, sets * Schedule.STORE_BUFFERS)


def barriers(stages: int, arrivals: int) -> ir.Value:
    """``stages`` mbarriers, each completing a phase after ``arrivals`` arrivals."""
    i64 = ir.IntegerType.get_signless(64)
    t = ir.MemRefType.get([stages], i64, memory_space=ir.IntegerAttr.get(i64, SHARED))
    return ir.Operation.create("tile.mbarrier_alloc", results=[t], attributes={
        "arrivals": ir.IntegerAttr.get(i64, arrivals)}).result


