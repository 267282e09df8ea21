"""tma_store=true: a warp-specialised contraction stores its tile through shared-memory staging
buffers with the copy engine (tile.tma_store). The interpreter, whose copy engine reads a buffer
as late as a wait allows, matches the oracle (one tile per CTA, persistent, ping-pong; bf16 and
f16 outputs; odd chunk counts; epilogues, batches, SwiGLU); the
verifier proves the staging rows and refutes each mutant; the CUDA kernel compiles without
spills or serialised wgmmas and reads the output's tensor map."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import run_tile_stage as _run
from tile_runs import check_tile_stage as _check
from test_tile_warp_specialize_contraction import _verdicts, assert_examples_match, assert_gemms_match, assert_proved, gemm
from tilec import dialects
from tilec.targets.sm_90a.executors import cta_ops
from tilec.diagnostics import TilecError
from tilec.dialects.schedule import Schedule
from tilec.targets.sm_90a.dialects.tile_hopper import staging_pending
from tilec.lowering.driver import to_tile
from tilec.frontend import load_spec, spec_to_ta
from tilec.targets.sm_90a.verify.staged_store import buffer_reuse

COOP = "bm=128 bn=128 bk=64 warps=8 stages=3 consumers=2 persistent=true tma-store=true"
THREE_CHUNKS = "bm=128 bn=192 bk=64 warps=8 stages=2 consumers=2 tma-store=true"
PP = "bm=64 bn=128 bk=64 warps=8 stages=3 consumers=2 pingpong=true persistent=true tma-store=true"
BATCHED = ("param Bt = 4, M = 128, N = 96, K = 64\ninput A[Bt, M, K] : bf16\ninput B[Bt, K, N] : bf16\n"
           "output C[Bt, M, N] : bf16\nC[b, i, j] = sum[k](A[b, i, k] * B[b, k, j])\n")
SHAPES = [{"M": 300, "N": 200, "K": 200}, {"M": 1, "N": 1, "K": 1}, {"M": 130, "N": 129, "K": 64}]


@pytest.mark.parametrize("schedule", [COOP, THREE_CHUNKS, PP], ids=["persistent", "three-chunks", "pingpong"])
@pytest.mark.parametrize("out", ["f16", "bf16"])
def test_staged_stores_match_the_oracle(schedule, out):
    assert_gemms_match(schedule, ["mk kn", "km nk"], SHAPES, out=out)


@pytest.mark.parametrize("schedule", [COOP, PP], ids=["persistent", "pingpong"])
def test_staged_epilogues_batches_and_shared_a_match_the_oracle(schedule):
    assert_examples_match(schedule, (("matmul_bias_gelu", {"M": 200, "N": 140, "K": 400}),
                                     ("swiglu", {"M": 200, "N": 72, "K": 400})))
    with dialects.context(), ir.Location.unknown():  # a batch with a bf16 output (batched_gemm.ta's is f32)
        results = _run(spec_to_ta(BATCHED, "batched.ta"), {"Bt": 3, "M": 130, "N": 16, "K": 130}, schedule)
    assert all(r.ok for r in results), [str(r) for r in results]


ATTENTION = "bm=128 bn=64 warps=8 stages=2 consumers=2 tma-store=true"


@pytest.mark.parametrize("example,shapes", [
    ("attention", {"B": 1, "H": 2, "S": 130, "T": 70, "D": 64}),
    ("attention", {"B": 2, "H": 1, "S": 1, "T": 1, "D": 128}),
    ("causal_attention", {"B": 1, "H": 2, "S": 150, "D": 128}),
    ("einsum_attention", {"B": 1, "H": 2, "S": 70, "T": 33, "D": 64}),
], ids=["attention", "size-1-d128", "causal-d128", "einsum-order"])
def test_staged_attention_outputs_match_the_oracle(example, shapes):
    with dialects.context(), ir.Location.unknown():
        results = _check(load_spec(str(EXAMPLES / f"{example}.ta")), shapes, ATTENTION)
    assert all(r.ok for r in results), [str(r) for r in results]


def test_a_staged_attention_output_is_proved():
    assert_proved(ATTENTION, ("the layout is a bijection onto the chunk", "rewritten only after the copy engine read it",
                              "touch each bank once per wavefront"), path=str(EXAMPLES / "causal_attention.ta"))


def test_a_buffer_rewritten_before_its_store_read_it_stores_the_wrong_chunk(monkeypatch):
    """one more store allowed in flight: the next tile's first chunk overwrites buffer 0 while
    the store of the tile before has not read it"""
    monkeypatch.setattr(cta_ops, "staging_pending", lambda c, chunks, buffers: buffers)
    with dialects.context(), ir.Location.unknown():
        results = _run(spec_to_ta(gemm("mk", "kn", out="bf16"), "hopper.ta"), SHAPES[0], COOP)
    assert not all(r.ok for r in results)


def test_the_staging_is_proved():
    claims = ("the layout is a bijection onto the chunk", "the copy engine's box reads where the layout places",
              "touch each bank once per wavefront", "rewritten only after the copy engine read it",
              "use disjoint buffers", "stored element is the fused ta's")
    spec = gemm("mk", "kn", out="bf16")
    assert_proved(COOP, claims, spec=spec)
    assert_proved(PP, claims, spec=spec)
    assert_proved(THREE_CHUNKS, claims[:4], spec=gemm("km", "nk", out="f16"))


@pytest.mark.parametrize("chunks, buffers", [(1, 2), (2, 2), (3, 2), (4, 2), (5, 3), (8, 2)])
def test_the_buffer_reuse_lemma_holds_and_fails_one_store_later(chunks, buffers):
    assert buffer_reuse(chunks, buffers).verdict == "proved"
    late = buffer_reuse(chunks, buffers, lambda c, n, b: staging_pending(c, n, b) + 1)
    assert late.verdict == "counterexample"


# -- mutants: each a change of the emitted tile IR --------------------------------------------
def _unswizzled(text):
    """the staging tile without the 128-byte swizzle: a warp's rows fall in one bank group"""
    return re.sub(r'(tile.alloc"\(\) \{layout = #tile.layout<\[(?:128|64), 64\], \[64, 1\]), \[3, 3, 3\]>\}'
                  r'( : \(\) -> memref<[24]x)', r"\1, [0, 0, 0]>}\2", text, count=1)


