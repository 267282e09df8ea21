"""The CPU executors, one per stage, side by side: the oracle (ta run by torch), the loop runner
(loop IR JIT-run by MLIR) and the tile interpreter (every CTA in turn), and the comparison of a
stage's outputs with the oracle's. They import no build, graph or command-line module.
"""
