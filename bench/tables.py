"""Tables in the docs generated from the results files: one source for every number in them.

A generated table sits in a Markdown file between two markers naming its generator:

    <!-- table: launch-spin -->
    | kernel | without the spin (min / median / max, ms) | with it |
    ...
    <!-- end table -->

    python bench/tables.py            # rewrite every generated table from bench/results/
    python bench/tables.py --check    # exit 1, naming each table whose text differs from its files

A generator reads its results files (named in it, under bench/results/) and returns the table's
lines; the generators live here and in the bench/tables_*.py modules (bench/tables_common.py holds
what they share), each registered in ``TABLES``; ``tests/test_bench_tables.py`` runs the check,
so a number edited by hand, or a results file changed without its table, fails the tests. Tables
not yet between markers are written by hand (the older ones of docs/benchmarks.md, and those of
runs whose results file was not kept, which say so above them); each new one is generated.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: bench/ is on the path, the repository root is not

from bench.tables_attention import (attention_async_wgmma, attention_einsum_hopper,  # noqa: E402
                                    attention_einsum_sm80, attention_heavy_first, attention_sm80,
                                    attention_two_ctas)
from bench.tables_backward import attention_backward  # noqa: E402
from bench.tables_common import _load, short_schedule  # noqa: E402
from bench.tables_gemm import (gemm_async_wgmma, gemm_ncu, gemm_persistent, gemm_persistent_ab,  # noqa: E402
                               gemm_pingpong, gemm_pingpong_ab, gemm_sm80, gemm_tma_store, gemm_tma_store_ab)
from bench.tables_h200_rows import prologue_h200, rows_h200  # noqa: E402
from bench.tables_pytorch import (blocks_inductor_kernels, blocks_one_block_rows, gpt2_block,  # noqa: E402
                                  gpt2_block_kernels, llama_block, llama_block_kernels, pytorch_cases,
                                  pytorch_graphs, rows_one_block)
from bench.tables_pytorch_blocks import (blocks_alternated, blocks_column_vectors, blocks_grid_dependency,  # noqa: E402
                                         blocks_mask_fold, blocks_standing, blocks_vectors_qkv192,
                                         dynamic_lengths, module_kinds)
from bench.tables_pytorch_kernels import (attention_ncu_1k, attention_ncu_d64, attention_retried,  # noqa: E402
                                          blocks_gemm_ncu, epilogue_pairs, gelu_gemm_changes, gemm_tiles,
                                          gpt2_gemms, launch_ab, narrow_masks)
from bench.tables_rows import rows_default, rows_splits  # noqa: E402
from bench.tables_split_k import split_k_shapes, split_k_ways  # noqa: E402
from bench.tables_tuning import tuning_peers, tuning_persistent, tuning_rank, tuning_rows  # noqa: E402
DOCS = ["README.md", "docs/benchmarks.md", "docs/compile-time.md", "docs/tuning.md"]
_BLOCK = re.compile(r"(<!-- table: ([a-z0-9-]+) -->\n)(.*?)(<!-- end table -->)", re.S)


def launch_spin() -> list[str]:
    """GPU time of a launch with and without the spin ahead of it (bench/launch.py)."""
    spread = _load("launch-h200-2026-12-01.json")["spread"]
    rows = [("tilec GEMM 4096³ (bm=128 bn=256 stages=3, 2 consumers)", "tilec gemm4096.tkp"),
            ("torch.matmul 4096³ (cuBLAS)", "torch.matmul 4096")]
    lines = ["| kernel | without the spin (min / median / max, ms) | with it |", "| --- | --- | --- |"]
    for label, key in rows:
        cells = [" / ".join(f"{spread[f'{key} {how}'][s]:.3f}" for s in ("min", "median", "max"))
                 for how in ("without the spin", "with the spin")]
        lines.append(f"| {label} | {cells[0]} | {cells[1]} |")
    return lines


def attention_inplace_pv() -> list[str]:
    """The attention kernels whose P·V accumulates into the carried tile, before and after,
    alternated in one run (tilec.runtime.measure): each median, and after / before of the lower of each."""
    runs = [("plain-1", "attention D={D}, 2 consumers (run 1)"), ("plain-2", "attention D={D}, 2 consumers (run 2)"),
            ("pingpong", "ping-pong D={D}"), ("tma-store", "staged store D={D}")]
    lines = ["| kernel (B=4, H=16, S=T=4096) | before (ms) | after (ms) | after / before, the lower of each |",
             "| --- | --- | --- | --- |"]
    for run, label in runs:
        data = _load(f"attention-inplace-pv-h100-2026-12-06-{run}.json")
        times = {"before": [], "after": []}
        for result in data["results"]:
            times[result["schedule"].removesuffix(" (again)")].append(result["median_ms"])
        ratio = min(times["after"]) / min(times["before"])
        cells = [" / ".join(f"{t:.4f}" for t in times[k]) for k in ("before", "after")]
        lines.append(f"| {label.format(D=data['key']['shapes']['D'])} | {cells[0]} | {cells[1]} | {ratio:.3f} |")
    return lines


def attention_hopper() -> list[str]:
    """The attention figures of the H200 run of 2026-12-03 (bench/attention.py): each peer's
    TFLOP/s, tilec's best schedule, and the ratio to cuDNN again in the second run right after."""
    first = _load("attention-h200-2026-12-03-stabiliser.json")["results"]
    second = _load("steps/attention-h200-2026-12-03-stabiliser-second-run.json")["results"]
    lines = ["| S | D | causal | B | tilec TFLOP/s | FA2 | Flex | cuDNN | vs FA2 | vs Flex | vs cuDNN | "
             "vs cuDNN, second run | schedule | max abs err |", "| --- " * 14 + "|"]
    for r, again in zip(first, second, strict=True):
        if (r["S"], r["D"], r["causal"]) != (again["S"], again["D"], again["causal"]):
            raise ValueError("the two attention runs list their configurations in different orders")
        t = r["tilec_tflops"]
        lines.append(f"| {r['S']} | {r['D']} | {'yes' if r['causal'] else 'no'} | {r['B']} | {t:.0f} | "
                     f"{r['flash_tflops']:.0f} | {r['flex_tflops']:.0f} | {r['cudnn_tflops']:.0f} | "
                     f"{t / r['flash_tflops']:.2f} | {t / r['flex_tflops']:.2f} | {t / r['cudnn_tflops']:.2f} | "
                     f"{again['tilec_tflops'] / again['cudnn_tflops']:.2f} | {short_schedule(r['schedule'])} | "
                     f"{r['max_abs_error']:.1e} |")
    return lines


