"""PyTorch code compiled by tilec.compile for the GPU check (plain torch: no MLIR here, so
the GPU machine imports it too)."""

import math

import torch
import torch.nn.functional as F


def attention(q, k, v):
    return torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]), dim=-1) @ v


def causal_attention(q, k, v):
    s = q.shape[-2]
    mask = torch.ones(s, s, dtype=torch.bool, device=q.device).tril()
    scores = (q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])).masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def linear_gelu(x, w, b):
    return F.gelu(F.linear(x, w, b))


def linear(x, w, b):
    return F.linear(x, w, b)


def mlp(x, w1, b1, w2, b2):
    return F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2)


def layernorm_linear(x, g, b, w, bias):
    return F.linear(F.layer_norm(x, (x.shape[-1],), g, b), w, bias)


def rmsnorm_linear(x, g, w):
    return F.linear(x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * g, w)


def swiglu(x, w1, w3, w2):
    return F.linear(F.silu(F.linear(x, w1)) * F.linear(x, w3), w2)


def gpt2_mlp(x, g, b, w1, b1, w2, b2):
    """GPT-2's MLP sub-block with its LayerNorm and residual, on a [B, T, C] activation."""
    return x + F.linear(F.gelu(F.linear(F.layer_norm(x, (x.shape[-1],), g, b), w1, b1)), w2, b2)


