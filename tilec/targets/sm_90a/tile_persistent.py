"""tile-persistent: a warp-specialised contraction's CTAs loop over the output tiles.

    tile.warp_specialize {                           %tiles = (tiles along M) x (tiles along N)
      %first = tile.ring_start                       tile.warp_specialize {
      role(%pid, %first)                    -->        %C = tile.num_programs
    }, {                                               scf.for %t = %pid to %tiles step %C {tile.persistent} {
      %first = tile.ring_start                           %first = (%t - %pid) / %C * nk
      role(%pid, %first)                                 role(%t, %first)
    }                                                  }
                                                     }, { (the same) }

Where the schedule asks for it (``persistent=true``), the launch caps the grid at the CTAs
that fit at once (``tile.persistent`` on the function; the runtime's occupancy), and each role
of each CTA takes the tiles pid, pid + C, ... in turn. tile-warp-specialize writes each role of
a contraction (the producer's, the consumers') for the CTA's one tile ``%pid`` from ring
iteration ``tile.ring_start``: the role moves into the loop, its program id becomes ``%t``, and
its ring goes on where the tile before left it: the CTA's n-th tile starts at iteration n x nk
(nk: the k tiles of a tile, the producer's trip count), so the stages and phases of the
mbarrier ring run on across tiles. Where the schedule does not ask, a CTA works on one tile
and each ``tile.ring_start`` becomes the constant 0. A kernel with no ``tile.ring_start`` (an
mma.sync kernel, an attention, one looping over tiles already) is left as it is.
"""

from __future__ import annotations

from functools import partial

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith, scf

from tilec.dialects import PERSISTENT_ATTR
from tilec.dialects.tile import scheduled_functions
from tilec.passes import PassInfo, refusal as pass_refusal


@dataclass(frozen=True)
class Options:
    pass


refusal = partial(pass_refusal, "tile-persistent")  # the pass's error, located at the op it names


def run(module, options: Options) -> None:
    for fn, s in scheduled_functions(module):
        top = [op.operation for op in fn.regions[0].blocks[0].operations]
        spec = next((op for op in top if op.name == "tile.warp_specialize"), None)
        starts = [] if spec is None else [_starts_with_ring_start(region.blocks[0]) for region in spec.regions]
        if not any(starts):
            if s.persistent and PERSISTENT_ATTR not in fn.attributes:
                raise refusal(fn, "a persistent kernel is a warp-specialised contraction's, its roles each "
                                  "from a tile.ring_start (tile-warp-specialize first)")
            continue  # keep: no role to place
        if not all(starts):
            raise refusal(fn, "each role of the warp-specialised kernel starts from its tile.ring_start")
        if not s.persistent:
            for region in spec.regions:
                _one_tile(ring_start(fn, region.blocks[0]))
            continue
        pid = next((op for op in top if op.name == "tile.program_id"
                    and ir.IntegerAttr(op.attributes["axis"]).value == 0), None)
        grid = [] if pid is None else [op.result for op in top[:top.index(pid)] if op.name == "arith.ceildivsi"]
        if len(grid) != 2:
            raise refusal(fn, "the kernel rasters its tiles over two ceil-divided extents of program id 0")
        nk = trip_count(fn, spec.regions[0].blocks[0])
        with ir.InsertionPoint(next(op for op in top if op.name == "tile.alloc")), fn.location:
            tiles = arith.MulIOp(*grid).result
        for region in spec.regions:
            _loop_over_tiles(fn, region.blocks[0], pid.result, tiles, nk)
        fn.attributes[PERSISTENT_ATTR] = ir.UnitAttr.get()  # grid x counts tiles; the launch caps it


def _starts_with_ring_start(block) -> bool:
    ops = list(block.operations)
    return bool(ops) and ops[0].operation.name == "tile.ring_start"


def _one_tile(start) -> None:
    """A role of the CTA's one tile: its ring starts at iteration 0."""
    with ir.InsertionPoint(start), start.location:
        zero = arith.ConstantOp(ir.IndexType.get(), 0).result
    start.result.replace_all_uses_with(zero)
    start.operation.erase()


def ring_start(fn, block):
    """The role's tile.ring_start: the first op of its region."""
    ops = list(block.operations)
    if not ops or ops[0].operation.name != "tile.ring_start":
        raise refusal(fn, "each role of the warp-specialised kernel starts from its tile.ring_start")
    return ops[0]


def trip_count(fn, producer):
    """nk: the k tiles of one output tile (the producer's ring loop runs from its tile.ring_start
    %first to %first + nk)."""
    first = ring_start(fn, producer).result
    loop = next((op for op in producer.operations if op.operation.name == "scf.for" and op.operands[0] == first), None)
    end = None if loop is None else loop.operands[1].owner
    if end is None or isinstance(end, ir.Block) or end.name != "arith.addi" or end.operands[0] != first:
        raise refusal(fn, "the producer's ring loop runs from its tile.ring_start for the k tiles of a tile")
    return end.operands[1]


def _loop_over_tiles(fn, block, pid, tiles, nk) -> None:
    """The role in ``block`` inside the loop over the CTA's tiles (the module docstring)."""
    start = ring_start(fn, block)
    role = [op.operation for op in block.operations][1:]
    with ir.InsertionPoint(role[0] if role else block), fn.location:
        ctas = ir.Operation.create("tile.num_programs", results=[ir.IndexType.get()], attributes={
            "axis": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0)}).result
        loop = scf.ForOp(pid, tiles, ctas)
        loop.attributes[PERSISTENT_ATTR] = ir.UnitAttr.get()
        with ir.InsertionPoint(loop.body):
            t = loop.induction_variable
            done = arith.DivSIOp(arith.SubIOp(t, pid).result, ctas).result  # tiles this CTA finished
            first = arith.MulIOp(done, nk).result
            yield_ = scf.YieldOp([])
    renamed = {pid: t, start.result: first}
    for op in role:
        op.move_before(yield_)
        op.walk(lambda inner: (_rename(inner, renamed), ir.WalkResult.ADVANCE)[1])
    start.operation.erase()


def _rename(op, values: dict) -> None:
    for index, value in enumerate(op.operands):
        if value in values:
            op.operands[index] = values[value]


PASS = PassInfo("tile-persistent", "a warp-specialised contraction's CTAs loop over its output tiles, the mbarrier "
                "ring running on across them (sm_90a)", Options, run, __doc__)