def same_code() -> list[str]:
    """The benchmark kernels of two builds, package by package (bench/same_code.py): the same
    CUDA source, the same machine code and launch, or different."""
    data = _load("same-code-5133e13-2026-12-07.json")
    scripts = {"gemm": "build_gemm.py (GEMM)", "attention": "build_attention.py (attention)",
               "rows": "build_rows.py (softmax, LayerNorm, RMSNorm)", "pytorch": "build_pytorch.py (PyTorch cases, GPT-2 and Llama blocks)"}
    lines = [f"| packages ({data['old']} -> {data['new']}) | same source | same machine code and launch | differ | "
             "in one build only |", "| --- | --- | --- | --- | --- |"]
    for name, kinds in data["groups"].items():
        count = {k: len(v) for k, v in kinds.items()}
        lines.append(f"| {scripts.get(name, name)} | {count['same source']} | {count['same machine code']} | "
                     f"{count['differ']} | {count['only old'] + count['only new']} |")
    return lines


def layernorm_ab() -> list[str]:
    """The LayerNorm packages of 5133e13 (A) and of the tree after the centred variance (B), timed
    alternated in two runs of bench/compare.py: each one's GB/s in the first run, B/A in each
    run (median of the rounds) and the lower of the two."""
    runs = [_load(f"layernorm-ab-5133e13-h100-2026-12-07-run{n}.json")["results"] for n in (1, 2)]
    lines = ["| package | N x C | A (5133e13), GB/s | B (this tree), GB/s | B/A, run 1 | B/A, run 2 | B/A, the lower |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r, again in zip(*runs, strict=True):
        if (r["package"], r["shape"]) != (again["package"], again["shape"]):
            raise ValueError("the two LayerNorm A/B runs list their packages in different orders")
        n, c = r["shape"]
        lines.append(f"| {r['package'].removesuffix('.tkp')} | {n} x {c} | {r['a_tflops']:.0f} | {r['b_tflops']:.0f} | "
                     f"{r['b_over_a']:.3f} | {again['b_over_a']:.3f} | {min(r['b_over_a'], again['b_over_a']):.3f} |")
    return lines


def layernorm_ab_best() -> list[str]:
    """Per shape, the fastest package of each build in the LayerNorm A/B (what bench/rows.py
    reports is its fastest schedule): best B over best A in each run, and the lower."""
    lines = ["| N x C | best A, GB/s (package) | best B, GB/s (package) | B/A, run 1 | B/A, run 2 | B/A, the lower |",
             "| --- | --- | --- | --- | --- | --- |"]
    ratios, first = [], {}
    for n in (1, 2):
        best = {}
        for r in _load(f"layernorm-ab-5133e13-h100-2026-12-07-run{n}.json")["results"]:
            for side in ("a", "b"):
                key = (tuple(r["shape"]), side)
                if r[f"{side}_tflops"] > best.get(key, (0, ""))[0]:
                    best[key] = (r[f"{side}_tflops"], r["package"].removesuffix(".tkp"))
        shapes = list(dict.fromkeys(shape for shape, _ in best))
        ratios.append({shape: best[shape, "b"][0] / best[shape, "a"][0] for shape in shapes})
        first = first or best
    for shape in ratios[0]:
        (ga, pa), (gb, pb) = first[shape, "a"], first[shape, "b"]
        r1, r2 = ratios[0][shape], ratios[1][shape]
        lines.append(f"| {shape[0]} x {shape[1]} | {ga:.0f} ({pa}) | {gb:.0f} ({pb}) | {r1:.3f} | {r2:.3f} | "
                     f"{min(r1, r2):.3f} |")
    return lines


REPLAY_RUNS = ("replay-h100-2026-12-07-run1.json", "replay-h100-2026-12-07-run2.json")
WAYS = ("launched", "replayed", "replayed, static results")


def _best(times: dict, suffix: str, peer: bool = False) -> float:
    """The fastest of ``times`` whose name ends with ``suffix`` (tilec's packages, or a peer's runs)."""
    found = [v for k, v in times.items() if k.endswith(suffix) and k.startswith("torch") == peer]
    if not found:
        raise ValueError(f"no result ends with {suffix!r}")
    return min(found)


def replay_back_to_back() -> list[str]:
    """Calls in a row, the host included (bench/replay.py): each way's fastest GEMM package and
    its speed over cuBLAS (the faster of its two readings), and GPT-2's block at T = 1k against
    torch eager and Inductor (each peer the faster of its two readings); two runs."""
    lines = ["| work | run | launched | replayed | replayed, static results | peer | replayed / peer | "
             "static / peer |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for n, name in enumerate(REPLAY_RUNS, 1):
        times = _load(name)["gemm"]["back_to_back_ms"]
        for size in ("1024x1024x1024", "2048x2048x2048"):
            ours = [_best(times, f" {way} {size}") for way in WAYS]
            peer = min(v for k, v in times.items() if k.startswith(f"torch.matmul {size}"))
            lines.append(f"| GEMM {size.split('x')[0]}³ | {n} | " + " | ".join(f"{t * 1e3:.1f} us" for t in ours)
                         + f" | cuBLAS {peer * 1e3:.1f} us | {peer / ours[1]:.2f} | {peer / ours[2]:.2f} |")
    for n, name in enumerate(REPLAY_RUNS, 1):
        times = _load(name)["gpt2_block_1k"]["back_to_back_ms"]
        ours = [times[way] for way in WAYS]
        for peer in ("torch eager", "Inductor", "Inductor reduce-overhead"):
            best = min(times[f"{peer} run 1"], times[f"{peer} run 2"])
            lines.append(f"| GPT-2 block, T = 1k | {n} | " + " | ".join(f"{t:.3f} ms" for t in ours)
                         + f" | {peer} {best:.3f} ms | {best / ours[1]:.2f} | {best / ours[2]:.2f} |")
    return lines


def replay_host() -> list[str]:
    """Host time of one call while the GPU runs behind (bench/replay.py): a GEMM at 128³ (the
    median over the packages, the fastest), GPT-2's block (7 kernels, 13 inputs); two runs."""
    lines = ["| call | run | launched | replayed | replayed, static results |", "| --- | --- | --- | --- | --- |"]
    for n, name in enumerate(REPLAY_RUNS, 1):
        data = _load(name)
        host = data["gemm"]["host_us"]
        cells = []
        for way in WAYS:
            values = sorted(v for k, v in host.items() if k.endswith(f".tkp {way}"))
            cells.append(f"{values[len(values) // 2]:.1f} us ({values[0]:.1f})")
        lines.append(f"| GEMM 128³, median (fastest) of {len(values)} packages | {n} | " + " | ".join(cells) + " |")
        block = data["gpt2_block_1k"]["host_us"]
        lines.append(f"| GPT-2 block, T = 1k | {n} | " + " | ".join(f"{block[way]:.1f} us" for way in WAYS) + " |")
    return lines


def replay_host_parts() -> list[str]:
    """Where a replayed call's host time goes (bench/replay.py's third run, ``host_parts_us``):
    a GEMM (2 inputs, 1 result) and GPT-2's block (13 inputs, 1 result)."""
    data = _load("replay-h100-2026-12-07-run3.json")
    parts = ("key", "capture check", "graph launch", "result copies")
    lines = ["| call | " + " | ".join(parts) + " |", "| --- " * (len(parts) + 1) + "|"]
    for label, where in (("GEMM 128³", "gemm"), ("GPT-2 block, T = 1k", "gpt2_block_1k")):
        lines.append(f"| {label} | " + " | ".join(f"{data[where]['host_parts_us'][p]:.1f} us" for p in parts) + " |")
    return lines


COMPILE_TIME = "compile-time-cpu-2026-12-07.json"
# the targets of the compile-time work (issue 44), by case of bench/compile_time.py
COMPILE_TARGETS = {"gemm, no verification": "≤ 3 s", "gemm": "≤ 8 s", "gemm, cached": "≤ 1 s",
                   "attention, no verification": "≤ 3 s", "attention": "≤ 8 s", "attention, cached": "≤ 1 s",
                   "verify gemm": "≤ 5 s", "verify attention": "≤ 5 s"}


def compile_time() -> list[str]:
    """Wall time of each command in a fresh process, the lower of the runs, per tree
    (bench/compile_time.py; cold: tilec's caches empty, the CPU compiler's own kept)."""
    data = _load(COMPILE_TIME)
    before, after = (f"{name} ({data['trees'][name]})" for name in ("before", "after"))
    lines = [f"| command (`--target sm_90a`) | {before} | {after} | after / before | target |",
             "| --- | --- | --- | --- | --- |"]
    for case, runs in data["seconds"].items():
        b, a = min(runs["before"]), min(runs["after"])
        lines.append(f"| {case} | {b:.2f} s | {a:.2f} s | {a / b:.2f} | {COMPILE_TARGETS.get(case, '')} |")
    first = data["first_compile_on_machine"]
    lines.append(f"| gemm, the first compile on the machine (the CPU compiler builds its C library) | "
                 f"{first['before']:.2f} s | {first['after']:.2f} s | {first['after'] / first['before']:.2f} | |")
    return lines


def compile_phases() -> list[str]:
    """Seconds of the parts of one cold compile (verified) of each spec, timed in-process
    (bench/compile_time.py --phases); parts nest: ranking is in the pick, the CPU run in verification."""
    data = _load(COMPILE_TIME)["phases"]
    cols = [(tree, spec) for tree in ("before", "after") for spec in ("gemm", "attention")]
    lines = ["| part | " + " | ".join(f"{spec}, {tree}" for tree, spec in cols) + " |", "| --- " * (len(cols) + 1) + "|"]
    for part in data["after"]["gemm"]:
        lines.append(f"| {part} | " + " | ".join(f"{data[t][s].get(part, 0.0):.2f}" for t, s in cols) + " |")
    return lines


def _runs(kind: str) -> list:
    return [_load(f"default-pick-{kind}-h100-2026-12-07-run{n}.json")["results"] for n in (1, 2)]


def default_pick_gemm() -> list[str]:
    """The GEMM package of a spec with its sizes left free, before (the model's pick at the toy
    defaults: mma.sync 64x64) and after (sm_90a's first any-size schedule), same runs
    (bench/gemm.py on the H100): milliseconds, the lower of two runs; cuBLAS the same."""
    lines = ["| M x N x K | before: bm=64 bn=64 mma.sync | after: bm=128 bn=256, 2 consumers | after / before, speed | "
             "cuBLAS | after vs cuBLAS |", "| --- | --- | --- | --- | --- | --- |"]
    for rows in zip(*_runs("gemm")):
        size = f"{rows[0]['M']}x{rows[0]['N']}x{rows[0]['K']}"
        if "all_schedules_ms" not in rows[0] or len(rows[0]["all_schedules_ms"]) < 2:
            lines.append(f"| {size} | runs | refused at launch (rows of no whole 16-byte chunk) | | | |")
            continue
        old = min(next(t for k, t in r["all_schedules_ms"].items() if "consumers=0" in k) for r in rows)
        new = min(next(t for k, t in r["all_schedules_ms"].items() if "consumers=2" in k) for r in rows)
        cublas = min(r["cublas_ms"] for r in rows)
        lines.append(f"| {size} | {old:.4f} ms | {new:.4f} ms | {old / new:.2f} | {cublas:.4f} ms | {cublas / new:.2f} |")
    return lines


def default_pick_attention() -> list[str]:
    """The attention packages before (the model's pick at the toy defaults: bm=64, one consumer,
    two CTAs an SM; bn=128 at D = 64, 64 at D = 128) and the two-consumer any-size schedule, in
    the same runs (bench/attention.py on the H100, B*S = 32k, H = 16): TFLOP/s, the lower of two
    runs; cuDNN the higher of its two."""
    first, second = "bm=64,", "bm=128,bn=128"
    lines = ["| S | D | causal | before: bm=64, 1 consumer, 2 CTAs an SM | bm=128 bn=128, 2 consumers | cuDNN | "
             "the pick's vs cuDNN |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for rows in zip(*_runs("attention")):
        r = rows[0]
        a = min(next(t for k, t in x["tilec_by_schedule"].items() if k.startswith(first)) for x in rows)
        b = min(next(t for k, t in x["tilec_by_schedule"].items() if k.startswith(second)) for x in rows)
        cudnn = max(x["cudnn_tflops"] for x in rows)
        picked = a if r["D"] == 64 else b  # the first any-size point that lowers at this D
        lines.append(f"| {r['S']} | {r['D']} | {'yes' if r['causal'] else 'no'} | {a:.0f} | {b:.0f} | {cudnn:.0f} | "
                     f"{picked / cudnn:.2f} |")
    return lines


TABLES = {"split-k-shapes": split_k_shapes, "split-k-ways": split_k_ways, "attention-backward": attention_backward,
          "launch-spin": launch_spin, "attention-inplace-pv": attention_inplace_pv, "attention-hopper": attention_hopper,
          "same-code": same_code, "layernorm-ab": layernorm_ab,
          "layernorm-ab-best": layernorm_ab_best, "replay-back-to-back": replay_back_to_back,
          "replay-host": replay_host, "replay-host-parts": replay_host_parts,
          "compile-time": compile_time, "compile-phases": compile_phases,
          "default-pick-gemm": default_pick_gemm, "default-pick-attention": default_pick_attention,
          "rows-default": rows_default, "rows-splits": rows_splits,
          "attention-two-ctas": attention_two_ctas, "attention-async-wgmma": attention_async_wgmma,
          "attention-einsum-hopper": attention_einsum_hopper, "attention-heavy-first": attention_heavy_first,
          "attention-sm80": attention_sm80, "attention-einsum-sm80": attention_einsum_sm80,
          "gemm-async-wgmma": gemm_async_wgmma, "gemm-persistent-ab": gemm_persistent_ab,
          "gemm-persistent": gemm_persistent, "gemm-pingpong-ab": gemm_pingpong_ab, "gemm-pingpong": gemm_pingpong,
          "gemm-ncu": gemm_ncu, "gemm-tma-store-ab": gemm_tma_store_ab, "gemm-tma-store": gemm_tma_store,
          "gemm-sm80": gemm_sm80, "rows-h200": rows_h200, "prologue-h200": prologue_h200,
          "pytorch-cases": pytorch_cases, "pytorch-graphs": pytorch_graphs, "gpt2-block": gpt2_block,
          "gpt2-block-kernels": gpt2_block_kernels, "llama-block": llama_block,
          "llama-block-kernels": llama_block_kernels, "blocks-inductor-kernels": blocks_inductor_kernels,
          "blocks-one-block-rows": blocks_one_block_rows, "rows-one-block": rows_one_block,
          "module-kinds": module_kinds, "gemm-tiles-blocks": gemm_tiles, "blocks-2026-12-03": blocks_standing,
          "attention-ncu-d64": attention_ncu_d64, "attention-narrow-masks": narrow_masks,
          "blocks-alternated": blocks_alternated, "attention-retried": attention_retried,
          "blocks-gemm-ncu": blocks_gemm_ncu, "epilogue-pairs": epilogue_pairs, "gpt2-gemms": gpt2_gemms,
          "blocks-vectors-qkv192": blocks_vectors_qkv192, "gelu-gemm-changes": gelu_gemm_changes,
          "blocks-column-vectors": blocks_column_vectors, "attention-ncu-1k": attention_ncu_1k,
          "launch-ab-blocks": launch_ab, "blocks-grid-dependency": blocks_grid_dependency,
          "blocks-mask-fold": blocks_mask_fold, "dynamic-lengths": dynamic_lengths,
          "tuning-rank": tuning_rank, "tuning-persistent": tuning_persistent, "tuning-peers": tuning_peers,
          "tuning-rows": tuning_rows}


def render(text: str, where: str) -> tuple[str, list[str]]:
    """``text`` with each generated table rewritten, and the names of those that changed; a
    marker naming no generator is an error naming the file."""
    changed = []

    def table(match) -> str:
        name = match.group(2)
        if name not in TABLES:
            raise SystemExit(f"{where}: no table generator named '{name}' (bench/tables.py: {', '.join(TABLES)})")
        body = "\n".join(TABLES[name]()) + "\n"
        if body != match.group(3):
            changed.append(name)
        return match.group(1) + body + match.group(4)

    return _BLOCK.sub(table, text), changed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a table differs")
    args = parser.parse_args(argv)
    stale = []
    for doc in DOCS:
        path = ROOT / doc
        text = path.read_text()
        new, changed = render(text, doc)
        stale += [f"{doc}: {name}" for name in changed]
        if changed and not args.check:
            path.write_text(new)
    for entry in stale:
        print(f"{'differs' if args.check else 'rewritten'}: {entry}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
