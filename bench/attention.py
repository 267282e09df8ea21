"""Attention forward on the GPU: tilec kernels vs SDPA (FlashAttention-2 and cuDNN backends),
same run, same inputs; B·S = 32k tokens, H = 16.

    PYTHONPATH=. python bench/attention.py --packages bench/out/attention --out bench/out/attention-results.json
"""

import argparse
import datetime
import glob
import json
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.gemm import bench  # noqa: E402
from tilec.runtime import load  # noqa: E402

CONFIGS = [(s, d, causal) for s in (1024, 4096, 16384) for d in (64, 128) for causal in (False, True)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default="bench/out/attention")
    parser.add_argument("--out", default="bench/out/attention-results.json")
    parser.add_argument("--reps", type=int, default=10)
    args = parser.parse_args()
    kernels = {p: load(p, register_op=False) for p in sorted(glob.glob(f"{args.packages}/*.tkp"))}
    rows = []
    for s, d, causal in CONFIGS:
        b, h = 32768 // s, 16
        torch.manual_seed(0)
        q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
        ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal)
        name = "causal_attention" if causal else "attention"
        mine = {p: kern for p, kern in kernels.items() if os.path.basename(p).startswith(f"{name}_d{d}_")}
        flops = 4.0 * b * h * s * s * d * (0.5 if causal else 1.0)
        row = {"S": s, "D": d, "causal": causal, "B": b, "H": h}
        errors, times = {}, {}
        for p, kern in mine.items():
            out = kern(q, k, v)
            errors[p] = float((out.float() - ref).abs().max())
            times[p] = bench(lambda kern=kern: kern(q, k, v), args.reps)
        best = min(times, key=times.get)
        peers = {}
        for label, backend in (("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION)):
            with sdpa_kernel(backend):
                peers[label] = bench(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal), args.reps)
        peers["flex"] = _flex(q, k, v, causal, args.reps)
        hopper = {p: t for p, t in times.items() if kernels[p].manifest["schedule"].find("consumers=0") < 0}
        if hopper:
            fastest = min(hopper, key=hopper.get)
            row.update({"hopper_tflops": flops / hopper[fastest] / 1e9,
                        "hopper_schedule": kernels[fastest].manifest["schedule"]})
        row.update({"flex_tflops": flops / peers["flex"] / 1e9,
                    "tilec_by_schedule": {kernels[p].manifest["schedule"]: flops / t / 1e9
                                          for p, t in times.items()}})
        row.update({"tilec_tflops": flops / times[best] / 1e9, "schedule": kernels[best].manifest["schedule"],
                    "flash_tflops": flops / peers["flash"] / 1e9, "cudnn_tflops": flops / peers["cudnn"] / 1e9,
                    "max_abs_error": max(errors.values()), "correct": max(errors.values()) < 3e-2})
        row["vs_flash"] = row["tilec_tflops"] / row["flash_tflops"]
        row["vs_cudnn"] = row["tilec_tflops"] / row["cudnn_tflops"]
        if not causal:
            row.update(_einsum_order(kernels, d, q, k, v, ref, flops, args.reps))
        rows.append(row)
        print(f"S={s} D={d} causal={causal}: tilec {row['tilec_tflops']:.0f} ({row['schedule']}), "
              f"FA2 {row['flash_tflops']:.0f}, cuDNN {row['cudnn_tflops']:.0f}, Flex {row['flex_tflops']:.0f}, "
              f"x{row['vs_flash']:.2f} FA2, x{row['vs_cudnn']:.2f} cuDNN, max abs err {row['max_abs_error']:.1e}",
              flush=True)
        if "bshd_tilec_tflops" in row:
            print(f"  [B, S, H, D]: tilec {row['bshd_tilec_tflops']:.0f} ({row['bshd_schedule']}), cuDNN on views "
                  f"{row['bshd_cudnn_tflops']:.0f}, max abs err {row['bshd_max_abs_error']:.1e}", flush=True)
    result = {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(),
              "torch": torch.__version__, "results": rows}
    with open(args.out, "w") as handle:
        json.dump(result, handle, indent=2)


_FLEX = {}


def _flex(q, k, v, causal: bool, reps: int) -> float:
    """Seconds per call of FlexAttention (torch.compile), compiled once per shape before timing."""
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    if "fn" not in _FLEX:
        _FLEX["fn"] = torch.compile(flex_attention)
    mask = create_block_mask(lambda b, h, i, j: i >= j, None, None, q.shape[2], k.shape[2]) if causal else None
    call = lambda: _FLEX["fn"](q, k, v, block_mask=mask)
    call()
    return bench(call, reps)


def _einsum_order(kernels, d, q, k, v, ref, flops, reps) -> dict:
    """The same attention on Q/K/V stored [B, S, H, D]: tilec's einsum-order kernels read that
    memory as it is; SDPA (cuDNN) is given the [B, H, S, D] views of the same memory, the way
    models call it after .transpose(1, 2)."""
    mine = {p: kern for p, kern in kernels.items() if os.path.basename(p).startswith(f"einsum_attention_d{d}_")}
    if not mine:
        return {}
    qs, ks, vs = (x.transpose(1, 2).contiguous() for x in (q, k, v))
    times, errors = {}, {}
    for p, kern in mine.items():
        errors[p] = float((kern(qs, ks, vs).transpose(1, 2).float() - ref).abs().max())
        times[p] = bench(lambda kern=kern: kern(qs, ks, vs), reps)
    best = min(times, key=times.get)
    views = [x.transpose(1, 2) for x in (qs, ks, vs)]
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        cudnn = bench(lambda: F.scaled_dot_product_attention(*views), reps)
    return {"bshd_tilec_tflops": flops / times[best] / 1e9, "bshd_cudnn_tflops": flops / cudnn / 1e9,
            "bshd_schedule": kernels[best].manifest["schedule"], "bshd_max_abs_error": max(errors.values()),
            "bshd_correct": max(errors.values()) < 3e-2}


if __name__ == "__main__":
    main()
