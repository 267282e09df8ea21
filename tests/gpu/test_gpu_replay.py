"""Graph replay on the GPU (tilec/runtime/replay.py): a kernel replayed from its captured graph
gives what it gives launched, reads its inputs as they are at each replay, returns fresh
results unless told not to, and captures anew for inputs elsewhere. Uses the build's "tune"
fixture (GEMM 300x520x200)."""

from __future__ import annotations

import os
from pathlib import Path

import torch

from gpu_runs import tune_fixture_kernel
from tilec.runtime import Replay

BUILD = Path(os.environ.get("TILEC_GPU_CASES", Path(__file__).resolve().parents[2] / "build" / "gpu-cases"))


def _kernel():
    return tune_fixture_kernel(BUILD)


def test_a_replayed_kernel_gives_what_it_gives_launched():
    kernel = _kernel()
    run = Replay(kernel)
    a = torch.randn(300, 200, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(200, 520, device="cuda", dtype=torch.bfloat16)
    outs = [run(a, b) for _ in range(4)]  # run, run and capture, replay, replay
    assert (run.captures, run.replays) == (1, 2)
    launched = kernel(a, b)
    for out in outs:
        assert torch.equal(out, launched)
    assert outs[2].data_ptr() != outs[3].data_ptr()  # fresh results
    a.copy_(torch.randn_like(a))  # read as it is at the replay
    assert torch.equal(run(a, b), kernel(a, b))
    assert torch.equal(run(a.clone(), b), kernel(a, b))  # elsewhere: run as usual, not replayed
    assert run.replays == 3


def test_static_results_are_the_graphs_own():
    kernel = _kernel()
    run = Replay(kernel, results="static")
    a = torch.randn(300, 200, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(200, 520, device="cuda", dtype=torch.bfloat16)
    run(a, b), run(a, b)
    first = run(a, b)
    a.mul_(2)
    second = run(a, b)
    assert second is first and torch.equal(second, kernel(a, b))
