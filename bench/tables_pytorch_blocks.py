"""The tables of docs/benchmarks.md's "Kernels compiled from PyTorch code", second part (bench/tables.py
renders them): the module kinds, and the GPT-2 and Llama blocks on the H200 from 2026-12-02 on,
each a run of bench/check_pytorch.py (beside Inductor, in turn with it, or in alternating rounds
against an earlier build: ``--baseline``) or of bench/dynamic_lengths.py; the kernels profiled or
timed on their own are in bench/tables_pytorch_kernels.py."""

from __future__ import annotations

from bench.tables_common import _load
from bench.tables_pytorch import _PARTS, _inductor_part

BLOCKS = {"gpt2": "GPT-2", "llama": "Llama"}


def _block(case: str) -> str:
    """A block case as the tables name it: ``gpt2_block_1k`` is ``GPT-2, 1k``."""
    block, t = case.split("_block_")
    return f"{BLOCKS[block]}, {t}"


def _rows(name: str) -> dict:
    """The rows of a run of bench/check_pytorch.py, by case."""
    return {r["case"]: r for r in _load(name)["rows"]}


def _block_rows(name: str) -> dict:
    """The block cases' rows of a run of bench/check_pytorch.py, by case (its other cases left out)."""
    return {case: r for case, r in _rows(name).items() if "_block_" in case}


def _ratio(value: float, rounds: list | None = None) -> str:
    """A speed-up as the tables write it, with the spread of its rounds when given."""
    return f"{value:.3f}x" + (f" ({min(rounds):.3f}-{max(rounds):.3f})" if rounds else "")


def _over(r: dict, baseline: str | None = None, rounds: bool = True) -> str:
    """A block's speed-up over a baseline build (the first one when not named), rounds' spread."""
    b = r["baselines"][baseline] if baseline else r
    return _ratio(b["over_baseline"], b["over_baseline_rounds"] if rounds else None)


def _in_turn(r: dict) -> str:
    """A block's speed over Inductor, timed in turn (the median of the rounds), and the rounds' spread."""
    return _ratio(r["over_inductor"], r["over_inductor_rounds"])


def _profiled(r: dict) -> tuple[dict, dict]:
    """Kernel sums by part of the block (GEMMs and their epilogues, attention, norms, RoPE, other),
    tilec's and Inductor's, each kernel as the graph runs it (torch's profiler)."""
    parts = _PARTS[r["case"].split("_block_")[0]]
    ours = {p: 0.0 for p in parts}
    for kernel, ms in r["tilec_kernels_profiled_ms"]:
        index = int(kernel.rsplit("_k", 1)[1])
        ours[next(p for p, where in parts.items() if index in where)] += ms
    theirs = {}
    for kernel, ms in r["inductor_kernels_ms"]:
        theirs[_inductor_part(kernel)] = theirs.get(_inductor_part(kernel), 0.0) + ms
    return ours, theirs


def _sums(r: dict, part: str | None = None) -> str:
    """tilec / Inductor (ms) of one part of the block's kernels, or of all of them."""
    ours, theirs = _profiled(r)
    if part:
        return f"{ours[part]:.3f} / {theirs[part]:.3f}"
    return f"{sum(ours.values()):.3f} / {sum(theirs.values()):.3f}"


# the module kinds of pytorch-h200-2026-12-02-module-kinds-form-schedules.json: label, shapes, views
# among its steps
_MODULES = {
    "module_nanogpt_attention": ("nanoGPT attention (QKV Linear, causal SDPA over 12 heads, projection)",
                                 "x 8x1024x768", 1),
    "module_einsum_attention": ("attention with `torch.einsum`", "q, k, v 8x12x1024x64", 0),
    "module_swiglu": ("SwiGLU", "x 8192x2048, 5632", 0),
    "module_rmsnorm": ("RMSNorm", "8192x2048", 0),
    "module_softmax": ("softmax", "8192x4096", 0),
    "module_logsumexp": ("logsumexp", "8192x4096", 0),
    "module_broadcast_bmm": ("broadcast matmul", "8x12x1024x64 @ 12x64x1024", 0),
    "module_addmm": ("`addmm`", "8192x1024 @ 1024x4096 + 4096", 0),
    "module_baddbmm": ("`baddbmm` (beta 0.5, alpha 2)", "16x512x256 @ 16x256x512", 0),
    "module_mlp_classifier": ("MLP classifier with `log_softmax`", "x 8192x768, 3072, 1000 classes", 0),
}


