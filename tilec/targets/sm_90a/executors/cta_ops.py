"""sm_90a's ops in the tile interpreter (tilec/executors/tile_interpreter.py): what each does to
a CTA's state, found through the op (dialects/op_rules.py, layer "interpret").

Copy-engine copies land when their mbarrier phase completes (``Barriers``), the roles of a
warp-specialised kernel take turns at their mbarrier waits (``Roles``, tile_roles.py), an
asynchronous wgmma reads its shared tiles only when a tile.wgmma_wait retires its group, and a
staged store's chunks are read by the copy engine only when a later wait retires them. Each
rule is ``rule(cta, op, operands)`` and returns the op's results.
"""

from __future__ import annotations

import torch
from torch_mlir import ir

from tilec.dialects.op_rules import register
from tilec.executors.tile_interpreter import CTA, InFlight, store_window, window
from tilec.targets.sm_90a.dialects.tile_hopper import consumer_roles, staging_of, staging_pending, wgmma_stage
from .tile_roles import Barriers, Roles


def _tma_store(cta, op, operands):
    """Chunk c into staging buffer first + c % buffers once the stores still reading it have
    read it; the copy engine reads a buffer only when a later wait retires its store (or the
    kernel ends), so a buffer rewritten too early stores the wrong chunk."""
    value, dst, *offsets, staging, first = operands
    buffers, _, chunk = staging_of(op)
    chunks = value.shape[1] // chunk
    for c in range(chunks):
        cta.retire_stores(staging_pending(c, chunks, buffers))
        buf = first + c % buffers
        staging.write(buf, value[:, c * chunk:(c + 1) * chunk])
        at = [*offsets[:-1], offsets[-1] + c * chunk]
        cta.bulk.append(lambda buf=buf, at=at: store_window(staging.read(buf), dst, at))
    return []


def _mbarrier_alloc(cta, op, operands):
    return [Barriers(ir.MemRefType(op.result.type).shape[0], ir.IntegerAttr(op.attributes["arrivals"]).value)]


def _mbarrier_expect(cta, op, operands):
    bar, stage = operands
    bar.arrive(stage, 1, ir.IntegerAttr(op.attributes["bytes"]).value)
    return []


def _tma_copy(cta, op, operands):
    src, *offsets, dst, stage, bar = operands
    index, mask = window(src, offsets, list(dst.layout.shape))
    tile = torch.where(mask, src[index], torch.zeros((), dtype=src.dtype))
    # the whole box counts, zero-filled elements too
    bar.copy(stage, dst.layout.size * dst.data.element_size(), lambda: dst.write(stage, tile))
    return []


def _mbarrier_wait(cta, op, operands):
    bar, stage, parity = operands
    cta.roles.wait(bar, stage, parity)
    return []


def _mbarrier_arrive(cta, op, operands):
    bar, stage = operands
    consumer = cta.roles.consumer()
    bar.arrive(stage, cta.warps if consumer else 1)
    if consumer:  # what the release allows happens now: the producer may refill the stage
        cta.roles.let_other_run()
    return []


def _wgmma(cta, op, operands):
    if "async" in op.attributes:  # the tiles are read when the group retires
        result = InFlight(operands[3], lambda: _product(op, [*operands[:3], 0])[0])
        cta.wgmma_groups.append(result)
        return [result]
    while cta.wgmma_groups:  # complete when it returns: it waits for every group before it
        cta.wgmma_groups.popleft().retire()
    return _product(op, [*operands[:3], cta.settled(operands[3], op)])


_wgmma.reads_in_flight = True  # its accumulator may be an asynchronous wgmma's result still in flight


def _product(op, operands):
    a, b, stage, acc = operands
    a_v, b_v = op.operation.operands[:2]
    tb = b.read(wgmma_stage(b_v.type, stage))
    ta = a if isinstance(a, torch.Tensor) else a.read(wgmma_stage(a_v.type, stage))  # registers, or shared
    ta = ta.t() if "transpose_a" in op.attributes else ta
    tb = tb.t() if "transpose_b" in op.attributes else tb
    return [acc + ta.float() @ tb.float()]


def _wgmma_wait(cta, op, operands):
    while len(cta.wgmma_groups) > ir.IntegerAttr(op.attributes["pending"]).value:
        cta.wgmma_groups.popleft().retire()
    return []


def _turn(cta, op, operands):
    return []  # the consumer warps run as one thread of control here: turns order nothing


def _warp_specialize(cta, op, operands):
    cta.roles = Roles()
    producer, consumer = (region.blocks[0] for region in op.operation.regions)
    roles = consumer_roles(op)
    # a consumer's copy-engine stores have all been read by the end of the kernel
    run = lambda state: (state.run_block(consumer), state.retire_stores(0))
    if roles == 1:
        cta.roles.run(lambda: cta.run_block(producer), lambda: run(cta))
    else:  # each warpgroup on its own: its own values, wgmma groups, stores and warps
        groups = [_warpgroup(cta, g, roles) for g in range(roles)]
        cta.roles.run(lambda: cta.run_block(producer), *[lambda w=w: run(w) for w in groups])
    cta.roles = None
    return []


def _warpgroup(cta, g: int, roles: int):
    """The state consumer warpgroup ``g`` of ``roles`` runs the consumer region in: the CTA's
    values so far (buffers and barriers shared), its own wgmma groups, its warps alone."""
    wg = CTA(cta.pid, cta.values, cta.warps // roles, cta.grid)
    wg.roles, wg.warpgroup = cta.roles, g
    return wg


def _warpgroup_id(cta, op, operands):
    return [cta.warpgroup]


register("interpret", {"tile.tma_store": _tma_store, "tile.mbarrier_alloc": _mbarrier_alloc,
                       "tile.mbarrier_expect": _mbarrier_expect, "tile.tma_copy": _tma_copy,
                       "tile.mbarrier_wait": _mbarrier_wait, "tile.mbarrier_arrive": _mbarrier_arrive,
                       "tile.wgmma": _wgmma, "tile.wgmma_wait": _wgmma_wait, "tile.turn_wait": _turn,
                       "tile.turn_pass": _turn, "tile.warp_specialize": _warp_specialize,
                       "tile.warpgroup_id": _warpgroup_id})
