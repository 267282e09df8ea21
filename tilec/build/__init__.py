"""Building what ships: the plan of a function's kernels (one, or the sequence the graph layer
cuts it into), their packages (.tkp, .tkg) and the verification of exactly those modules.

Layers, top down: ``tilec.cli`` > ``tilec.build`` > ``tilec.graph`` > ``tilec.lowering``, with
the CPU executors (``tilec.executors``) beside them; nothing imports upward.
"""