def gpt2_qkv(x, g, b, w, bias):
    """GPT-2's block up to attention: LayerNorm, the QKV projection, heads split as views."""
    bsz, t, c = x.shape
    return tuple(y.view(bsz, t, 12, c // 12).transpose(1, 2)
                 for y in F.linear(F.layer_norm(x, (c,), g, b), w, bias).split(c, dim=2))


def gpt2_after_attention(y, x, wp, bp, g, b, w1, b1, w2, b2):
    """GPT-2's block after attention: heads merged back, projection and residual, then the MLP
    sub-block (y is SDPA's output, [B, H, T, D])."""
    bsz, h, t, d = y.shape
    x = x + F.linear(y.transpose(1, 2).contiguous().view(bsz, t, h * d), wp, bp)
    return gpt2_mlp(x, g, b, w1, b1, w2, b2)


def gpt2_block(x, g1, b1, w_qkv, b_qkv, w_proj, b_proj, g2, b2, w1, bias1, w2, bias2):
    """GPT-2's whole block (nanoGPT's code): LayerNorm, QKV, causal SDPA over 12 heads, the
    projection and residual, then the MLP sub-block."""
    bsz, t, c = x.shape
    q, k, v = (y.view(bsz, t, 12, c // 12).transpose(1, 2)
               for y in F.linear(F.layer_norm(x, (c,), g1, b1), w_qkv, b_qkv).split(c, dim=2))
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).contiguous().view(bsz, t, c)
    x = x + F.linear(y, w_proj, b_proj)
    return gpt2_mlp(x, g2, b2, w1, bias1, w2, bias2)


def _gpt2_block_shapes(b: int, t: int, c: int = 768) -> list:
    return [(b, t, c), (c,), (c,), (3 * c, c), (3 * c,), (c, c), (c,), (c,), (c,), (4 * c, c), (4 * c,), (c, 4 * c),
            (c,)]


def _gpt2_block_flops(b: int, t: int, c: int = 768) -> float:
    """The block's GEMMs (QKV, projection, MLP) and its causal attention (half of 4·B·T²·C)."""
    return 2.0 * b * t * c * (3 * c + c + 8 * c) + 2.0 * b * t * t * c


# persistent: an A/B on the H200 (bench/compare.py --by-name, 2026-12-01) gave +0-7%, the most
# at a short K (bench/results/compare-gemm-h200-2026-12-01-persistent.json)
HOPPER_GEMM = "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2 persistent=true"
NARROW_GEMM = "bm=128 bn=128 bk=64 warps=8 stages=4 consumers=2 persistent=true"
# ping-pong (each warpgroup on 64-row tiles of its own, one storing while the other multiplies):
# in the blocks' A/B on the H200 (2026-12-02, bench/results/steps/pytorch-h200-2026-12-02-*-pingpong-ab.json)
# GPT-2's QKV GEMM (K = 768, a bias) went 0.081 -> 0.067 ms and Llama's SwiGLU pair (bn=128)
# 0.842 -> 0.830 and 3.54 -> 3.40 ms, while GPT-2's GEMM + GELU (0.104 -> 0.118) and Llama's
# K/V GEMMs (0.034 -> 0.037) lost: a long epilogue is not hidden by one warpgroup's short loop.
# Once tiles were stored by the copy engine (below), GPT-2's QKV GEMM went back to two warpgroups
# on one tile (BN192_GEMM)
PINGPONG_PAIR = "bm=64 bn=128 bk=64 warps=8 stages=4 consumers=2 pingpong=true persistent=true"
# the tile stored through shared memory by the copy engine (tma_store): in the blocks' A/B on the
# H200 (2026-12-02, bench/results/steps/pytorch-h200-2026-12-02-tma-store-*.json) every GEMM got
# faster (GPT-2 1k: QKV 0.065 -> 0.059 ms, projection 0.037 -> 0.031, MLP down 0.081 -> 0.072;
# Llama 1k: Q 0.116 -> 0.098, K/V 0.034 -> 0.028, SwiGLU 0.833 -> 0.811), except GPT-2's GEMM +
# GELU at bn=256 (0.104 -> 0.117, 72 B spilled), which at bn=128 takes 0.093
STAGED = " tma-store=true"
# GPT-2's 768-wide outputs (its projection and MLP down) at bn=192: 256 tiles of 128 rows at T = 1k
# fill two rounds of 132 SMs (bn=128: 384 tiles, three), bigger tiles for the same makespan: the
# block 1.027x at 1k (rounds 1.026-1.029), 1.002x at 4k (0.999-1.020), over NARROW_GEMM
# (bench/results/steps/pytorch-h200-2026-12-03-gpt2-bn192-ab.json)
BN192_GEMM = "bm=128 bn=192 bk=64 warps=8 stages=4 consumers=2 persistent=true"

# name -> (function, input shapes (bf16), schedule, flops, peer: the same computation by torch's library)
# (a graph of several kernels takes a schedule per kernel form; its peer is the same code in eager torch)
CASES = {
    "attention": (attention, [(8, 16, 4096, 128)] * 3, "bm=128 bn=64 warps=8 stages=2",
                  4.0 * 8 * 16 * 4096 * 4096 * 128,
                  lambda q, k, v: F.scaled_dot_product_attention(q, k, v)),
    "causal_attention": (causal_attention, [(8, 16, 4096, 128)] * 3, "bm=128 bn=64 warps=8 stages=2",
                         2.0 * 8 * 16 * 4096 * 4096 * 128,
                         lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True)),
    "linear_gelu": (linear_gelu, [(4096, 4096), (4096, 4096), (4096,)], "bm=128 bn=128 bk=32 warps=8 stages=4",
                    2.0 * 4096 ** 3, lambda x, w, b: F.gelu(F.linear(x, w, b))),
    # a Linear on a [B, T, C] activation (GPT-2's QKV projection): B and T stay apart in the kernel
    "linear_3d": (linear, [(8, 1024, 768), (2304, 768), (2304,)], "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2",
                  2.0 * 8 * 1024 * 768 * 2304, F.linear),
    # graphs of several kernels (tilec/graph/split.py), tensors between kernels in bf16
    "mlp": (mlp, [(8192, 1024), (4096, 1024), (4096,), (1024, 4096), (1024,)], {"contraction": HOPPER_GEMM},
            2.0 * 2 * 8192 * 1024 * 4096, mlp),
    "layernorm_linear": (layernorm_linear, [(8192, 1024), (1024,), (1024,), (3072, 1024), (3072,)],
                         {"contraction": HOPPER_GEMM}, 2.0 * 8192 * 1024 * 3072, layernorm_linear),
    "rmsnorm_linear": (rmsnorm_linear, [(8192, 1024), (1024,), (3072, 1024)], {"contraction": HOPPER_GEMM},
                       2.0 * 8192 * 1024 * 3072, rmsnorm_linear),
    # its first kernel computes two contractions sharing x: the sm_80 form (consumers=0)
    "swiglu": (swiglu, [(8192, 1024), (2816, 1024), (2816, 1024), (1024, 2816)],
               {"contraction": HOPPER_GEMM, "k0": "bm=128 bn=128 bk=32 warps=8 stages=4"},
               2.0 * 3 * 8192 * 1024 * 2816, swiglu),
    # GPT-2's MLP sub-block at batch 8, T = 1024: B and T merged into 8192 rows (merge_rows.py)
    "gpt2_mlp": (gpt2_mlp, [(8, 1024, 768), (768,), (768,), (3072, 768), (3072,), (768, 3072), (768,)],
                 # the last GEMM (bias and residual in its epilogue) spills 308 B at bn=256
                 {"contraction": HOPPER_GEMM, "k2": NARROW_GEMM},
                 2.0 * 2 * 8 * 1024 * 768 * 3072, gpt2_mlp),
    # the two regions of GPT-2's block around SDPA (which tilec leaves to torch): kernels and
    # strided copies in torch (the QKV split, the head transposes)
    "gpt2_qkv": (gpt2_qkv, [(8, 1024, 768), (768,), (768,), (2304, 768), (2304,)], {"contraction": HOPPER_GEMM},
                 2.0 * 8 * 1024 * 768 * 2304, gpt2_qkv),
    "gpt2_after_attention": (gpt2_after_attention, [(8, 12, 1024, 64), (8, 1024, 768), (768, 768), (768,), (768,),
                                                    (768,), (3072, 768), (3072,), (768, 3072), (768,)],
                             {"contraction": HOPPER_GEMM, "k6": NARROW_GEMM},
                             2.0 * 8 * 1024 * 768 * (768 + 2 * 3072), gpt2_after_attention),
}

