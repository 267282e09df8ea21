"""The GEMM tables of docs/benchmarks.md (bench/tables.py renders them): runs of bench/gemm.py on
the H200 (tilec's best packaged schedule against cuBLAS and a Triton GEMM, same run), A/Bs of
bench/compare.py and an Nsight Compute profile."""

from __future__ import annotations

import re

from bench.tables_common import RESULTS, _load, short_schedule


def _size(r: dict, cube: bool = True) -> str:
    """A GEMM's size as the tables write it: ``4096³`` for a cube (``cube``), else MxNxK."""
    m, n, k = (r["M"], r["N"], r["K"]) if isinstance(r, dict) else r
    return f"{m}³" if cube and m == n == k else f"{m}x{n}x{k}"


def _tflops(r: dict, ms: float) -> float:
    return 2 * r["M"] * r["N"] * r["K"] / ms / 1e9


def _best_of(r: dict, keep) -> float:
    """TFLOP/s of the fastest schedule of a size whose schedule text ``keep`` accepts."""
    return max(_tflops(r, ms) for k, ms in r["all_schedules_ms"].items() if keep(k))


def gemm_async_wgmma() -> list[str]:
    """The H200 run of 2026-12-01 at bf560f9 (gemm-h200-2026-12-01-async-wgmma.json): per size
    the best of the 13 schedules against cuBLAS and Triton, and the largest error over the
    packages; at 257x129x65 only the sm_80 form runs (the ratio of the times)."""
    lines = ["| M x N x K | tilec TFLOP/s | cuBLAS | Triton | vs cuBLAS | vs Triton | best schedule | max rel err |",
             "| --- " * 8 + "|"]
    for r in _load("gemm-h200-2026-12-01-async-wgmma.json")["results"]:
        err = f"{max(r['max_rel_error'].values()):.1e}"
        if r["refused"]:
            lines.append(f"| {_size(r, cube=False)} (rows of no whole 16-byte chunk) | — | — | — | {r['ratio']:.2f} | — | "
                         f"sm_80 form (the {len(r['refused'])} warp-specialised kernels refuse these inputs) | {err} |")
            continue
        t = r["tilec_tflops"]
        lines.append(f"| {_size(r, cube=False)} | {t:.0f} | {r['cublas_tflops']:.0f} | {r['triton_tflops']:.0f} | "
                     f"{t / r['cublas_tflops']:.2f} | {t / r['triton_tflops']:.2f} | "
                     f"{short_schedule(r['schedule'], warps=False)} | {err} |")
    return lines


def _ab(name: str) -> dict:
    """An A/B of bench/compare.py: each result by (package, shape)."""
    return {(r["package"], tuple(r["shape"])): r for r in _load(name)["results"]}


def _cell(r: dict) -> str:
    """TFLOP/s without → with, and the median of the per-round ratios."""
    return f"{r['a_tflops']:.0f} → {r['b_tflops']:.0f} ({r['b_over_a']:.2f})"


def gemm_persistent_ab() -> list[str]:
    """Three two-consumer schedules without and with ``persistent``, 5 alternated rounds a shape
    (compare-gemm-h200-2026-12-01-persistent.json)."""
    ab = _ab("compare-gemm-h200-2026-12-01-persistent.json")
    packages, shapes = (list(dict.fromkeys(key[i] for key in ab)) for i in (0, 1))
    lines = ["| schedule (consumers=2) | " + " | ".join(_size(s) for s in shapes) + " |",
             "| --- " * (len(shapes) + 1) + "|"]
    for p in packages:
        label = " ".join(short_schedule(ab[p, shapes[0]]["a_schedule"], warps=False).split()[:3])
        lines.append(f"| {label} | " + " | ".join(_cell(ab[p, s]) for s in shapes) + " |")
    return lines


def gemm_persistent() -> list[str]:
    """The whole benchmark with the four persistent schedules added, H200, 2026-12-01
    (gemm-h200-2026-12-01-persistent.json): the best of the 17 a size."""
    lines = ["| M x N x K | tilec | cuBLAS | Triton | vs cuBLAS | best schedule |", "| --- " * 6 + "|"]
    for r in _load("gemm-h200-2026-12-01-persistent.json")["results"]:
        if r["refused"]:
            continue
        lines.append(f"| {_size(r)} | {r['tilec_tflops']:.0f} | {r['cublas_tflops']:.0f} | {r['triton_tflops']:.0f} | "
                     f"{r['tilec_tflops'] / r['cublas_tflops']:.2f} | {short_schedule(r['schedule'], warps=False)} |")
    return lines


