"""The kernels the GPU suite runs: every form ``tilec.lowering.driver.build_tile`` lowers, as data.

Each case is a spec (text, or a path under examples/), the schedule it is built with, the
sizes fixed at compile time, and the sizes it is run at. Run sizes divide no tile and
include size-1 dims; for the GEMMs they also pick both kernel variants (rows of whole
16-byte chunks take the cp.async kernel, others the element-copy one), for attention the
head dim always does, so only a bias row can make a call unaligned.

To add a form, add cases here and rebuild (tests/gpu/build.py); the test file reads the
manifest the build writes, so nothing else changes. For example, a row program:

    CASES["softmax"] = Case("examples/softmax.ta", "bm=4 bn=128 warps=4",
                            runs=[{"N": 97, "C": 1000}, {"N": 1, "C": 1}])
"""

from __future__ import annotations

from dataclasses import dataclass, field

# max |actual - oracle| allowed, relative to max |oracle|, by output dtype: a few ulps of the
# output rounding (both sides round the same f32 sum; only the summation order and, in
# attention, P's rounding to the input dtype differ)
TOLERANCE = {"bf16": 2e-2, "f16": 3e-3, "f32": 1e-4}


@dataclass(frozen=True)
class Case:
    """One kernel package and the sizes it is run at.

    spec: spec text, or a path relative to the repository root ("examples/gemm.ta");
    schedule: ta-to-tile's options ("" is the default schedule);
    runs: parameter sizes per call (parameters left out take the spec's defaults);
    fixed: sizes bound at compile time (a head dim left out takes its default)."""

    spec: str
    schedule: str
    runs: list[dict]
    fixed: dict = field(default_factory=dict)
    targets: tuple = ("sm_80", "sm_90a")  # the builds that include it
    graph: str = ""  # "f32" or "bf16": a spec of several kernels, built as a graph package (.tkg),
    # with the tensors between its kernels stored in that type
    conflicts: bool = False  # the schedule's shared-memory reads have bank conflicts (swizzle=false): the
    # package is built unverified, its correctness on the GPU being what the case checks


def gemm_spec(a: str, b: str, dtype: str, out: str) -> str:
    """C[M, N] = A·B with A stored "mk" or "km" and B stored "kn" or "nk"."""
    dims = {"mk": ("[M, K]", "[i, k]"), "km": ("[K, M]", "[k, i]"),
            "kn": ("[K, N]", "[k, j]"), "nk": ("[N, K]", "[j, k]")}
    return (f"param M, N, K\ninput A{dims[a][0]} : {dtype}\ninput B{dims[b][0]} : {dtype}\n"
            f"output C[M, N] : {out}\nC[i, j] = sum[k](A{dims[a][1]} * B{dims[b][1]})\n")


QK = "sum[e](Q[b, h, i, e] * K[b, h, j, e]) * rsqrt(D)"  # the scaled scores


def guarded_attention_spec(scores: str, out: str = "f32") -> str:
    """Attention as torch's SDPA means it: a query row whose keys are all masked gets 0 (the
    softmax's own max, kept by the kernel as its running max, guards it)."""
    return (f"param B, H, S, T, D = 64\ninput Q[B, H, S, D] : bf16\ninput K[B, H, T, D] : bf16\n"
            f"input V[B, H, T, D] : bf16\noutput O[B, H, S, D] : {out}\n"
            f"let X[b, h, i, j] = {scores}\n"
            f"O[b, h, i, d] = sum[j](select(max[k](X[b, h, i, k]) == -inf, 0, softmax[j](X[b, h, i, j])) "
            f"* V[b, h, j, d])\n")


def attention_spec(scores: str, out: str = "bf16", dtype: str = "bf16", extra: str = "") -> str:
    """O[b, h, i, d] = sum over j of softmax[j](``scores``) * V[b, h, j, d]."""
    return (f"param B, H, S, T, D = 64\ninput Q[B, H, S, D] : {dtype}\ninput K[B, H, T, D] : {dtype}\n"
            f"input V[B, H, T, D] : {dtype}\n{extra}output O[B, H, S, D] : {out}\n"
            f"O[b, h, i, d] = sum[j](softmax[j]({scores}) * V[b, h, j, d])\n")


# M, N, K: 257/129/65 divide no tile and are no whole chunk (element copies); 264/136/72
# divide no tile but are whole chunks of bf16, f16 and f32 (cp.async); then size-1 dims
GEMM_RUNS = [
    {"M": 257, "N": 129, "K": 65},
    {"M": 264, "N": 136, "K": 72},
    {"M": 1, "N": 1, "K": 1},
    {"M": 1, "N": 136, "K": 200},
    {"M": 130, "N": 1, "K": 8},
]
# query and key lengths that divide no block, S != T both ways, one query and one key
ATTENTION_RUNS = [
    {"B": 2, "H": 3, "S": 97, "T": 130},
    {"B": 1, "H": 2, "S": 130, "T": 97},
    {"B": 1, "H": 1, "S": 1, "T": 1},
    {"B": 3, "H": 1, "S": 17, "T": 1},
]
ODD = (999, 1001, 77)  # row lengths of no whole 16-byte chunk (bf16: 1998, 2002, 154 bytes)
SQUARE_RUNS = [{"B": 2, "H": 3, "S": 97}, {"B": 1, "H": 2, "S": 130}, {"B": 1, "H": 1, "S": 1}]

# sm_90a's warp-specialised kernels read through the copy engine: rows of whole 16-byte chunks
# (every size a multiple of 8 for 16-bit inputs); 264/136/72 divide no tile, K = 1000 takes
# the 4-stage ring round four times (both mbarrier parities, twice each)
HOPPER_RUNS = [{"M": 264, "N": 136, "K": 72}, {"M": 8, "N": 8, "K": 8}, {"M": 520, "N": 264, "K": 1000}]
# a persistent kernel's: K = 520 runs the ring round more than once within a tile
PERSISTENT_RUNS = HOPPER_RUNS[:2] + [{"M": 136, "N": 264, "K": 520}]
WGMMA2 = "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2"
PINGPONG = "bm=64 bn=64 bk=64 warps=8 stages=2 consumers=2 pingpong=true persistent=true"
PINGPONG_RUNS = [{"M": 2112, "N": 520, "K": 256}, {"M": 8, "N": 8, "K": 8}]
WGMMA1 = "bm=64 bn=128 bk=64 warps=4 stages=3 consumers=1"
SM90 = ("sm_90a",)
# z = x·Wᵀ + bias + residual, y = gelu(z): z held in registers, its map reading a column vector
# and a tile of global memory at each accumulator element
RESIDUAL_LINEAR = ("param M, N, K\ninput X[M, K] : bf16\ninput W[N, K] : bf16\ninput bias[N] : bf16\n"
                   "input R[M, N] : bf16\noutput Y[M, N] : bf16\n"
                   "let Z[i, j] = sum[k](X[i, k] * W[j, k]) + bias[j] + R[i, j]\n"
                   "Y[i, j] = 0.5 * Z[i, j] * (1 + erf(Z[i, j] * 0.7071067811865476))\n")
