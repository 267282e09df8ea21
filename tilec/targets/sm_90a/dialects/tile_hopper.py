"""The tile dialect's Hopper ops (sm_90a): copy-engine copies completing on mbarriers, wgmma
reading shared memory through descriptors, and warp specialisation.

They join ``tile`` (dialects/tile.py) as ta_online's op joins ``ta``. A warp-specialised
kernel is one ``tile.warp_specialize`` with two regions: the producer (one thread of the
producer warpgroup) and the consumers (the schedule's ``warps``). They share a stage ring
through two mbarrier arrays, ``full`` (the producer's copies of a stage have landed) and
``empty`` (the consumers are done reading it):

    "tile.warp_specialize"() ({                      // producer
      scf.for %kt = %c0 to %nk step %c1 {
        "tile.mbarrier_wait"(%empty, %s, %parity_e)  // the stage was released
        "tile.mbarrier_expect"(%full, %s) {bytes = 49152}
        "tile.tma_copy"(%A, %m0, %k0, %sa, %s, %full)
        "tile.tma_copy"(%B, %k0, %n0, %sb, %s, %full)
      }
    }, {                                             // consumers
      %acc = scf.for ... {
        "tile.mbarrier_wait"(%full, %s, %parity_f)   // the stage has landed
        %d = "tile.wgmma"(%sa, %sb, %s, %c)
        "tile.mbarrier_arrive"(%empty, %s)           // release it
      }
      ... epilogue, tile.store
    }) {producer_registers = 40, consumer_registers = 232}

An mbarrier completes a phase when its ``arrivals`` arrivals and the transaction bytes it
expects have come; a wait names the parity of the phase it waits for. In the producer
region the one thread arrives once per op; in the consumer region each warp does.
"""

from collections.abc import Sequence
from typing import Any

from torch_mlir import ir
from torch_mlir.dialects.ext import Operand, Region, Result

from tilec.dialects._verify import Invalid, int_attr, str_attr, verifier
from tilec.dialects.layout import tma_boxes
from tilec.dialects.op_rules import register
from tilec.dialects.tile import SHARED, Tile, layout_of


def _barriers(t: ir.Type, what: str) -> ir.MemRefType:
    if not isinstance(t, ir.MemRefType):
        raise Invalid(f"{what} must be a memref of mbarriers, got {t}")
    m = ir.MemRefType(t)
    space = m.memory_space
    if m.rank != 1 or not m.has_static_shape or str(m.element_type) != "i64" or space is None or \
            ir.IntegerAttr(space).value != SHARED:
        raise Invalid(f"{what} must be memref<stages x i64, 3> (mbarriers in shared memory), got {t}")
    return m


def _check_mbarrier_alloc(op):
    _barriers(op.res.type, "result")
    if int_attr(op, "arrivals") < 1:
        raise Invalid("arrivals must be at least 1")


class MbarrierAllocOp(Tile.Operation, name="mbarrier_alloc"):
    """One mbarrier per stage, each completing a phase after ``arrivals`` arrivals (and the
    transaction bytes expected in that phase). Initialised before the warps specialise.

    Example:
        %full = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
    """

    arrivals: ir.IntegerAttr
    res: Result[ir.MemRefType]
    verify_invariants = verifier(_check_mbarrier_alloc)


def _check_expect(op):
    _barriers(op.bar.type, "barrier")
    if int_attr(op, "bytes") < 1:
        raise Invalid("bytes must be positive")


class MbarrierExpectOp(Tile.Operation, name="mbarrier_expect"):
    """Arrive on mbarrier ``stage`` of ``bar`` and expect ``bytes`` more transaction bytes in its
    current phase (mbarrier.arrive.expect_tx): the copies that follow complete them.

    Example:  "tile.mbarrier_expect"(%full, %s) {bytes = 49152 : i64} : (memref<4xi64, 3>, index) -> ()
    """

    bar: Operand[ir.MemRefType]
    stage: Operand[ir.IndexType]
    bytes: ir.IntegerAttr
    verify_invariants = verifier(_check_expect)


