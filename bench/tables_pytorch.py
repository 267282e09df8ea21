"""The tables of docs/benchmarks.md's "Kernels compiled from PyTorch code", first part (bench/tables.py
renders them): runs of bench/check_pytorch.py on the H200, 2026-12-01 and 2026-12-02, each case
compiled by ``tilec.compile`` and timed beside torch eager (and Inductor) in the same run, and the
row kernels alone (bench/rows.py) beside the blocks once a row program reads its row once."""

from __future__ import annotations

from bench.tables_common import _load

# the single-kernel cases of pytorch-h200-2026-12-01.json: shapes and schedule as the table names them
_CASES = {"attention": ("attention", "B=8 H=16 S=4096 D=128", "mma.sync, bm=128 bn=64"),
          "causal_attention": ("causal attention", "B=8 H=16 S=4096 D=128", "mma.sync, bm=128 bn=64"),
          "linear_gelu": ("linear + GELU", "4096 x 4096 x 4096", "mma.sync, bm=128 bn=128"),
          "linear_3d": ("Linear on [B, T, C]", "8 x 1024 x 768 -> 2304", "wgmma, 2 consumers")}


def pytorch_cases() -> list[str]:
    """The four single-kernel cases (pytorch-h200-2026-12-01.json): TFLOP/s of tilec and of
    torch's own call, their ratio, and the largest error relative to the largest output."""
    lines = ["| case | shapes | schedule | tilec TFLOP/s | torch TFLOP/s | ratio | max error / max output |",
             "| --- " * 7 + "|"]
    for r in _load("pytorch-h200-2026-12-01.json")["rows"]:
        label, shapes, schedule = _CASES[r["case"]]
        lines.append(f"| {label} | {shapes} | {schedule} | {r['tilec_tflops']:.0f} | {r['torch_tflops']:.0f} | "
                     f"{r['tilec_tflops'] / r['torch_tflops']:.2f} | {r['max_rel_error']:.1e} |")
    return lines


# the graph cases of pytorch-h200-2026-12-01-graphs.json: label, shapes, and the kernels with
# their times (``k`` the list of kernel times, ms)
_GRAPHS = {
    "mlp": ("MLP: linear + GELU, linear", "x 8192x1024, 1024 -> 4096 -> 1024",
            lambda k: f"GEMM+bias+GELU {k[0]:.3f}, GEMM+bias {k[1]:.3f}"),
    "layernorm_linear": ("LayerNorm, linear", "x 8192x1024, 1024 -> 3072",
                         lambda k: f"LayerNorm {k[0]:.3f}, GEMM+bias {k[1]:.3f}"),
    "rmsnorm_linear": ("RMSNorm, linear", "x 8192x1024, 1024 -> 3072", lambda k: f"RMSNorm {k[0]:.3f}, GEMM {k[1]:.3f}"),
    "swiglu": ("SwiGLU", "x 8192x1024, 1024 -> 2816 -> 1024",
               lambda k: f"both up-projections + SiLU·mul {k[0]:.3f} (mma.sync), GEMM {k[1]:.3f}"),
    "gpt2_mlp": ("GPT-2 MLP sub-block: x + MLP(LayerNorm(x))", "x 8x1024x768 (as 8192x768), 768 -> 3072 -> 768",
                 lambda k: f"LayerNorm {k[0]:.3f}, GEMM+bias+GELU {k[1]:.3f}, GEMM+bias+residual {k[2]:.3f} (bn=128)"),
    "gpt2_qkv": ("GPT-2 block before SDPA: LayerNorm, QKV, heads", "x 8x1024x768, 768 -> 2304, q/k/v 8x12x1024x64",
                 lambda k: f"LayerNorm {k[0]:.3f}, GEMM+bias {k[1]:.3f}, 3 strided copies {sum(k[2:]) / 3:.3f} each"),
    "gpt2_after_attention": (
        "GPT-2 block after SDPA: heads merged, projection, residual, MLP sub-block", "y 8x12x1024x64, x 8x1024x768",
        lambda k: f"3 strided copies {k[0] + k[1] + k[3]:.3f} in all, projection {k[2]:.3f}, LayerNorm {k[4]:.3f}, "
                  f"GEMMs {k[5]:.3f} and {k[6]:.3f}"),
}