WGMMA_FLASH2 = "bm=128 bn=128 warps=8 stages=2 consumers=2"
OVERLAP = "bm=128 bn=128 warps=8 stages=3 consumers=2 softmax-overlap=true"
OVERLAP_ONE = "bm=64 bn=64 warps=4 stages=2 consumers=1 softmax-overlap=true"

SMALL = "bm=64 bn=64 bk=32 warps=4 stages=2"
FLASH = "bm=64 bn=64 warps=4 stages=2"

# RoPE over Llama's head dim of 64 (two halves of 32), the projection read as [B, H, T, D]
ROPE_64 = ("param B, T, H\ninput X[B, T, H, 2, 32] : bf16\ninput Cos[T, 32] : bf16\ninput Sin[T, 32] : bf16\n"
           "output Lo[B, H, T, 32] : bf16\noutput Hi[B, H, T, 32] : bf16\n"
           "Lo[b, h, t, i] = X[b, t, h, 0, i] * Cos[t, i] - X[b, t, h, 1, i] * Sin[t, i]\n"
           "Hi[b, h, t, i] = X[b, t, h, 1, i] * Cos[t, i] + X[b, t, h, 0, i] * Sin[t, i]\n")
ROWS = "bm=8 bn=256 warps=4"
ROW_RUNS = [{"N": 97, "C": 1000}, {"N": 33, "C": 4096}, {"N": 5, "C": 777}, {"N": 1, "C": 1}]

KV_PROJECTION = ("param B, H, S, T\nconst G = 4\nconst D = 64\ninput Q[B, H, S, D] : bf16\n"
                 "input K[B, T, H / G * D] : bf16\ninput V[B, T, H / G * D] : bf16\noutput O[B, H, S, D] : bf16\n"
                 "O[b, h, i, d] = sum[j](softmax[j](sum[e](Q[b, h, i, e] * K[b, j, h / G * D + e]) * rsqrt(D)) "
                 "* V[b, j, h / G * D + d])\n")

