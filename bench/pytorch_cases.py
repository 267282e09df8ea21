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


# name -> (function, input shapes (bf16), schedule, flops, peer: the same computation by torch's library)
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
}
