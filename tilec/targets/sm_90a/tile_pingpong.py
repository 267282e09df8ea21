"""tile-pingpong: the consumer warpgroups of a warp-specialised kernel take turns: a
persistent contraction's each on tiles of their own, an attention's at the tensor cores.

    tile.warp_specialize {producer} {                tile.warp_specialize {producer} {
      scf.for %t = %pid to %tiles step %C {             %g = tile.warpgroup_id
        %first = (%t - %pid) / %C * nk         -->      scf.for %t = %pid + %g C to %tiles step W C {
        role(%t, %first)                                  %first = (%t - %pid) / %C * nk
      }                                                   wait turn[%g] (its n-th tile's phase)
    }                                                     role(%t, %first), with after its ring loop:
                                                            arrive turn[(%g + 1) mod W]
                                                        }
                                                      } {consumer_roles = W}

Runs where the schedule asks for it (``pingpong=true``). In a contraction tile-persistent has
made persistent, each of the W = ``consumers`` warpgroups runs the consumer region on its own
(``consumer_roles``), on every W-th of its CTA's tiles, from the g-th: while one multiplies its
tile, the other runs its epilogue and store. The ring is one for the CTA: a warpgroup waits on
``turn[g]`` until the one before it has made its last wait on full for the tile before (its
``tile.mbarrier_arrive`` after its ring loop), so the waits on full come in ring order. A stage
is released by the warps of one warpgroup (``empty``'s arrivals divided by W), and each
warpgroup holds a whole bm x bn accumulator (a 128-row one as two 64-row wgmma slabs).

In an attention the warpgroups share each query tile's key loop and take turns at the tensor
cores instead (``tile.turn_wait`` / ``tile.turn_pass``, named barriers): a turn spans one
warpgroup's P·V of a key block and its Q·Kᵀ of the next (``_turns``); tile-softmax-overlap,
which runs after, places the turns anew in the loop it rotates.

A kernel whose schedule does not ask, or whose warpgroups run on their own or take turns
already, is left as it is.
"""

from __future__ import annotations

from functools import partial

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects import PERSISTENT_ATTR, STAGES_ATTR
from tilec.dialects.layout import MmaLayout
from tilec.dialects.tile import scheduled_functions
from tilec.passes import PassInfo, refusal as pass_refusal
from tilec.passes.ta_to_tile import layouts
from tilec.passes.ta_to_tile.common import const_index

from .ring import barriers, is_release


@dataclass(frozen=True)
class Options:
    pass


refusal = partial(pass_refusal, "tile-pingpong")  # the pass's error, located at the op it names


def run(module, options: Options) -> None:
    for fn, s in scheduled_functions(module):
        if not s.pingpong:
            continue  # keep: the consumer warpgroups work as one
        top = [op.operation for op in fn.regions[0].blocks[0].operations]
        spec = next((op for op in top if op.name == "tile.warp_specialize"), None)
        if spec is None:
            raise refusal(fn, "ping-pong consumers are a warp-specialised kernel's (tile-warp-specialize first)")
        if "consumer_roles" in spec.attributes or _takes_turns(spec):
            continue  # keep: its warpgroups run on their own already, or take turns
        consumers = spec.regions[1].blocks[0]
        key = next((op for op in consumers.operations if op.operation.name == "scf.for"
                    and "tile.computes" in op.attributes), None)
        if key is not None:
            _turns(fn, consumers, key)
        elif PERSISTENT_ATTR in fn.attributes and _tile_loop(consumers) is not None:
            _share(fn, s, top, spec)
        else:
            raise refusal(fn, "ping-pong consumers share a persistent contraction's tiles (tile-persistent first) "
                              "or take turns in an attention's key loop")


def _takes_turns(spec) -> bool:
    """Do the consumer warpgroups take turns at the tensor cores already?"""
    found = []
    spec.operation.walk(lambda op: (found.append(op.name == "tile.turn_wait"), ir.WalkResult.ADVANCE)[1])
    return any(found)


