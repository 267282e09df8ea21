"""ta-to-tile for a contraction on sm_90a: a warp-specialised TMA + mbarrier + wgmma kernel.

Built when the schedule has consumer warpgroups (``consumers > 0``). One producer thread
keeps ``stages`` k tiles of A and B in flight with the copy engine; the consumer warpgroups
multiply each landed stage with wgmma straight from shared memory and hand it back:

    full[s]   completes when the producer's expected bytes for stage s have landed;
    empty[s]  completes when every consumer warp has released stage s.

The consumers' multiply is asynchronous, one group in flight: iteration kt issues its
wgmma, waits until only that group is pending (``tile.wgmma_wait {pending = 1}``) and then
releases the stage of iteration kt - 1, whose group has finished; after the loop they wait
for the last group and release its stage. So the tensor cores are fed while a stage is
handed back (a release one iteration late needs stages >= 2, which every schedule has).

Iteration kt uses stage kt % stages in round n = kt / stages: the consumers wait for phase
parity n of full[s], the producer for parity n + 1 of empty[s] (the round before; a fresh
barrier passes parity 1 at once). The copy engine zero-fills what lies outside a tensor, so
no size has to divide the tiles; the store is masked as on sm_80.

The operand tiles are placed as the copy engine writes them in its 128-byte swizzle
(``layout.tma_layout``): a K-major tile as one box, an MN-major one as 64-column boxes side
by side. Those layouts are what the wgmma descriptors describe (the emitter derives them).
"""

from torch_mlir import ir
from torch_mlir.dialects import arith, func, scf

from tilec.dialects import PERSISTENT_ATTR, STAGES_ATTR
from tilec.dialects.layout import MmaLayout, tma_layout
from tilec.dialects.schedule import Schedule
from tilec.dialects.tile import layout_attr

from .common import NoTileLowering, SHARED, ceildiv, const_index, constant_tile
from .epilogue import emit_epilogue

PRODUCER_REGISTERS = 40    # the producer thread needs addresses and a loop counter
CONSUMER_REGISTERS = {1: 240, 2: 232, 3: 152}  # 128 x 40 + consumers x 128 x this <= 64K registers
SHARED_SM_REGISTERS = 216  # one consumer warpgroup, two CTAs an SM: 128 x 40 + 128 x this <= 32K


def check_form(g) -> None:
    """What the warp-specialised kernel does not take (yet); the sm_80 form takes all of it."""
    if g.a_prologue is not None or g.b_prologue is not None:
        raise NoTileLowering("a warp-specialised kernel reads its operands as they are stored; "
                             "a prologue map needs consumers=0")
    if len(g.k_group) > 1:
        raise NoTileLowering("a warp-specialised kernel reduces one index; merged reduced indices need consumers=0")