def _check_tma_copy(op):
    src, *offsets, dst, _stage, bar = op.operation.operands
    if not isinstance(src.type, ir.MemRefType) or not isinstance(dst.type, ir.MemRefType):
        raise Invalid("source and destination must be memrefs")
    src_t, dst_t = ir.MemRefType(src.type), ir.MemRefType(dst.type)
    _barriers(bar.type, "barrier")
    if len(offsets) != src_t.rank:
        raise Invalid(f"expects {src_t.rank} offsets for the {src_t.rank}-d source, got {len(offsets)}")
    if dst_t.rank != 3 or dst_t.memory_space is None or ir.IntegerAttr(dst_t.memory_space).value != SHARED:
        raise Invalid(f"destination {dst_t} must be stages x a 2-d tile in shared memory")
    if src_t.element_type != dst_t.element_type:
        raise Invalid("source and destination element types differ")
    alloc = dst.owner
    if isinstance(alloc, ir.Block) or alloc.name != "tile.alloc":
        raise Invalid("destination must be a tile.alloc")
    bytes_ = 2 if str(src_t.element_type) in ("bf16", "f16") else 4
    if tma_boxes(layout_of(alloc.attributes["layout"]), bytes_) is None:
        raise Invalid("the destination's layout is not one the copy engine writes (tma_layout: "
                      "boxes of 16-byte multiples, in a 32/64/128-byte swizzle or none)")


class TmaCopyOp(Tile.Operation, name="tma_copy"):
    """Start the copy engine copying the tile at ``offsets`` into stage ``stage`` of a shared
    buffer (out-of-bounds elements become zero); the tile's bytes complete on mbarrier
    ``stage`` of ``bar`` (cp.async.bulk.tensor ... mbarrier::complete_tx::bytes), as boxes of
    the destination's layout (tma_boxes).

    Example:
        "tile.tma_copy"(%A, %m0, %k0, %sa, %s, %full)
            : (memref<?x?xbf16>, index, index, memref<4x128x64xbf16, 3>, index, memref<4xi64, 3>) -> ()
    """

    src: Operand[ir.MemRefType]
    offsets: Sequence[Operand[ir.IndexType]]
    dst: Operand[ir.MemRefType]
    stage: Operand[ir.IndexType]
    bar: Operand[ir.MemRefType]
    verify_invariants = verifier(_check_tma_copy)


def _check_wait(op):
    _barriers(op.bar.type, "barrier")


class MbarrierWaitOp(Tile.Operation, name="mbarrier_wait"):
    """Wait until the phase of mbarrier ``stage`` whose parity is ``parity`` (0 or 1) has
    completed (mbarrier.try_wait.parity). A fresh mbarrier is in phase 0, so a wait for
    parity 1 passes at once: the phase before the first.

    Example:  "tile.mbarrier_wait"(%full, %s, %p) : (memref<4xi64, 3>, index, index) -> ()
    """

    bar: Operand[ir.MemRefType]
    stage: Operand[ir.IndexType]
    parity: Operand[ir.IndexType]
    verify_invariants = verifier(_check_wait)


class MbarrierArriveOp(Tile.Operation, name="mbarrier_arrive"):
    """Arrive on mbarrier ``stage`` of ``bar``: once per warp in the consumer region (each
    warp's lane 0, after the warp's earlier shared-memory reads), once in the producer's.

    Example:  "tile.mbarrier_arrive"(%empty, %s) : (memref<4xi64, 3>, index) -> ()
    """

    bar: Operand[ir.MemRefType]
    stage: Operand[ir.IndexType]
    verify_invariants = verifier(_check_wait)


