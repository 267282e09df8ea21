"""Building a GPU suite case (tests/gpu/cases.py) and running its CUDA on the CPU under the
runtime's model of the GPU (tilec/runtime/cpu/), against the oracle: shared by
runtime/test_cpu.py and runtime/test_cpu_mutants.py."""

from __future__ import annotations

import sys
from pathlib import Path

import torch
from torch_mlir import ir

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "gpu"))
from cases import CASES, TOLERANCE  # noqa: E402

from tilec import dialects  # noqa: E402
from tilec.build.cuda_cpu import run_cuda  # noqa: E402
from tilec.executors.oracle import evaluate  # noqa: E402
from tilec.frontend import load_spec, spec_to_ta  # noqa: E402
from tilec.lowering.driver import build_tile  # noqa: E402
from tilec.signature import bind, random_inputs, signature  # noqa: E402

_DTYPE = {torch.bfloat16: "bf16", torch.float16: "f16", torch.float32: "f32"}


def case_target(name: str) -> str:
    """sm_90a for a case only sm_90a builds (warp-specialised), else sm_80."""
    return "sm_80" if "sm_80" in CASES[name].targets else "sm_90a"


def run_case(name: str, run: dict | None = None, variant: str | None = None, edit=None,
             order: str = "lowest-first") -> float:
    """The worst error of case ``name``'s kernel run on the CPU at ``run`` (default: the case's
    first), its threads in ``order``, relative to max |oracle| per output; inf where NaNs differ.
    ``edit``: a function of the emitted kernel returning the kernel to run instead (a mutant).
    Raises TilecError (the model's message)."""
    case = CASES[name]
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(ROOT / case.spec)) if case.spec.endswith(".ta") and "\n" not in case.spec \
            else spec_to_ta(case.spec, f"{name}.ta")
        build = build_tile(module, case.fixed, case.schedule, case_target(name))
        fn = module.body.operations[0]
        sig = signature(fn)
        env = bind(sig, {**(run or case.runs[0]), **build.fixed})
        inputs = random_inputs(sig, env, 0)
        expected = evaluate(fn, inputs, env)
        kernel = None
        if edit is not None:
            from tilec.codegen.cuda import emit_cuda
            kernel = edit(emit_cuda(build.tile))
        got = run_cuda(build, sig, inputs, env, variant, kernel, order)
    worst = 0.0
    for spec in sig.outputs:
        want, have = expected[spec.name].float(), got[spec.name].float()
        if not torch.equal(torch.isnan(want), torch.isnan(have)):
            return float("inf")
        kept = ~torch.isnan(want)
        if kept.any():
            scale = max(want[kept].abs().max().item(), 1e-6)
            worst = max(worst, (want[kept] - have[kept]).abs().max().item() / scale)
    return worst


def tolerance(name: str) -> float:
    """The GPU suite's tolerance for the case's output type."""
    with dialects.context(), ir.Location.unknown():
        case = CASES[name]
        module = load_spec(str(ROOT / case.spec)) if case.spec.endswith(".ta") and "\n" not in case.spec \
            else spec_to_ta(case.spec, f"{name}.ta")
        return max(TOLERANCE[_DTYPE[s.dtype]] for s in signature(module.body.operations[0]).outputs)
