"""The tables of docs/benchmarks.md's "Kernels compiled from PyTorch code" on the blocks' kernels
(bench/tables.py renders them), H200, from 2026-12-03 on: Nsight Compute's text outputs of those
kernels and of cuDNN's or cuBLAS's beside them, A/Bs of bench/compare.py and bench/launch_ab.py,
and the schedule changes tried, each the blocks in alternated rounds against the build before
(bench/check_pytorch.py ``--baseline``); where the blocks stand is in bench/tables_pytorch_blocks.py."""

from __future__ import annotations

import re

from bench.tables_common import RESULTS, _load
from bench.tables_pytorch_blocks import _block, _over, _ratio, _rows

def _ncu_kernels(path: str) -> list[str]:
    """The text of each kernel's Nsight Compute output in a file, in order (a line ``# ...`` opens each)."""
    text = (RESULTS / path).read_text()
    return [part for part in re.split(r"^# .*$", text, flags=re.M) if part.strip()]


def _metric(text: str, name: str) -> float:
    """The first value of a metric (a section's row or an ``ncu --metrics`` line) in an Nsight Compute output."""
    found = re.search(rf"^\s+{re.escape(name)}\s+(?:\S+\s+)?([\d,.]+)\s*$", text, re.M)
    if not found:
        raise ValueError(f"no metric {name!r} in the Nsight Compute output")
    return float(found.group(1).replace(",", ""))


def _launch(text: str) -> tuple[int, int]:
    """A kernel's CTAs and threads a CTA, from the launch line of its Nsight Compute output."""
    grid, block = re.search(r"^  \S+ \((\d+), 1, 1\)x\((\d+), 1, 1\)", text, re.M).groups()
    return int(grid), int(block)


def _fp32(text: str) -> int:
    """Fused and non-fused FP32 instructions, summed (the rule's note of the Instruction Statistics)."""
    fused, plain = re.search(r"executes (\d+) fused and (\d+) non-fused FP32", text).groups()
    return int(fused) + int(plain)


# how the CTAs of each kernel of the profiles share the GPU
_RESIDENCY = ("2 an SM", "persistent")
_TENSOR = "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"
_XU = "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"


def attention_ncu_d64() -> list[str]:
    """Nsight Compute on tilec's causal D = 64 attention and cuDNN's, B = 8, H = 32, S = 4096, H200
    (ncu-attention-d64-causal-h200-2026-12-03.txt: the two kernels in turn)."""
    kernels = _ncu_kernels("ncu-attention-d64-causal-h200-2026-12-03.txt")
    rows = [("duration (profiler's clocks)", lambda k: f"{_metric(k, 'Duration'):.2f} ms"),
            ("CTAs x threads", lambda k: "{} x {}".format(*_launch(k))),
            ("instructions executed", lambda k: f"{_metric(k, 'Executed Instructions') / 1e6:.1f} M"),
            ("FP32 instructions (fused + not)", lambda k: f"{_fp32(k) / 1e6:.1f} M"),
            ("issue slots busy", lambda k: f"{_metric(k, 'Issue Slots Busy'):.1f}%"),
            ("tensor pipe active", lambda k: f"{_metric(k, _TENSOR):.1f}%"),
            ("XU (ex2) pipe", lambda k: f"{_metric(k, _XU):.1f}%"),
            ("L2 throughput", lambda k: f"{_metric(k, 'L2 Cache Throughput'):.1f}%")]
    lines = ["| | tilec | cuDNN |", "| --- | --- | --- |"]
    for label, cell in rows:
        cells = [cell(k) + (f" ({how})" if label == "CTAs x threads" else "") for k, how in zip(kernels, _RESIDENCY)]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


# the attention kernels of the A/B, by package and S: label as the table names them
_NARROW = {("causal_attention_d64_1wg.tkp", 4096): "causal, one warpgroup, 2 CTAs an SM",
           ("causal_attention_d64_1wg.tkp", 1024): "causal, same",
           ("causal_attention_d128_2wg.tkp", 4096): "causal, `bm=128 bn=128 consumers=2 softmax-overlap`",
           ("attention_d128_2wg.tkp", 4096): "not causal, same"}