def _check_wgmma(op):
    registers = isinstance(op.a.type, ir.RankedTensorType)
    if not registers and not isinstance(op.a.type, ir.MemRefType):
        raise Invalid(f"operand A must be a shared tile or a register tile, got {op.a.type}")
    b, acc, res = ir.MemRefType(op.b.type), ir.RankedTensorType(op.acc.type), ir.RankedTensorType(op.res.type)
    ta, tb = "transpose_a" in op.attributes, "transpose_b" in op.attributes
    if registers:
        a = ir.RankedTensorType(op.a.type)
        if ta or a.rank != 2:
            raise Invalid("a register operand A is a 2-d [m, k] tile (no transpose_a)")
        if str(a.element_type) not in ("bf16", "f16") or a.element_type != b.element_type:
            raise Invalid(f"a register operand A is bf16 or f16, as B; got {a.element_type} and {b.element_type}")
        m, k1 = a.shape
    else:
        a = ir.MemRefType(op.a.type)
        if a.rank != 3:
            raise Invalid("operands must be stages x 2-d tiles in shared memory")
        m, k1 = a.shape[1:][::-1] if ta else a.shape[1:]
    if b.rank != 3:
        raise Invalid("operands must be stages x 2-d tiles in shared memory")
    k2, n = b.shape[1:][::-1] if tb else b.shape[1:]
    if k1 != k2 or list(acc.shape) != [m, n] or acc.shape != res.shape:
        raise Invalid(f"shapes do not chain: [{m}, {k1}] x [{k2}, {n}] into {acc.shape}")
    if m % 64 or k1 % 16 or n % 8 or n > 256:
        raise Invalid(f"wgmma takes m in 64-row slices per warpgroup, k in 16s and n <= 256 in 8s; got "
                      f"{m}x{n}x{k1}")
    if str(acc.element_type) != "f32" or acc.element_type != res.element_type:
        raise Invalid("the accumulator is f32")


def wgmma_stage(buffer_type, stage):
    """The stage of a shared operand a wgmma at ``stage`` reads: a one-stage tile (resident,
    such as attention's Q) is always read at stage 0."""
    return stage if ir.MemRefType(buffer_type).shape[0] > 1 else 0


def wgmma_depth(op) -> int:
    """The k a tile.wgmma sums over: A's columns (a shared A stored [k, m] under transpose_a)."""
    a = op.operation.operands[0].type
    if isinstance(a, ir.MemRefType):
        return ir.MemRefType(a).shape[1 if "transpose_a" in op.attributes else 2]
    return ir.RankedTensorType(a).shape[1]


class WgmmaOp(Tile.Operation, name="wgmma"):
    """res = acc + A · B by wgmma.mma_async: B (and A, when it is a shared tile) read through
    shared-memory descriptors of their layouts at stage ``stage`` (a one-stage tile at stage 0);
    A may instead be a register tile in the accumulator's layout (wgmma's register-A form,
    as attention's P). Consumer warpgroup g multiplies rows 64g .. 64g + 63.
    ``transpose_a`` / ``transpose_b``: the shared tile is stored [k, m] / [n, k].
    Complete when the op returns (wgmma.wait_group 0), or, with ``async``, issued as one
    group and complete only after a ``tile.wgmma_wait`` that leaves fewer groups pending than
    were issued after it: until then its stage is still being read, and only another wgmma
    on the same accumulator may take its result.

    Example:
        %d = "tile.wgmma"(%sa, %sb, %s, %c)
            : (memref<4x128x64xbf16, 3>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32>)
            -> tensor<128x256xf32>
        %o = "tile.wgmma"(%p, %sv, %s, %acc)
            : (tensor<128x64xbf16>, memref<2x64x128xbf16, 3>, index, tensor<128x128xf32>)
            -> tensor<128x128xf32>
    """

    a: Operand[Any]
    b: Operand[ir.MemRefType]
    stage: Operand[ir.IndexType]
    acc: Operand[ir.RankedTensorType]
    res: Result[ir.RankedTensorType]
    verify_invariants = verifier(_check_wgmma)


def _check_wgmma_wait(op):
    if int_attr(op, "pending") < 0:
        raise Invalid("pending must be at least 0")