CASES: dict[str, Case] = {
    # -- GEMM: operand storage (n: as written, t: transposed), dtypes, schedules
    "gemm_nn": Case("examples/gemm.ta", "", GEMM_RUNS),
    "gemm_nn_small_tiles": Case("examples/gemm.ta", "bm=32 bn=64 bk=16 warps=4 stages=4 swizzle=false group-m=1",
                                GEMM_RUNS, conflicts=True),
    "gemm_nn_one_warp": Case("examples/gemm.ta", "bm=16 bn=16 bk=16 warps=1 stages=2", GEMM_RUNS[:3]),
    "gemm_nn_8_warps": Case("examples/gemm.ta", "bm=128 bn=128 bk=32 warps=8 stages=4", GEMM_RUNS[:3]),
    "gemm_tn": Case(gemm_spec("km", "kn", "bf16", "bf16"), SMALL, GEMM_RUNS),
    "gemm_nt": Case(gemm_spec("mk", "nk", "bf16", "f32"), SMALL, GEMM_RUNS),
    "gemm_tt": Case(gemm_spec("km", "nk", "f16", "f32"), SMALL, GEMM_RUNS),
    "gemm_f16": Case(gemm_spec("mk", "kn", "f16", "f16"), SMALL, GEMM_RUNS),
    "gemm_f32_nn": Case(gemm_spec("mk", "kn", "f32", "f32"), "bm=64 bn=64 bk=16 stages=2", GEMM_RUNS),
    "gemm_f32_nt": Case("examples/gemm_f32_nt.ta", "bm=64 bn=64 bk=16 stages=2", GEMM_RUNS),
    # a bf16 operand by an f16 one: no mma.sync takes both, so they multiply in f32 (once emitted as an
    # f16 mma.sync reading the bf16 bits; found by running the CUDA on the CPU model, tilec/runtime/cpu)
    "gemm_bf16_by_f16": Case(gemm_spec("mk", "kn", "bf16", "f32").replace("input B[K, N] : bf16",
                                                                          "input B[K, N] : f16"), SMALL, GEMM_RUNS[:3]),
    # rows of no whole 16-byte chunks: the element-copy variant (the copy engine's schedules refuse them)
    "gemm_nt_odd_rows": Case(gemm_spec("mk", "nk", "bf16", "bf16"), SMALL,
                             [{"M": 64, "N": 48, "K": k} for k in ODD] + [{"M": 77, "N": 999, "K": 1001}]),
    "gemm_fixed_k": Case(gemm_spec("mk", "kn", "bf16", "f32"), SMALL,
                         [{"M": 257, "N": 129}, {"M": 1, "N": 1}], fixed={"K": 72}),
    # a scale inside the sum and swapped factors: hoisted into the epilogue
    "gemm_scaled": Case("param M, N, K\ninput A[M, K] : bf16\ninput B[K, N] : bf16\noutput C[M, N] : bf16\n"
                        "C[i, j] = sum[k](B[k, j] * A[i, k] * 0.5)\n", SMALL, GEMM_RUNS[:3]),
    "gemm_bias_gelu": Case("examples/matmul_bias_gelu.ta", SMALL, GEMM_RUNS),
    "batched_gemm": Case("examples/batched_gemm.ta", SMALL,
                         [{"Bt": 3, "M": 257, "N": 129, "K": 65}, {"Bt": 2, "M": 72, "N": 136, "K": 72},
                          {"Bt": 1, "M": 1, "N": 1, "K": 1}]),
    "gemm_two_batch_dims": Case(
        "param P, Q, M, N, K\ninput A[P, Q, M, K] : bf16\ninput B[P, Q, K, N] : bf16\noutput C[P, Q, M, N] : f32\n"
        "C[p, q, i, j] = sum[k](A[p, q, i, k] * B[p, q, k, j])\n", SMALL,
        [{"P": 2, "Q": 3, "M": 97, "N": 65, "K": 33}, {"P": 1, "Q": 2, "M": 72, "N": 136, "K": 72},
         {"P": 1, "Q": 1, "M": 1, "N": 1, "K": 1}]),
    # -- sm_90a: copy engine, mbarriers, wgmma, a producer warpgroup
    "wgmma_gemm_nn": Case("examples/gemm.ta", WGMMA2, HOPPER_RUNS, targets=SM90),
    "wgmma_gemm_nn_one_consumer": Case("examples/gemm.ta", WGMMA1, HOPPER_RUNS, targets=SM90),
    "wgmma_gemm_tn": Case(gemm_spec("km", "kn", "bf16", "bf16"), WGMMA2, HOPPER_RUNS, targets=SM90),
    "wgmma_gemm_nt": Case(gemm_spec("mk", "nk", "bf16", "f32"), WGMMA2, HOPPER_RUNS, targets=SM90),
    "wgmma_gemm_tt": Case(gemm_spec("km", "nk", "f16", "f32"), WGMMA1, HOPPER_RUNS, targets=SM90),
    "wgmma_gemm_bias_gelu": Case("examples/matmul_bias_gelu.ta", WGMMA2, HOPPER_RUNS[:2], targets=SM90),
    "wgmma_batched_gemm": Case("examples/batched_gemm.ta", WGMMA2,
                               [{"Bt": 3, "M": 264, "N": 136, "K": 72}, {"Bt": 1, "M": 8, "N": 8, "K": 8}],
                               targets=SM90),
    # split-K: the K tiles of an output tile shared among CTAs, the last to add its part storing it;
    # K = 1000 in 3 splits of 11, 11 and 10 k tiles of 32; K = 65 leaves a split with none
    "gemm_split_k": Case("examples/gemm.ta", "bm=64 bn=64 bk=32 warps=4 stages=3 split-k=3",
                         GEMM_RUNS + [{"M": 130, "N": 70, "K": 1000}]),
    "gemm_bias_gelu_split_k": Case("examples/matmul_bias_gelu.ta", SMALL + " split-k=4", GEMM_RUNS[:2]),
    "batched_gemm_split_k": Case("examples/batched_gemm.ta", SMALL + " split-k=2",
                                 [{"Bt": 3, "M": 100, "N": 70, "K": 300}, {"Bt": 1, "M": 1, "N": 1, "K": 1}]),
    "wgmma_gemm_split_k": Case("examples/gemm.ta", WGMMA2 + " split-k=3", HOPPER_RUNS, targets=SM90),
    # persistent: at most as many CTAs as fit at once, each looping over tiles, the ring running
    # on across them; 1032 x 520 has 17 x 9 tiles of 64 x 64 and 8 stages keep one CTA per SM,
    # more tiles than an H200's 132 SMs: CTAs take several tiles, some one more than others
    "wgmma_gemm_persistent": Case("examples/gemm.ta", WGMMA2 + " persistent=true", PERSISTENT_RUNS, targets=SM90),
    "wgmma_gemm_persistent_many_tiles": Case(gemm_spec("mk", "kn", "bf16", "bf16"),
                                             "bm=64 bn=64 bk=64 warps=4 stages=8 consumers=1 persistent=true",
                                             [{"M": 1032, "N": 520, "K": 72}, {"M": 8, "N": 8, "K": 8}],
                                             targets=SM90),
    "wgmma_gemm_persistent_tn": Case(gemm_spec("km", "nk", "bf16", "bf16"), WGMMA1 + " persistent=true",
                                     PERSISTENT_RUNS, targets=SM90),
    "wgmma_batched_gemm_persistent": Case("examples/batched_gemm.ta", WGMMA2 + " persistent=true",
                                          [{"Bt": 3, "M": 264, "N": 136, "K": 72}, {"Bt": 1, "M": 8, "N": 8, "K": 8}],
                                          targets=SM90),
    # -- attention on sm_90a: Q, K, V by the copy engine, Q·Kᵀ and P·V on wgmma (P from registers)
    "wgmma_attention": Case("examples/attention.ta", WGMMA_FLASH2, ATTENTION_RUNS, targets=SM90),
    "wgmma_attention_d128": Case("examples/attention.ta", WGMMA_FLASH2, ATTENTION_RUNS[:3], fixed={"D": 128},
                                 targets=SM90),
    # the output tile [bm, 128] wider than the key block (bn=64): the store walks the output's tiling
    "wgmma_attention_d128_narrow_blocks": Case("examples/attention.ta", "bm=128 bn=64 warps=8 stages=2 consumers=2",
                                               ATTENTION_RUNS[:3], fixed={"D": 128}, targets=SM90),
    "wgmma_attention_odd_lengths": Case("examples/attention.ta", WGMMA_FLASH2,
                                        [{"B": 1, "H": 2, "S": n, "T": m} for n, m in zip(ODD, ODD[::-1])],
                                        targets=SM90),
    "wgmma_attention_one_consumer": Case("examples/attention.ta", "bm=64 bn=64 warps=4 stages=3 consumers=1",
                                         ATTENTION_RUNS[:3], targets=SM90),
    "wgmma_attention_causal": Case("examples/causal_attention.ta", WGMMA_FLASH2, SQUARE_RUNS, targets=SM90),
    "wgmma_attention_gqa": Case("examples/gqa_attention.ta", WGMMA_FLASH2,
                                [{"B": 2, "H": 8, "S": 97, "T": 130}, {"B": 1, "H": 4, "S": 1, "T": 1}],
                                fixed={"D": 64}, targets=SM90),
    "wgmma_attention_bias": Case("examples/attention_bias.ta", WGMMA_FLASH2,
                                 [{"B": 2, "H": 3, "S": 97, "T": 130}, {"B": 1, "H": 1, "S": 1, "T": 1}],
                                 targets=SM90),
    "wgmma_attention_bf16_to_f32": Case(attention_spec(QK, out="f32"), WGMMA_FLASH2, ATTENTION_RUNS[:3],
                                        targets=SM90),
    "wgmma_attention_f16_value_dim_128": Case(
        "param B = 1, H = 2, S, T, D = 64, E = 128\ninput Q[B, H, S, D] : f16\ninput K[B, H, T, D] : f16\n"
        "input V[B, H, T, E] : f16\noutput O[B, H, S, E] : f16\nO[b, h, i, e] = sum[j](softmax[j]("
        "sum[d](Q[b, h, i, d] * K[b, h, j, d]) * rsqrt(D)) * V[b, h, j, e])\n", WGMMA_FLASH2,
        [{"S": 97, "T": 130}, {"S": 1, "T": 1}], targets=SM90),
    # the consumer warpgroups take turns at the tensor cores (named barriers)
    "wgmma_attention_pingpong": Case("examples/attention.ta", WGMMA_FLASH2 + " pingpong=true", ATTENTION_RUNS,
                                     fixed={"D": 128}, targets=SM90),
    "wgmma_attention_causal_pingpong_three": Case("examples/causal_attention.ta",
                                                  "bm=192 bn=64 warps=12 stages=2 consumers=3 pingpong=true",
                                                  SQUARE_RUNS, targets=SM90),
    # the key loop rotated (softmax-overlap): block 0 before the loop, P carried, the last P·V after it
    "wgmma_attention_softmax_overlap": Case("examples/attention.ta", OVERLAP, ATTENTION_RUNS, fixed={"D": 128},
                                            targets=SM90),
    "wgmma_attention_causal_softmax_overlap": Case("examples/causal_attention.ta", OVERLAP, SQUARE_RUNS,
                                                   targets=SM90),
    "wgmma_attention_gqa_softmax_overlap_one": Case("examples/gqa_attention.ta", OVERLAP_ONE,
                                                    [{"B": 2, "H": 8, "S": 97, "T": 130}, {"B": 1, "H": 4, "S": 1,
                                                                                            "T": 1}],
                                                    fixed={"D": 64}, targets=SM90),
    # two CTAs an SM, one consumer warpgroup each
    "wgmma_attention_causal_two_ctas": Case("examples/causal_attention.ta", OVERLAP_ONE.replace("stages=2", "stages=3")
                                            + " occupancy=2", SQUARE_RUNS, targets=SM90),
    # the heavy-first launch raster's groups (16 MiB / (S * 256 bytes) = 32 batch elements at S = 2048, D = 64):
    # 35 batch elements are a group of 32 and one of 3
    "wgmma_attention_causal_heavy_first": Case("examples/causal_attention.ta", OVERLAP_ONE.replace("stages=2", "stages=3")
                                               + " occupancy=2 heavy-first=true",
                                               [{"B": 5, "H": 7, "S": 2048}, {"B": 1, "H": 1, "S": 1}], targets=SM90),
    "attention_causal_heavy_first": Case("examples/causal_attention.ta", FLASH + " heavy-first=true", SQUARE_RUNS),
    # torch's SDPA semantics: strict causal with S != T, query row 0 sees no key and gets 0
    "wgmma_attention_guarded_strict": Case(guarded_attention_spec(f"{QK} where j < i else -inf"), WGMMA_FLASH2,
                                           ATTENTION_RUNS[:3], targets=SM90),
    "wgmma_masked_attention": Case("examples/masked_attention.ta", WGMMA_FLASH2,
                                   [{"B": 2, "H": 3, "S": 97, "T": 130}, {"B": 1, "H": 1, "S": 1, "T": 1}],
                                   targets=SM90),
    # -- attention (fused online softmax)
    "masked_attention": Case("examples/masked_attention.ta", FLASH,
                             [{"B": 2, "H": 3, "S": 97, "T": 130}, {"B": 1, "H": 1, "S": 1, "T": 1}]),
    "attention_guarded_strict": Case(guarded_attention_spec(f"{QK} where j < i else -inf"), FLASH,
                                     ATTENTION_RUNS[:3]),
    "attention": Case("examples/attention.ta", FLASH, ATTENTION_RUNS),
    "attention_d128": Case("examples/attention.ta", "bm=128 bn=64 warps=8 stages=2", ATTENTION_RUNS[:3],
                           fixed={"D": 128}),
    "attention_d16_one_warp": Case("examples/attention.ta", "bm=16 bn=16 warps=1 stages=3", ATTENTION_RUNS[:3],
                                   fixed={"D": 16}),
    "attention_d96": Case("examples/attention.ta", "bm=64 bn=32 warps=4 stages=3", ATTENTION_RUNS[:3],
                          fixed={"D": 96}),
    "attention_causal": Case("examples/causal_attention.ta", FLASH, SQUARE_RUNS),
    # strict causal with S != T: query row 0 sees no key, its output is NaN (as torch.softmax)
    "attention_causal_strict": Case(attention_spec(f"{QK} where j < i else -inf", out="f32"), FLASH,
                                    ATTENTION_RUNS[:3]),
    # T = 130 rows of f32 bias are no whole chunk, T = 132 are
    "attention_bias": Case("examples/attention_bias.ta", FLASH,
                           [{"B": 2, "H": 3, "S": 97, "T": 130}, {"B": 1, "H": 2, "S": 130, "T": 132},
                            {"B": 1, "H": 1, "S": 1, "T": 1}]),
    "attention_gqa": Case("examples/gqa_attention.ta", FLASH,
                          [{"B": 2, "H": 8, "S": 97, "T": 130}, {"B": 1, "H": 4, "S": 1, "T": 1}]),
    "attention_alibi": Case(attention_spec(f"{QK} + slopes[h] * (j - i)", extra="input slopes[H] : f32\n"), FLASH,
                            ATTENTION_RUNS[:3]),
    "attention_bf16_to_f16": Case(attention_spec(QK, out="f16"), FLASH, ATTENTION_RUNS[:3]),
    "attention_bf16_to_f32": Case(attention_spec(QK, out="f32"), FLASH, ATTENTION_RUNS[:3]),
    "attention_f16": Case(attention_spec(QK, out="f16", dtype="f16"), FLASH, ATTENTION_RUNS[:3]),
    # row programs: a warp per row, column blocks of bn; odd row lengths take the unaligned variant
    "softmax": Case("examples/softmax.ta", ROWS, ROW_RUNS),
    "softmax_narrow_blocks": Case("examples/softmax.ta", "bm=16 bn=64 warps=8", ROW_RUNS[:3]),
    "logsumexp": Case("examples/logsumexp.ta", ROWS, ROW_RUNS),
    "layernorm": Case("examples/layernorm.ta", ROWS, ROW_RUNS),
    "layernorm_odd_rows": Case("examples/layernorm.ta", ROWS, [{"N": 5, "C": c} for c in ODD]),
    "rmsnorm": Case("examples/rmsnorm.ta", ROWS, ROW_RUNS),
    # pointwise programs: each input element read at its own index (tile.gather), here a
    # transpose, a broadcast, a shifted read and an index as a value; RoPE's halves
    "pointwise_transpose": Case(
        "param B, T, N\ninput X[B, N, T] : f32\ninput S[N] : f32\ninput Z[B, N, T + 1] : f32\n"
        "output Y[B, T, N] : f32\nY[b, t, n] = X[b, n, t] * S[n] + Z[b, n, t + 1] + t\n", "bm=8 bn=64 warps=4",
        [{"B": 2, "T": 37, "N": 100}, {"B": 1, "T": 1, "N": 1}, {"B": 3, "T": 130, "N": 64}]),
    "rope": Case("examples/rope.ta", "", [{"B": 2, "T": 37, "H": 3}, {"B": 1, "T": 1, "H": 1}]),
    # halves of 32 (Llama's head dim of 64): 4 lanes a row, every read one 16-byte vector
    # (codegen/cuda_gather.py; rope's halves of 8 are vectors too, in a quarter of the lanes)
    "rope_64": Case(ROPE_64, "", [{"B": 2, "T": 37, "H": 3}, {"B": 1, "T": 1, "H": 1}]),
    "rope_64_fixed": Case(ROPE_64, "", [{"B": 2, "T": 64, "H": 32}], fixed={"B": 2, "T": 64, "H": 32}),
    # sizes fixed: the gathers' bounds every element meets are left out (codegen/cuda_bounds.py); at
    # T = 64 all but the column's, at T = 37 the last row tile keeps its row bound
    "rope_fixed": Case("examples/rope.ta", "", [{"B": 2, "T": 64, "H": 3}], fixed={"B": 2, "T": 64, "H": 3}),
    "rope_fixed_edge": Case("examples/rope.ta", "", [{"B": 2, "T": 37, "H": 3}], fixed={"B": 2, "T": 37, "H": 3}),
    "pointwise_transpose_fixed": Case(
        "param B, T, N\ninput X[B, N, T] : f32\ninput S[N] : f32\ninput Z[B, N, T + 1] : f32\n"
        "output Y[B, T, N] : f32\nY[b, t, n] = X[b, n, t] * S[n] + Z[b, n, t + 1] + t\n", "bm=8 bn=64 warps=4",
        [{"B": 3, "T": 128, "N": 64}], fixed={"B": 3, "T": 128, "N": 64}),
    # graphs of several kernels, launched in order by tilec.runtime.graph
    # RMSNorm before a matmul: a row program and a GEMM (the norm's statistic fused into the GEMM's
    # reduction is no kernel, so the spec is split before fusion: tilec/graph/split.py)
    "norm_matmul_graph": Case("examples/rmsnorm_matmul.ta", "",
                              [{"M": 97, "K": 300, "N": 130}, {"M": 1, "K": 257, "N": 8}], graph="f32"),
    "norm_matmul_graph_bf16": Case("examples/rmsnorm_matmul.ta", "", [{"M": 97, "K": 300, "N": 130}], graph="bf16"),
    "rmsnorm_one_warp": Case("examples/rmsnorm.ta", "bm=1 bn=32 warps=1", ROW_RUNS),
    # one column block holds the row (its width fixed): no column loops, the row loaded once
    "softmax_one_block": Case("examples/softmax.ta", "", [{"N": 97}, {"N": 1}], fixed={"C": 1000}),
    "layernorm_one_block": Case("examples/layernorm.ta", "", [{"N": 97}, {"N": 3}], fixed={"C": 768}),
    "rmsnorm_one_block_2048": Case("examples/rmsnorm.ta", "", [{"N": 37}, {"N": 1}], fixed={"C": 2048}),
    "logsumexp_one_block_odd": Case("examples/logsumexp.ta", "", [{"N": 97}], fixed={"C": 37}),
    "layernorm_one_block_two_rows_a_warp": Case("examples/layernorm.ta", "bm=8 bn=768 warps=4", [{"N": 97}],
                                                fixed={"C": 768}),
    # rows shared by warps (a row's reductions combined through shared memory): the default for
    # wide rows (C = 3001: 8 warps a row, rows of no whole 16-byte chunk; softmax over 4100 columns:
    # 16 warps), two rows of four warps each, and a column loop whose reduction reuses its slots
    "layernorm_wide_rows": Case("examples/layernorm.ta", "", [{"N": 5}, {"N": 1}], fixed={"C": 3001}),
    "softmax_wide_rows": Case("examples/softmax.ta", "", [{"N": 3}], fixed={"C": 4100}),
    "logsumexp_wide_rows": Case("examples/logsumexp.ta", "", [{"N": 7}], fixed={"C": 2500}),
    "rmsnorm_rows_shared_by_warps": Case("examples/rmsnorm.ta", "bm=2 bn=1024 warps=8", [{"N": 97}],
                                         fixed={"C": 1000}),
    "layernorm_split_column_blocks": Case("examples/layernorm.ta", "bm=1 bn=512 warps=4",
                                          [{"N": 5, "C": 1000}, {"N": 3, "C": 777}, {"N": 1, "C": 1}]),
    "rmsnorm_split_column_blocks": Case("examples/rmsnorm.ta", "bm=1 bn=256 warps=4",
                                        [{"N": 5, "C": 1000}, {"N": 1, "C": 1}]),
    # in f32, where a partial value of the wrong column block shows above the tolerance
    "rmsnorm_split_column_blocks_f32": Case(
        "param N, C\nconst eps = 1e-6\ninput X[N, C] : f32\ninput w[C] : f32\noutput Y[N, C] : f32\n"
        "let ms[n] = sum[c](X[n, c] * X[n, c]) / C\nY[n, c] = X[n, c] * rsqrt(ms[n] + eps) * w[c]\n",
        "bm=1 bn=256 warps=4", [{"N": 5, "C": 1000}]),
    # the value head dim unlike the query/key head dim (P·V's width is V's own)
    "attention_value_dim_32": Case(
        "param B = 1, H = 2, S, T, D = 64, E = 32\ninput Q[B, H, S, D] : bf16\ninput K[B, H, T, D] : bf16\n"
        "input V[B, H, T, E] : bf16\noutput O[B, H, S, E] : bf16\nO[b, h, i, e] = sum[j](softmax[j]("
        "sum[d](Q[b, h, i, d] * K[b, h, j, d]) * rsqrt(D)) * V[b, h, j, e])\n", "bm=64 bn=64 warps=4 stages=2",
        [{"S": 97, "T": 130}, {"S": 1, "T": 1}]),
    # value head dims of one and three 8-wide n tiles: P·V's odd last n tile loads by ldmatrix.x2
    "attention_value_dim_8": Case(
        "param B = 1, H = 2, S, T, D = 16, E = 8\ninput Q[B, H, S, D] : bf16\ninput K[B, H, T, D] : bf16\n"
        "input V[B, H, T, E] : bf16\noutput O[B, H, S, E] : bf16\nO[b, h, i, e] = sum[j](softmax[j]("
        "sum[d](Q[b, h, i, d] * K[b, h, j, d]) * rsqrt(D)) * V[b, h, j, e])\n", "bm=64 bn=64 warps=4 stages=2",
        [{"S": 97, "T": 130}, {"S": 1, "T": 1}]),
    "attention_value_dim_24": Case(
        "param B = 1, H = 2, S, T, D = 64, E = 24\ninput Q[B, H, S, D] : bf16\ninput K[B, H, T, D] : bf16\n"
        "input V[B, H, T, E] : bf16\noutput O[B, H, S, E] : f32\nO[b, h, i, e] = sum[j](softmax[j]("
        "sum[d](Q[b, h, i, d] * K[b, h, j, d]) * rsqrt(D)) * V[b, h, j, e])\n", "bm=64 bn=32 warps=4 stages=3",
        [{"S": 97, "T": 130}]),
    "attention_value_dim_128": Case(
        "param B = 1, H = 2, S, T, D = 64, E = 128\ninput Q[B, H, S, D] : bf16\ninput K[B, H, T, D] : bf16\n"
        "input V[B, H, T, E] : bf16\noutput O[B, H, S, E] : bf16\nO[b, h, i, e] = sum[j](softmax[j]("
        "sum[d](Q[b, h, i, d] * K[b, h, j, d]) * rsqrt(D)) * V[b, h, j, e])\n", "bm=64 bn=64 warps=4 stages=2",
        [{"S": 97, "T": 130}]),
    # ping-pong: each consumer warpgroup owns whole 64-row tiles, taking the CTA's tiles in turn;
    # 2112 x 520 is 33 x 9 tiles of 64 x 64, about 2 per CTA on 132 SMs, so both warpgroups take
    # tiles; K = 256 puts warpgroup 1's first ring iteration (4) two rounds into the 2-stage
    # ring, a phase that a parity wait without the turns would take for the first
    "wgmma_gemm_pingpong": Case("examples/gemm.ta", PINGPONG, PINGPONG_RUNS, targets=SM90),
    "wgmma_gemm_pingpong_wide": Case("examples/gemm.ta", PINGPONG.replace("bn=64", "bn=256").replace("stages=2",
                                                                                                       "stages=4"),
                                     HOPPER_RUNS, targets=SM90),
    "wgmma_gemm_pingpong_tn": Case(gemm_spec("km", "nk", "bf16", "bf16"), PINGPONG, PINGPONG_RUNS, targets=SM90),
    "wgmma_gemm_pingpong_bias_gelu": Case("examples/matmul_bias_gelu.ta", PINGPONG, PINGPONG_RUNS, targets=SM90),
    "wgmma_swiglu_pingpong": Case("examples/swiglu.ta", PINGPONG, PINGPONG_RUNS, targets=SM90),
    # ping-pong warpgroups of 128 rows: each tile two wgmma m64 slabs, its accumulator #tile.mma<[4, 1, 2]>;
    # 2112 x 520 is 17 x 9 tiles of 128 x 64, so the CTAs' warpgroups take several each
    "wgmma_gemm_pingpong_two_slabs": Case("examples/gemm.ta", PINGPONG.replace("bm=64", "bm=128"), PINGPONG_RUNS,
                                          targets=SM90),
    "wgmma_gemm_pingpong_two_slabs_tn": Case(gemm_spec("km", "nk", "bf16", "bf16"), PINGPONG.replace("bm=64", "bm=128"),
                                             PINGPONG_RUNS, targets=SM90),
    "wgmma_gemm_pingpong_two_slabs_bias_gelu": Case("examples/matmul_bias_gelu.ta",
                                                    PINGPONG.replace("bm=64", "bm=128").replace("bn=64", "bn=128")
                                                    .replace("stages=2", "stages=4"), PINGPONG_RUNS, targets=SM90),
    "wgmma_linear_residual_pingpong_two_slabs": Case(RESIDUAL_LINEAR, PINGPONG.replace("bm=64", "bm=128") +
                                                     " tma-store=true", PINGPONG_RUNS, targets=SM90),
    # the tile stored through shared memory by the copy engine (tma_store): 2112 x 520 puts several
    # tiles on a CTA, so the staging buffers are rewritten across tiles; bn=192 is 3 chunks a tile
    "wgmma_gemm_tma_store": Case("examples/gemm.ta", WGMMA2 + " persistent=true tma-store=true",
                                 PERSISTENT_RUNS + PINGPONG_RUNS[:1], targets=SM90),
    "wgmma_gemm_tma_store_three_chunks": Case("examples/gemm.ta", WGMMA2.replace("bn=256", "bn=192") +
                                              " tma-store=true", HOPPER_RUNS, targets=SM90),
    "wgmma_gemm_tma_store_tn": Case(gemm_spec("km", "nk", "bf16", "bf16"), WGMMA2 + " persistent=true tma-store=true",
                                    PERSISTENT_RUNS, targets=SM90),
    "wgmma_gemm_pingpong_tma_store": Case("examples/gemm.ta", PINGPONG.replace("bn=64", "bn=128") +
                                          " tma-store=true", PINGPONG_RUNS, targets=SM90),
    "wgmma_gemm_tma_store_bias_gelu": Case("examples/matmul_bias_gelu.ta", WGMMA2 + " persistent=true tma-store=true",
                                           PERSISTENT_RUNS, targets=SM90),
    "wgmma_batched_gemm_tma_store": Case(
        "param Bt, M, N, K\ninput A[Bt, M, K] : bf16\ninput B[Bt, K, N] : bf16\noutput C[Bt, M, N] : bf16\n"
        "C[b, i, j] = sum[k](A[b, i, k] * B[b, k, j])\n", WGMMA2 + " persistent=true tma-store=true",
        [{"Bt": 3, "M": 264, "N": 136, "K": 72}, {"Bt": 1, "M": 8, "N": 8, "K": 8}], targets=SM90),
    "wgmma_swiglu_tma_store": Case("examples/swiglu.ta", PINGPONG.replace("bn=64", "bn=128") + " tma-store=true",
                                   PINGPONG_RUNS, targets=SM90),
    # contractions sharing their first operand (two accumulators), and a weight shared by the batch
    "swiglu": Case("examples/swiglu.ta", "", [{"M": 257, "N": 129, "K": 65}, {"M": 1, "N": 8, "K": 1},
                                              {"M": 64, "N": 96, "K": 128}]),
    # on sm_90a: each stage holds X's k tile and one tile of each weight, one accumulator each
    "wgmma_swiglu": Case("examples/swiglu.ta", "bm=128 bn=128 bk=64 warps=8 stages=4 consumers=2", HOPPER_RUNS,
                         targets=SM90),
    "wgmma_swiglu_persistent": Case("examples/swiglu.ta",
                                    "bm=128 bn=128 bk=64 warps=8 stages=4 consumers=2 persistent=true",
                                    PERSISTENT_RUNS, targets=SM90),
    # an epilogue reading a bias (a column vector) and a residual (a tile): N = 264 and 136 leave
    # a part tile, N = 130 rows that take the sm_80 kernel for any row length, M = 1 a one-row tile
    "linear_residual": Case(RESIDUAL_LINEAR, "bm=64 bn=64 bk=32",
                            [{"M": 97, "N": 136, "K": 40}, {"M": 70, "N": 130, "K": 72}, {"M": 1, "N": 8, "K": 8}]),
    "wgmma_linear_residual": Case(RESIDUAL_LINEAR, "bm=128 bn=128 bk=64 warps=8 stages=4 consumers=2 persistent=true "
                                  "tma-store=true", [{"M": 300, "N": 264, "K": 72}, {"M": 1, "N": 8, "K": 8}],
                                  targets=SM90),
    "wgmma_linear_residual_pingpong": Case(RESIDUAL_LINEAR, PINGPONG.replace("bn=64", "bn=128"),
                                           [{"M": 300, "N": 264, "K": 72}, {"M": 8, "N": 136, "K": 8}],
                                           targets=SM90),
    "swiglu_small_tiles": Case("examples/swiglu.ta", "bm=32 bn=32 bk=16 warps=2 stages=2",
                               [{"M": 70, "N": 33, "K": 40}]),
    "linear": Case("examples/linear.ta", "", [{"B": 3, "T": 97, "C": 72, "N": 130}, {"B": 1, "T": 1, "C": 7, "N": 1},
                                              {"B": 2, "T": 64, "C": 256, "N": 128}]),
    "linear_weight_left": Case(
        "param B = 2, M = 64, N = 64, K = 32\ninput W[M, K] : bf16\ninput X[B, K, N] : bf16\n"
        "output Y[B, M, N] : f32\nY[b, i, j] = sum[k](W[i, k] * X[b, k, j])\n", "bm=64 bn=64 bk=32",
        [{"B": 3, "M": 70, "N": 33, "K": 40}]),
    # prologue maps on the operands (f32 FMAs): relu and a per-channel scale, f(0) != 0 on both
    # operands (the remainder k tile masked), mixed operand dtypes
    "dequant_linear": Case("examples/dequant_linear.ta", "bm=64 bn=64 bk=32",
                           [{"T": 97, "C": 130, "N": 65}, {"T": 1, "C": 1, "N": 1}, {"T": 64, "C": 128, "N": 64}]),
    "prologue_shifted": Case(
        "param M, N, K\ninput A[M, K] : bf16\ninput B[K, N] : bf16\noutput C[M, N] : f32\n"
        "C[i, j] = sum[k]((A[i, k] + 1.0) * (B[k, j] + 1.0))\n", "bm=64 bn=64 bk=32 stages=2",
        [{"M": 70, "N": 33, "K": 45}, {"M": 1, "N": 1, "K": 1}]),
    "mixed_bf16_f32": Case(gemm_spec("mk", "kn", "bf16", "f32").replace("B[K, N] : bf16", "B[K, N] : f32"),
                           "bm=64 bn=64 bk=32", [{"M": 257, "N": 129, "K": 65}, {"M": 64, "N": 64, "K": 64}]),
    # a sliding window (a mask from an index predicate on both sides) and a bias per key position
    "attention_window": Case(
        "param B, H, S, T, D = 64\ninput Q[B, H, S, D] : bf16\ninput K[B, H, T, D] : bf16\ninput V[B, H, T, D] : bf16\n"
        "output O[B, H, S, D] : bf16\nlet P[b, h, i, j] = softmax[j](sum[e](Q[b, h, i, e] * K[b, h, j, e]) * rsqrt(D) "
        "where j <= i and j + 16 > i else -inf)\nO[b, h, i, d] = sum[j](P[b, h, i, j] * V[b, h, j, d])\n",
        "bm=64 bn=64 warps=4 stages=2", [{"B": 2, "H": 3, "S": 97, "T": 97}, {"B": 1, "H": 1, "S": 1, "T": 1}]),
    "attention_key_bias": Case(
        "param B, H, S, T, D = 64\ninput Q[B, H, S, D] : bf16\ninput K[B, H, T, D] : bf16\ninput V[B, H, T, D] : bf16\n"
        "input kb[B, T] : f32\noutput O[B, H, S, D] : bf16\nO[b, h, i, d] = sum[j](softmax[j](sum[e](Q[b, h, i, e] * "
        "K[b, h, j, e]) * rsqrt(D) + kb[b, j]) * V[b, h, j, d])\n",
        "bm=64 bn=64 warps=4 stages=2", [{"B": 2, "H": 3, "S": 97, "T": 130}, {"B": 1, "H": 1, "S": 1, "T": 1}]),
    # several reduced indices side by side: one K loop over row-major views (a reshaped operand)
    "merged_k": Case("param M, N, K1, K2\ninput A[M, K1, K2] : bf16\ninput B[K1, K2, N] : bf16\n"
                     "output C[M, N] : f32\nC[i, j] = sum[k1, k2](A[i, k1, k2] * B[k1, k2, j])\n", "bm=64 bn=64 bk=32",
                     [{"M": 97, "N": 65, "K1": 5, "K2": 9}, {"M": 1, "N": 1, "K1": 1, "K2": 1},
                      {"M": 64, "N": 64, "K1": 4, "K2": 16}]),
    "merged_k_nt_batched": Case(
        "param P, M, N, H, G, E\ninput A[P, M, H, G, E] : f16\ninput W[N, H, G, E] : f16\ninput bias[N] : f16\n"
        "output C[P, M, N] : f16\nC[p, i, j] = sum[h, g, e](A[p, i, h, g, e] * W[j, h, g, e]) + bias[j]\n",
        "bm=64 bn=64 bk=32 stages=2", [{"P": 2, "M": 19, "N": 33, "H": 2, "G": 3, "E": 7},
                                      {"P": 1, "M": 64, "N": 64, "H": 2, "G": 4, "E": 8}]),
    # attention stored in einsum order [B, S, H, D]: rows read and stored through [B, S, H*D] views
    "attention_einsum": Case("examples/einsum_attention.ta", FLASH, ATTENTION_RUNS),
    # key blocks (bn=128) wider than the output tile [bm, 64]
    "attention_einsum_wide_blocks": Case("examples/einsum_attention.ta", "bm=128 bn=128 warps=8 stages=2",
                                         ATTENTION_RUNS[:3]),
    "attention_einsum_gqa_causal": Case(
        "param B, H, S, D = 64\nconst G = 4\ninput Q[B, S, H, D] : bf16\ninput K[B, S, H / G, D] : bf16\n"
        "input V[B, S, H / G, D] : bf16\noutput O[B, H, S, D] : bf16\nlet P[b, h, i, j] = softmax[j](sum[e]("
        "Q[b, i, h, e] * K[b, j, h / G, e]) * rsqrt(D) where j <= i else -inf)\n"
        "O[b, h, i, d] = sum[j](P[b, h, i, j] * V[b, j, h / G, d])\n", FLASH,
        [{"B": 2, "H": 8, "S": 97}, {"B": 1, "H": 4, "S": 1}]),
    # the same on sm_90a: the copy engine reads boxes of the [B, S, H*D] views
    # the output tile stored by the copy engine (tma-store): D = 128 is two 64-column chunks
    "wgmma_attention_tma_store": Case("examples/attention.ta", WGMMA_FLASH2 + " tma-store=true", ATTENTION_RUNS[:3],
                                      fixed={"D": 128}, targets=SM90),
    "wgmma_attention_causal_tma_store": Case("examples/causal_attention.ta",
                                             "bm=192 bn=64 warps=12 stages=2 consumers=3 tma-store=true", SQUARE_RUNS,
                                             targets=SM90),
    "wgmma_attention_einsum_tma_store": Case("examples/einsum_attention.ta", WGMMA_FLASH2 + " tma-store=true",
                                             ATTENTION_RUNS, targets=SM90),
    "wgmma_attention_einsum": Case("examples/einsum_attention.ta", WGMMA_FLASH2, ATTENTION_RUNS, targets=SM90),
    "wgmma_attention_einsum_d128": Case("examples/einsum_attention.ta", "bm=128 bn=64 warps=8 stages=2 consumers=2",
                                        ATTENTION_RUNS[:3], fixed={"D": 128}, targets=SM90),
    "wgmma_attention_einsum_gqa_causal": Case(
        "param B, H, S, D = 64\nconst G = 4\ninput Q[B, S, H, D] : bf16\ninput K[B, S, H / G, D] : bf16\n"
        "input V[B, S, H / G, D] : bf16\noutput O[B, H, S, D] : bf16\nlet P[b, h, i, j] = softmax[j](sum[e]("
        "Q[b, i, h, e] * K[b, j, h / G, e]) * rsqrt(D) where j <= i else -inf)\n"
        "O[b, h, i, d] = sum[j](P[b, h, i, j] * V[b, j, h / G, d])\n", WGMMA_FLASH2,
        [{"B": 2, "H": 8, "S": 97}, {"B": 1, "H": 4, "S": 1}], targets=SM90),
    # K and V read as the heads of their projections [B, T, Hkv*D] (Llama's V): tiles at column (h / G) * D
    "attention_kv_projection": Case(KV_PROJECTION, FLASH, [{"B": 2, "H": 8, "S": 97, "T": 45},
                                                           {"B": 1, "H": 4, "S": 1, "T": 1}]),
    "wgmma_attention_kv_projection": Case(KV_PROJECTION, WGMMA_FLASH2, [{"B": 2, "H": 8, "S": 97, "T": 45},
                                                                       {"B": 1, "H": 4, "S": 1, "T": 1}],
                                          targets=SM90),
    "attention_mqa_bias": Case(
        "param B, H = 4, S = 128, T, D = 32\ninput Q[B, S, H, D] : f16\ninput K[B, T, D] : f16\n"
        "input V[B, T, D] : f16\ninput bias[H] : f32\noutput O[B, S, H, D] : f16\nO[b, i, h, d] = sum[j](softmax[j]("
        "sum[e](Q[b, i, h, e] * K[b, j, e]) + bias[h]) * V[b, j, d])\n", FLASH,
        [{"B": 2, "H": 3, "S": 97, "T": 130}, {"B": 1, "H": 1, "S": 1, "T": 1}]),
    # f32 attention is not here: ta-to-tile lowers it, but the CUDA emitter refuses f32 P·V with P
    # in registers ("no CUDA lowering yet"); add a case when it emits one
}
