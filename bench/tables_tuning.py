"""The tuning tables of docs/tuning.md (bench/tables.py renders them): the H200 runs of 2026-12-01
of ``tilec tune`` and ``python -m tilec.runtime.measure`` (bench/results/tuning/), how well the
cost model ranks what was measured (as bench/tuning_report.py computes it), and the tuned
winners beside the peers (bench/tuned.py)."""

from __future__ import annotations

from bench.tables_common import _load, short_schedule, yes_no
from bench.tuning_report import spearman

RUN = "tuning/h200-2026-12-01"
# the kernels tuned, by the name of their results file, as the tables write them
KERNELS = {"gemm4096": "GEMM 4096³ bf16", "gemm-skinny": "GEMM 16384x1024x4096",
           "attention": "attention D=128 S=4k", "causal": "causal attention D=128 S=4k"}
PEERS = {"gemm4096": "GEMM 4096³", "gemm-skinny": "GEMM 16384x1024x4096",
         "attention": "attention D=128 S=4k", "causal": "causal attention D=128 S=4k"}
PERSISTENT = {"4096": "GEMM 4096³", "8192x4096x1024": "GEMM 8192x4096x1024"}
ROWS = {"rmsnorm": "RMSNorm bf16", "softmax": "softmax f32", "layernorm": "layernorm bf16"}
# the row programs' default schedule (a prefix of its text, as bench/tuning_report.py --schedule takes it)
ROW_DEFAULT = "bm=8,bn=256,bk=32,warps=4,"


def _summary(name: str) -> dict:
    """A results file of ``tilec.runtime.measure`` (``RUN-NAME.json``) summarised as
    bench/tuning_report.py does: Spearman of predicted and measured times, and with ptxas's facts
    (the order measured in), the measured best, the model's top-1 and its measured rank."""
    data = _load(f"{RUN}-{name}.json")
    rows = [r for r in data["results"] if r["median_ms"] is not None and r.get("predicted_ms") is not None]
    measured = [r["median_ms"] for r in rows]
    top1 = min(rows, key=lambda r: r["predicted_ms"])
    return {"data": data, "rows": rows, "spearman": spearman([r["predicted_ms"] for r in rows], measured),
            "spearman_ptxas": spearman(list(range(len(rows))), measured),
            "best": min(rows, key=lambda r: r["median_ms"]), "top1": top1,
            "top1_rank": sorted(measured).index(top1["median_ms"]) + 1}


def _pct(x: float) -> str:
    """A relative difference as the tables write it: one decimal under 10%, none above."""
    return f"{x:+.1%}" if abs(x) < 0.1 else f"{x:+.0%}"


def _rho(x: float) -> str:
    """A correlation to two decimals, with a typographic minus."""
    return f"{x:.2f}".replace("-", "−")


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _top1(s: dict, rank: bool = True) -> str:
    """The model's top-1 against the measured best, and its measured rank (``rank``)."""
    cell = _pct(s["top1"]["median_ms"] / s["best"]["median_ms"] - 1)
    return f"{cell} ({_ordinal(s['top1_rank'])})" if rank else cell


def _winner(data: dict) -> str:
    return min((r for r in data["results"] if r["median_ms"] is not None), key=lambda r: r["median_ms"])["schedule"]


def tuning_rank() -> list[str]:
    """The top 30 of the model for each kernel, measured twice in one run
    (tuning/h200-2026-12-01-final-*.json and -final-again-*.json): Spearman of the model's and of
    the order with ptxas's facts, the top-1 against the best, the best, the measurement's GPU
    time, and whether the second run names the same winner."""
    lines = ["| kernel | Spearman: model / with ptxas | model's top-1 vs measured best | measured best | "
             "GPU time per tuning | same winner in the second run |", "| --- | --- | --- | --- | --- | --- |"]
    for name, label in KERNELS.items():
        s = _summary(f"final-{name}")
        again = _load(f"{RUN}-final-again-{name}.json")
        lines.append(f"| {label} | {_rho(s['spearman'])} / {_rho(s['spearman_ptxas'])} | {_top1(s)} | "
                     f"{short_schedule(s['best']['schedule'], warps=False)} | {s['data']['gpu_seconds']:.1f} s | "
                     f"{yes_no(_winner(s['data']) == _winner(again))} |")
    return lines