class WgmmaWaitOp(Tile.Operation, name="wgmma_wait"):
    """Wait until at most ``pending`` of this warpgroup's asynchronous wgmma groups are still
    in flight, the most recent ones (wgmma.wait_group): the older ones have read their
    stages and written their accumulators.

    Example:  "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
    """

    pending: ir.IntegerAttr
    verify_invariants = verifier(_check_wgmma_wait)


def _check_warp_specialize(op):
    for name in ("producer_registers", "consumer_registers"):
        regs = int_attr(op, name)
        if regs % 8 or not 24 <= regs <= 256:
            raise Invalid(f"{name} must be a multiple of 8 in 24..256 (setmaxnreg), got {regs}")
    for region in (op.producer, op.consumer):
        if len(list(region.blocks)) != 1:
            raise Invalid("each role is one block")
    roles = consumer_roles(op)
    if not 1 <= roles <= 3:
        raise Invalid(f"consumer_roles must be 1 to 3 (consumer warpgroups), got {roles}")


def consumer_roles(op) -> int:
    """How many threads of control run a tile.warp_specialize's consumer region: 1 (the
    consumer warps together, the default) or one per consumer warpgroup (``consumer_roles``)."""
    attr = op.attributes["consumer_roles"] if "consumer_roles" in op.attributes else None
    return ir.IntegerAttr(attr).value if attr is not None else 1


class WarpSpecializeOp(Tile.Operation, name="warp_specialize", traits=[ir.NoTerminatorTrait]):
    """Split the CTA into a producer warpgroup, of which one thread runs ``producer``, and the
    consumer warps, which run ``consumer``; each role resizes its register file
    (setmaxnreg) to the given count per thread. See the module docstring.
    With ``consumer_roles = W`` (W > 1), each of the W consumer warpgroups runs the consumer
    region on its own (its own values, its own wgmma groups, its warps arriving for it alone),
    reading its index from ``tile.warpgroup_id``: a ping-pong contraction, each warpgroup on
    tiles of its own.

    Example:
        "tile.warp_specialize"() ({ ...producer... }, { ...consumers... })
            {producer_registers = 40 : i64, consumer_registers = 232 : i64} : () -> ()
    """

    producer_registers: ir.IntegerAttr
    consumer_registers: ir.IntegerAttr
    producer: Region
    consumer: Region
    verify_invariants = verifier(_check_warp_specialize)


def _check_warpgroup_id(op):
    parent = op.operation.parent
    while parent is not None and parent.name != "tile.warp_specialize":
        parent = parent.parent
    if parent is None or consumer_roles(parent) < 2:
        raise Invalid("tile.warpgroup_id is read in the consumer region of a tile.warp_specialize whose "
                      "consumer warpgroups run on their own (consumer_roles > 1)")


class WarpgroupIdOp(Tile.Operation, name="warpgroup_id"):
    """The index, 0 .. consumer_roles - 1, of the consumer warpgroup running this region of a
    tile.warp_specialize whose warpgroups each run it on their own.

    Example:  %g = "tile.warpgroup_id"() : () -> index
    """

    res: Result[ir.IndexType]
    verify_invariants = verifier(_check_warpgroup_id)


def _check_ring_start(op):
    parent = op.operation.parent
    while parent is not None and parent.name != "tile.warp_specialize":
        parent = parent.parent
    if parent is None:
        raise Invalid("tile.ring_start is read in a region of a tile.warp_specialize (a role's first ring "
                      "iteration)")


class RingStartOp(Tile.Operation, name="ring_start"):
    """The mbarrier ring's iteration at which a role's output tile starts. tile-warp-specialize
    writes each role of a contraction from it (its ring loop runs from it for the tile's k
    tiles; the copies' k offsets count from it); ``tile-persistent`` says what it is: 0 where a
    CTA works on one tile, n x nk for the CTA's n-th tile where the role loops over tiles.
    No later layer reads it.

    Example:  %first = "tile.ring_start"() : () -> index
    """

    res: Result[ir.IndexType]
    verify_invariants = verifier(_check_ring_start)


