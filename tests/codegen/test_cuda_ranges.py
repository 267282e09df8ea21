"""Attention's stabiliser as the CUDA emitter writes it: mask tests narrowed to 32 bits
(tilec/codegen/cuda_ranges.py) and the softmax scale folded into the exponential
(tilec/codegen/cuda_scaled.py). The kernels' numbers are checked on the GPU (tests/gpu: the
causal, biased and padded attention cases); here, what is emitted and when."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.codegen.cuda_scaled import scale_of

ONE_WARPGROUP = "bm=64,bn=128,warps=4,stages=3,consumers=1,softmax-overlap=true,occupancy=2"


def _emit(tilec, stage: str, example: str, shapes: str, schedule: str, target: str = "sm_90a") -> str:
    status, out, err = tilec("compile", EXAMPLES / example, "--emit", stage, "--shape", shapes,
                             "--schedule", schedule, "--target", target)
    assert status == 0, err
    return out


@pytest.mark.parametrize("schedule,target", [(ONE_WARPGROUP, "sm_90a"), ("bm=64,bn=64,warps=4,stages=2", "sm_80")])
def test_the_causal_mask_is_tested_in_32_bits(tilec, schedule, target):
    """S = 100 divides no key block: the masked map compares j - i with q0 - j0 (and j with
    S - j0), clamped, once per map; no element takes a 64-bit compare."""
    cuda = _emit(tilec, "cuda", "causal_attention.ta", "B=2,H=3,S=100,D=64", schedule, target)
    assert re.search(r"const int d\d+ = clamp_i32\(\(i\d+\) - \(", cuda), cuda
    assert re.search(r"const int d\d+ = clamp_i32\(\(p_S\) - \(", cuda), cuda
    tests = re.findall(r"const bool v\d+ = (.*);", cuda)
    narrowed = [t for t in tests if "clamp" not in t and re.fullmatch(r"\(.*\) - \(.*\) (<=|<) d\d+", t)]
    wide = [t for t in tests if re.search(r"\bx\d+ (<=|<) (v\d+|p_S)", t)]
    assert narrowed and not wide, tests


def test_a_test_that_is_not_a_sum_stays_wide(tilec, tmp_path):
    """``j <= 2 i``: the query side multiplies its index, so its test stays 64-bit; the
    sequence bound beside it (``j < S``) is still narrowed."""
    spec = tmp_path / "doubled.ta"
    spec.write_text((EXAMPLES / "causal_attention.ta").read_text().replace("where j <= i else", "where j <= 2 * i else"))
    status, cuda, err = tilec("compile", spec, "--emit", "cuda", "--shape", "B=2,H=3,S=100,D=64",
                              "--schedule", "bm=64,bn=64,warps=4,stages=2", "--target", "sm_80")
    assert status == 0, err
    tests = re.findall(r"const bool v\d+ = (.*);", cuda)
    assert any(re.fullmatch(r"v\d+ <= v\d+", t) for t in tests), tests
    assert any(re.fullmatch(r"\(\(int\)x\d+\) - \(0\) < d\d+", t) for t in tests), tests


def test_the_stabiliser_is_held_unscaled(tilec):
    """x = scores / sqrt(D): the map writes the scores, the row max multiplies once a row, and
    the exponential takes c log2(e) = 0.125 * 1.4427 in its FFMA."""
    cuda = _emit(tilec, "cuda", "causal_attention.ta", "B=2,H=3,S=100,D=64", ONE_WARPGROUP)
    body = cuda.split("extern \"C\"")[1]
    assert "exp_diff_scaled(" in body and "0.18033688" in body, body
    assert re.search(r"r\d+\[mi\]\[h\] = v \* 0\.125f;", body)
    assert not re.search(r"const float v\d+ = 0\.125f;", body)  # no multiply an element by the scale


def _stabiliser(module):
    """The map of the key loop that multiplies (the scores by the scale)."""
    found = []

    def walk(op):
        if op.operation.name == "tile.map" and any(x.operation.name == "arith.mulf"
                                                   for x in op.regions[0].blocks[0].operations):
            found.append(op)
            return
        for region in op.operation.regions:
            for block in region.blocks:
                for inner in block.operations:
                    walk(inner)
    walk(module.operation)
    assert found, "no stabiliser map"
    return found[0]


@pytest.mark.parametrize("mutate,scaled", [
    (lambda text: text, True),
    # the row max is a sum: c * sum y rounds otherwise than sum c y
    (lambda text: text.replace('kind = "max"', 'kind = "sum"', 1), False),
    # a finite fill: c * fill is not the fill
    (lambda text: re.sub(r"(%\w+) = arith\.constant 0xFF800000 : f32", r"\1 = arith.constant -1.0e+04 : f32", text, 1),
     False),
], ids=["as-lowered", "summed", "finite-fill"])
def test_a_tile_is_held_unscaled_only_where_every_use_allows(tilec, mutate, scaled):
    text = _emit(tilec, "tile", "causal_attention.ta", "B=1,H=1,S=128,D=64", "bm=64,bn=64,warps=4,stages=2")
    with dialects.context(), ir.Location.unknown():
        module = ir.Module.parse(mutate(text))
        found = scale_of(_stabiliser(module))
        assert (found is not None and found[2] == 0.125) if scaled else found is None


def test_an_additive_mask_adds_nothing_where_it_holds(tilec, tmp_path):
    """SDPA's causal mask as torch-mlir decomposes it adds 0 or -inf to the scores. Where the
    mask holds on the whole key block the emitter takes the scores as they are: the C compiler
    may not drop x + 0.0 (it is +0.0 for x = -0.0), and it cost 64 FADDs a key block a thread
    (docs/benchmarks.md). Where the mask is tested per element, the select and the add stay."""
    spec = tmp_path / "additive.ta"
    spec.write_text((EXAMPLES / "causal_attention.ta").read_text().replace(
        "sum[e](Q[b, h, i, e] * K[b, h, j, e]) * rsqrt(D) where j <= i else -inf",
        "sum[e](Q[b, h, i, e] * K[b, h, j, e]) * rsqrt(D) + (0 where j <= i else -inf)"))
    status, cuda, err = tilec("compile", spec, "--emit", "cuda", "--shape", "B=2,H=3,S=100,D=64",
                              "--schedule", ONE_WARPGROUP, "--target", "sm_90a")
    assert status == 0, err
    unswitched = re.findall(r"\n(\s*)if \(\(\(.*\) \{\n(.*?)\n\1\} else \{\n(.*?)\n\1\}", cuda, re.S)
    assert unswitched, cuda
    for _, held, tested in unswitched:
        assert re.search(r"r\d+\[mi\]\[ni\]\[e\] = r\d+\[mi\]\[ni\]\[e\];", held), held
        assert not re.search(r"const float v\d+ = .*(\?|\+)", held), held  # no select, no float add
        assert re.search(r"const float v\d+ = v\d+ \? v\d+ : v\d+;", tested), tested
        assert re.search(r"const float v\d+ = r\d+\[mi\]\[ni\]\[e\] \+ v\d+;", tested), tested
