"""ta-to-tile for fused attention on sm_90a with the key loop rotated (``softmax_overlap``).

The warp-specialised attention kernel is sm_90a's pass (tilec/targets/sm_90a/tile_warp_specialize/
attention.py), from the staged program online.py builds; its rotated form is still built here,
from the same AttentionBody pieces (stabiliser, softmax step, rescale, epilogue, store):

    producer (one thread):  Q -> shared once, on its own mbarrier q[0];
                            for each key block kt: wait empty[s], expect the K and V bytes
                            on full[s], start the copy engine on K and V
    consumers:              block 0's scores and softmax before the loop; then per block kt
                            its Q·Kᵀ and block kt - 1's P·V issued together, the softmax of
                            kt while that P·V is in flight (FlashAttention-3's intra-warpgroup
                            overlap); the last block's P·V after the loop

The stage ring is tilec/targets/sm_90a/ring.py's (stage kt % stages, phase kt / stages). Q, K and V
are placed as the copy engine writes them in its 128-byte swizzle (``tma_layout``), which
is what the wgmma descriptors describe. Q, K and V stored [B, S, H, D] are copied from their
row-major views [B, S, H*D] (views.py), a box at columns h*D..: the tensor maps are the views'. The copy engine zero-fills keys past the end of the
sequence; the stabiliser masks them to -inf as on sm_80.
"""

from torch_mlir import ir
from torch_mlir.dialects import arith, scf

from .common import NoTileLowering, const_index
from tilec.targets.sm_90a.ring import (barriers as _barriers, fill_stage, release_after, ring_slot as _ring,
                                       specialize, tma_alloc as _alloc, wgmma_wait)

_I64 = lambda: ir.IntegerType.get_signless(64)


class Shared:
    """A shared operand of a wgmma inside the loop: ``buffer`` at ``stage``; a wgmma reading
    it as B is ``asynchronous`` (issued, waited for later) or complete when it returns."""

    def __init__(self, buffer, stage, asynchronous: bool = False):
        self.buffer, self.stage, self.asynchronous = buffer, stage, asynchronous


def wgmma(a, b: Shared, acc, **flags):
    """acc + a · b by tile.wgmma (a: a register tile, or a Shared read at b's stage)."""
    a_value = a.buffer if isinstance(a, Shared) else a
    flags["async"] = b.asynchronous
    attrs = {name: ir.UnitAttr.get() for name, on in flags.items() if on}
    return ir.Operation.create("tile.wgmma", results=[acc.type], operands=[a_value, b.buffer, b.stage, acc],
                               attributes=attrs).result


def build(body, n_blocks, number: dict):
    """The attention kernel after the program ids, at the insertion point: allocations, the
    warp-specialised roles, the epilogue and the store (see the module docstring).
    ``number``: each op of the ta function -> its place (provenance for the verifier)."""
    s = body.s
    element = ir.RankedTensorType(body.v_value.type).element_type
    lhs, rhs = body.contract.operation.operands
    q_arg, q_offsets = body.tile_offsets(lhs, body.q_dims, body.i, body.q0, "Q")
    body.k_value = rhs
    sq = _alloc((s.bm, body.qk_dim), element, 1)
    sk = _alloc((s.bn, body.qk_dim), element, s.stages)
    sv = _alloc((s.bn, body.head_dim), element, s.stages)
    q_bar = _barriers(1, 1)
    full = _barriers(s.stages, 1)
    empty = _barriers(s.stages, s.warps)  # every consumer warp releases a stage
    kv = _kv_sources(body)
    zero = const_index(0)
    spec = specialize(s.consumers, occupancy=s.occupancy)
    # producer: Q once; then per key block wait for the stage's release, expect, copy K and V
    with ir.InsertionPoint(spec.regions[0].blocks.append()):
        ir.Operation.create("tile.mbarrier_expect", operands=[q_bar, zero], attributes={
            "bytes": ir.IntegerAttr.get(_I64(), s.bm * body.qk_dim * 2)})
        ir.Operation.create("tile.tma_copy", operands=[q_arg, *q_offsets, sq, zero, q_bar])
        loop = scf.ForOp(const_index(0), n_blocks, const_index(1))
        with ir.InsertionPoint(loop.body):
            kt = loop.induction_variable
            stage = fill_stage(kt, s.stages, empty, full, s.bn * (body.qk_dim + body.head_dim) * 2)
            sources = kv(kt)
            for (arg, offsets), buf in zip(sources, (sk, sv)):
                ir.Operation.create("tile.tma_copy", operands=[arg, *offsets, buf, stage, full])
            scf.YieldOp([])
    with ir.InsertionPoint(spec.regions[1].blocks.append()):
        _rotated_consumers(body, n_blocks, number, (sq, sk, sv), (q_bar, full, empty))
    return spec