# -- turns of the consumer warpgroups at the tensor cores (named barriers) ----------------------
TURN_WHO = ("all", "first", "last")


def _check_turn(op):
    who = str_attr(op, "who", TURN_WHO)
    if who == ("last" if op.operation.name == "tile.turn_wait" else "first"):
        raise Invalid(f"who = '{who}': a turn is waited for by all or the first warpgroup, passed on by all or "
                      f"the last")


class TurnWaitOp(Tile.Operation, name="turn_wait"):
    """Consumer warpgroup g waits until it holds the turn: until warpgroup g - 1 (mod the
    consumers) has passed it on (bar.sync on named barrier 1 + g, 256 threads). ``who``: every
    warpgroup runs it ("all"), or only the first ("first", taking back the turn the last one
    passed on at the end). Changes no value: it orders the warpgroups' tensor-core work.

    Example:  "tile.turn_wait"() {who = "all"} : () -> ()
    """

    who: ir.StringAttr
    verify_invariants = verifier(_check_turn)


class TurnPassOp(Tile.Operation, name="turn_pass"):
    """Consumer warpgroup g passes the turn on to warpgroup g + 1 (mod the consumers)
    (bar.arrive on its named barrier). ``who``: every warpgroup ("all"), or only the last
    ("last": handing the first turn to warpgroup 0).

    Example:  "tile.turn_pass"() {who = "last"} : () -> ()
    """

    who: ir.StringAttr
    verify_invariants = verifier(_check_turn)


