"""The table of attention's derived backward (bench/attention_backward.py) against SDPA's and
FlexAttention's backward, from its results files: tilec's lower figure of two runs, each peer's
higher, and each ratio the lower of the two runs' own."""

from __future__ import annotations

from bench.tables_common import _load, yes_no

RUNS = ("attention-backward-h200-2026-12-07-run1.json", "attention-backward-h200-2026-12-07-run2.json")


def attention_backward() -> list[str]:
    """S, D, causal: tilec's backward (D, dK/dV, dQ kernels) and the peers' in TFLOP/s (10·B·H·S²·D,
    halved when causal), the ratios, the error against the f32 gradient, the registers of the
    dK/dV and dQ kernels (ptxas) and their schedule."""
    runs = [_load(name)["results"] for name in RUNS]
    flex = all("flex_tflops" in r for run in runs for r in run)
    lines = ["| S | D | causal | tilec | FA2 | cuDNN |" + (" Flex |" if flex else "") +
             " × FA2 | × cuDNN | × Flex | max rel err | registers (dK/dV, dQ) | schedule |",
             "| --- | --- | --- | --- | --- | --- |" + (" --- |" if flex else "") + " --- | --- | --- | --- | --- | --- |"]
    for a, b in zip(*runs):
        if (a["S"], a["D"], a["causal"]) != (b["S"], b["D"], b["causal"]):
            raise ValueError("the two runs' rows differ")
        peers = [max(a[f"{p}_tflops"], b[f"{p}_tflops"]) for p in (("flash", "cudnn", "flex") if flex else
                                                                    ("flash", "cudnn"))]
        cells = [str(a["S"]), str(a["D"]), yes_no(a["causal"]), f"{min(a['tilec_tflops'], b['tilec_tflops']):.0f}"]
        cells += [f"{p:.0f}" for p in peers]
        vs_flex = min(r["tilec_tflops"] / r["flex_tflops"] for r in (a, b)) if flex else None
        cells += [f"{min(a['vs_flash'], b['vs_flash']):.2f}", f"{min(a['vs_cudnn'], b['vs_cudnn']):.2f}",
                  f"{vs_flex:.2f}" if flex else "—", f"{max(a['max_rel_error_any'], b['max_rel_error_any']):.1e}",
                  ", ".join(str(n) for n in a["registers"][1:]), _schedule(a["schedule"])]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _schedule(text: str) -> str:
    f = dict(part.split("=") for part in text.split(","))
    return " ".join(f"{k}={f[k]}" for k in ("bm", "bn", "warps", "stages"))