def pytorch_graphs() -> list[str]:
    """The cases that run as several kernels (pytorch-h200-2026-12-01-graphs.json): each kernel's
    time, TFLOP/s of the whole against eager torch and Inductor, and the error."""
    lines = ["| case | shapes (bf16) | kernels (ms each) | tilec TFLOP/s | eager | Inductor | tilec / eager | "
             "max error / max output |", "| --- " * 8 + "|"]
    for r in _load("pytorch-h200-2026-12-01-graphs.json")["rows"]:
        if r["case"] not in _GRAPHS:
            continue
        label, shapes, kernels = _GRAPHS[r["case"]]
        lines.append(f"| {label} | {shapes} | {kernels(r['kernels_ms'])} | {r['tilec_tflops']:.0f} | "
                     f"{r['torch_tflops']:.0f} | {r['inductor_tflops']:.0f} | {r['tilec_tflops'] / r['torch_tflops']:.2f} | "
                     f"{r['max_rel_error']:.1e} |")
    return lines


def _tokens(name: str, block: str) -> list[str]:
    """A block's table by T (the rows of ``name`` whose case starts with ``block``): tokens/s of tilec, eager and Inductor (millions), the ratios, and the
    error beside torch's own bf16 forward's."""
    lines = ["| T | tilec tokens/s | eager | Inductor | tilec / eager | tilec / Inductor | "
             "max error / max output (torch's own bf16) |", "| --- " * 7 + "|"]
    for r in (r for r in _load(name)["rows"] if r["case"].startswith(block)):
        t, e, i = (r[f"{k}_tokens_per_s"] / 1e6 for k in ("tilec", "torch", "inductor"))
        digits = 2 if t < 10 else 1
        lines.append(f"| {r['shapes'][0][1]} | {t:.{digits}f} M | {e:.{digits}f} M | {i:.{digits}f} M | {t / e:.2f} | "
                     f"{t / i:.2f} | {r['max_rel_error']:.1e} ({r['torch_bf16_rel_error']:.1e}) |")
    return lines


GPT2_BLOCK = "pytorch-h200-2026-12-01-gpt2-block-gelu.json"
LLAMA_BLOCK = "pytorch-h200-2026-12-01-blocks-vector-stores.json"


def gpt2_block() -> list[str]:
    """GPT-2's whole block at T = 1k and 4k, after the GELU change (pytorch-h200-2026-12-01-gpt2-block-gelu.json)."""
    return _tokens(GPT2_BLOCK, "gpt2")


def _shares(rows: list, groups: list, share: bool) -> list[str]:
    """Per group of a block's kernels (label, kernel indices in ``kernels_ms``), the summed time at
    each T, and (``share``) its part of all the kernels' time."""
    lines = []
    for label, index in groups:
        times = [sum(r["kernels_ms"][i] for i in index) for r in rows]
        cells = [f"{t:.3f}" for t in times]
        if share:
            cells.append(" / ".join(f"{t / sum(r['kernels_ms']):.0%}" for t, r in zip(times, rows)))
        lines.append(f"| {label(rows) if callable(label) else label} | " + " | ".join(cells) + " |")
    return lines


