"""sm_90a (Hopper): the copy engine with mbarriers, wgmma, setmaxnreg.

Its tile -> tile passes, run after ``ta-to-tile`` in the order its registry entry lists them
(``tilec.dialects.target``: ``Target.passes``):

- ``tile_warp_specialize/`` (``tile-warp-specialize``): a staged contraction or attention
  (cp.async ring, ldmatrix, mma.sync) becomes a producer thread feeding an mbarrier ring with
  the copy engine and consumer warpgroups multiplying with wgmma from shared memory; persistent
  tile scheduling, ping-pong consumers and attention's rotated key loop as the schedule asks;
- ``tile_tma_store.py`` (``tile-tma-store``): the consumers of a warp-specialised kernel (a
  contraction's, or attention's) store their tile through shared memory and the copy engine
  where the schedule asks (``tma-store=true``);
- ``clone.py``: ops of a tile function cloned into a new region in program order;
- ``ring.py``: the builders of that ring (stages, phases, releases, the register split), which
  both kernels share.
"""
