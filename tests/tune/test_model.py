"""The cost model at the largest sizes a spec takes: a grid of 2^31 - 1 rows is counted as runs
of equal CTAs (closed form), never as a list with an entry per CTA, and the makespan of those
runs is the one the CTAs placed one by one would give."""

import heapq
import math
import random

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.lowering.driver import build_tile
from tilec.frontend import load_spec
from tilec.tune.gpus import gpu_named
from tilec.tune.model import estimate, makespan

H200 = gpu_named("h200")
BIG = 2**31 - 1


def _estimate(example: str, shapes: dict, schedule: str):
    with dialects.context(), ir.Location.unknown():
        build = build_tile(load_spec(str(EXAMPLES / f"{example}.ta")), shapes, schedule)
        return estimate(build.tile, dict(shapes, **build.fixed), H200)


def _one_by_one(jobs: list, slots: int) -> float:
    """The makespan as the model computed it before: every job on its own, longest first."""
    times = [t for t, n in jobs for _ in range(n)]
    free = [0.0] * min(slots, len(times))
    for t in sorted(times, reverse=True):
        heapq.heapreplace(free, free[0] + t)
    return max(free)


def test_runs_of_equal_jobs_are_placed_as_one_by_one():
    rng = random.Random(7)
    for _ in range(60):
        slots = rng.choice([1, 3, 7, 132])
        jobs = [(rng.choice([rng.uniform(1, 900), float(rng.randint(1, 4))]), rng.choice([1, 9, 5000, 20000]))
                for _ in range(rng.randint(1, 4))]
        assert makespan(jobs, slots) == pytest.approx(_one_by_one(jobs, slots), rel=1e-9)
    assert makespan([(2.0, 3), (1.0, 1)], 2) == 4.0 and makespan([], 132) == 0.0


def test_a_grid_of_2_31_rows_is_estimated_in_closed_form():
    """Sizes near 2^31: about 10^14 tiles of 128 x 256 (a list per CTA: MemoryError). The row
    lengths N and K are 2^31 - 8, whole 16-byte chunks as the copy engine needs them."""
    schedule = "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2"
    rows = BIG - 7
    est = _estimate("gemm", {"M": BIG, "N": rows, "K": rows}, schedule)
    assert est.ctas == math.ceil(BIG / 128) * math.ceil(rows / 256)
    half = _estimate("gemm", {"M": BIG // 2 + 1, "N": rows, "K": rows}, schedule)
    assert 1.99 < est.seconds / half.seconds < 2.01  # half the rows, half the waves
    persistent = _estimate("gemm", {"M": BIG, "N": rows, "K": 64}, schedule + " persistent=true")
    assert persistent.ctas == est.ctas and persistent.seconds > 0


def test_a_causal_grid_of_2_31_rows_is_sampled():
    est = _estimate("causal_attention", {"B": 1, "H": 1, "S": BIG, "D": 64}, "bm=128 bn=128 warps=8 stages=2")
    full = _estimate("attention", {"B": 1, "H": 1, "S": BIG, "T": BIG, "D": 64}, "bm=128 bn=128 warps=8 stages=2")
    assert est.ctas == full.ctas and 0.4 < est.seconds / full.seconds < 0.6


def test_compile_at_the_largest_size_picks_a_schedule(tilec):
    """The command that ran out of memory ranking schedules for M = 2^31 - 1."""
    status, out, err = tilec("compile", EXAMPLES / "gemm.ta", "--shape", f"M={BIG}", "--emit", "tile")
    assert status == 0, err
    assert f"memref<{BIG}x" in out and "the cost model's best" in err