def gpt2_block_kernels() -> list[str]:
    """Where GPT-2's block spends its time (``kernels_ms`` of pytorch-h200-2026-12-01-gpt2-block-gelu.json),
    T = 1k and 4k, and each group's share of the kernels' sum."""
    rows = _load(GPT2_BLOCK)["rows"]

    def gemms(rows):
        k = [r["kernels_ms"] for r in rows]
        return (f"4 GEMMs (QKV {k[0][1]:.3f} / {k[1][1]:.3f}, projection {k[0][7]:.3f} / {k[1][7]:.3f}, "
                f"MLP {k[0][9]:.3f} / {k[1][9]:.3f} and {k[0][10]:.3f} / {k[1][10]:.3f})")

    groups = [(gemms, [1, 7, 9, 10]), ("attention", [5]),
              ("4 strided copies (the QKV split, the heads back to [B, T, C])", [2, 3, 4, 6]), ("2 LayerNorms", [0, 8])]
    return ["| kernels | T = 1024 | T = 4096 | share at 1k / 4k |", "| --- | --- | --- | --- |"] + _shares(rows, groups, True)


def llama_block() -> list[str]:
    """Llama's block at T = 1k and 4k, with the row programs' vector stores
    (pytorch-h200-2026-12-01-blocks-vector-stores.json, its Llama rows)."""
    return _tokens(LLAMA_BLOCK, "llama")


def llama_block_kernels() -> list[str]:
    """Where Llama's block spends its time (``kernels_ms`` of its rows of
    pytorch-h200-2026-12-01-blocks-vector-stores.json), T = 1k and 4k; SwiGLU's TFLOP/s from its
    two GEMMs' FLOPs (2 x 2·B·T·C·F) over its time at 1k."""
    rows = [r for r in _load(LLAMA_BLOCK)["rows"] if r["case"].startswith("llama")]

    def swiglu(rows):
        (b, t, c), f = rows[0]["shapes"][0], rows[0]["shapes"][-1][1]
        flops = 2 * 2 * b * t * c * f
        return (f"SwiGLU's two GEMMs sharing the normed x (one kernel, {flops / 1e9:.0f} GFLOP at 1k: "
                f"{flops / rows[0]['kernels_ms'][11] / 1e9:.0f} TFLOP/s)")

    groups = [(swiglu, [11]), ("the down GEMM with the residual", [12]), ("Q, K, V and output GEMMs", [1, 2, 3, 9]),
              ("attention (causal, D = 64, 8 K/V heads read through at h // 4)", [7]),
              ("RMSNorm; the residual, RMSNorm and gain as one row program", [0, 10]),
              ("RoPE on Q and on K (pointwise), V's heads at h // 4 (pointwise)", [4, 5, 6]),
              ("the attention's output back to [B, T, C] (strided copy)", [8])]
    return ["| kernels | T = 1024 | T = 4096 |", "| --- | --- | --- |"] + _shares(rows, groups, False)


# the kernels of each block in bench/check_pytorch.py's ``kernels_ms`` after the view change, by part
_PARTS = {"gpt2": {"gemms": [1, 4, 6, 7], "attention": [2], "norms": [0, 5], "rope": []},
          "llama": {"gemms": [1, 2, 3, 8, 10, 11], "attention": [6], "norms": [0, 9], "rope": [4, 5]}}


def _inductor_part(name: str) -> str:
    """The part of a block an Inductor kernel belongs to, by its name."""
    if "sdpa" in name:
        return "attention"
    if "cat_mul_neg" in name:
        return "rope"
    if "layer_norm" in name or "rsqrt" in name:
        return "norms"
    return "other" if name.startswith("Memset") else "gemms"