def module_kinds() -> list[str]:
    """The module kinds on the H200, 2026-12-02 (pytorch-h200-2026-12-02-module-kinds-form-schedules.json):
    the kernels each runs as, the error beside torch's own bf16 forward's, and tilec / eager."""
    lines = ["| module | shapes | tilec | max error / max output (torch's own bf16) | tilec / eager |",
             "| --- | --- | --- | --- | --- |"]
    for r in _load("pytorch-h200-2026-12-02-module-kinds-form-schedules.json")["rows"]:
        label, shapes, views = _MODULES[r["case"]]
        kernels = len(r.get("kernels_ms", [0])) - views
        runs = f"{kernels} kernel{'s' if kernels > 1 else ''}" + (" and a view" if views else "")
        lines.append(f"| {label} | {shapes} | {runs} | {r['max_rel_error']:.1e} ({r['torch_bf16_rel_error']:.1e}) | "
                     f"{r['ratio']:.2f} |")
    return lines


def blocks_standing() -> list[str]:
    """The blocks on the H200, 2026-12-03 (pytorch-h200-2026-12-03-blocks.json): kernel sums by part,
    tilec / Inductor, profiled as each graph runs them; the wall time a call from the tokens/s."""
    lines = ["| block, T | GEMMs and their epilogues | attention | norms (+ residual) | RoPE | all kernels | "
             "wall time a call | tokens/s vs Inductor |", "| --- " * 8 + "|"]
    for case, r in _rows("pytorch-h200-2026-12-03-blocks.json").items():
        tokens = r["shapes"][0][0] * r["shapes"][0][1]
        cells = [_sums(r, p) if _PARTS[case.split("_block_")[0]][p] else "—"
                 for p in ("gemms", "attention", "norms", "rope")]
        wall = " / ".join(f"{tokens / r[f'{k}_tokens_per_s'] * 1e3:.3f}" for k in ("tilec", "inductor"))
        lines.append(f"| {_block(case)} | " + " | ".join(cells) + f" | {_sums(r)} | {wall} | "
                     f"{r['tilec_tokens_per_s'] / r['inductor_tokens_per_s']:.2f}x |")
    return lines


def blocks_alternated() -> list[str]:
    """The blocks timed in turn with Inductor, H200, 2026-12-03 (pytorch-h200-2026-12-03-blocks-alternated.json):
    the median of the rounds' ratios, the ratio of the one-after-the-other timings, the profiled kernel sums."""
    lines = ["| block, T | tokens/s vs Inductor, in turn (rounds) | one after the other | "
             "kernel sums, tilec / Inductor (ms, profiled in the graph) |", "| --- | --- | --- | --- |"]
    for case, r in _rows("pytorch-h200-2026-12-03-blocks-alternated.json").items():
        lines.append(f"| {_block(case)} | {_in_turn(r)} | {r['tilec_tokens_per_s'] / r['inductor_tokens_per_s']:.3f}x | "
                     f"{_sums(r)} |")
    return lines


def _millions(tokens_per_s: float) -> str:
    """Tokens a second in millions, as the tables write them (two decimals below 10 M)."""
    m = tokens_per_s / 1e6
    return f"{m:.{2 if m < 10 else 1}f}"


def _attention(r: dict) -> str:
    """The attention kernel, tilec's / cuDNN's (ms), profiled as each graph runs it."""
    ours, theirs = _profiled(r)
    return f"{ours['attention']:.3f} / {theirs['attention']:.3f}"


def blocks_vectors_qkv192() -> list[str]:
    """The blocks timed in turn with Inductor, and in alternated rounds against c69171b, H200,
    2026-12-03 (pytorch-h200-2026-12-03-blocks-vectors-qkv192.json)."""
    lines = ["| block, T | tokens/s | vs Inductor, in turn (rounds) | vs the build before | kernel sums, tilec / "
             "Inductor (ms) | attention, tilec / cuDNN (ms) |", "| --- " * 6 + "|"]
    for case, r in _block_rows("pytorch-h200-2026-12-03-blocks-vectors-qkv192.json").items():
        lines.append(f"| {_block(case)} | {_millions(r['tilec_tokens_per_s'])} M | {_in_turn(r)} | "
                     f"{_over(r, rounds=False)} | {_sums(r)} | {_attention(r)} |")
    return lines


