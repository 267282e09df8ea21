"""The persistent warp-specialised contraction (schedule persistent=true): its CTAs loop over
the output tiles and its mbarrier ring runs on across them. The interpreter (3 CTAs, so that
a CTA takes several tiles and some one more than others) matches the oracle at shapes that
divide no tile and size-1 dims; the verifier proves the tile loops and the ring, and refutes
each mutant of the tile loop; the runtime is told to cap the grid."""

import re
import zipfile

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import run_tile_stage as _run  # spec -> oracle and tile interpreter, compared
from test_tile_warp_specialize_contraction import THREE, _verdicts, assert_examples_match, assert_gemms_match, assert_proved, gemm
from tilec import dialects
from tilec.diagnostics import TilecError
from tilec.lowering.driver import to_tile
from tilec.frontend import spec_to_ta

ONE = "bm=64 bn=64 bk=64 warps=4 stages=2 consumers=1 persistent=true"
TWO = "bm=128 bn=128 bk=64 warps=8 stages=3 consumers=2 persistent=true"
SHAPES = [{"M": 300, "N": 200, "K": 200}, {"M": 1, "N": 1, "K": 1}, {"M": 130, "N": 129, "K": 64}]


@pytest.mark.parametrize("storage", ["mk kn", "km nk"])
@pytest.mark.parametrize("schedule", [ONE, TWO, THREE + " persistent=true"], ids=["one-consumer", "two", "three"])
def test_persistent_kernels_match_the_oracle(storage, schedule):
    assert_gemms_match(schedule, [storage], SHAPES)


def test_a_persistent_epilogue_and_batch_match_the_oracle():
    assert_examples_match(TWO, (("matmul_bias_gelu", {"M": 200, "N": 140, "K": 100}),
                                ("batched_gemm", {"Bt": 3, "M": 130, "N": 9, "K": 130})))


def test_the_tile_loops_and_ring_are_proved():
    assert_proved(TWO, ("both roles loop over the same tiles", "the n-th tile of a CTA runs ring iterations",
                        "visited by exactly one CTA's tile loop, once", "owned by exactly one tile id",
                        "no wait is left unsatisfied"))


# -- mutants of the tile loops: each a change of the emitted tile IR --------------------------
def _tile_loops(text):
    """[(line, iv, lb, ub, step)] of the persistent tile loops (their step is tile.num_programs)."""
    ctas = set(re.findall(r'(%\d+) = "tile.num_programs"', text))
    return [m for m in re.findall(r"(scf.for (%arg\d+) = (%\d+) to (%\d+) step (%\d+) \{)", text) if m[4] in ctas]


def _step_one(text):
    """each CTA visits every tile from its own on (step 1): tiles stored by several CTAs"""
    for line, *_ in _tile_loops(text):
        text = text.replace(line, re.sub(r"step %\d+ \{", "step %c1 {", line))
    return text


def _producer_from_tile_zero(text):
    """the producer starts every CTA at tile 0 (the consumers at their program id)"""
    line, _, lb, _, _ = _tile_loops(text)[0]
    tiles = re.search(r"(%\d+) = arith.ceildivsi", text).group(1)  # any index value that is not the pid
    return text.replace(line, line.replace(f"= {lb} to", f"= {tiles} to"), 1)


def _ring_restarts(text):
    """each tile starts its ring at iteration 0 (the phases of the previous tile forgotten)"""
    for ctas in set(re.findall(r'(%\d+) = "tile.num_programs"', text)):
        text = re.sub(rf"(%\d+) = arith.divsi (%\d+), {ctas} : index", r"\1 = arith.subi \2, \2 : index", text)
    return text


def _last_tiles_dropped(text):
    """the tile loops stop at the tile rows (grid_m), not at grid_m * grid_n"""
    for line, _, _, ub, _ in _tile_loops(text):
        rows = re.search(rf"{ub} = arith.muli (%\d+), %\d+ : index", text).group(1)
        text = text.replace(line, line.replace(f"to {ub} ", f"to {rows} "))
    return text


MUTANTS = [_step_one, _producer_from_tile_zero, _ring_restarts, _last_tiles_dropped]


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.__name__.strip("_") for m in MUTANTS])
def test_each_tile_loop_mutant_is_refuted(mutant):
    rows = _verdicts(TWO, mutant)
    assert any(v == "counterexample" for _, v, _ in rows), rows


def test_a_ring_that_restarts_per_tile_stalls_the_interpreter():
    """phases counted from 0 again at each tile wait for a parity the barrier already passed"""
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match="deadlock"):
            _run(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), {"M": 300, "N": 200, "K": 200}, TWO, _ring_restarts)


def test_persistent_needs_a_warp_specialised_contraction():
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match="persistent loops a warp-specialised contraction"):
            to_tile(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), "bm=128 bn=128 bk=32 warps=4 persistent=true")


def test_the_package_says_the_launch_caps_the_grid(tmp_path):
    from tilec.build.package import build

    manifest = build(str(EXAMPLES / "gemm.ta"), str(tmp_path / "g.tkp"), TWO, ("sm_90a",), use_cache=False)
    manifest = manifest["kernels"]["sm_90a"]
    assert manifest["persistent"] is True and manifest["ptxas"]["spill_stores"] == 0
    source = zipfile.ZipFile(tmp_path / "g.tkp").read("gemm.sm_90a.cu").decode()
    assert "gridDim.x" in source
    plain = build(str(EXAMPLES / "gemm.ta"), str(tmp_path / "h.tkp"), TWO.replace("true", "false"), ("sm_90a",),
                  use_cache=False)
    assert "persistent" not in plain
