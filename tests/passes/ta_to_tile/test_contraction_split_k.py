"""Split-K in the contraction matcher: the tile program, run by the interpreter (every CTA in
turn, the launch's workspace shared), equals the oracle at shapes that divide no tile, with
splits that get no K tile, size-1 dims, a batch and an epilogue; schedules it cannot build are
refused with their reasons."""

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import run_tile_stage
from tilec import dialects
from tilec.dialects.schedule import Schedule
from tilec.diagnostics import TilecError
from tilec.frontend import load_spec, spec_to_ta
from tilec.lowering.driver import to_tile

RUNS = {
    "gemm": [{"M": 257, "N": 129, "K": 65}, {"M": 1, "N": 1, "K": 1}, {"M": 40, "N": 70, "K": 1000}],
    "batched_gemm": [{"Bt": 3, "M": 17, "N": 9, "K": 40}, {"Bt": 1, "M": 32, "N": 32, "K": 1}],
    "matmul_bias_gelu": [{"M": 33, "N": 70, "K": 100}],
}
SCHEDULES = ["bm=32 bn=32 bk=16 stages=2 split-k=2", "bm=32 bn=64 bk=16 stages=4 split-k=3",
             "bm=64 bn=32 bk=32 stages=3 group-m=2 split-k=5",  # K = 65: two of the five get no k tile
             "bm=64 bn=64 bk=64 warps=4 stages=3 consumers=1 split-k=3"]  # sm_90a's warp-specialised form


@pytest.mark.parametrize("name", sorted(RUNS))
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_split_k_at_tile_stage(name, schedule):
    for shapes in RUNS[name]:
        with dialects.context(), ir.Location.unknown():
            results = run_tile_stage(load_spec(str(EXAMPLES / f"{name}.ta")), shapes, schedule)
        assert all(r.ok for r in results), (shapes, [str(r) for r in results])


def test_a_lost_part_gives_wrong_numbers():
    """The interpreter runs the op's meaning: a count of one split more than the grid launches
    leaves every tile unfinished, and says so."""
    with dialects.context(), ir.Location.unknown(), pytest.raises(TilecError, match="fewer parts added"):
        run_tile_stage(load_spec(str(EXAMPLES / "gemm.ta")), {"M": 40, "N": 40, "K": 100}, SCHEDULES[0],
                       mutate=lambda t: t.replace("{splits = 2 : i64}", "{splits = 3 : i64}"))


@pytest.mark.parametrize("schedule, form, sizes, reason", [
    (Schedule(split_k=2), "rows", {}, "it needs the contraction form"),
    (Schedule(split_k=2), "contraction", {"b_operands": 2}, "split-K takes one contraction"),
    (Schedule(bm=128, bn=128, bk=64, warps=8, consumers=2, persistent=True, split_k=2), "contraction", {},
     "persistent=false and tma_store=false"),
])
def test_schedules_split_k_cannot_build(schedule, form, sizes, reason):
    assert any(reason in r for r in schedule.legal(form, sizes, "sm_90a"))


def test_split_k_bounds():
    with pytest.raises(ValueError, match="split 1 to 16 ways"):
        Schedule(split_k=17)
    assert "split-k=4" in Schedule(split_k=4).as_text()


def test_several_contractions_are_refused_with_a_split():
    spec = ("param M, N, K\ninput X[M, K] : bf16\ninput Wg[K, N] : bf16\ninput Wu[K, N] : bf16\n"
            "output Y[M, N] : bf16\nY[i, j] = sum[k](X[i, k] * Wg[k, j]) * sum[k](X[i, k] * Wu[k, j])\n")
    with dialects.context(), ir.Location.unknown(), pytest.raises(TilecError, match="split-K takes one contraction"):
        to_tile(spec_to_ta(spec, "two.ta"), "bm=64 bn=64 bk=32 split-k=2")
