"""A ping-pong warpgroup owning 128 rows (schedule pingpong=true persistent=true, bm=128): it
multiplies its tile as two wgmma m64 slabs, A's rows 0-63 and 64-127, its accumulator laid out
as ``#tile.mma<[4, 1, 2]>`` (warp w at rows 16 w.. of each slab). While one warpgroup runs its
epilogue, the other multiplies a tile as large as a two-warpgroup CTA's. The interpreter
matches the oracle; the verifier proves the slabs' descriptor reads and the accumulator's place
in wgmma's D fragments, and refutes a layout without slabs; the CUDA issues one wgmma per slab
and k16 step."""

import re
import zipfile

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from test_tile_warp_specialize_contraction import _verdicts, assert_examples_match, assert_gemms_match, assert_proved
from tilec import dialects
from tilec.dialects._verify import Invalid
from tilec.dialects.layout import MmaLayout, WarpTiling
from tilec.dialects.tile import register_layout, register_layout_attr
from tilec.verify.fragments import wgmma_accumulator_matches_ptx

PP128 = "bm=128 bn=64 bk=64 warps=8 stages=3 consumers=2 pingpong=true persistent=true"
SHAPES = [{"M": 300, "N": 200, "K": 200}, {"M": 1, "N": 1, "K": 1}, {"M": 130, "N": 129, "K": 64}]


@pytest.mark.parametrize("storage", ["mk kn", "km nk"])
def test_two_slab_kernels_match_the_oracle(storage):
    assert_gemms_match(PP128, [storage], SHAPES)


def test_two_slab_epilogues_batches_and_shared_a_match_the_oracle():
    assert_examples_match(PP128, (("matmul_bias_gelu", {"M": 200, "N": 140, "K": 130}),
                               ("batched_gemm", {"Bt": 3, "M": 130, "N": 9, "K": 130}),
                               ("swiglu", {"M": 200, "N": 72, "K": 130})))


def test_the_slabs_reads_and_the_accumulator_are_proved():
    assert_proved(PP128, ("wgmma accumulator 128x64: registers sit where the PTX D fragment table puts them",
                          "wgmma reads through its descriptor", "stored element is the fused ta's"))


def _slabs_dropped(text):
    """the accumulator laid out as one 128-row slab over 4 warps (32 contiguous rows a warp),
    where each wgmma m64 gives a warp 16 rows of each 64-row slab"""
    return text.replace("#tile.mma<[4, 1, 2]>", "#tile.mma<[4, 1]>")


def test_an_accumulator_without_its_slabs_is_refuted():
    rows = _verdicts(PP128, _slabs_dropped)
    bad = [r for r in rows if r[1] != "proved"]
    assert bad and all(v == "counterexample" for _, v, _ in bad), bad
    assert any("wgmma accumulator" in c for c, _, _ in bad), bad


@pytest.mark.parametrize("tiling", [WarpTiling(128, 64, 4, rows_only=True, slabs=2),
                                    WarpTiling(128, 128, 8, rows_only=True),    # two warpgroups, a slab each
                                    WarpTiling(64, 256, 4, rows_only=True)],
                         ids=["one-warpgroup-two-slabs", "two-warpgroups", "one-slab"])
def test_wgmma_accumulator_tilings_are_proved(tiling):
    assert wgmma_accumulator_matches_ptx(tiling).verdict == "proved"


def test_contiguous_rows_are_not_two_wgmma_slabs():
    outcome = wgmma_accumulator_matches_ptx(WarpTiling(128, 64, 4, rows_only=True))
    assert outcome.verdict == "counterexample" and "the PTX ISA wants" in outcome.detail


def test_the_slabs_travel_in_the_layout_attribute():
    with dialects.context(), ir.Location.unknown():
        attr = register_layout_attr(MmaLayout(4, 1, 2))
        assert str(attr) == "#tile.mma<[4, 1, 2]>"
        t = ir.RankedTensorType.get([128, 64], ir.F32Type.get(), attr)
        assert register_layout(t) == MmaLayout(4, 1, 2)
        assert str(register_layout_attr(MmaLayout(8, 1))) == "#tile.mma<[8, 1]>"  # one slab: as before
        bad = ir.RankedTensorType.get([128, 64], ir.F32Type.get(), ir.Attribute.parse("#tile.mma<[4, 1, 2, 2]>"))
        with pytest.raises(Invalid, match=re.escape("[wm, wn] or [wm, wn, slabs]")):
            register_layout(bad)


def test_the_cuda_issues_a_wgmma_per_slab(tmp_path):
    from tilec.build.package import build

    schedule = PP128.replace("bn=64", "bn=128").replace("stages=3", "stages=4") + " tma-store=true"
    manifest = build(str(EXAMPLES / "gemm.ta"), str(tmp_path / "g.tkp"), schedule, ("sm_90a",), use_cache=False)
    manifest = manifest["kernels"]["sm_90a"]
    facts = manifest["ptxas"]
    assert facts["spill_stores"] == 0 and not facts["wgmma_serialized"], facts
    source = zipfile.ZipFile(tmp_path / "g.tkp").read("gemm.sm_90a.cu").decode()
    calls = re.findall(r"wgmma_m64n128k16_\w+\(&(\w+)\[(\d)\]\[0\]\[0\], da \+ (\d+), db \+ (\d+)\);", source)
    assert len(calls) == 8  # 4 k16 steps, 2 slabs
    slab0, slab1 = calls[0], calls[1]
    assert (slab0[1], slab1[1]) == ("0", "1") and slab0[3] == slab1[3]  # the same B, the next accumulator tile
    assert int(slab1[2]) - int(slab0[2]) == 64 * 64 * 2 >> 4  # A's rows 64.. of the 128-byte swizzled tile
    assert "(warp / 4) *" not in source


def test_ping_pong_tiles_of_other_heights_are_refused():
    from test_tile_warp_specialize_contraction import gemm
    from tilec.diagnostics import TilecError
    from tilec.lowering.driver import to_tile
    from tilec.frontend import spec_to_ta

    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match=re.escape("one or two 64-row wgmma slabs (bm = 64 or 128)")):
            to_tile(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), PP128.replace("bm=128", "bm=192"))
        # two slabs of 256 columns are 256 accumulators a thread
        with pytest.raises(TilecError, match="accumulators per thread"):
            to_tile(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), PP128.replace("bn=64", "bn=256"))