def gemm_pingpong_ab() -> list[str]:
    """The persistent two-warpgroup kernel (A) against ping-pong bm=64 bn=256 stages=4 (B), 5
    alternated rounds a shape (steps/ab-gemm-h200-2026-12-02-pingpong-first.json, its first
    package pair), highest ratio first: the median of the rounds and their range."""
    rows = [r for (p, _), r in _ab("steps/ab-gemm-h200-2026-12-02-pingpong-first.json").items() if p == "gemm_0.tkp"]
    lines = ["| M x N x K | persistent, bm=128 bn=256 | ping-pong, bm=64 bn=256 stages=4 | ratio (rounds) |",
             "| --- | --- | --- | --- |"]
    for r in sorted(rows, key=lambda r: -r["b_over_a"]):
        lines.append(f"| {_size(r['shape'])} | {r['a_tflops']:.0f} | {r['b_tflops']:.0f} | {r['b_over_a']:.2f} "
                     f"({r['b_over_a_min']:.2f}-{r['b_over_a_max']:.2f}) |")
    return lines


def _pingpong_schedule(text: str, stages: bool = True) -> str:
    """A ping-pong schedule as the tables write it: ``ping-pong bm=64 bn=256 [stages=4]``."""
    f = dict(part.split("=") for part in text.split(","))
    return f"ping-pong bm={f['bm']} bn={f['bn']}" + (f" stages={f['stages']}" if stages else "")


def gemm_pingpong() -> list[str]:
    """The whole benchmark with the two ping-pong schedules added, H200, 2026-12-02
    (gemm-h200-2026-12-02-pingpong.json): the best of the 19 a size; where the best ping-pong
    kernel is within 0.5% of a best that is not ping-pong, its TFLOP/s beside."""
    lines = ["| M x N x K | tilec | cuBLAS | Triton | vs cuBLAS | vs Triton | best schedule |", "| --- " * 7 + "|"]
    for r in _load("gemm-h200-2026-12-02-pingpong.json")["results"]:
        if r["refused"] and r["schedule"].count("consumers=0"):
            continue
        t, schedule = r["tilec_tflops"], r["schedule"]
        if "pingpong=true" in schedule:
            label = _pingpong_schedule(schedule)
        else:
            label = short_schedule(schedule, warps=False)
            pingpong = _best_of(r, lambda k: "pingpong=true" in k)
            label += f" (ping-pong: {pingpong:.0f})" if pingpong > 0.995 * t else ""
        lines.append(f"| {_size(r)} | {t:.0f} | {r['cublas_tflops']:.0f} | {r['triton_tflops']:.0f} | "
                     f"{t / r['cublas_tflops']:.2f} | {t / r['triton_tflops']:.2f} | {label} |")
    return lines


_NCU = {"cycles": "gpc__cycles_elapsed.max", "active": "sm__cycles_active.avg",
        "sm": "sm__throughput.avg.pct_of_peak_sustained_elapsed", "l2": "lts__throughput.avg.pct_of_peak_sustained_elapsed",
        "inst": "smsp__inst_executed.sum"}


def _ncu(name: str) -> tuple[str, dict]:
    """The kernel name and the metrics of an Nsight Compute text output (``ncu --metrics``)."""
    text = (RESULTS / "steps" / name).read_text()
    kernel = re.search(r"^  (\S+) \(\d+, \d+, \d+\)x", text, re.M).group(1)
    values = {k: float(re.search(rf"^\s+{re.escape(m)}\s+\S+\s+([\d,.]+)$", text, re.M).group(1).replace(",", ""))
              for k, m in _NCU.items()}
    return kernel, values