def narrow_masks() -> list[str]:
    """The attention kernels without (A, 32e87ae) and with (B, 3dbc2ca) the 32-bit masks and the
    unscaled stabiliser, 5 alternated rounds (steps/ab-attention-h200-2026-12-03-narrow-masks-scaled.json)."""
    results = {(r["package"], r["shape"][0]): r
               for r in _load("steps/ab-attention-h200-2026-12-03-narrow-masks-scaled.json")["results"]}
    lines = ["| kernel | S, D | A TFLOP/s | B TFLOP/s | B / A (rounds) |", "| --- | --- | --- | --- | --- |"]
    for key, label in _NARROW.items():
        r = results[key]
        lines.append(f"| {label} | {r['shape'][0]}, {r['shape'][1]} | {r['a_tflops']:.0f} | {r['b_tflops']:.0f} | "
                     f"{r['b_over_a']:.3f} ({r['b_over_a_min']:.3f}-{r['b_over_a_max']:.3f}) |")
    return lines


def _ncu_launches(path: str) -> list[tuple[str, str]]:
    """Each kernel's name and text in an Nsight Compute output of several kernels, in order."""
    parts = re.split(r"^  (\S+) \(\d+, \d+, \d+\)x\(\d+, \d+, \d+\), Context", (RESULTS / path).read_text(), flags=re.M)
    return list(zip(parts[1::2], parts[2::2]))


def _microseconds(text: str) -> float:
    """A kernel's duration in us (Nsight Compute writes it in us or ms)."""
    unit = re.search(r"^\s+Duration\s+(us|ms)\s", text, re.M).group(1)
    return _metric(text, "Duration") * (1e3 if unit == "ms" else 1)


def _l2_bytes(text: str) -> float:
    """L2 bytes (``lts__t_bytes.sum``, in Mbyte or Gbyte) in GB."""
    unit = re.search(r"^\s+lts__t_bytes\.sum\s+(Mbyte|Gbyte)\s", text, re.M).group(1)
    return _metric(text, "lts__t_bytes.sum") / (1e3 if unit == "Mbyte" else 1)


# a profiled GEMM's fields as the table writes them
_FIELDS = {"time": lambda k: f"{_microseconds(k):.0f} us", "tensor": lambda k: f"{_metric(k, _TENSOR):.1f}%",
           "alu": lambda k: f"{_metric(k, 'sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active'):.1f}%",
           "l2": lambda k: f"{_l2_bytes(k):.2f} GB"}
# the rows: label, tilec's kernel and fields, cuBLAS's kernel (its place in gpt2_ind.txt), fields and note
_GEMMS_NCU = [("GPT-2 QKV + bias (ping-pong 64x256)", "gpt2_block_4k_k1", ("time", "tensor", "alu", "l2"),
               0, ("time", "tensor", "alu", "l2"), " (192x192, 2x1 cluster)"),
              ("GPT-2 projection + bias + residual (128x192)", "gpt2_block_4k_k4", ("time", "tensor", "alu"),
               2, ("time", "tensor"), " (the residual a separate kernel)"),
              ("GPT-2 MLP up + bias + GELU (128x128)", "gpt2_block_4k_k6", ("time", "tensor", "alu"),
               3, ("time", "tensor"), " (GELU a separate kernel)"),
              ("GPT-2 MLP down + bias + residual (128x192)", "gpt2_block_4k_k7", ("time", "tensor", "alu"),
               4, ("time", "tensor"), "")]
_LLAMA_NCU = ("llama_block_4k_k1", "llama_block_4k_k10", "llama_block_4k_k11")


def blocks_gemm_ncu() -> list[str]:
    """Nsight Compute on the blocks' GEMMs at T = 4k and on cuBLAS's in Inductor's graph, H200,
    2026-12-03 (ncu-blocks-h200-2026-12-03/: gpt2_tilec.txt, gpt2_ind.txt, llama_tilec.txt)."""
    ours = dict(_ncu_launches("ncu-blocks-h200-2026-12-03/gpt2_tilec.txt"))
    theirs = [text for _, text in _ncu_launches("ncu-blocks-h200-2026-12-03/gpt2_ind.txt")]
    llama = dict(_ncu_launches("ncu-blocks-h200-2026-12-03/llama_tilec.txt"))
    lines = ["| GEMM (B 8, T 4096) | tilec: time, tensor pipe, ALU pipe, L2 bytes | cuBLAS in Inductor's graph |",
             "| --- | --- | --- |"]
    for label, kernel, fields, peer, peer_fields, note in _GEMMS_NCU:
        mine = ", ".join(_FIELDS[f](ours[kernel]) for f in fields)
        lines.append(f"| {label} | {mine} | {', '.join(_FIELDS[f](theirs[peer]) for f in peer_fields)}{note} |")
    tensor = ", ".join(_FIELDS["tensor"](llama[k]) for k in _LLAMA_NCU)
    lines.append(f"| Llama Q, SwiGLU pair, down (`k1`, `k10`, `k11`) | {tensor} tensor | |")
    return lines