# -- the copy engine storing a tile: tile.tma_store ------------------------------------------
def staging_pending(chunk: int, chunks: int, buffers: int) -> int:
    """How many of the storing thread's copy-engine stores may still be reading shared memory
    when it writes column chunk ``chunk`` (of ``chunks`` per tile) into staging buffer
    ``chunk % buffers``: the stores issued after the last one from that buffer. For a chunk
    >= buffers that one is chunk - buffers of the same tile, ``buffers - 1`` stores back; for
    the first chunks it is the previous tile's last chunk on that buffer (on a CTA's first
    tile there is none, and the wait passes at once).

        >>> [staging_pending(c, 4, 2) for c in range(4)], [staging_pending(c, 3, 2) for c in range(3)]
        ([1, 1, 1, 1], [0, 2, 1])
    """
    if chunk >= buffers:
        return buffers - 1
    last = chunk + buffers * ((chunks - 1 - chunk) // buffers)  # the previous tile's chunk on this buffer
    return (chunks - 1 - last) + chunk


def store_parts(op):
    """(value, destination, offsets) of a tile.store or a tile.tma_store."""
    operands = list(op.operation.operands)
    if op.operation.name == "tile.tma_store":
        return operands[0], operands[1], operands[2:-2]
    return operands[0], operands[1], operands[2:]


def staging_of(op) -> tuple[int, int, int]:
    """(buffers, rows, columns per chunk) of a tile.tma_store's staging tile."""
    t = ir.MemRefType(op.operation.operands[-2].type)
    return t.shape[0] // int_attr(op, "sets"), t.shape[1], t.shape[2]


def _check_tma_store(op):
    value, dst, offsets = store_parts(op)
    staging = op.operation.operands[-2]
    if not isinstance(value.type, ir.RankedTensorType) or ir.RankedTensorType(value.type).rank != 2:
        raise Invalid("the stored value must be a 2-d register tile")
    if not isinstance(dst.type, ir.MemRefType) or ir.MemRefType(dst.type).memory_space is not None:
        raise Invalid("the destination must be a global memref")
    v, d = ir.RankedTensorType(value.type), ir.MemRefType(dst.type)
    if len(offsets) != d.rank or d.rank < 2:
        raise Invalid(f"expects {d.rank} offsets for the {d.rank}-d destination (at least 2-d), got {len(offsets)}")
    if v.element_type != d.element_type:
        raise Invalid(f"tile element type {v.element_type} must equal the destination's {d.element_type}")
    s = ir.MemRefType(staging.type)
    if s.rank != 3 or s.memory_space is None or ir.IntegerAttr(s.memory_space).value != SHARED:
        raise Invalid(f"the staging buffer {s} must be buffers x a 2-d tile in shared memory")
    alloc = staging.owner
    if isinstance(alloc, ir.Block) or alloc.name != "tile.alloc":
        raise Invalid("the staging buffer must be a tile.alloc")
    sets = int_attr(op, "sets")
    rows, cols = s.shape[1:]
    if sets < 1 or s.shape[0] % sets or s.shape[0] // sets < 2:
        raise Invalid(f"{s.shape[0]} staging buffers are not 'sets' = {sets} sets of at least two")
    if s.element_type != d.element_type or rows != v.shape[0] or v.shape[1] % cols:
        raise Invalid(f"staging tiles {rows}x{cols} of {s.element_type} do not chunk the {v.shape[0]}x{v.shape[1]} "
                      f"tile of {d.element_type}")
    bytes_ = 4 if str(d.element_type) == "f32" else 2
    boxes = tma_boxes(layout_of(alloc.attributes["layout"]), bytes_)
    if boxes is None or boxes[1] != cols:
        raise Invalid("the staging layout is not one box the copy engine reads (tma_layout of the chunk)")


class TmaStoreOp(Tile.Operation, name="tma_store"):
    """Store a register tile at ``offsets`` of a global tensor with the copy engine, through
    shared memory; elements outside the tensor are not written (the copy engine clips them).
    The tile goes out in column chunks as wide as a staging tile: chunk c is written into
    buffer ``first + c % buffers`` of ``staging`` (``staging_pending``: after the stores still
    reading that buffer have read it), the writing warps synchronise, and one thread starts
    the copy (cp.async.bulk.tensor, shared to global), which reads the buffer later, while the
    warps go on. ``sets``: the staging buffers are that many sets of ``buffers`` (a set per
    warpgroup storing on its own, from ``first``). The stores are complete when the kernel ends.

    Example:
        "tile.tma_store"(%c, %C, %m0, %n0, %staging, %first) {sets = 1 : i64}
            : (tensor<128x256xbf16>, memref<?x?xbf16>, index, index, memref<2x128x64xbf16, 3>, index) -> ()
    """

    value: Operand[ir.RankedTensorType]
    dst: Operand[ir.MemRefType]
    offsets: Sequence[Operand[ir.IndexType]]
    staging: Operand[ir.MemRefType]
    first: Operand[ir.IndexType]
    sets: ir.IntegerAttr
    verify_invariants = verifier(_check_tma_store)


# the target features (dialects/target.py) each op of this file needs; a tile module whose target
# lacks one is refused by the emitter and the verifier (op_rules.features_used)
FEATURES = {
    "tile.mbarrier_alloc": ("tma",), "tile.mbarrier_expect": ("tma",), "tile.mbarrier_wait": ("tma",),
    "tile.mbarrier_arrive": ("tma",), "tile.tma_copy": ("tma",), "tile.tma_store": ("tma",),
    "tile.wgmma": ("wgmma",), "tile.wgmma_wait": ("wgmma",),
    "tile.warp_specialize": ("setmaxnreg",),  # its producer_registers / consumer_registers
    "tile.warpgroup_id": (), "tile.turn_wait": (), "tile.turn_pass": (), "tile.ring_start": (),
}


# what the dialect layer knows of these ops, found through the op by generic code
# (dialects/op_rules.py): the features each needs, and what the copy engine's store writes
register("features", FEATURES)
register("store-parts", {"tile.tma_store": store_parts})
register("mma-depth", {"tile.wgmma": wgmma_depth})
register("roles", {"tile.warp_specialize": consumer_roles})
register("resolved-by", {"tile.ring_start": "tile-persistent"})