def _overlapping_sets(text):
    """warpgroup g's buffers start at g, not 2 g: warpgroups 0 and 1 share buffer 1"""
    wg = re.search(r'(%\d+) = "tile.warpgroup_id"', text).group(1)
    return re.sub(r'("tile.tma_store"\(.*, )(%\w+)\) \{sets = 2', rf"\g<1>{wg}) {{sets = 2", text)


def _sets_of_one(text):
    """the staging tile counted as one set of four buffers, which two warpgroups share"""
    return text.replace("{sets = 2 : i64}", "{sets = 1 : i64}")


def _rows_for_columns(text):
    """the tile stored at (n0, m0)"""
    store = re.search(r'"tile.tma_store"\((%\w+), (%\w+), (%\w+), (%\w+),', text)
    v, dst, m0, n0 = store.groups()
    return text.replace(store.group(0), f'"tile.tma_store"({v}, {dst}, {n0}, {m0},')


@pytest.mark.parametrize("schedule, mutant", [(COOP, _unswizzled), (PP, _overlapping_sets), (PP, _sets_of_one),
                                              (COOP, _rows_for_columns)],
                         ids=["unswizzled", "overlapping-sets", "sets-of-one", "rows-for-columns"])
def test_each_staging_mutant_is_refuted(schedule, mutant):
    rows = _verdicts(schedule, mutant, spec=gemm("mk", "kn", out="bf16"))
    assert any(v == "counterexample" for _, v, _ in rows), [r for r in rows if r[1] != "proved"]


def test_tma_store_says_what_it_needs():
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match="needs the contraction or online form and consumers >= 1"):
            to_tile(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), "bm=128 bn=128 bk=32 warps=8 stages=3 tma-store=true")
        with pytest.raises(TilecError, match="stages 16-bit outputs"):
            to_tile(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), COOP)
    # the staging buffers count against shared memory: four stages of 128 x 256 leave room for them
    fits = Schedule(bm=128, bn=256, bk=64, warps=8, stages=4, consumers=2, tma_store=True)
    assert fits.staging_bytes() == 2 * 128 * 128 and not fits.legal("contraction", target="sm_90a")
    assert Schedule(bm=128, bn=256, bk=64, warps=8, stages=5, consumers=2, tma_store=True).legal("contraction",
                                                                                                 target="sm_90a")


def test_the_cuda_kernel_stores_through_the_output_tensor_map(tmp_path):
    import zipfile

    from tilec.build.package import build

    manifest = build(str(EXAMPLES / "gemm.ta"), str(tmp_path / "g.tkp"),
                     COOP.replace("bn=128", "bn=256").replace("stages=3", "stages=4"), ("sm_90a",), use_cache=False)
    manifest = manifest["kernels"]["sm_90a"]
    facts = manifest["ptxas"]
    assert facts["spill_stores"] == 0 and not facts["wgmma_serialized"], facts
    assert {"arg": "C", "box": [128, 64], "swizzle": 128} in manifest["tensor_maps"]
    assert manifest["smem_bytes"] <= 227 * 1024
    source = zipfile.ZipFile(tmp_path / "g.tkp").read("gemm.sm_90a.cu").decode()
    assert source.count("tma_store_2d(&tm_C") == 4 and "bulk_wait_read<0>()" in source
