"""Draw benchmark results as an SVG bar chart (no plotting library needed): tilec beside each
peer the results file holds, per configuration.

    python bench/chart.py bench/results/gemm-h200-2026-12-01-wgmma-triton.json -o docs/gemm-h200.svg
    python bench/chart.py bench/results/attention-h200-2026-12-01-wgmma.json -o docs/attention-h200.svg
"""

import argparse
import json

# (result key, legend, colour) per kind of results file; tilec first
SERIES = {
    "gemm": [("tilec_tflops", "tilec", "#2b7bb9"), ("cublas_tflops", "cuBLAS", "#999"),
             ("triton_tflops", "Triton", "#e08a2b")],
    "attention": [("hopper_tflops", "tilec", "#2b7bb9"), ("cudnn_tflops", "cuDNN", "#999"),
                  ("flash_tflops", "FlashAttention-2", "#7bb92b"), ("flex_tflops", "FlexAttention", "#e08a2b")],
}
TITLES = {"gemm": "GEMM bf16", "attention": "attention forward bf16"}


def _kind(result: dict) -> str:
    return "gemm" if "M" in result["results"][0] else "attention"


def _label(row: dict, kind: str) -> tuple[str, str]:
    if kind == "gemm":
        return f"{row['M']}x{row['N']}x{row['K']}", f"{row['ratio']:.2f}x cuBLAS"
    return (f"S={row['S'] // 1024}k D={row['D']}{' causal' if row['causal'] else ''}",
            f"{row['hopper_tflops'] / row['cudnn_tflops']:.2f}x cuDNN")


def chart(result: dict) -> str:
    kind = _kind(result)
    series = [s for s in SERIES[kind] if any(r.get(s[0]) for r in result["results"])]
    rows = [r for r in result["results"] if all((r.get(key) or 0) > 1 for key, _, _ in series[:2])]
    bar, group = 30, 34 * len(series) + 30
    width, height, left, bottom, top = group * len(rows) + 100, 380, 60, 70, 50
    peak = max((r.get(key) or 0) for r in rows for key, _, _ in series) * 1.1
    y = lambda v: top + (height - top - bottom) * (1 - v / peak)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="11">',
           f'<text x="{left}" y="20" font-size="14">{TITLES[kind]}, {result["gpu"]}, {result["date"]}: TFLOP/s</text>']
    for tick in range(0, int(peak) + 1, 100):
        out.append(f'<line x1="{left}" x2="{width - 10}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>'
                   f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick}</text>')
    for n, r in enumerate(rows):
        x = left + 20 + group * n
        for k, (key, _, colour) in enumerate(series):
            value = r.get(key) or 0
            out.append(f'<rect x="{x + 34 * k}" y="{y(value):.1f}" width="{bar}" height="{y(0) - y(value):.1f}" '
                       f'fill="{colour}"/><text x="{x + 34 * k + bar / 2}" y="{y(value) - 4:.1f}" '
                       f'text-anchor="middle" font-size="9">{value:.0f}</text>')
        name, ratio = _label(r, kind)
        middle = x + 17 * len(series)
        out.append(f'<text x="{middle}" y="{height - bottom + 16}" text-anchor="middle">{name}</text>'
                   f'<text x="{middle}" y="{height - bottom + 30}" text-anchor="middle">{ratio}</text>')
    for k, (_, legend, colour) in enumerate(series):
        out.append(f'<rect x="{left + 130 * k}" y="30" width="12" height="12" fill="{colour}"/>'
                   f'<text x="{left + 130 * k + 18}" y="40">{legend}</text>')
    out.append("</svg>")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    with open(args.results) as handle:
        svg = chart(json.load(handle))
    with open(args.output, "w") as handle:
        handle.write(svg)


if __name__ == "__main__":
    main()
