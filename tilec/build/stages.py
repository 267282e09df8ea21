"""Running a ta function at one of the CPU stages on given inputs (what ``tilec run`` and the
fuzzer compare with the oracle): the loop IR JIT-run by MLIR, or the tile interpreter on the
function's kernel, or its kernels in turn where no one kernel takes it.

    outputs = run_stage("tile", module, signature(fn), inputs, env, "bm=64 bn=64")
"""

from __future__ import annotations

from torch_mlir import ir

from ..lowering.driver import to_loops
from .plan import Kernels
from ..executors.loop_runner import run_loops


def run_stage(stage: str, module: ir.Module, sig, inputs: dict, env: dict, schedule: str = "",
              target: str | None = None, order: str = "lowest-first"):
    """The outputs of ``stage`` ("loop"; "tile", the tile kernel lowered for ``target``, by
    default build_tile's, in the tile interpreter; "cuda", that kernel's CUDA run on the CPU
    under the model of the GPU, its threads in ``order``) on ``inputs``, or None for "ta" (the
    oracle itself)."""
    if stage == "ta":
        return None
    if stage in ("tile", "cuda"):  # the function's kernel, or its kernels in order where no one kernel takes it
        return Kernels.of(module, {"*": schedule} if schedule else {}, target=target).run(
            inputs, env=env, cuda=stage == "cuda", order=order)
    return run_loops(to_loops(module), sig, inputs, env)