def _turns(fn, block, loop) -> None:
    """An attention's consumer warpgroups take turns at the tensor cores: a turn spans one
    warpgroup's P·V of a key block and its Q·Kᵀ of the next, so that one multiplies while the
    other runs its softmax. Warpgroup 0 holds the first turn (the last one passes it on before
    the loop); each passes the turn after Q·Kᵀ (and the release of the block before) and waits
    for it before P·V; after the loop (and its last release) each passes it on, and warpgroup 0
    takes back the one the last passed."""
    ops = list(block.operations)
    if not ops or ops[0].operation.name != "tile.mbarrier_wait":
        raise refusal(fn, "an attention's consumers first wait for Q")
    body = list(loop.regions[0].blocks[0].operations)
    wgmmas = [op for op in body if op.operation.name == "tile.wgmma"]
    if len(wgmmas) < 2:
        raise refusal(fn, "an attention's key loop multiplies Q·Kᵀ, then P·V, by tile.wgmma")
    scores, pv = wgmmas[0], wgmmas[1]
    between = body[body.index(scores) + 1:body.index(pv)]
    passed = next((op for op in between if is_release(op)), scores)
    after_loop = []  # the ops between the key loop and the store
    for op in ops[ops.index(loop) + 1:]:
        if op.operation.name == "tile.store":
            break
        after_loop.append(op)
    end = next((op for op in after_loop if is_release(op)), loop)
    with ir.InsertionPoint.after(ops[0]), fn.location:
        turns("last", False)  # warpgroup 0 has the first turn (Q·Kᵀ of block 0)
        turns("all", True)
    with ir.InsertionPoint.after(passed), fn.location:
        turns("all", False)  # the next warpgroup multiplies while this one runs its softmax
    with ir.InsertionPoint(pv), fn.location:
        turns("all", True)  # a turn spans this block's P·V and the next block's Q·Kᵀ
    with ir.InsertionPoint.after(end), fn.location:
        turns("all", False)
        turns("first", True)  # the turn the last warpgroup passed on comes back to warpgroup 0


def turns(who: str, wait: bool) -> None:
    """tile.turn_wait (``wait``) or tile.turn_pass, by ``who``: "all", "first" or "last"."""
    ir.Operation.create("tile.turn_wait" if wait else "tile.turn_pass", attributes={"who": ir.StringAttr.get(who)})


def _tile_loop(block):
    """The consumers' loop over the CTA's tiles (tile-persistent's), or None."""
    return next((op for op in block.operations if op.operation.name == "scf.for"
                 and PERSISTENT_ATTR in op.attributes), None)


def _share(fn, s, top: list, spec) -> None:
    """The rewrite of the module docstring, for W = ``s.consumers`` warpgroups."""
    roles = s.consumers
    i64 = ir.IntegerType.get_signless(64)
    empty = _empty(fn, top, spec)
    empty.attributes["arrivals"] = ir.IntegerAttr.get(i64, s.warps // roles)  # one warpgroup's warps
    with ir.InsertionPoint.after(empty), fn.location:
        turn = barriers(roles, s.warps // roles)  # whose turn at the ring
    spec.attributes["consumer_roles"] = ir.IntegerAttr.get(i64, roles)
    block = spec.regions[1].blocks[0]
    loop = _tile_loop(block)
    pid, _, ctas = list(loop.operands)[:3]
    with ir.InsertionPoint.at_block_begin(block), fn.location:
        g = ir.Operation.create("tile.warpgroup_id", results=[ir.IndexType.get()]).result
    with ir.InsertionPoint(loop), fn.location:
        loop.operands[0] = arith.AddIOp(pid, arith.MulIOp(g, ctas).result).result
        loop.operands[2] = arith.MulIOp(const_index(roles), ctas).result
    body = list(loop.regions[0].blocks[0].operations)
    ring = next((op for op in body if op.operation.name == "scf.for" and STAGES_ATTR in op.attributes), None)
    if ring is None or len(body) < 3 or body[2].operation.name != "arith.muli" or body[2].result != ring.operands[0]:
        raise refusal(fn, "the consumers' tile loop starts with the tile's count and first ring iteration "
                          "(tile-persistent's), then their ring loop")
    done = body[2].operands[0]  # the tiles this CTA finished before t: this warpgroup's n-th tile
    with ir.InsertionPoint(body[3]), fn.location:
        take_turn(turn, g, roles, done)
    with ir.InsertionPoint.after(ring), fn.location:  # its last wait on full is behind it
        nxt = arith.RemSIOp(arith.AddIOp(g, const_index(1)).result, const_index(roles)).result
        ir.Operation.create("tile.mbarrier_arrive", operands=[turn, nxt])
    # a warpgroup of 128 rows issues a wgmma per 64-row slab, and holds those rows of each
    layouts.relayout(fn, MmaLayout(s.warps // roles, 1, s.bm // 64))


def _empty(fn, top: list, spec):
    """The ring's empty barriers: those the consumers release stages on."""
    arrived = set()

    def visit(op):
        if op.name == "tile.mbarrier_arrive":
            arrived.add(op.operands[0])
        return ir.WalkResult.ADVANCE

    for op in spec.regions[1].blocks[0].operations:
        op.operation.walk(visit)
    found = [op for op in top if op.name == "tile.mbarrier_alloc" and op.result in arrived]
    if len(found) != 1:
        raise refusal(fn, "the consumers release the ring's stages on one tile.mbarrier_alloc (empty)")
    return found[0]


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


PASS = PassInfo("tile-pingpong", "a warp-specialised kernel's consumer warpgroups take turns: a persistent "
                "contraction's on tiles of their own, an attention's at the tensor cores (sm_90a)", Options, run, __doc__)