def gemm_ncu() -> list[str]:
    """Nsight Compute on the 4096³ GEMMs, H200, 2026-12-02 (bench/ncu_gemm.sh, clocks not locked;
    steps/ncu-gemm-h200-2026-12-02-{coop,pingpong,cublas}-4096.txt): elapsed and active cycles,
    SM and L2 throughput, instructions issued."""
    rows = [("coop", "tilec, persistent bm=128 bn=256 (132 CTAs)"), ("pingpong", "tilec, ping-pong bm=64 bn=256"),
            ("cublas", "cuBLAS `{kernel}`")]
    lines = ["| kernel, 4096³ | cycles | SM active | SM throughput (of elapsed) | L2 throughput | instructions |",
             "| --- | --- | --- | --- | --- | --- |"]
    for run, label in rows:
        kernel, v = _ncu(f"ncu-gemm-h200-2026-12-02-{run}-4096.txt")
        lines.append(f"| {label.format(kernel=kernel)} | {v['cycles'] / 1e3:.0f} k | {v['active'] / 1e3:.0f} k | "
                     f"{v['sm']:.0f}% | {v['l2']:.0f}% | {v['inst'] / 1e6:.1f} M |")
    return lines


def gemm_tma_store_ab() -> list[str]:
    """Four schedules without and with ``tma-store``, 5 alternated rounds a shape
    (steps/ab-gemm-h200-2026-12-02-tma-store.json)."""
    ab = _ab("steps/ab-gemm-h200-2026-12-02-tma-store.json")
    packages, shapes = (list(dict.fromkeys(key[i] for key in ab)) for i in (0, 1))
    labels = ["bm=128 bn=256", "persistent", "ping-pong bm=64 bn=256", "persistent bn=192"]
    lines = ["| M x N x K | " + " | ".join(labels) + " |", "| --- " * (len(labels) + 1) + "|"]
    for s in shapes:
        lines.append(f"| {_size(s)} | " + " | ".join(_cell(ab[p, s]) for p in packages) + " |")
    return lines


def gemm_tma_store() -> list[str]:
    """The whole benchmark with the four staged-store schedules added, H200, 2026-12-02
    (gemm-h200-2026-12-02-tma-store.json): the best of the 23 a size (all ``stages=4
    consumers=2 tma-store=true``, written without those), and the best of the 19 without it."""
    lines = ["| M x N x K | tilec | cuBLAS | Triton | vs cuBLAS | vs Triton | best schedule | best without tma-store |",
             "| --- " * 8 + "|"]
    for r in _load("gemm-h200-2026-12-02-tma-store.json")["results"]:
        if r["refused"] and "consumers=0" in r["schedule"]:
            continue
        t, f = r["tilec_tflops"], dict(part.split("=") for part in r["schedule"].split(","))
        if f["pingpong"] == "true":
            label = _pingpong_schedule(r["schedule"], stages=False)
        else:
            label = f"bm={f['bm']} bn={f['bn']}" + (" persistent" if f["persistent"] == "true" else "")
        without = _best_of(r, lambda k: "tma-store=true" not in k)
        lines.append(f"| {_size(r)} | {t:.0f} | {r['cublas_tflops']:.0f} | {r['triton_tflops']:.0f} | "
                     f"{t / r['cublas_tflops']:.2f} | {t / r['triton_tflops']:.2f} | {label} | {without:.0f} |")
    return lines


def gemm_sm80() -> list[str]:
    """The first GEMM run, H200, 2026-11-30, the sm_80 form (gemm-h200-2026-11-30.json): the best
    of the 8 schedules against cuBLAS, and the largest error over the packages on 5 seeds; at
    257x129x65 the ratio of the times only."""
    lines = ["| M x N x K | tilec TFLOP/s | cuBLAS TFLOP/s | ratio | best schedule | max rel err (5 seeds) |",
             "| --- " * 6 + "|"]
    for r in _load("gemm-h200-2026-11-30.json")["results"]:
        schedule = ",".join(r["schedule"].split(",")[:5])
        err = f"{max(r['max_rel_error'].values()):.1e}"
        if r["M"] % 8:
            lines.append(f"| {_size(r, cube=False)} (masks, unaligned K) | — | — | {r['ratio']:.2f} | {schedule} | {err} |")
            continue
        lines.append(f"| {_size(r, cube=False)} | {r['tilec_tflops']:.0f} | {r['cublas_tflops']:.0f} | "
                     f"{r['tilec_tflops'] / r['cublas_tflops']:.2f} | {schedule} | {err} |")
    return lines
