"""The tuned kernels beside their peers, in the run that tuned them: for each measured
candidates folder (``tilec tune --emit-candidates``, then ``python -m tilec.runtime.measure``),
the winner of its results file is timed again with the peers on the same inputs —
torch.matmul (cuBLAS) for a GEMM; SDPA's FlashAttention-2 and cuDNN and FlexAttention
(torch.compile) for attention; eager torch and torch.compile (Inductor) for a row program
(softmax, RMSNorm, layernorm) — and its output checked against the reference.

    PYTHONPATH=. python bench/tuned.py bench/out/tune/gemm4096 ... --out results.json

Needs only torch and cuda-bindings (no MLIR). The spec of each folder decides the peers:
gemm.ta, attention.ta, causal_attention.ta, rmsnorm.ta, softmax.ta or layernorm.ta (the
bundled examples). The layernorm's mean and rstd outputs are written but not counted.
"""

import argparse
import datetime
import json
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.attention import _flex  # noqa: E402
from bench.gemm import bench, max_rel_error  # noqa: E402
from tilec.runtime import load  # noqa: E402


def _winner(folder: Path, results: str) -> dict:
    data = json.loads((folder / results).read_text())
    return min((r for r in data["results"] if r["median_ms"] is not None), key=lambda r: r["median_ms"])


def gemm_row(kernel, env: dict, reps: int) -> dict:
    m, n, k = env["M"], env["N"], env["K"]
    torch.manual_seed(0)
    a, b = (torch.randn(*s, device="cuda", dtype=torch.bfloat16) for s in ((m, k), (k, n)))
    flops = 2.0 * m * n * k
    error = max_rel_error(kernel(a, b), a.float() @ b.float())
    ms = {"tilec": bench(lambda: kernel(a, b), reps), "cublas": bench(lambda: torch.matmul(a, b), reps)}
    return {"shape": f"{m}x{n}x{k}", "max_rel_error": error, **{f"{p}_tflops": flops / t / 1e9 for p, t in ms.items()},
            "vs_cublas": ms["cublas"] / ms["tilec"]}


def attention_row(kernel, env: dict, causal: bool, reps: int) -> dict:
    b, h, s, d = env["B"], env["H"], env["S"], env["D"]
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal)
    flops = 4.0 * b * h * s * s * d * (0.5 if causal else 1.0)
    error = float((kernel(q, k, v).float() - ref).abs().max())
    ms = {"tilec": bench(lambda: kernel(q, k, v), reps)}
    for label, backend in (("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION)):
        with sdpa_kernel(backend):
            ms[label] = bench(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal), reps)
    ms["flex"] = _flex(q, k, v, causal, reps)
    return {"shape": f"B={b} H={h} S={s} D={d}" + (" causal" if causal else ""), "max_abs_error": error,
            **{f"{p}_tflops": flops / t / 1e9 for p, t in ms.items()},
            "vs_cudnn": ms["cudnn"] / ms["tilec"], "vs_flex": ms["flex"] / ms["tilec"]}


ROW_PEERS = {  # spec -> (inputs beside X, the eager torch function)
    "rmsnorm.ta": (("w",), lambda x, w: F.rms_norm(x, (x.shape[-1],), w, eps=1e-6)),
    "softmax.ta": ((), lambda x: torch.softmax(x, dim=-1)),
    "layernorm.ta": (("gamma", "beta"), lambda x, g, b: F.layer_norm(x, (x.shape[-1],), g, b, eps=1e-5)),
}


def rows_row(kernel, name: str, env: dict, reps: int) -> dict:
    """A row program against eager torch and torch.compile (Inductor), in GB/s of its tensors."""
    n, c = env["N"], env["C"]
    dtype = {"bf16": torch.bfloat16, "f32": torch.float32}[kernel.inputs[0]["dtype"]]
    torch.manual_seed(0)
    extra, eager = ROW_PEERS[name]
    args = [torch.randn(n, c, device="cuda", dtype=dtype)] + [torch.randn(c, device="cuda", dtype=dtype) for _ in extra]
    out = kernel(*args)
    out = out[0] if isinstance(out, tuple) else out
    error = max_rel_error(out, eager(*(a.float() for a in args)))
    inductor = torch.compile(eager)
    inductor(*args)
    ms = {"tilec": bench(lambda: kernel(*args), reps), "eager": bench(lambda: eager(*args), reps),
          "inductor": bench(lambda: inductor(*args), reps)}
    moved = sum(a.numel() * a.element_size() for a in args) + n * c * args[0].element_size()
    return {"shape": f"N={n} C={c}", "max_rel_error": error, **{f"{p}_gbps": moved / t / 1e6 for p, t in ms.items()},
            "vs_inductor": ms["inductor"] / ms["tilec"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--results", default="results.json", help="the results file in each folder")
    parser.add_argument("--out", required=True)
    parser.add_argument("--reps", type=int, default=30)
    args = parser.parse_args()
    rows = []
    for folder in map(Path, args.folders):
        spec = json.loads((folder / "candidates.json").read_text())
        win = _winner(folder, args.results)
        kernel = load(str(folder / win["package"]), register_op=False)
        name = spec["key"]["spec_name"]
        if name == "gemm.ta":
            row = gemm_row(kernel, spec["env"], args.reps)
        elif name in ("attention.ta", "causal_attention.ta"):
            row = attention_row(kernel, spec["env"], name.startswith("causal"), args.reps)
        elif name in ROW_PEERS:
            row = rows_row(kernel, name, spec["env"], args.reps)
        else:
            raise SystemExit(f"{folder}: no peers known for {name}")
        row.update(folder=folder.name, schedule=win["schedule"], tuned_ms=win["median_ms"])
        rows.append(row)
        print(json.dumps(row), flush=True)
    with open(args.out, "w") as handle:
        json.dump({"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(),
                   "torch": torch.__version__, "results": rows}, handle, indent=2)


if __name__ == "__main__":
    main()