def tuning_persistent() -> list[str]:
    """The top 30 with persistent points, measured once (tuning/h200-2026-12-01-persistent-gemm-*.json):
    Spearman, the top-1 against the best, the best with its time and TFLOP/s."""
    lines = ["| kernel | Spearman | model's top-1 vs measured best | measured best |", "| --- | --- | --- | --- |"]
    for name, label in PERSISTENT.items():
        s = _summary(f"persistent-gemm-{name}")
        shape, ms = s["data"]["key"]["shapes"], s["best"]["median_ms"]
        tflops = 2 * shape["M"] * shape["N"] * shape["K"] / ms / 1e9
        lines.append(f"| {label} | {_rho(s['spearman'])} | {_top1(s)} | "
                     f"{short_schedule(s['best']['schedule'], warps=False)}, {ms:.4f} ms ({tflops:.0f} TFLOP/s) |")
    return lines


def tuning_peers() -> list[str]:
    """The tuned winners beside the peers, same run, same inputs (bench/tuned.py;
    tuning/h200-2026-12-01-tuned-vs-peers.json): TFLOP/s, and tilec over each peer."""
    lines = ["| kernel | tilec (tuned) | cuBLAS / cuDNN | FA2 | FlexAttention | vs cuBLAS / cuDNN | vs Flex |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for n, r in enumerate(_load(f"{RUN}-tuned-vs-peers.json")["results"]):
        t = r["tilec_tflops"]
        vendor = r.get("cublas_tflops") or r["cudnn_tflops"]
        cells = [f"{t:.0f}{' TFLOP/s' if n == 0 else ''}", f"{vendor:.0f}", "", "", f"{t / vendor:.2f}x", ""]
        if "flash_tflops" in r:
            cells[2:4] = f"{r['flash_tflops']:.0f}", f"{r['flex_tflops']:.0f}"
            cells[5] = f"{t / r['flex_tflops']:.2f}x"
        lines.append(f"| {PEERS[r['folder']]} |" + "".join(f" {c} |" if c else " |" for c in cells))
    return lines


def _row_schedule(text: str) -> str:
    """A row program's schedule as the table writes it: tiles and warps."""
    f = dict(part.split("=") for part in text.split(","))
    return " ".join(f"{k}={f[k]}" for k in ("bm", "bn", "warps"))


def tuning_rows() -> list[str]:
    """The row programs tuned the same way (tuning/h200-2026-12-01-final-{rmsnorm,softmax,layernorm}.json)
    and their tuned winners against torch.compile (tuning/h200-2026-12-01-rows-vs-peers.json):
    Spearman, the top-1 and the default schedule against the best, the best, and GB/s."""
    peers = {r["folder"]: r for r in _load(f"{RUN}-rows-vs-peers.json")["results"]}
    lines = ["| kernel | Spearman | model's top-1 vs measured best | the default schedule (bm=8 bn=256 warps=4) vs best "
             "| measured best | tuned vs torch.compile |", "| --- | --- | --- | --- | --- | --- |"]
    for name, label in ROWS.items():
        s = _summary(f"final-{name}")
        best = s["best"]["median_ms"]
        default = next(r for r in s["rows"] if r["schedule"].startswith(ROW_DEFAULT))["median_ms"]
        p = peers[name]
        gbps = (f"{p['tilec_gbps']:.0f} GB/s vs {p['inductor_gbps']:.0f}" if name == next(iter(ROWS))
                else f"{p['tilec_gbps']:.0f} vs {p['inductor_gbps']:.0f}")
        lines.append(f"| {label} | {_rho(s['spearman'])} | {_top1(s, rank=False)} | {_pct(default / best - 1)} | "
                     f"{_row_schedule(s['best']['schedule'])} | {p['tilec_gbps'] / p['inductor_gbps']:.2f}x ({gbps}) |")
    return lines