def _stalls(text: str) -> str:
    """Warp cycles an issued instruction, and the stall reasons of half a cycle or more of them
    (the issuing warp's own ``selected`` left out), largest first."""
    found = re.findall(r"smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio\s+inst\s+([\d.]+)", text)
    top = sorted(((float(v), k) for k, v in found if k != "selected" and float(v) >= 0.5), reverse=True)
    reasons = ", ".join(f"{k.replace('_', ' ')} {v:.2f}" for v, k in top)
    return f"{_metric(text, 'Warp Cycles Per Issued Instruction'):.2f} ({reasons})"


def attention_ncu_1k() -> list[str]:
    """Nsight Compute on tilec's causal attention at T = 1k and cuDNN's, B = 8, H = 32, S = 1024,
    D = 64, H200, 2026-12-04 (ncu-attention-1k-h200-2026-12-04/ncu-att1k-{tilec,cudnn}.txt)."""
    kernels = [(RESULTS / f"ncu-attention-1k-h200-2026-12-04/ncu-att1k-{who}.txt").read_text()
               for who in ("tilec", "cudnn")]
    rows = [("duration (profiler's clocks)", lambda k: f"{_microseconds(k):.0f} us"),
            ("CTAs x threads", lambda k: "{} x {}".format(*_launch(k))),
            ("instructions executed", lambda k: f"{_metric(k, 'smsp__inst_executed.sum') / 1e6:.1f} M"),
            ("ex2 (XU pipe) instructions", lambda k: f"{_metric(k, 'sm__inst_executed_pipe_xu.sum') / 1e6:.2f} M"),
            ("tensor pipe active", lambda k: f"{_metric(k, _TENSOR):.1f}%"),
            ("L2 bytes", lambda k: f"{_l2_bytes(k) * 1e3:.0f} MB"),
            ("warp cycles per issued instruction", _stalls)]
    lines = ["| | tilec | cuDNN |", "| --- | --- | --- |"]
    for label, cell in rows:
        cells = [cell(k) + (f" ({how})" if label == "CTAs x threads" else "") for k, how in zip(kernels, _RESIDENCY)]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def launch_ab() -> list[str]:
    """The blocks' kernels launched waiting for the grid before them (dependent launches) and plainly,
    in turn (bench/launch_ab.py, H200, 2026-12-04; steps/launch-ab-h200-2026-12-04.json): each way's
    time, the median of the rounds' speed-ups, the host's time a call."""
    lines = ["| block, T | dependent launches (ms) | plain launches (ms) | speed-up | host time a call, "
             "dependent / plain (ms) |", "| --- | --- | --- | --- | --- |"]
    for r in _load("steps/launch-ab-h200-2026-12-04.json")["rows"]:
        # where the two times say the other way, the speed-up is the rounds' median
        note = " (rounds' median)" if r["plain_ms"] < r["dependent_ms"] else ""
        lines.append(f"| {_block(r['case'])} | {r['dependent_ms']:.4f} | {r['plain_ms']:.4f} | "
                     f"{r['speedup']:.3f}x{note} | {r['host_ms_dependent']:.3f} / {r['host_ms_plain']:.3f} |")
    return lines


def _both(rows: dict, block: str, baseline: str, rounds: bool = True) -> str:
    """A change's speed-up at 1k / 4k of ``block``."""
    return " / ".join(_over(rows[f"{block}_block_{t}"], baseline, rounds) for t in ("1k", "4k"))


def gemm_tiles() -> list[str]:
    """Two GEMM schedule changes in the blocks, 5 alternated rounds against the build before
    (steps/pytorch-h200-2026-12-03-llama-down-bn256-ab.json: bench/out/cur at bn=128, bench/out/dpp
    ping-pong at bn=256; steps/pytorch-h200-2026-12-03-gpt2-bn192-ab.json)."""
    down = "pytorch-h200-2026-12-03-llama-down-bn256-ab.json"
    wide = "pytorch-h200-2026-12-03-gpt2-bn192-ab.json"
    llama, gpt2 = _rows(f"steps/{down}"), _rows(f"steps/{wide}")
    return ["| change | block, T | speed-up (rounds) | results file (`bench/results/steps/`) |",
            "| --- | --- | --- | --- |",
            "| Llama's down GEMM + residual (k11) at bn=256, the contraction default, over bn=128 | 1k / 4k | "
            f"{_both(llama, 'llama', 'bench/out/cur')} | `{down}` |",
            f"| the same against ping-pong at bn=256 | 1k / 4k | {_both(llama, 'llama', 'bench/out/dpp', False)} | "
            "same file |",
            "| GPT-2's 768-wide GEMMs (projection k4, MLP down k7) at bn=192 over bn=128 | 1k / 4k | "
            f"{_both(gpt2, 'gpt2', 'bench/out/cur')} | `{wide}` |"]


