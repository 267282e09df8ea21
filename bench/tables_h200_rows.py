"""The first tables of the row programs and of the GEMMs with prologue maps in docs/benchmarks.md
(bench/tables.py renders them): bench/rows.py and bench/prologue.py on the H200, each beside
torch eager and Inductor in the same run."""

from __future__ import annotations

from bench.tables_common import _load

_ROW_KERNELS = {"softmax": "softmax", "rmsnorm": "RMSNorm", "layernorm": "layernorm"}


def rows_h200() -> list[str]:
    """The row programs, H200, 2026-11-30 (rows-h200-2026-11-30.json): GB/s of tilec's best of
    three schedules, named (after the first row without the common ``bn=256`` and ``warps=4``),
    torch eager and Inductor."""
    lines = ["| kernel | N x C | tilec GB/s (schedule) | eager | Inductor |", "| --- | --- | --- | --- | --- |"]
    for n, r in enumerate(_load("rows-h200-2026-11-30.json")["rows"]):
        schedule = r["best_schedule"] if n == 0 else " ".join(
            part for part in r["best_schedule"].split() if part not in ("bn=256", "warps=4"))
        lines.append(f"| {_ROW_KERNELS[r['kernel']]} | {r['N']} x {r['C']} | {r['tilec_gbs']:.0f} ({schedule}) | "
                     f"{r['eager_gbs']:.0f} | {r['inductor_gbs']:.0f} |")
    return lines


_PROLOGUE_KERNELS = {"dequant": "relu(x) · (W·diag(s))ᵀ", "mixed": "bf16 x · f32 Wᵀ", "plain": "bf16 x · bf16 Wᵀ (no map)"}


def prologue_h200() -> list[str]:
    """The GEMMs with prologue maps and mixed operand types, H200, 2026-12-01
    (prologue-h200-2026-12-01.json): TFLOP/s of tilec (its tile), torch eager and Inductor."""
    lines = ["| kernel | T x C x N | tilec (schedule) | eager | Inductor |", "| --- | --- | --- | --- | --- |"]
    for r in _load("prologue-h200-2026-12-01.json")["rows"]:
        size = f"{r['T']}³" if r["T"] == r["C"] == r["N"] else f"{r['T']}x{r['C']}x{r['N']}"
        lines.append(f"| {_PROLOGUE_KERNELS[r['kernel']]} | {size} | {r['tilec_tflops']:.1f} ({r['schedule']}) | "
                     f"{r['eager_tflops']:.1f} | {r['inductor_tflops']:.1f} |")
    return lines
