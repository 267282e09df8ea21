"""tile-softmax-overlap: a warp-specialised attention's key loop rotated, so that block kt's
softmax runs under block kt - 1's P·V (FlashAttention-3's intra-warpgroup overlap).

    consumers (tile-warp-specialize):              consumers (rotated):
      for kt in [0, n) carrying (m, l, acc):         wait full[0]; S = Q·Kᵀ(0); (m, l, P) = softmax
        wait full[kt]; S = Q·Kᵀ(kt), waited          for kt in [1, n) carrying (m, l, acc, P):
        release the stage of kt - 1          -->       wait full[kt]; S = Q·Kᵀ(kt) (async);
        (m', l', P) = softmax(S, m, l)                 acc = acc + P·V(kt - 1) (async); wait 1 (S);
        acc' = acc·c + P·V(kt) (async)                 (m', l', P') = softmax(S, m, l); wait 0;
      wait 0; release the stage of n - 1               release kt - 1; acc' = acc·c
      the epilogue and the store                     acc = acc + P·V(n - 1); release n - 1
                                                     the epilogue and the store

Runs where the schedule asks for it (``softmax-overlap=true``); the softmax is the key loop's
ops between Q·Kᵀ and the rescale of the accumulator (less the release and the ping-pong turns
tile-pingpong put there, which the rotated loop places anew), cloned in their order, block 0's against the loop's
initial state. wgmma groups retire in order, so waiting for all but one retires the scores
and leaves P·V in flight under the softmax. With ping-pong a warpgroup's turn covers issuing
a block's multiplies, and the other warpgroup's softmax runs under them. Every sequence has a
key block (sizes >= 1), so block 0 is always there. A kernel whose schedule does not ask for it,
or whose loop is rotated already, is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from torch_mlir import ir
from torch_mlir.dialects import arith, scf

from tilec.dialects import STAGES_ATTR
from tilec.dialects.schedule import Schedule
from tilec.dialects.tile import scheduled_functions
from tilec.passes import PassInfo, refusal as pass_refusal
from tilec.passes.ta_to_tile import layouts
from tilec.passes.ta_to_tile.common import const_index

from .clone import Clones
from .ring import is_release, release_after, ring_slot, wgmma_wait
from .tile_pingpong import turns
from .tile_warp_specialize.attention import wgmma


@dataclass(frozen=True)
class Options:
    pass


_refusal = partial(pass_refusal, "tile-softmax-overlap")  # the pass's error, located at the op it names


@dataclass
class KeyLoop:
    """What the rotation reads of the consumers of a warp-specialised attention."""

    block: object      # the consumer region's block
    loop: object       # the key loop (tile.stages), carrying (m, l, acc)
    scores: object     # its tile.wgmma S = Q·Kᵀ
    pv: object         # its tile.wgmma acc·c + P·V
    softmax: list      # its ops between the two, less the release and the turns
    q_bar: object      # the mbarrier Q lands on
    full: object       # the ring's full and empty mbarriers
    empty: object
    store: object      # the tile.store of the output tile
    turns: bool        # do the warpgroups take turns at the tensor cores (tile-pingpong's)?


def run(module, options: Options) -> None:
    for fn, s in scheduled_functions(module):
        if not s.softmax_overlap:
            continue  # keep: the key loop as tile-warp-specialize built it
        spec = next((op for op in fn.regions[0].blocks[0].operations
                     if op.operation.name == "tile.warp_specialize"), None)
        if spec is None:
            raise _refusal(fn, "the key loop it rotates is a warp-specialised attention's (tile-warp-specialize first)")
        key = read(fn, spec.regions[1].blocks[0])
        if key is not None:
            rotate(fn, key, s)


def read(fn, block) -> KeyLoop | None:
    """The key loop of the consumer region ``block``; None when it carries P already (rotated)."""
    top = list(block.operations)
    loop = next((op for op in top if op.operation.name == "scf.for" and STAGES_ATTR in op.attributes), None)
    if loop is None:
        raise _refusal(fn, "the consumers have no key loop (tile.stages)")
    if len(list(loop.inner_iter_args)) != 3:
        if len(list(loop.inner_iter_args)) == 4:
            return None  # rotated already: it carries P beside (m, l, acc)
        raise _refusal(fn, "the key loop carries the online state (m, l, acc)")
    ops = list(loop.regions[0].blocks[0].operations)
    wgmmas = [op for op in ops if op.operation.name == "tile.wgmma"]
    if len(wgmmas) != 2:
        raise _refusal(fn, "softmax-overlap carries P in V's type; an output of another type needs P's "
                           "rounding residual too: use softmax-overlap=false")
    scores, pv = wgmmas
    rescale = pv.operands[3].owner
    if isinstance(rescale, ir.Block) or rescale not in ops or ops.index(rescale) < ops.index(scores):
        raise _refusal(fn, "P·V accumulates onto the carried accumulator rescaled in the loop")
    skipped = ("tile.turn_wait", "tile.turn_pass")
    softmax = [op for op in ops[ops.index(scores) + 1:ops.index(rescale)]
               if op.operation.name not in skipped and not is_release(op)]
    waits = [op for op in top if op.operation.name == "tile.mbarrier_wait"]
    full_waits = [op for op in ops if op.operation.name == "tile.mbarrier_wait"]
    if len(full_waits) != 1:
        raise _refusal(fn, "the key loop waits once a block, on the ring's full barrier")
    (full_wait,) = full_waits
    arrives: list = []
    loop.operation.walk(lambda o: (arrives.append(o) if o.name == "tile.mbarrier_arrive" else None,
                                   ir.WalkResult.ADVANCE)[1])
    store = next((op for op in top if op.operation.name == "tile.store"), None)
    if not waits or not arrives or store is None:
        raise _refusal(fn, "the consumers wait for Q, run the key loop and store the output tile")
    turns = any(op.operation.name == "tile.turn_wait" for op in top)
    return KeyLoop(block, loop, scores, pv, softmax, waits[0].operands[0], full_wait.operands[0],
                   arrives[0].operands[0], store, turns)


def rotate(fn, key: KeyLoop, s: Schedule) -> None:
    """The consumers of ``key`` with the key loop rotated (the module docstring)."""
    inside: set = set()
    for op in key.block.operations:
        op.operation.walk(lambda o: (inside.add(o), ir.WalkResult.ADVANCE)[1])
    here = Clones(fn, lambda op: op not in inside)
    old_ops = [op.operation for op in key.block.operations]
    old = key.loop.regions[0].blocks[0]
    ops = list(old.operations)
    rescale = key.pv.operands[3].owner
    m_in, l_in, acc_in = list(old.arguments)[1:]
    m_out, l_out, _ = ops[-1].operands
    p_low = key.pv.operands[0]
    sq, sk, sv = key.scores.operands[0], key.scores.operands[1], key.pv.operands[1]
    transpose_b = "transpose_b" in key.scores.attributes
    n_blocks = key.loop.operands[1]
    turn = turns if key.turns else lambda who, wait: None  # the turns the loop had, placed anew

    def scores(clones, stage, asynchronous=False):
        (start,) = clones.bring([key.scores.operands[3]])
        return wgmma(sq, sk, stage, start, asynchronous=asynchronous, transpose_b=transpose_b)

    with ir.InsertionPoint(old_ops[0]), fn.location:
        zero, one = const_index(0), const_index(1)
        ir.Operation.create("tile.mbarrier_wait", operands=[key.q_bar, zero, zero])
        turn("last", False)  # warpgroup 0 has the first turn
        m, l, acc = here.bring(list(key.loop.operands)[3:])
        stage, parity = ring_slot(zero, s.stages)
        ir.Operation.create("tile.mbarrier_wait", operands=[key.full, stage, parity])
        turn("all", True)
        here.map(key.scores.result, scores(here, stage))
        turn("all", False)
        here.map(old.arguments[0], zero)  # block 0's softmax against the initial state
        here.map(m_in, m)
        here.map(l_in, l)
        for op in key.softmax:
            here.copy(op)
        m, l, p = here.bring([m_out, l_out, p_low])
        loop = scf.ForOp(one, n_blocks, const_index(1), [m, l, acc, p])
        for name in (STAGES_ATTR, "tile.computes"):
            loop.attributes[name] = key.loop.attributes[name]
        block = here.fresh()
        with ir.InsertionPoint(loop.body):
            kt = loop.induction_variable
            m, l, acc, p = loop.inner_iter_args
            for staged, now in ((old.arguments[0], kt), (m_in, m), (l_in, l)):
                block.map(staged, now)
            stage, parity = ring_slot(kt, s.stages)
            before, _ = ring_slot(arith.SubIOp(kt, one).result, s.stages)
            ir.Operation.create("tile.mbarrier_wait", operands=[key.full, stage, parity])
            turn("all", True)
            now = scores(block, stage, asynchronous=True)
            acc = wgmma(p, sv, before, acc, asynchronous=True)
            turn("all", False)
            wgmma_wait(1)  # the scores; P·V runs on under the softmax
            block.map(key.scores.result, now)
            for op in key.softmax:
                block.copy(op)
            wgmma_wait(0)
            release_after(kt, one, key.empty, s.stages)
            block.map(acc_in, acc)
            m_new, l_new, p_new = block.bring([m_out, l_out, p_low])
            block.copy(rescale)
            scf.YieldOp([m_new, l_new, block.bring([rescale.result])[0], p_new])
        m, l, acc, p = loop.results
        last, _ = ring_slot(arith.SubIOp(n_blocks, one).result, s.stages)
        turn("all", True)
        acc = wgmma(p, sv, last, acc)
        turn("all", False)
        turn("first", True)  # the turn the last warpgroup passed on comes back to warpgroup 0
        release_after(n_blocks, one, key.empty, s.stages)
        epilogue = here.fresh()
        for staged, result in zip(key.loop.results, (m, l, acc)):
            epilogue.map(staged, result)
        ir.Operation.create("tile.store", operands=epilogue.bring(list(key.store.operands)))
    for op in reversed(old_ops):
        op.erase()
    layouts.relayout(fn, layouts.mma_parent(fn, s.warps))  # the new tiles in the register layout of the rest


PASS = PassInfo("tile-softmax-overlap", "a warp-specialised attention's key loop rotated: block kt's softmax under "
                "block kt - 1's P·V (sm_90a)", Options, run, __doc__)
