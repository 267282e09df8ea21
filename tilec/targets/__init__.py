"""What each target adds to the compiler, one folder per target.

A target is registered in ``tilec.dialects.target`` (its limits, its features and the tile ->
tile passes of its pipeline); what it alone has lives in its folder here:
``tilec.targets.sm_90a`` holds the passes that turn the staged tile program every matcher
builds into sm_90a's warp-specialised kernel (docs/targets.md).
"""
