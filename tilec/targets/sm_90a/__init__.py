"""sm_90a (Hopper): the copy engine with mbarriers, wgmma, setmaxnreg.

Its tile -> tile passes, run after ``ta-to-tile`` in the order its registry entry lists them
(``tilec.dialects.target``: ``Target.passes``):

- ``tile_warp_specialize/`` (``tile-warp-specialize``): a staged contraction or attention
  (cp.async ring, ldmatrix, mma.sync) becomes a producer thread feeding an mbarrier ring with
  the copy engine and consumer warpgroups multiplying with wgmma from shared memory;
- ``tile_persistent.py`` (``tile-persistent``): a warp-specialised contraction's roles loop over
  the CTA's output tiles, the ring running on across them (``persistent=true``);
- ``tile_pingpong.py`` (``tile-pingpong``): a persistent contraction's consumer warpgroups each
  on tiles of their own, taking turns at the ring; an attention's taking turns at the tensor
  cores (``pingpong=true``);
- ``tile_softmax_overlap.py`` (``tile-softmax-overlap``): a warp-specialised attention's key loop
  rotated, block kt's softmax under block kt - 1's P·V, where the schedule asks
  (``softmax-overlap=true``);
- ``tile_tma_store.py`` (``tile-tma-store``): the consumers of a warp-specialised kernel (a
  contraction's, or attention's) store their tile through shared memory and the copy engine
  where the schedule asks (``tma-store=true``);
- ``clone.py``: ops of a tile function cloned into a new region in program order;
- ``ring.py``: the builders of that ring (stages, phases, releases, the register split), which
  both kernels share.

Its part of the other layers, each subpackage at the layer it is named after: ``dialects/``
(``tile_hopper.py``: its tile ops, loaded by ``dialects.context()`` from the registry's
``Target.ops``), ``codegen/`` (their CUDA rules), ``executors/`` (the interpreter's warp roles
and mbarriers), ``verify/`` (the ring, the tiles as copied and read, releases, peeled blocks,
turns, the register split, the staged store).
"""
