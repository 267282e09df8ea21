"""A Triton GEMM peer for bench/gemm.py (GPU machine only: imports triton).

C = A · B for row-major bf16 A [M, K] and B [K, N], f32 accumulation, bf16 out; grouped
rasterisation of the output tiles; Triton's autotuner picks among a few tile shapes per
problem size (its own timing, before ours).
"""

import torch
import triton
import triton.language as tl

_SHAPES = [(128, 256, 64, 3, 8), (128, 128, 64, 4, 4), (128, 128, 64, 4, 8), (256, 128, 64, 3, 8),
           (64, 128, 64, 4, 4), (128, 64, 64, 4, 4)]  # (BM, BN, BK, stages, warps)
CONFIGS = [triton.Config({"BM": bm, "BN": bn, "BK": bk, "GROUP": 8}, num_stages=s, num_warps=w)
           for bm, bn, bk, s, w in _SHAPES]


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"])
@triton.jit
def _gemm(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m, tiles_n = tl.cdiv(M, BM), tl.cdiv(N, BN)
    per_group = GROUP * tiles_n
    first = (pid // per_group) * GROUP
    rows = min(tiles_m - first, GROUP)
    pid_m = first + (pid % per_group) % rows
    pid_n = (pid % per_group) // rows
    om, on, ok = pid_m * BM + tl.arange(0, BM), pid_n * BN + tl.arange(0, BN), tl.arange(0, BK)
    pa = a + om[:, None] * sam + ok[None, :] * sak
    pb = b + ok[:, None] * sbk + on[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        ta = tl.load(pa, mask=(om[:, None] < M) & (ok[None, :] + k0 < K), other=0.0)
        tb = tl.load(pb, mask=(ok[:, None] + k0 < K) & (on[None, :] < N), other=0.0)
        acc = tl.dot(ta, tb, acc)
        pa += BK * sak
        pb += BK * sbk
    tl.store(c + om[:, None] * scm + on[None, :] * scn, acc.to(tl.bfloat16), mask=(om[:, None] < M) & (on[None, :] < N))


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    (m, k), (_, n) = a.shape, b.shape
    c = torch.empty(m, n, device=a.device, dtype=torch.bfloat16)
    grid = lambda meta: (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)
    _gemm[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    return c