def blocks_inductor_kernels() -> list[str]:
    """Sums of kernel times, tilec / Inductor, by part of each block (tilec's ``kernels_ms`` and
    Inductor's profiled ``inductor_kernels_ms`` of pytorch-h200-2026-12-02-blocks-view-inductor-kernels.json;
    tilec's GEMMs carry their epilogues, set against Inductor's GEMMs plus its epilogue kernels)."""
    lines = ["| block, T | GEMMs and their epilogues: tilec / Inductor | attention | norms (+ residual) | RoPE | "
             "all kernels | tokens/s vs Inductor |", "| --- " * 7 + "|"]
    for r in _load("pytorch-h200-2026-12-02-blocks-view-inductor-kernels.json")["rows"]:
        block, t = r["case"].split("_block_")
        parts = _PARTS[block]
        theirs = {}
        for kernel, ms in r["inductor_kernels_ms"]:
            theirs[_inductor_part(kernel)] = theirs.get(_inductor_part(kernel), 0.0) + ms
        cells = [f"{sum(r['kernels_ms'][i] for i in parts[p]):.3f} / {theirs[p]:.3f}" if parts[p] else "—"
                 for p in ("gemms", "attention", "norms", "rope")]
        cells.append(f"{sum(r['kernels_ms']):.3f} / {sum(theirs.values()):.3f}")
        name = {"gpt2": "GPT-2", "llama": "Llama"}[block]
        lines.append(f"| {name}, {t} | " + " | ".join(cells) + f" | "
                     f"{r['tilec_tokens_per_s'] / r['inductor_tokens_per_s']:.2f}x |")
    return lines


# each block's row programs in ``kernels_ms``: the labels at 1k (at 4k the times alone), the
# kernel indices, and the digits written
_ROW_PROGRAMS = {"gpt2": ("LayerNorms {0}, {1}", "{0}, {1}", (0, 5), 4),
                 "llama": ("RMSNorm {0}; residual + RMSNorm {1}", "{0}; {1}", (0, 9), 3)}


def blocks_one_block_rows() -> list[str]:
    """The blocks with one-block row programs against the column loops of the same tree and
    against 59f8832, 5 alternated rounds (pytorch-h200-2026-12-02-blocks-one-block-rows.json:
    the median round of each baseline), tokens/s, the ratio to Inductor in the same run, and the
    row programs' times."""
    lines = ["| block, T | over the column loops (same tree) | over 59f8832 | tokens/s | vs Inductor (same run) | "
             "its row programs, ms |", "| --- | --- | --- | --- | --- | --- |"]
    for r in _load("pytorch-h200-2026-12-02-blocks-one-block-rows.json")["rows"]:
        block, t = r["case"].split("_block_")
        first, again, index, digits = _ROW_PROGRAMS[block]
        times = [f"{r['kernels_ms'][i]:.{digits}f}" for i in index]
        tokens = r["tilec_tokens_per_s"] / 1e6
        base = r["baselines"]
        lines.append(f"| {'GPT-2' if block == 'gpt2' else 'Llama'}, {t} | "
                     f"{base['bench/out/blk-rowsold']['over_baseline']:.3f} | {base['bench/out/blk-base']['over_baseline']:.3f} | "
                     f"{tokens:.{2 if tokens < 10 else 1}f} M | {r['tilec_tokens_per_s'] / r['inductor_tokens_per_s']:.2f}x | "
                     f"{(first if t == '1k' else again).format(*times)} |")
    return lines


_KERNELS = {"rmsnorm": "RMSNorm", "layernorm": "layernorm", "softmax": "softmax"}


def rows_one_block() -> list[str]:
    """The row kernels alone (rows-h200-2026-12-02-one-block.json), GB/s: the best of the
    any-width schedules (column loops) against the package built for the width (``C fixed``, one
    block), at each shape that has one whose block is the row's width."""
    lines = ["| kernel | N x C | column loops | one block |", "| --- | --- | --- | --- |"]
    rows = _load("rows-h200-2026-12-02-one-block.json")["rows"]
    for kernel, label in _KERNELS.items():
        for r in sorted((r for r in rows if r["kernel"] == kernel), key=lambda r: r["C"]):
            fixed = [v for k, v in r["per_schedule_gbs"].items() if k.startswith("C fixed") and f"bn={r['C']}," in k]
            if not fixed:
                continue
            loops = max(v for k, v in r["per_schedule_gbs"].items() if not k.startswith("C fixed"))
            lines.append(f"| {label} | {r['N']} x {r['C']} | {loops:.0f} | {fixed[0]:.0f} |")
    return lines
