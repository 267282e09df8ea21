"""On a GPU: what a package does with rows of no whole 16-byte chunk (K = 999, 1001, 77).

Build the two packages where tilec compiles (SPEC: `param M = 1000, N = 1000, K = 999`,
inputs A[M, K] and B[N, K] in bf16, `C[i, j] = sum[k](A[i, k] * B[j, k])`; SYM: the same with
`param M, N, K`):

    tilec compile SPEC -o OUT/picked.tkp --target sm_90a
    tilec compile SYM -o OUT/ws.tkp --target sm_90a --schedule bm=64,bn=128,bk=64,warps=4,stages=4,consumers=1

then run `python tests/gpu/odd_rows.py OUT` on the GPU host. The picked package (the cost model
checks the copy engine's rows at the spec's default sizes) is expected to be an mma.sync one that
runs K = 999; the warp-specialised one refuses rows of 999, 1001 and 77 before launching and runs
rows of 1024. Prints the schedule, each outcome and the max relative error against torch.
"""

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import tilec.runtime as rt  # noqa: E402
from tilec.runtime.tensor_map import TensorMapError  # noqa: E402


def _error(c, a, b) -> float:
    ref = a.float() @ b.float().T
    return ((c.float() - ref).abs().max() / ref.abs().max()).item()


def main(folder: str) -> int:
    torch.manual_seed(0)
    picked = rt.load(f"{folder}/picked.tkp")
    schedule = picked.manifest["schedule"]
    print("picked schedule:", schedule, "(mma.sync)" if "consumers=0" in schedule else "(copy engine)")
    a = torch.randn(1000, 999, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(1000, 999, device="cuda", dtype=torch.bfloat16)
    print("picked K=999: max rel err", _error(picked(a, b), a, b))
    ws = rt.load(f"{folder}/ws.tkp")
    for k in (999, 1001, 77, 1024):
        a = torch.randn(300, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(200, k, device="cuda", dtype=torch.bfloat16)
        try:
            c = ws(a, b)
            torch.cuda.synchronize()
            print(f"warp-specialised K={k}: ran, max rel err", _error(c, a, b))
        except TensorMapError as err:
            print(f"warp-specialised K={k}: refused before launch: {err}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "build/gpu-odd/extra"))
