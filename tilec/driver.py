"""The compiler's stages, each a straight-line list of passes with the reason for each."""

from __future__ import annotations

from torch_mlir import ir

from .diagnostics import TilecError
from .pipeline import build

# ta (as the spec frontend emits it) -> loop IR
LOOP_PIPELINE = [
    "ta-decompose-softmax",   # softmax/logsumexp -> max, exp, sum, div: the form fusion reads
    "ta-canonicalize",        # fold reindexing and scales into index maps and results, fold constants
    "ta-fuse-reductions",     # reductions over one index -> one pass with running state
    "canonicalize",           # drop what fusion made dead
    "cse",
    "ta-to-loops",            # loop nests over buffers, fused reductions as one loop
]


# ta -> tile IR for the GEMM family, under a schedule (ta-to-tile's options)
def tile_pipeline(schedule: str) -> list[str]:
    return [
        "ta-decompose-softmax",            # softmax -> max, exp, sum, div: the form fusion reads
        "ta-canonicalize",                 # scales out of the contraction, reindexing folded
        "ta-fuse-reductions",              # softmax·V -> one online pass over keys
        "canonicalize",
        "cse",
        f"ta-to-tile{{{schedule}}}",       # CTA tiling, cp.async pipeline, swizzled smem, mma
        "canonicalize",                    # fold the index arithmetic of constant tile sizes
    ]


def run_passes(module: ir.Module, passes: list[str]) -> None:
    """Run ``passes`` (pipeline elements) on ``module`` in the active context."""
    pm, failures = build(f"builtin.module({', '.join(passes)})")
    try:
        pm.run(module.operation)
    except ir.MLIRError as err:
        if failures:
            raise TilecError(f"{failures[0]}") from None
        raise TilecError(f"lowering failed: {err}") from None


def to_tile(module: ir.Module, schedule: str = "") -> ir.Module:
    """The tile-IR module of a ta module (a copy), under ``schedule`` ("bm=128 bn=64 ...")."""
    copy = ir.Module.parse(str(module))
    run_passes(copy, tile_pipeline(schedule))
    return copy


def to_loops(module: ir.Module) -> ir.Module:
    """The loop-IR module of a ta module (a copy; ``module`` is left as it is)."""
    copy = ir.Module.parse(str(module))
    run_passes(copy, LOOP_PIPELINE)
    return copy


def run_stage(stage: str, module: ir.Module, sig, inputs: dict, env: dict, schedule: str = ""):
    """The outputs of ``stage`` ("loop" or "tile") on ``inputs``, or None for "ta" (the oracle itself)."""
    if stage == "ta":
        return None
    if stage == "tile":
        from .tile_interpreter import run_tile

        return run_tile(to_tile(module, schedule), sig, inputs, env)
    from .loop_runner import run_loops

    return run_loops(to_loops(module), sig, inputs, env)