# GPT-2's whole block as one graph of kernels (SDPA included), batch 8: LayerNorm, QKV GEMM, the
# attention (Q, K and V read as the heads of the QKV projection), the projection, LayerNorm, the MLP
# (kernels: k0 rows, k1 QKV (ping-pong), k2 attention stored [B, T, H, D], k3 its view as [B, T, C] (no
# copy: permute_into_reshape), k4 projection + residual,
# k5 rows, k6 and k7 the MLP)
ATTENTION_D64 = "bm=192 bn=128 bk=64 warps=12 stages=2 consumers=3"
# at T = 1k two consumer warpgroups with P·V in flight win (attention 0.078 -> 0.070 ms, the block
# 1.02x), at 4k they lose (0.600 -> 0.636, 0.97x): bench/results/steps/pytorch-h200-2026-12-02-gpt2-attention-x-ab.json
ATTENTION_D64_SHORT = "bm=128 bn=128 warps=8 stages=3 consumers=2"
# at 4k one consumer warpgroup with the rotated loop, two CTAs an SM, won: the block 1.02x (rounds
# 1.01-1.04) over ATTENTION_D64 (at 1k it lost, 0.97x; Llama's lost 1% at both lengths):
# bench/results/steps/pytorch-h200-2026-12-02-blocks-view-occupancy-ab.json
ATTENTION_D64_SHARED = "bm=64 bn=128 warps=4 stages=3 consumers=1 softmax-overlap=true occupancy=2"
# the causal attention launched heaviest query blocks first (96 heads; at 1k, 768 CTAs: about six
# waves on 132 SMs, so the last ones decide the end): the block 1.017x at 1k (rounds 1.014-1.017),
# 1.013x at 4k (0.997-1.023);
# bench/results/steps/pytorch-h200-2026-12-02-gpt2-heavy-first-ab.json
HEAVY_FIRST = " heavy-first=true"
# GPT-2 at 1k now takes ATTENTION_D64_SHARED + HEAVY_FIRST too: attention 0.066 -> 0.060 ms, the
# block 1.0175x (rounds 1.016-1.018) over ATTENTION_D64_SHORT + HEAVY_FIRST; ping-pong (bm=128,
# two warpgroups in turn) lost, 0.079 ms, 0.961x
# (bench/results/steps/pytorch-h200-2026-12-03-gpt2-1k-attention-*-ab.json)
# GPT-2's QKV GEMM (N = 2304, twelve tiles of 192) with two warpgroups on 128 x 192 tiles, stored
# by the copy engine, beat ping-pong on 64 x 256: the block 1.026x at 1k (rounds 1.023-1.026),
# 1.015x at 4k (0.991-1.027), the kernel 0.212 -> 0.189 ms at 4k; bn=256 lost (0.949x / 0.990x)
# (bench/results/steps/pytorch-h200-2026-12-03-gpt2-qkv192-ab.json). Ping-pong on 64 x 128 tiles
# for the MLP's GEMMs lost 13-18% (...-gpt2-gemm-pingpong-qkv192-ab.json), as did the MLP's up
# GEMM + GELU at bn=192 (0.978x / 0.974x)
for _t in (1024, 4096):
    CASES[f"gpt2_block_{_t // 1024}k"] = (
        gpt2_block, _gpt2_block_shapes(8, _t),
        {"contraction": HOPPER_GEMM + STAGED,
         "online": ATTENTION_D64_SHARED + HEAVY_FIRST,
         "k1": BN192_GEMM + STAGED,
         "k4": BN192_GEMM + STAGED, "k6": NARROW_GEMM + STAGED, "k7": BN192_GEMM + STAGED},
        _gpt2_block_flops(8, _t), gpt2_block)



