"""tile-warp-specialize: a staged kernel becomes sm_90a's warp-specialised one.

The matchers build one staged program for every target: cp.async copies into swizzled shared
tiles, a prologue filling the first stages, a main loop of ldmatrix loads and mma.sync. Where
the schedule asks for consumer warpgroups (``consumers > 0``), this pass rewrites it:

    %sa, %sb = tile.alloc (swizzled)                 %sa, %sb = tile.alloc (the copy engine's layout)
    scf.for %i < stages - 1 {tile.prologue}           %full, %empty = tile.mbarrier_alloc
      tile.async_copy A, B -> stage %i                tile.warp_specialize {
    scf.for %kt < nk iter_args(%acc) {tile.stages}     producer: per kt: wait empty[s], expect the
      tile.wait_group; tile.barrier          -->         bytes on full[s], tile.tma_copy A and B
      tile.smem_load %sa, %sb [kt % stages]          }, {
      tile.async_copy A, B -> stage of kt + stages-1   consumers: per kt: wait full[s], tile.wgmma
      %acc = tile.mma                                    (async), tile.wgmma_wait {pending = 1},
    tile.wait_group {pending = 0}                        release the stage before; then the epilogue
    epilogue; tile.store                                 and tile.store
                                                     }

one rewrite per kind of staged program: a contraction (contraction.py: its roles written for
the CTA's one tile from ``tile.ring_start``, which ``tile-persistent`` places, and
``tile-pingpong`` shares among the warpgroups) and attention, whose main loop
carries an online-softmax state (attention.py: Q once on a barrier of its own, K and V through
the ring, Q·Kᵀ and P·V by wgmma; the key loop as the staged program has it, which
``tile-softmax-overlap`` rotates where the schedule asks). The staged program's own ops (the raster, the copies'
offsets, the stabiliser and the online step, the epilogue and the store) are cloned into the
roles in their order (clone.py), so what the matchers built is what runs. The consumers'
multiply is asynchronous, one group in flight: iteration kt issues its wgmma, waits until only
that group is pending and releases the stage of iteration kt - 1 (so stages >= 2). The copy
engine zero-fills what lies outside a tensor, so no size has to divide the tiles; the store
stays masked (a store through the copy engine, ``tma-store``, is the next pass's:
tile_tma_store.py).

A function is left as it is when its schedule has no consumer warpgroups (an mma.sync kernel)
or it is specialised already.
"""

from __future__ import annotations

from dataclasses import dataclass

from tilec.dialects.target import target_of
from tilec.dialects.tile import scheduled_functions, walk_ops
from tilec.passes import PassInfo

from . import attention, contraction
from .common import refusal


@dataclass(frozen=True)
class Options:
    pass


def run(module, options: Options) -> None:
    for fn, s in scheduled_functions(module):
        if not s.consumers or any(op.operation.name == "tile.warp_specialize" for op in walk_ops(fn.regions[0].blocks[0])):
            continue  # keep: an mma.sync kernel, or one specialised already
        lacking = target_of(fn).lacks(*s.features())
        if lacking:
            raise refusal(fn, f"consumers={s.consumers} (a warp-specialised kernel) needs {', '.join(lacking)}, "
                               f"which {target_of(fn).name} does not have")
        for form in (contraction, attention):
            staged = form.read(fn)
            if staged is not None:
                form.rewrite(staged, s)
                break


PASS = PassInfo("tile-warp-specialize", "a staged contraction or attention as sm_90a's warp-specialised kernel (copy engine, "
                "mbarrier ring, wgmma)", Options, run, __doc__)