def _rotated_consumers(body, n_blocks, number: dict, tiles, barriers) -> None:
    """The consumers with the key loop rotated (softmax_overlap; FlashAttention-3's
    intra-warpgroup overlap): block 0's scores and softmax before the loop; iteration kt
    issues block kt's Q·Kᵀ and then block kt - 1's P·V (P carried from the iteration before),
    waits for the scores only (wgmma groups retire in order: P·V stays in flight), runs block
    kt's softmax, waits for P·V, releases block kt - 1's stage and rescales acc to the new
    max; after the loop the last block's P·V. Every sequence has a key block (sizes >= 1).
    With ping-pong a warpgroup's turn covers issuing a block's multiplies (once its K and V
    have landed), and the other warpgroup's softmax runs under them."""
    s = body.s
    sq, sk, sv = tiles
    q_bar, full, empty = barriers
    if body.p_residual():
        raise NoTileLowering("softmax_overlap carries P in V's type; an output of another type needs P's "
                             "rounding residual too: use softmax_overlap=false")
    zero, one = const_index(0), const_index(1)
    # ping-pong: a turn spans a block's multiplies, issued; the softmax runs outside it
    turn = _turns if s.pingpong else lambda who, wait: None
    ir.Operation.create("tile.mbarrier_wait", operands=[q_bar, zero, zero])
    turn("last", False)  # warpgroup 0 has the first turn
    m, l, acc = body.initial_state()
    stage, parity = _ring(zero, s.stages)
    ir.Operation.create("tile.mbarrier_wait", operands=[full, stage, parity])
    turn("all", True)
    scores = wgmma(Shared(sq, stage), Shared(sk, stage), body.constant_tile([s.bm, s.bn], 0.0), transpose_b=True)
    turn("all", False)
    m, l, _, _, p = body.softmax_step(m, l, body.stabiliser(scores, zero))
    loop = body.key_loop(n_blocks, number, start=one, state=[m, l, acc, p])
    with ir.InsertionPoint(loop.body):
        kt = loop.induction_variable
        m, l, acc, p = loop.inner_iter_args
        stage, parity = _ring(kt, s.stages)
        before, _ = _ring(arith.SubIOp(kt, one).result, s.stages)
        ir.Operation.create("tile.mbarrier_wait", operands=[full, stage, parity])
        turn("all", True)
        scores = wgmma(Shared(sq, stage), Shared(sk, stage, asynchronous=True),
                       body.constant_tile([s.bm, s.bn], 0.0), transpose_b=True)
        acc = wgmma(p, Shared(sv, before, asynchronous=True), acc)
        turn("all", False)
        wgmma_wait(1)  # the scores; P·V runs on under the softmax
        m_new, l_new, c, _, p_new = body.softmax_step(m, l, body.stabiliser(scores, kt))
        wgmma_wait(0)
        release_after(kt, one, empty, s.stages)
        scf.YieldOp([m_new, l_new, body.rescale(acc, c), p_new])
    m, l, acc, p = loop.results
    last, _ = _ring(arith.SubIOp(n_blocks, one).result, s.stages)
    turn("all", True)
    acc = wgmma(p, Shared(sv, last), acc)
    turn("all", False)
    turn("first", True)  # the turn the last warpgroup passed on comes back to warpgroup 0
    release_after(n_blocks, one, empty, s.stages)
    body.store(body.epilogue(m, l, acc))  # tile-tma-store may stage it


def _turns(who: str, wait: bool) -> None:
    ir.Operation.create("tile.turn_wait" if wait else "tile.turn_pass", attributes={"who": ir.StringAttr.get(who)})


def _kv_sources(body):
    """kt -> [(argument, offsets) of K's block, of V's]: built inside the producer's loop."""
    def at(kt):
        j0 = arith.MulIOp(kt, const_index(body.s.bn)).result
        v_dims = [None if x == body.d else x for x in body.v_dims]
        return [body.tile_offsets(value, dims, body.j, j0, what)
                for value, dims, what in ((body.k_value, body.k_dims, "K"), (body.v_value, v_dims, "V"))]
    return at
