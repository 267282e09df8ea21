"""Kernels whose agreement with torch on the GPU the trust fixes rest on: each a spec, the
sizes it is built for, the sizes it is run at, and an independent torch reference.

    python bench/build_trust.py --out bench/out/trust                         # build machine
    PYTHONPATH=. python bench/check_trust.py --packages bench/out/trust       # GPU machine
"""

import math

ATTENTION_HEAD = "input Q[B, H, S, D] : bf16\ninput K[B, H, T, D] : bf16\ninput V[B, H, T, D] : bf16\n"
SCORES = "sum[e](Q[b, h, i, e] * K[b, h, j, e]) * rsqrt(D)"

CASES = {
    # every score of query row 0 is masked: its output is NaN, as torch.softmax says
    "fully_masked_row": (
        "param B, H, S, T, D = 64\n" + ATTENTION_HEAD + "output O[B, H, S, D] : f32\n"
        f"O[b, h, i, d] = sum[j](softmax[j]({SCORES} where j < i else -inf) * V[b, h, j, d])\n",
        {}, [{"B": 2, "H": 3, "S": 77, "T": 77}, {"B": 1, "H": 2, "S": 130, "T": 300}]),
    # a per-head vector (ALiBi slopes): once proved and then refused by NVRTC
    "per_head_bias": (
        "param B, H, S, T, D = 64\n" + ATTENTION_HEAD + "input slopes[H] : f32\noutput O[B, H, S, D] : bf16\n"
        f"O[b, h, i, d] = sum[j](softmax[j]({SCORES} + slopes[h] * (j - i)) * V[b, h, j, d])\n",
        {}, [{"B": 2, "H": 4, "S": 77, "T": 200}]),
    # an integer constant and 'and' in a mask: once crashed the verifier
    "sliding_window": (
        "param B, H, S, D = 64\nconst W = 48\n" + ATTENTION_HEAD.replace("T,", "S,") +
        "output O[B, H, S, D] : bf16\n"
        f"O[b, h, i, d] = sum[j](softmax[j]({SCORES} where j <= i and i - j < W else -inf) * V[b, h, j, d])\n",
        {}, [{"B": 2, "H": 4, "S": 300}]),
    # the head dim fixed by its default (no --shape): once it needed --shape D=
    "attention_default_head_dim": (
        "param B, H, S, T, D = 64\n" + ATTENTION_HEAD + "output O[B, H, S, D] : bf16\n"
        f"O[b, h, i, d] = sum[j](softmax[j]({SCORES}) * V[b, h, j, d])\n",
        {}, [{"B": 2, "H": 4, "S": 129, "T": 65}]),
    # two batch dims: once invalid tile IR
    "gemm_two_batch_dims": (
        "param P, Q, M, N, K\ninput A[P, Q, M, K] : bf16\ninput B[P, Q, K, N] : bf16\noutput C[P, Q, M, N] : f32\n"
        "C[p, q, i, j] = sum[k](A[p, q, i, k] * B[p, q, k, j])\n",
        {}, [{"P": 2, "Q": 3, "M": 257, "N": 129, "K": 65}]),
    # swapped factors and a scale inside the sum: once not lowered
    "gemm_swapped_scaled": (
        "param M, N, K\ninput A[M, K] : bf16\ninput B[K, N] : bf16\noutput C[M, N] : bf16\n"
        "C[i, j] = sum[k](B[k, j] * A[i, k] * 0.5)\n",
        {}, [{"M": 300, "N": 200, "K": 100}]),
}


def reference(name: str, inputs: list):
    """The torch result of case ``name`` (float32 math on the given tensors)."""
    import torch

    xs = [t.float() for t in inputs]
    if name.startswith("gemm_two"):
        return xs[0] @ xs[1]
    if name.startswith("gemm_swapped"):
        return 0.5 * (xs[0] @ xs[1])
    q, k, v = xs[:3]
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    i = torch.arange(s.shape[-2], device=s.device)[:, None]
    j = torch.arange(s.shape[-1], device=s.device)[None, :]
    if name == "fully_masked_row":
        s = s.masked_fill(~(j < i), float("-inf"))
    if name == "per_head_bias":
        s = s + xs[3][None, :, None, None] * (j - i)
    if name == "sliding_window":
        s = s.masked_fill(~((j <= i) & (i - j < 48)), float("-inf"))
    return torch.softmax(s, -1) @ v