def _rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def _rms(x, g):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * g


# Llama 3.2 1B's block: C = 2048, 32 query heads and 8 K/V heads of 64, SwiGLU of 8192
LLAMA = {"c": 2048, "heads": 32, "kv_heads": 8, "hidden": 8192}


def llama_block(x, cos, sin, g1, wq, wk, wv, wo, g2, w1, w3, w2):
    """A Llama block as Hugging Face writes it: RMSNorm, Q/K/V projections, RoPE (rotate_half),
    causal SDPA with grouped K/V heads, the output projection and residual, RMSNorm, SwiGLU."""
    bsz, t, c = x.shape
    d = c // LLAMA["heads"]
    h = _rms(x, g1)
    q = F.linear(h, wq).view(bsz, t, -1, d).transpose(1, 2)
    k = F.linear(h, wk).view(bsz, t, -1, d).transpose(1, 2)
    v = F.linear(h, wv).view(bsz, t, -1, d).transpose(1, 2)
    q, k = q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    x = x + F.linear(y.transpose(1, 2).reshape(bsz, t, c), wo)
    h = _rms(x, g2)
    return x + F.linear(F.silu(F.linear(h, w1)) * F.linear(h, w3), w2)


def _llama_shapes(b: int, t: int) -> list:
    c, kv, f = LLAMA["c"], LLAMA["kv_heads"] * LLAMA["c"] // LLAMA["heads"], LLAMA["hidden"]
    d = c // LLAMA["heads"]
    return [(b, t, c), (t, d), (t, d), (c,), (c, c), (kv, c), (kv, c), (c, c), (c,), (f, c), (f, c), (c, f)]


def _llama_flops(b: int, t: int) -> float:
    """The block's GEMMs (Q, K, V, output, SwiGLU's three) and its causal attention (half of 4·B·T²·C)."""
    c, kv, f = LLAMA["c"], LLAMA["kv_heads"] * LLAMA["c"] // LLAMA["heads"], LLAMA["hidden"]
    return 2.0 * b * t * c * (2 * c + 2 * kv + 3 * f) + 2.0 * b * t * t * c