# the attention schedules tried against the blocks' one-warpgroup schedule: label, results file
_RETRIED = [("`bm=64 bn=64 stages=4`, one warpgroup, 2 CTAs an SM (less of the diagonal computed; 1k only)",
             "pytorch-h200-2026-12-03-attention-bn64-ab.json"),
            ("`bm=192 bn=128 stages=2 consumers=3`", "pytorch-h200-2026-12-03-attention-three-warpgroups-ab.json"),
            ("`bm=128 bn=128 stages=3 consumers=2 softmax-overlap=true`",
             "pytorch-h200-2026-12-03-attention-two-warpgroups-ab.json")]


def attention_retried() -> list[str]:
    """Attention schedules against the one the blocks keep, the blocks in 5 alternated rounds
    (steps/pytorch-h200-2026-12-03-attention-*-ab.json): the median speed-up at GPT-2 1k / 4k,
    Llama 1k / 4k, ``-`` where not run."""
    lines = ["| schedule (all `heavy-first=true`) | speed-up | results file (`bench/results/steps/`) |",
             "| --- | --- | --- |"]
    for label, name in _RETRIED:
        rows = _rows(f"steps/{name}")
        cells = [_over(rows[c], rounds=False) if c in rows else "-"
                 for c in ("gpt2_block_1k", "gpt2_block_4k", "llama_block_1k", "llama_block_4k")]
        lines.append(f"| {label} | {' / '.join(cells)} | `{name}` |")
    return lines


# the two forms of the epilogue's pair reads: label, results file
_PAIRS = [("a branch a pair (vector load inside, two guarded element loads outside)",
           "steps/pytorch-h200-2026-12-03-epilogue-pairs-branches-ab.json"),
          ("predicated, no branch", "steps/pytorch-h200-2026-12-03-epilogue-pairs-predicated-ab.json")]
# GPT-2's GEMMs in ``kernels_ms``: QKV, projection, MLP up, MLP down
_GPT2_GEMMS = (1, 4, 6, 7)


def epilogue_pairs() -> list[str]:
    """The bias and residual read two columns at a time, two forms, each in 5 alternated rounds
    against the build without (steps/pytorch-h200-2026-12-03-epilogue-pairs-{branches,predicated}-ab.json;
    the base's kernels in ...-epilogue-pairs-baseline-kernels.json): the blocks' speed-ups, GPT-2 4k's GEMMs."""
    base = _rows("steps/pytorch-h200-2026-12-03-epilogue-pairs-baseline-kernels.json")["gpt2_block_4k"]["kernels_ms"]
    lines = ["| form | GPT-2 1k | GPT-2 4k | Llama 4k | kernels at GPT-2 4k (QKV, projection, up, down; base "
             + ", ".join(f"{base[i]:.3f}" for i in _GPT2_GEMMS) + " ms) |", "| --- | --- | --- | --- | --- |"]
    for label, name in _PAIRS:
        rows = _rows(name)
        cells = [_over(rows[c], rounds=False) for c in ("gpt2_block_1k", "gpt2_block_4k", "llama_block_4k")]
        gemms = ", ".join(f"{rows['gpt2_block_4k']['kernels_ms'][i]:.3f}" for i in _GPT2_GEMMS)
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {gemms} |")
    return lines


# GPT-2's GEMM schedule changes: label, results file (under steps/), the baseline build of the
# A/B, and whether the change is that baseline (its speed-up the inverse of the A/B's)
_GPT2_CHANGES = [
    ("QKV (`k1`) on two warpgroups, 128 x 192 tiles, stored by the copy engine, for ping-pong 64 x 256",
     "pytorch-h200-2026-12-03-gpt2-qkv192-ab.json", "bench/out/base", False),
    ("QKV at 128 x 256 instead (nine tiles a row for twelve), against the above",
     "pytorch-h200-2026-12-03-gpt2-qkv192-ab.json", "bench/out/v2", True),
    ("MLP up + GELU (`k6`) at bn = 192, over the above", "pytorch-h200-2026-12-03-gpt2-qkv192-ab.json",
     "bench/out/v1", True),
    ("ping-pong 64 x 128 for `k6`", "pytorch-h200-2026-12-03-gpt2-gemm-pingpong-qkv192-ab.json", "bench/out/pp6", True),
    ("ping-pong 64 x 128 for the projection and MLP down (`k4`, `k7`)",
     "pytorch-h200-2026-12-03-gpt2-gemm-pingpong-qkv192-ab.json", "bench/out/pp47", True),
    ("six stages at 128 x 128 for the MLP up + GELU (`k6`, four before), over the first row",
     "pytorch-h200-2026-12-03-gpt2-six-stages-ab.json", "bench/out/s6a", True),
    ("six stages at 128 x 128 for `k4` and `k7` (128 x 192 at four before)",
     "pytorch-h200-2026-12-03-gpt2-six-stages-ab.json", "bench/out/s6b", True)]


