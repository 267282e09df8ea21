"""tile-tma-store: the consumers of a warp-specialised kernel store through the copy engine.

    tile.warp_specialize {...}, {                       %st = tile.alloc (sets x 2 chunks of bm rows,
      ...                                                     one 128-byte swizzle row wide)
      tile.store %r, %C[%m0, %n0]           -->         tile.warp_specialize {...}, {
    }                                                     tile.tma_store %r, %C[%m0, %n0], %st, first
                                                        }

Runs where the schedule asks for it (``tma-store=true``): each tile.store of the consumer
region stages its tile in shared memory, chunk by chunk, and the copy engine writes each chunk
(docs/codegen.md). Ping-pong consumers (``consumer_roles = W``) each write through a set of
buffers of their own: warpgroup g from buffer g x Schedule.STORE_BUFFERS, of W sets. The staging
buffers are allocated after the kernel's other shared tiles, before its mbarriers. A kernel whose
schedule does not ask for it is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects.schedule import Schedule
from tilec.dialects.tile import scheduled_functions, walk_ops
from tilec.passes import PassInfo, refusal
from tilec.passes.ta_to_tile.common import const_index

from .ring import staging

_I64 = lambda: ir.IntegerType.get_signless(64)


@dataclass(frozen=True)
class Options:
    pass


def run(module, options: Options) -> None:
    for fn, s in scheduled_functions(module):
        if not s.tma_store:
            continue  # keep: the consumers store from registers
        top = [op.operation for op in fn.regions[0].blocks[0].operations]
        spec = next((op for op in top if op.name == "tile.warp_specialize"), None)
        if spec is None:
            raise refusal("tile-tma-store", fn, "a staged store is the consumers' of a warp-specialised kernel "
                                                "(tile-warp-specialize first)")
        rewrite(fn, spec, s, top)


def rewrite(fn, spec, s: Schedule, top: list) -> None:
    """Each tile.store of ``spec``'s consumer region through staging buffers (module docstring)."""
    stores = [op for op in walk_ops(spec.regions[1].blocks[0]) if op.operation.name == "tile.store"]
    if not stores:
        return
    sets = ir.IntegerAttr(spec.attributes["consumer_roles"]).value if "consumer_roles" in spec.attributes else 1
    barrier = next(op for op in top if op.name == "tile.mbarrier_alloc")
    with ir.InsertionPoint(barrier), fn.location:
        buffers = staging(s, stores[0].operands[1], sets)
    wg = next((op.result for op in spec.regions[1].blocks[0].operations
               if op.operation.name == "tile.warpgroup_id"), None)
    for store in stores:
        with ir.InsertionPoint(store), store.location:
            first = const_index(0) if sets == 1 else arith.MulIOp(wg, const_index(Schedule.STORE_BUFFERS)).result
            ir.Operation.create("tile.tma_store", operands=[*store.operands, buffers, first],
                                attributes={"sets": ir.IntegerAttr.get(_I64(), sets)})
        store.operation.erase()


PASS = PassInfo("tile-tma-store", "the consumers of a warp-specialised kernel store through shared memory and the "
                "copy engine (sm_90a)", Options, run, __doc__)
