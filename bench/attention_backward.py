"""Attention backward on the GPU: tilec's derived backward (D, dK/dV and dQ kernels: one graph
package, bench/build_attention_backward.py) vs SDPA's FlashAttention-2 and cuDNN backward and
FlexAttention's, same run, same inputs; B·S = 16k tokens, H = 16. Every tilec output is compared
with the float32 gradient (SDPA's math backend); the saved log-sum-exp is the forward's own.

    PYTHONPATH=. python bench/attention_backward.py --packages bench/out/attention-backward \
        --out bench/out/attention-backward-results.json
"""

import argparse
import glob
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.gemm import bench, save_results  # noqa: E402
from tilec.runtime import load  # noqa: E402

CONFIGS = [(s, d, causal) for s in (1024, 4096) for d in (64, 128) for causal in (False, True)]


def _lse(q, k, causal: bool):
    """The forward's row log-sum-exp of the scaled scores (float32), a batch at a time."""
    scale = q.shape[-1] ** -0.5
    out = torch.empty(q.shape[:-1], device=q.device, dtype=torch.float32)
    for b in range(q.shape[0]):
        s = (q[b].float() @ k[b].float().transpose(-1, -2)) * scale
        if causal:
            s.masked_fill_(torch.ones_like(s, dtype=torch.bool).triu(1), float("-inf"))
        out[b] = torch.logsumexp(s, -1)
    return out


def _peer_backward(q, k, v, do, causal: bool, backend, reps: int) -> float:
    """Milliseconds of SDPA's backward alone (the forward run once, its graph kept)."""
    qs, ks, vs = (x.detach().requires_grad_() for x in (q, k, v))
    with sdpa_kernel(backend):
        out = F.scaled_dot_product_attention(qs, ks, vs, is_causal=causal)
        return bench(lambda: torch.autograd.grad(out, (qs, ks, vs), do, retain_graph=True), reps)


def _flex_backward(q, k, v, do, causal: bool, reps: int) -> float:
    import torch._functorch.config as functorch_config
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    functorch_config.donated_buffer = False  # the backward is timed again and again on one graph
    fn = torch.compile(flex_attention)
    mask = create_block_mask(lambda b, h, i, j: i >= j, None, None, q.shape[2], k.shape[2]) if causal else None
    qs, ks, vs = (x.detach().requires_grad_() for x in (q, k, v))
    out = fn(qs, ks, vs, block_mask=mask)
    torch.autograd.grad(out, (qs, ks, vs), do, retain_graph=True)
    return bench(lambda: torch.autograd.grad(out, (qs, ks, vs), do, retain_graph=True), reps)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default="bench/out/attention-backward")
    parser.add_argument("--out", default="bench/out/attention-backward-results.json")
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--no-flex", action="store_true")
    args = parser.parse_args()
    graphs = {p: load(p) for p in sorted(glob.glob(f"{args.packages}/*.tkg"))}
    rows = []
    for s, d, causal in CONFIGS:
        b, h = 16384 // s, 16
        torch.manual_seed(0)
        q, k, v, do = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(4))
        with sdpa_kernel(SDPBackend.MATH):  # the float32 reference
            qf, kf, vf = (x.float().requires_grad_() for x in (q, k, v))
            of = F.scaled_dot_product_attention(qf, kf, vf, is_causal=causal)
            ref = torch.autograd.grad(of, (qf, kf, vf), do.float())
        o = of.detach().to(torch.bfloat16)
        lse = _lse(q, k, causal)
        del qf, kf, vf, of
        name = "causal_attention" if causal else "attention"
        mine = {p: g for p, g in graphs.items() if os.path.basename(p).startswith(f"{name}_d{d}_")}
        flops = 10.0 * b * h * s * s * d * (0.5 if causal else 1.0)  # 2.5x the forward's 4 b h s^2 d
        row = {"S": s, "D": d, "causal": causal, "B": b, "H": h}
        errors, times = {}, {}
        for p, g in mine.items():
            out = g(Q=q, K=k, V=v, O=o, lse=lse, dO=do)
            got = dict(zip([o["name"] for o in g.outputs], out if isinstance(out, (tuple, list)) else [out]))
            errors[p] = max(float((got[n].float() - r).abs().max() / r.abs().max())
                            for n, r in zip(("dQ", "dK", "dV"), ref))
            times[p] = bench(lambda g=g: g(Q=q, K=k, V=v, O=o, lse=lse, dO=do), args.reps)
        best = min(times, key=times.get)
        peers = {}
        for label, backend in (("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION)):
            peers[label] = _peer_backward(q, k, v, do, causal, backend, args.reps)
        if not args.no_flex:
            peers["flex"] = _flex_backward(q, k, v, do, causal, args.reps)
        row.update({"tilec_tflops": flops / times[best] / 1e9, "package": os.path.basename(best),
                    "schedule": graphs[best].kernels[-1].manifest["schedule"],  # the dK/dV and dQ kernels'
                    "kernels": [k.manifest["schedule"] for k in graphs[best].kernels],
                    "registers": [k.manifest.get("ptxas", {}).get("registers") for k in graphs[best].kernels],
                    "tilec_by_package": {os.path.basename(p): flops / t / 1e9 for p, t in times.items()},
                    "max_rel_error": errors[best], "max_rel_error_any": max(errors.values())})
        row.update({f"{label}_tflops": flops / t / 1e9 for label, t in peers.items()})
        row["vs_cudnn"] = row["tilec_tflops"] / row["cudnn_tflops"]
        row["vs_flash"] = row["tilec_tflops"] / row["flash_tflops"]
        rows.append(row)
        print(f"S={s} D={d} causal={causal}: tilec {row['tilec_tflops']:.0f} ({row['schedule']}), "
              + ", ".join(f"{label} {row[f'{label}_tflops']:.0f}" for label in peers)
              + f", x{row['vs_cudnn']:.2f} cuDNN, max rel err {row['max_rel_error_any']:.1e}", flush=True)
    save_results(args.out, rows)


if __name__ == "__main__":
    main()
