"""sm_90a (Hopper): the copy engine with mbarriers, wgmma, setmaxnreg.

Its tile -> tile passes, run after ``ta-to-tile`` in the order its registry entry lists them
(``tilec.dialects.target``: ``Target.passes``):

- ``tile_warp_specialize.py`` (``tile-warp-specialize``): a staged contraction (cp.async ring,
  ldmatrix, mma.sync) becomes a producer thread feeding an mbarrier ring with the copy engine
  and consumer warpgroups multiplying with wgmma from shared memory; persistent tile
  scheduling, ping-pong consumers and the store through the copy engine as the schedule asks;
- ``ring.py``: the builders of that ring (stages, phases, releases, the register split), which
  the warp-specialised attention kernel shares.
"""