# Llama's causal attention (D = 64, 4 query heads per K/V head) takes one consumer warpgroup at two
# CTAs an SM, heaviest query blocks first: 0.141 / 1.439 ms at T = 1k / 4k in the runs of
# 2026-12-03, against 0.161 / 1.609 with "bm=128 bn=128 warps=8 stages=3 consumers=2", which had
# beaten ATTENTION_D64 (0.160 / 1.63 against 0.188 / 1.784,
# bench/results/pytorch-h200-2026-12-01-llama-attention-ab.json;
# bench/results/steps/pytorch-h200-2026-12-03-llama-attention-*.json)
# kernels: k0 RMSNorm, k1-k3 the Q, K, V GEMMs, k4 and k5 RoPE on Q and K (pointwise), k6 attention
# (V read as the heads of its projection at h // G; stored [B, T, H, D]), k7 its view as [B, T, C] (a pointwise kernel at a
# dynamic T), k8 the output GEMM, k9 the residual, RMSNorm and its gain (one row program), k10
# SwiGLU's two GEMMs sharing A (an accumulator each: bn=128; ping-pong), k11 the down GEMM with the residual.
# k11 at bn=256 (the contraction default; it spills 56 B, values of the tile loop reloaded once a tile)
# beat bn=128 in alternating rounds: the block 1.024x at 1k, 1.016x at 4k, and ping-pong at bn=256
# 1.004x / 1.001x; the down GEMM took 0.372 / 1.596 ms in that run, at bn=128 0.409 / 1.687 in the
# run of 2026-12-02 (bench/results/steps/pytorch-h200-2026-12-03-llama-down-bn256-ab.json)
for _t in (1024, 4096):
    CASES[f"llama_block_{_t // 1024}k"] = (
        llama_block, _llama_shapes(8, _t),
        {"contraction": HOPPER_GEMM + STAGED, "online": ATTENTION_D64_SHARED + HEAVY_FIRST,
         "k10": PINGPONG_PAIR + STAGED},
        _llama_flops(8, _t), llama_block)