def gpt2_gemms() -> list[str]:
    """GPT-2's GEMM schedules, one change at a time, the block in 5 alternated rounds against the
    build before (steps/pytorch-h200-2026-12-03-gpt2-{qkv192,gemm-pingpong-qkv192,six-stages}-ab.json):
    the median speed-up at 1k and 4k; the file named once, then ``same``."""
    lines = ["| change | block, 1k | block, 4k | results file (`bench/results/steps/`) |", "| --- | --- | --- | --- |"]
    named = None
    for label, name, baseline, inverse in _GPT2_CHANGES:
        rows = _rows(f"steps/{name}")
        cells = []
        for t in ("1k", "4k"):
            over = rows[f"gpt2_block_{t}"]["baselines"][baseline]["over_baseline"]
            cells.append(_ratio(1 / over if inverse else over))
        lines.append(f"| {label} | {cells[0]} | {cells[1]} | {'same' if name == named else f'`{name}`'} |")
        named = name
    return lines


# the GEMM schedules tried for GPT-2's MLP up + GELU (k6) and the blocks' GEMMs: label, results file
# (under steps/), the speed-ups a cell gives (each over the build before, ``bench/out/final``, or,
# with a variant of the same run named, over the build before divided by the variant's), and
# whether the table gives GPT-2's k6 at 4k
_K6 = [("k4, k6, k7 on one warpgroup, two CTAs an SM (`bm=64 bn=192 stages=3 consumers=1 occupancy=2 "
        "persistent=true tma-store=true`)", "pytorch-h200-2026-12-04-gpt2-gemm-occupancy-ab.json",
        [None], True),
       ("the same at `bn=128 stages=4`", "pytorch-h200-2026-12-04-gpt2-gemm-occupancy-ab.json",
        ["bench/out/occ128"], False),
       ("Llama's block, its GEMMs so (all but SwiGLU's pair), `bn=192` / `bn=128`",
        "pytorch-h200-2026-12-04-llama-gemm-occupancy-ab.json", [None, "bench/out/locc128"], False),
       ("k6 ping-pong on 64 x 256 tiles", "pytorch-h200-2026-12-04-gpt2-gelu-pingpong-64-ab.json",
        [None], True),
       ("k6 ping-pong on 128 x 128 tiles, two wgmma slabs a warpgroup (new, below)",
        "pytorch-h200-2026-12-04-gpt2-pingpong-two-slabs-ab.json", [None], True)]
# GPT-2's k6 before: as the graph ran it in the blocks' run of 2026-12-03
_K6_BEFORE = "pytorch-h200-2026-12-03-blocks-vectors-qkv192.json"


def gelu_gemm_changes() -> list[str]:
    """Ways to overlap GPT-2's GELU epilogue with multiplies, the blocks in 5 alternated rounds
    against the build before (steps/pytorch-h200-2026-12-04-*-ab.json, H200, 2026-12-04): the
    median speed-up at 1k and 4k, GPT-2's k6 at 4k (``kernels_ms``), before it as the 2026-12-03
    blocks' graph ran it."""
    before = dict(_rows(_K6_BEFORE)["gpt2_block_4k"]["tilec_kernels_profiled_ms"])["gpt2_block_4k_k6"]
    lines = [f"| change (GPT-2's block unless named) | 1k | 4k | GPT-2's k6 at 4k (ms, before {before:.3f}) | "
             "results file |", "| --- | --- | --- | --- | --- |"]
    named = None
    for label, name, variants, k6 in _K6:
        rows = _rows(f"steps/{name}")
        cells = []
        for case in sorted(rows, key=lambda c: c.endswith("4k")):
            over = rows[case]["baselines"]
            cells.append(" / ".join(_ratio(over["bench/out/final"]["over_baseline"] / (over[v]["over_baseline"] if v else 1))
                                    for v in variants))
        kernel = f" {rows['gpt2_block_4k']['kernels_ms'][6]:.3f} " if k6 else " "
        lines.append(f"| {label} | {cells[0]} | {cells[1]} |{kernel}| {'same' if name == named else f'`{name}`'} |")
        named = name
    return lines
