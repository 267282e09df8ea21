"""The instructions each GPU target gives the emitter: one table per target.

The CUDA emitter is one walk over tile ops; where an op becomes a target instruction it
prints the template the target's table holds, filled with the op's operands. A target is
a table (and the ops it alone has), not a mode of the emitter:

    >>> TARGETS["sm_80"].barrier
    '__syncthreads();'
    >>> TARGETS["sm_80"].mma["__nv_bfloat16"].format(d="acc", a="af", b="bf")
    'mma_bf16(acc, af, bf);'

A table per registered target (dialects/target.py; a test holds the two lists equal). A kernel
without warp roles is the same instructions on sm_80 and sm_90a (cp.async, ldmatrix, mma.sync);
sm_90a's copy-engine, mbarrier and wgmma instructions are those of the ops only it has
(tilec/targets/sm_90a/codegen/cuda_hopper.py, refused on a module for a target without them: dialects/op_rules.py check_target).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .cuda_text import PRELUDE


@dataclass(frozen=True)
class Target:
    """Templates of one target's instructions (Python format strings over named operands)."""

    name: str
    prelude: str                 # the device functions the templates call
    async_copy: str              # 16-byte global -> shared copy; bytes < 16 zero-fill
    commit: str                  # close the group of async copies
    wait: str                    # wait until at most {pending} groups are in flight
    barrier: str                 # all threads of the CTA
    ldmatrix: dict = field(default_factory=dict)   # transposed? -> four 8x8 b16 matrices
    ldmatrix_x2: dict = field(default_factory=dict)  # transposed? -> two (an odd n tile's B fragment)
    mma: dict = field(default_factory=dict)        # operand C type -> m16n8k16 mma, f32 accumulate
    shuffle_xor: str = ""        # a value from the lane {mask} away


SM80 = Target(
    name="sm_80",
    prelude=PRELUDE,
    async_copy="cp_async16({dst}, {src}, {bytes});",
    commit="cp_async_commit();",
    wait="cp_async_wait<{pending}>();",
    barrier="__syncthreads();",
    ldmatrix={False: "ldmatrix_x4({regs}, {addr});", True: "ldmatrix_x4_trans({regs}, {addr});"},
    ldmatrix_x2={False: "ldmatrix_x2({regs}, {addr});", True: "ldmatrix_x2_trans({regs}, {addr});"},
    mma={"__nv_bfloat16": "mma_bf16({d}, {a}, {b});", "__half": "mma_f16({d}, {a}, {b});"},
    shuffle_xor="__shfl_xor_sync(0xffffffffu, {value}, {mask})",
)

TARGETS = {"sm_80": SM80, "sm_90a": replace(SM80, name="sm_90a")}