def build(b, g, s, mem: dict, buffers, element, sizes, batch_ids, pid, raster, tiles, numbers: list) -> MmaLayout:
    """The kernel body after the batch ids, at the insertion point: allocations, the
    warp-specialised loop and the epilogue; returns the accumulator's register layout.
    ``buffers``: A, the B of each contraction (several sharing A: SwiGLU's two) and the output
    memrefs; ``sizes``: (M, N, K); ``pid``: program id 0; ``raster(t)``: (row, column) of output
    tile t; ``tiles``: how many there are; ``numbers``: each contraction's place in the ta
    function (provenance). Each stage holds A's k tile and one of each B; each contraction keeps
    its accumulator, and the consumers issue one asynchronous wgmma per contraction.

    Persistent (``s.persistent``): both roles loop over tiles t = pid, pid + C, ... < tiles
    (C CTAs launched, ``tile.num_programs``); tile n of a CTA runs ring iterations
    [n * nk, (n + 1) * nk), so the stages and phases run on across tiles and the producer
    fills the next tile's stages while the consumers store the last one."""
    a, b_mems, out_arg = buffers
    gs = [g, *(g.others or [])]
    _, _, size_k = sizes
    sa = _alloc((s.bk, s.bm) if g.a_trans else (s.bm, s.bk), element, s.stages)
    sbs = [_alloc((s.bn, s.bk) if x.b_trans else (s.bk, s.bn), element, s.stages) for x in gs]
    roles = s.consumers if s.pingpong else 1
    staging = _staging(s, out_arg, roles) if s.tma_store else None
    full = _barriers(s.stages, 1)
    empty = _barriers(s.stages, s.warps // roles)  # every warp of the stage's consumers releases it
    turn = _barriers(roles, s.warps // roles) if roles > 1 else None  # ping-pong: whose turn at the ring
    nk = ceildiv(size_k, const_index(s.bk))
    i64 = ir.IntegerType.get_signless(64)
    spec = specialize(s.consumers, roles, s.occupancy)

    def producer(t, first):
        """Wait for each stage's release, expect its bytes, start both copies."""
        pid_m, pid_n = raster(t)
        m0 = arith.MulIOp(pid_m, const_index(s.bm)).result
        n0 = arith.MulIOp(pid_n, const_index(s.bn)).result
        loop = scf.ForOp(first, arith.AddIOp(first, nk).result, const_index(1))
        with ir.InsertionPoint(loop.body):
            kt = loop.induction_variable
            stage = fill_stage(kt, s.stages, empty, full, (s.bm + len(gs) * s.bn) * s.bk * 2)
            k0 = arith.MulIOp(arith.SubIOp(kt, first).result, const_index(s.bk)).result
            a_off = [batch_ids[g.batch.index(d)] for d in g.a_batch] + ([k0, m0] if g.a_trans else [m0, k0])
            ir.Operation.create("tile.tma_copy", operands=[a, *a_off, sa, stage, full])
            for x, b_mem, sb in zip(gs, b_mems, sbs):
                b_off = [batch_ids[g.batch.index(d)] for d in x.b_batch] + ([n0, k0] if x.b_trans else [k0, n0])
                ir.Operation.create("tile.tma_copy", operands=[b_mem, *b_off, sb, stage, full])
            scf.YieldOp([])

    f32 = ir.F32Type.get()
    acc_type = ir.RankedTensorType.get([s.bm, s.bn], f32)

    def consumer(t, first, nth=None):
        """Wait for each stage, multiply it, release it; then the epilogue and the store.
        Ping-pong (``nth``: this warpgroup, and t as the CTA's n-th tile): its turn at the ring
        first, passed on after the loop."""
        wg = None
        if nth is not None:
            wg, n = nth
            take_turn(turn, wg, roles, n)
        pid_m, pid_n = raster(t)
        m0 = arith.MulIOp(pid_m, const_index(s.bm)).result
        n0 = arith.MulIOp(pid_n, const_index(s.bn)).result
        zeros = [constant_tile(acc_type, 0.0) for _ in gs]
        end = arith.AddIOp(first, nk).result
        loop = scf.ForOp(first, end, const_index(1), zeros)
        loop.attributes[STAGES_ATTR] = ir.IntegerAttr.get(i64, s.stages)
        with ir.InsertionPoint(loop.body):
            kt = loop.induction_variable
            stage, parity = _ring(kt, s.stages)
            ir.Operation.create("tile.mbarrier_wait", operands=[full, stage, parity])
            accs = []
            for x, sb, carried, number in zip(gs, sbs, loop.inner_iter_args, numbers):
                attrs = {name: ir.UnitAttr.get() for name, on in (("transpose_a", g.a_trans),
                                                                  ("transpose_b", x.b_trans)) if on}
                attrs["async"] = ir.UnitAttr.get()
                mma = ir.Operation.create("tile.wgmma", results=[acc_type], operands=[sa, sb, stage, carried],
                                          attributes=attrs)
                mma.attributes["tile.computes"] = ir.IntegerAttr.get(i64, number)
                accs.append(mma.result)
            # the previous tile's groups (one per contraction) have finished reading its stage: release that one
            wgmma_wait(len(gs))
            release_after(kt, const_index(1), empty, s.stages, first)
            scf.YieldOp(accs)
        if wg is not None:  # its last wait on full is behind it: the next warpgroup's waits may start
            nxt = arith.RemSIOp(arith.AddIOp(wg, const_index(1)).result, const_index(roles)).result
            ir.Operation.create("tile.mbarrier_arrive", operands=[turn, nxt])
        wgmma_wait(0)  # the accumulator is complete, and the last stage read
        release_after(end, const_index(1), empty, s.stages, first)
        rank = len(g.batch) + 2
        offsets = {rank - 2: m0, rank - 1: n0, **dict(enumerate(batch_ids))}
        result = emit_epilogue(g, {x.contract.result: r for x, r in zip(gs, loop.results)}, mem, b, offsets,
                               {rank - 2: s.bm, rank - 1: s.bn}, (s.bm, s.bn))
        if staging is None:
            ir.Operation.create("tile.store", operands=[result, out_arg, *batch_ids, m0, n0])
            return
        # through shared memory: warpgroup g of a ping-pong kernel writes its own set of buffers
        first = const_index(0) if wg is None else arith.MulIOp(wg, const_index(Schedule.STORE_BUFFERS)).result
        ir.Operation.create("tile.tma_store", operands=[result, out_arg, *batch_ids, m0, n0, staging, first],
                            attributes={"sets": ir.IntegerAttr.get(i64, roles)})

    for region, role in zip(spec.regions, (producer, consumer)):
        with ir.InsertionPoint(region.blocks.append()):
            share = None
            if roles > 1 and role is consumer:
                share = (ir.Operation.create("tile.warpgroup_id", results=[ir.IndexType.get()]).result, roles)
            _over_tiles(s.persistent, pid, tiles, nk, role, share)
    func.ReturnOp([])
    # warp w (of its warpgroup) holds rows 16w..16w+15: wgmma's accumulator per warpgroup; a
    # ping-pong warpgroup of 128 rows issues a wgmma per 64-row slab, and holds those rows of each
    return MmaLayout(s.warps // roles, 1, s.bm // 64 if roles > 1 else 1)


def take_turn(turn, g, roles: int, n) -> None:
    """Warpgroup ``g`` of ``roles`` waits for its turn at the ring before the CTA's n-th tile:
    until the warpgroup before it (whose arrive after tile n - 1 completes phase (n - 1) div
    roles of turn[g]) has made its last wait on full; tile 0 waits for parity 1, which a fresh
    barrier passes. Parity ((n + roles - 1) div roles + 1) mod 2 is both, with no negative
    division. So every wait on full comes after the waits of every earlier ring iteration, and
    a parity names the phase it means (a warpgroup never waits more than one phase ahead)."""
    w = const_index(roles)
    rounds = arith.DivSIOp(arith.AddIOp(n, const_index(roles - 1)).result, w).result
    parity = arith.RemSIOp(arith.AddIOp(rounds, const_index(1)).result, const_index(2)).result
    ir.Operation.create("tile.mbarrier_wait", operands=[turn, g, parity])


def _over_tiles(persistent: bool, pid, tiles, nk, role, share=None) -> None:
    """``role(t, first)`` for the CTA's output tile t = pid, its ring from iteration 0; or, in a
    persistent kernel, for each t = pid, pid + C, ... < tiles, its ring from (t - pid) / C * nk.
    ``share`` (g, W): warpgroup g of W takes every W-th of those tiles from the g-th,
    t = pid + g C, pid + (g + W) C, ...; its ring still from (t - pid) / C * nk, and
    ``role(t, first, (g, n))`` learns it is the CTA's n-th tile."""
    if not persistent:
        role(pid, const_index(0))
        return
    ctas = ir.Operation.create("tile.num_programs", results=[ir.IndexType.get()],
                               attributes={"axis": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0)}).result
    first, step = pid, ctas
    if share is not None:
        g, roles = share
        first = arith.AddIOp(pid, arith.MulIOp(g, ctas).result).result
        step = arith.MulIOp(const_index(roles), ctas).result
    loop = scf.ForOp(first, tiles, step)
    loop.attributes[PERSISTENT_ATTR] = ir.UnitAttr.get()
    with ir.InsertionPoint(loop.body):
        t = loop.induction_variable
        done = arith.DivSIOp(arith.SubIOp(t, pid).result, ctas).result  # tiles this CTA finished
        if share is None:
            role(t, arith.MulIOp(done, nk).result)
        else:
            role(t, arith.MulIOp(done, nk).result, (share[0], done))
        scf.YieldOp([])


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
    stage, parity = _ring(kt, stages)
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
        stage, _ = _ring(arith.SubIOp(kt, lag).result, stages)
        ir.Operation.create("tile.mbarrier_arrive", operands=[empty, stage])
        scf.YieldOp([])


def _ring(kt, stages: int):
    """(stage, phase parity) of iteration kt in a ring of ``stages``."""
    n = const_index(stages)
    return arith.RemSIOp(kt, n).result, arith.RemSIOp(arith.DivSIOp(kt, n).result, const_index(2)).result


def _alloc(tile, element, stages: int) -> ir.Value:
    layout = tma_layout(tile[0], tile[1], 2)
    t = ir.MemRefType.get([stages, *tile], element, memory_space=ir.IntegerAttr.get(
        ir.IntegerType.get_signless(64), SHARED))
    return ir.Operation.create("tile.alloc", results=[t], attributes={"layout": layout_attr(layout)}).result


def _staging(s, out_arg, sets: int) -> ir.Value:
    """The staging buffers of a tma_store: ``sets`` x two chunks of the stored rows, each one
    128-byte swizzle row (64 columns of a 16-bit output: Schedule.legal refuses others) wide, a
    box the copy engine reads."""
    chunk = Schedule.STORE_CHUNK_BYTES // 2
    return _alloc((s.bm, chunk), ir.MemRefType(out_arg.type).element_type, sets * Schedule.STORE_BUFFERS)


def _barriers(stages: int, arrivals: int) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    t = ir.MemRefType.get([stages], i64, memory_space=ir.IntegerAttr.get(i64, SHARED))
    return ir.Operation.create("tile.mbarrier_alloc", results=[t], attributes={
        "arrivals": ir.IntegerAttr.get(i64, arrivals)}).result