# The module kinds a user brings first, on CUDA (each a graph or a kernel; weights as inputs):
# whether each compiles whole, runs and matches the f32 forward; their speed is not the point.
def nanogpt_attention(x, w_qkv, b_qkv, w_proj, b_proj):
    """nanoGPT's CausalSelfAttention with 12 heads."""
    b, t, c = x.shape
    q, k, v = (z.view(b, t, 12, c // 12).transpose(1, 2) for z in F.linear(x, w_qkv, b_qkv).split(c, dim=2))
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return F.linear(y.transpose(1, 2).contiguous().view(b, t, c), w_proj, b_proj)


def multihead_attention(x, w_in, b_in, w_out, b_out):
    """nn.MultiheadAttention(768, 12, batch_first=True) in eval, as its forward calls torch: the
    batch-first input transposed to [T, B, C], P·V over [B*H, T, D] merged back as [T, B, C]."""
    x = x.transpose(0, 1)
    y = F.multi_head_attention_forward(x, x, x, x.shape[-1], 12, w_in, b_in, None, None, False, 0.0,
                                       w_out, b_out, training=False, need_weights=False)[0]
    return y.transpose(0, 1)


def einsum_attention(q, k, v):
    """Attention as torch.einsum writes it (torch merges B and H for its bmm)."""
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(q.shape[-1])
    return torch.einsum("bhqk,bhkd->bhqd", scores.softmax(-1), v)


def softmax_rows(x):
    return torch.softmax(x, -1)


def logsumexp_rows(x):
    return torch.logsumexp(x, -1)


def scaled_baddbmm(c, a, b):
    return torch.baddbmm(c, a, b, beta=0.5, alpha=2.0)


def mlp_classifier(x, w1, b1, w2, b2):
    return F.log_softmax(F.linear(F.relu(F.linear(x, w1, b1)), w2, b2), dim=-1)


def llama_rope(q, cos, sin):
    """RoPE as the Llama block applies it to Q: the projection's [B, T, H, D] read as [B, H, T, D]."""
    q = q.transpose(1, 2)
    return q * cos + _rotate_half(q) * sin


_ATTENTION_FLOPS = 4.0 * 8 * 12 * 1024 * 1024 * 64
MODULE_CASES = {
    "module_nanogpt_attention": (nanogpt_attention, [(8, 1024, 768), (2304, 768), (2304,), (768, 768), (768,)],
                                 {"contraction": HOPPER_GEMM + STAGED, "online": ATTENTION_D64_SHORT},
                                 2.0 * 8 * 1024 * 768 * 3072 + _ATTENTION_FLOPS / 2, nanogpt_attention),
    "module_multihead_attention": (multihead_attention, [(8, 1024, 768), (2304, 768), (2304,), (768, 768), (768,)],
                                   {"contraction": HOPPER_GEMM + STAGED, "online": ATTENTION_D64_SHORT},
                                   2.0 * 8 * 1024 * 768 * 3072 + _ATTENTION_FLOPS, multihead_attention),
    "module_einsum_attention": (einsum_attention, [(8, 12, 1024, 64), (8, 12, 1024, 64), (8, 12, 1024, 64)],
                                {"online": "bm=128 bn=128 warps=8 stages=3 consumers=2"}, _ATTENTION_FLOPS, einsum_attention),
    "module_swiglu": (swiglu, [(8192, 2048), (5632, 2048), (5632, 2048), (2048, 5632)],
                      {"contraction": NARROW_GEMM}, 2.0 * 3 * 8192 * 2048 * 5632, swiglu),
    "module_rmsnorm": (_rms, [(8192, 2048), (2048,)], {}, 2.0 * 8192 * 2048, _rms),
    "module_softmax": (softmax_rows, [(8192, 4096)], {}, 8192 * 4096.0, softmax_rows),
    "module_logsumexp": (logsumexp_rows, [(8192, 4096)], {}, 8192 * 4096.0, logsumexp_rows),
    "module_broadcast_bmm": (torch.matmul, [(8, 12, 1024, 64), (12, 64, 1024)], {"contraction": HOPPER_GEMM},
                             2.0 * 8 * 12 * 1024 * 64 * 1024, torch.matmul),
    "module_addmm": (torch.addmm, [(4096,), (8192, 1024), (1024, 4096)], {"contraction": HOPPER_GEMM},
                     2.0 * 8192 * 1024 * 4096, torch.addmm),
    "module_baddbmm": (scaled_baddbmm, [(16, 512, 512), (16, 512, 256), (16, 256, 512)], {"contraction": HOPPER_GEMM},
                       2.0 * 16 * 512 * 256 * 512, scaled_baddbmm),
    # a pointwise kernel: FLOPs counts its 3 operations an element
    "module_rope": (llama_rope, [(8, 1024, 32, 64), (1024, 64), (1024, 64)], {}, 3.0 * 8 * 1024 * 32 * 64, llama_rope),
    "module_mlp_classifier": (mlp_classifier, [(8192, 768), (3072, 768), (3072,), (1000, 3072), (1000,)],
                              {"contraction": HOPPER_GEMM}, 2.0 * 8192 * 3072 * (768 + 1000), mlp_classifier),
}
CASES.update(MODULE_CASES)


# cases that are a model's forward: tokens per call, for tokens per second
TOKENS = {"gpt2_block_1k": 8 * 1024, "gpt2_block_4k": 8 * 4096, "llama_block_1k": 8 * 1024,
          "llama_block_4k": 8 * 4096}

# inputs drawn at a model's scale: weight matrices N(0, 0.02) as GPT-2 initialises them (with
# N(0, 1) weights the attention scores reach ~10^3 and the softmax picks one key by a margin below
# bf16's resolution, so any bf16 forward, torch's own included, is far from the f32 one)
WEIGHT_STD = {"gpt2_block_1k": 0.02, "gpt2_block_4k": 0.02, "llama_block_1k": 0.02, "llama_block_4k": 0.02,
              "module_nanogpt_attention": 0.02, "module_multihead_attention": 0.02, "module_swiglu": 0.02,
              "module_mlp_classifier": 0.02}
# RoPE's tables (positions x head dim, Llama 3's base): the inputs at these positions of a case
ROPE_TABLES = {"llama_block_1k": (1, 2), "llama_block_4k": (1, 2)}


def _rope_tables(t: int, d: int, base: float = 500000.0):
    inv = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float32) / d)
    angles = torch.outer(torch.arange(t, dtype=torch.float32), inv)
    angles = torch.cat((angles, angles), dim=-1)
    return angles.cos(), angles.sin()


def inputs_of(name: str, shapes: list, device: str = "cuda") -> list:
    """The case's random bf16 inputs: N(0, 1), matrices of a model N(0, WEIGHT_STD) (seeded by the caller)."""
    std = WEIGHT_STD.get(name)
    out = []
    for k, s in enumerate(shapes):
        t = torch.randn(s, device=device)
        if std is not None and k > 0 and len(s) == 2:
            t = t * std
        out.append(t.to(torch.bfloat16))
    if name in ROPE_TABLES:
        cos_at, sin_at = ROPE_TABLES[name]
        cos, sin = _rope_tables(*shapes[cos_at])
        out[cos_at], out[sin_at] = cos.to(device, torch.bfloat16), sin.to(device, torch.bfloat16)
    return out
