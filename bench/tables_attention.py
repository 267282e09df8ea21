"""The attention tables of docs/benchmarks.md (bench/tables.py renders them): runs of
bench/attention.py on the H200 (TFLOP/s of tilec's best packaged schedule against
FlashAttention-2, FlexAttention and cuDNN through SDPA, same run) and one A/B of bench/compare.py."""

from __future__ import annotations

from bench.tables_common import _load, short_schedule, yes_no

_HEAD = "| S | D | causal | B | tilec TFLOP/s | FA2 | Flex | cuDNN | vs FA2 | vs Flex | vs cuDNN | schedule |"


def _peers(r: dict, flex: bool = True) -> str:
    """The cells from S to the ratios to the peers of one configuration of a run."""
    t = r["tilec_tflops"]
    cells = [r["S"], r["D"], yes_no(r["causal"]), r["B"], f"{t:.0f}", f"{r['flash_tflops']:.0f}"]
    cells += [f"{r['flex_tflops']:.0f}"] if flex else []
    cells += [f"{r['cudnn_tflops']:.0f}", f"{t / r['flash_tflops']:.2f}"]
    cells += [f"{t / r['flex_tflops']:.2f}"] if flex else []
    return "| " + " | ".join(str(c) for c in cells + [f"{t / r['cudnn_tflops']:.2f}"]) + " |"


def attention_two_ctas() -> list[str]:
    """The H200 run of 2026-12-02 with two CTAs an SM among the schedules
    (attention-h200-2026-12-02-two-ctas.json): the best schedule of each configuration, its
    TFLOP/s and ratios to the peers, and the largest error over every packaged kernel."""
    lines = [_HEAD + " max abs err |", "| --- " * 13 + "|"]
    for r in _load("attention-h200-2026-12-02-two-ctas.json")["results"]:
        lines.append(f"{_peers(r)} {short_schedule(r['schedule'], warps=False)} | {r['max_abs_error']:.1e} |")
    return lines


def attention_async_wgmma() -> list[str]:
    """The H200 run of 2026-12-01 at bf560f9, P·V left in flight
    (attention-h200-2026-12-01-async-wgmma.json): as above, with the best sm_80-form
    schedule's TFLOP/s (``consumers=0``) beside the best."""
    lines = [_HEAD + " best sm_80 form | max abs err |", "| --- " * 14 + "|"]
    for r in _load("attention-h200-2026-12-01-async-wgmma.json")["results"]:
        sm80 = max(t for k, t in r["tilec_by_schedule"].items() if "consumers=0" in k)
        lines.append(f"{_peers(r)} {short_schedule(r['schedule'], warps=False)} | {sm80:.0f} | "
                     f"{r['max_abs_error']:.1e} |")
    return lines


def _einsum_rows(name: str, schedule) -> list[str]:
    """The non-causal configurations of a run that timed the einsum-order ([B, S, H, D]) kernels
    (``bshd_*``) beside the [B, H, S, D] ones, cuDNN on views and on contiguous inputs;
    ``schedule`` writes the einsum-order schedule."""
    lines = []
    for r in _load(name)["results"]:
        if "bshd_tilec_tflops" not in r:
            continue
        bhsd = r.get("hopper_tflops", r["tilec_tflops"])
        lines.append(f"| {r['S']} | {r['D']} | {r['B']} | {bhsd:.0f} | {r['bshd_tilec_tflops']:.0f} | "
                     f"{r['cudnn_tflops']:.0f} | {r['bshd_cudnn_tflops']:.0f} | "
                     f"{r['bshd_tilec_tflops'] / r['bshd_cudnn_tflops']:.2f} | {schedule(r['bshd_schedule'])} | "
                     f"{r['bshd_max_abs_error']:.1e} |")
    return lines


_EINSUM_HEAD = ("| S | D | B | tilec [B, H, S, D] | tilec [B, S, H, D] | cuDNN [B, H, S, D] | cuDNN on views | "
                "[B, S, H, D] vs cuDNN |")


def attention_einsum_hopper() -> list[str]:
    """The einsum-order kernels on the Hopper path, H200, 2026-12-01
    (attention-h200-2026-12-01-einsum-wgmma.json): the best warp-specialised [B, H, S, D]
    kernel (``hopper_tflops``) beside the best einsum-order one."""
    lines = [_EINSUM_HEAD + " schedule | max abs err |", "| --- " * 10 + "|"]
    return lines + _einsum_rows("attention-h200-2026-12-01-einsum-wgmma.json",
                                lambda s: short_schedule(s, warps=False))


def _tiles(schedule: str) -> str:
    """A schedule as the sm_80-form tables write it: bm, bn, warps, stages."""
    f = dict(part.split("=") for part in schedule.split(","))
    return ", ".join(f[k] for k in ("bm", "bn", "warps", "stages"))


def attention_sm80() -> list[str]:
    """The first attention run, H200, 2026-11-30, the sm_80 form (attention-h200-2026-11-30.json):
    the best packaged schedule against FlashAttention-2 and cuDNN."""
    lines = ["| S | D | causal | B | tilec TFLOP/s | FA2 | cuDNN | vs FA2 | vs cuDNN | "
             "best schedule (bm, bn, warps, stages) | max abs err |", "| --- " * 11 + "|"]
    for r in _load("attention-h200-2026-11-30.json")["results"]:
        lines.append(f"{_peers(r, flex=False)} {_tiles(r['schedule'])} | {r['max_abs_error']:.1e} |")
    return lines


def attention_einsum_sm80() -> list[str]:
    """The einsum-order kernels on the sm_80 form, H200, 2026-12-01 (attention-h200-2026-12-01.json)."""
    lines = [_EINSUM_HEAD + " best schedule (bm, bn, warps, stages) | max abs err |", "| --- " * 10 + "|"]
    return lines + _einsum_rows("attention-h200-2026-12-01.json", _tiles)


def attention_heavy_first() -> list[str]:
    """Causal kernels on the heavy-first raster (B) against the plain grid (A, 1472ff3), 5
    alternated rounds (steps/ab-attention-h200-2026-12-02-heavy-first-32bit.json): per shape the
    range of B/A over the warp-specialised and over the sm_80-form packages, and the A kernel
    fastest in A with its TFLOP/s in A and in B."""
    lines = ["| S | D | warp-specialised kernels, B/A | sm_80-form kernels, B/A | the best A kernel: A -> B TFLOP/s |",
             "| --- | --- | --- | --- | --- |"]
    shapes: dict = {}
    for r in _load("steps/ab-attention-h200-2026-12-02-heavy-first-32bit.json")["results"]:
        shapes.setdefault(tuple(r["shape"]), []).append(r)
    for (s, d), rows in sorted(shapes.items()):
        cells = []
        for ws in (True, False):
            ratios = [r["b_over_a"] for r in rows if ("consumers=0" not in r["schedule"]) == ws]
            cells.append(f"{min(ratios):.2f}–{max(ratios):.2f}")
        best = max(rows, key=lambda r: r["a_tflops"])
        lines.append(f"| {s} | {d} | {cells[0]} | {cells[1]} | {best['a_tflops']:.0f} -> {best['b_tflops']:.0f} |")
    return lines
