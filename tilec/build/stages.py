"""Running a ta function at one of the CPU stages on given inputs (what ``tilec run`` and the
fuzzer compare with the oracle): the loop IR JIT-run by MLIR, or the tile interpreter on the
function's kernel, or its kernels in turn where no one kernel takes it.

    outputs = run_stage("tile", module, signature(fn), inputs, env, "bm=64 bn=64")
"""

from __future__ import annotations

from torch_mlir import ir

from ..diagnostics import TilecError
from ..lowering.driver import build_tile, to_loops
from .plan import Kernels
from ..executors.loop_runner import run_loops
from ..executors.tile_interpreter import run_tile


def run_stage(stage: str, module: ir.Module, sig, inputs: dict, env: dict, schedule: str = "",
              target: str | None = None):
    """The outputs of ``stage`` ("loop" or "tile", the tile kernel lowered for ``target``, by
    default build_tile's) on ``inputs``, or None for "ta" (the oracle itself)."""
    if stage == "ta":
        return None
    if stage == "tile":
        try:
            kernels = Kernels.of(module, {"*": schedule} if schedule else {}, target=target)
        except TilecError:  # no split into kernels either: the one kernel's own error, below
            kernels = None
        if kernels is None or kernels.single:
            return run_tile(build_tile(module, {}, schedule, target).tile, sig, inputs, env)
        return kernels.run(inputs, env=env)  # a function no one kernel takes: its kernels in order
    return run_loops(to_loops(module), sig, inputs, env)