def blocks_column_vectors() -> list[str]:
    """The blocks timed in turn with Inductor, and in alternated rounds against 01e3e5b, H200,
    2026-12-04 (pytorch-h200-2026-12-04-blocks-column-vectors.json)."""
    lines = ["| block, T | vs Inductor, in turn (rounds) | vs the build before (rounds) | kernel sums, tilec / "
             "Inductor (ms) | attention, tilec / cuDNN (ms) |", "| --- " * 5 + "|"]
    for case, r in _block_rows("pytorch-h200-2026-12-04-blocks-column-vectors.json").items():
        lines.append(f"| {_block(case)} | {_in_turn(r)} | {_over(r)} | {_sums(r)} | {_attention(r)} |")
    return lines


def blocks_grid_dependency() -> list[str]:
    """The blocks with dependent launches, timed in turn with Inductor and in alternated rounds
    against 33065f7, H200, 2026-12-04 (pytorch-h200-2026-12-04-blocks-grid-dependency.json)."""
    lines = ["| block, T | vs Inductor, in turn (rounds) | vs the build before (rounds) | "
             "tokens/s, tilec / Inductor (M) |", "| --- | --- | --- | --- |"]
    for case, r in _block_rows("pytorch-h200-2026-12-04-blocks-grid-dependency.json").items():
        tokens = " / ".join(_millions(r[f"{k}_tokens_per_s"]) for k in ("tilec", "inductor"))
        lines.append(f"| {_block(case)} | {_in_turn(r)} | {_over(r)} | {tokens} |")
    return lines


def blocks_mask_fold() -> list[str]:
    """The blocks with the additive mask folded, timed in turn with Inductor twice, H200, 2026-12-04:
    with the peer profiled (pytorch-h200-2026-12-04-blocks-additive-mask-fold.json: the attention
    alone, ``kernels_ms``, beside cuDNN's time in Inductor's graph) and without
    (pytorch-h200-2026-12-04-blocks-in-turn-tokens.json: also over 71c33fd, and the tokens a second
    of each side in the in-turn round of the median ratio)."""
    first = _block_rows("pytorch-h200-2026-12-04-blocks-additive-mask-fold.json")
    second = _block_rows("pytorch-h200-2026-12-04-blocks-in-turn-tokens.json")
    lines = ["| block, T | vs Inductor, in turn (rounds), first run | second run | vs 71c33fd (rounds), second run | "
             "tokens/s in turn, tilec / Inductor (M), second run | attention alone / cuDNN in Inductor's run, "
             "first run (ms) |", "| --- " * 6 + "|"]
    for case, r in first.items():
        again = second[case]
        tokens = " / ".join(f"{again[f'{k}_tokens_per_s_in_turn'] / 1e6:.2f}" for k in ("tilec", "inductor"))
        alone = r["kernels_ms"][_PARTS[case.split("_block_")[0]]["attention"][0]]
        lines.append(f"| {_block(case)} | {_in_turn(r)} | {_in_turn(again)} | {_over(again)} | {tokens} | "
                     f"{alone:.3f} / {_profiled(r)[1]['attention']:.3f} |")
    return lines


DYNAMIC = "pytorch-h200-2026-12-02-llama-dynamic-lengths.json"


def dynamic_lengths() -> list[str]:
    """Llama's block compiled once for every T, run at five lengths (bench/dynamic_lengths.py, H200,
    2026-12-02; pytorch-h200-2026-12-02-llama-dynamic-lengths.json): tokens/s of tilec, eager and
    Inductor with dynamic shapes (millions), the ratios, and the error beside torch's own bf16 forward's."""
    lines = ["| T | tilec tokens/s | eager | Inductor (dynamic) | tilec / eager | tilec / Inductor | "
             "max error / max output (torch's own bf16) |", "| --- " * 7 + "|"]
    for r in _load(DYNAMIC)["rows"]:
        t, e, i = (r[f"{k}_tokens_per_s"] for k in ("tilec", "eager", "inductor_dynamic"))
        lines.append(f"| {r['T']} | {t / 1e6:.2f} M | {e / 1e6:.2f} M | {i / 1e6:.2f} M | {t / e:.2f} | {t / i:.2f} | "
                     f"{r['max_rel_error']:.1e} ({r['torch_bf16_rel_error']:.1e}) |")
    return lines
