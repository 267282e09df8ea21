"""Draw the GEMM benchmark results as an SVG bar chart (no plotting library needed).

    python bench/chart.py bench/results/gemm-h200-2026-11-30.json -o docs/gemm-h200.svg
"""

import argparse
import json


def chart(result: dict) -> str:
    rows = [r for r in result["results"] if r["cublas_tflops"] > 1]
    width, height, left, bottom, top = 120 * len(rows) + 80, 360, 60, 60, 40
    peak = max(max(r["cublas_tflops"], r["tilec_tflops"]) for r in rows) * 1.1
    y = lambda v: top + (height - top - bottom) * (1 - v / peak)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="11">',
           f'<text x="{left}" y="20" font-size="14">GEMM bf16, {result["gpu"]}, {result["date"]}: TFLOP/s '
           f'(tilec vs torch.matmul / cuBLAS)</text>']
    for tick in range(0, int(peak) + 1, 100):
        out.append(f'<line x1="{left}" x2="{width - 10}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>'
                   f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick}</text>')
    for n, r in enumerate(rows):
        x = left + 20 + 120 * n
        for k, (value, colour) in enumerate(((r["tilec_tflops"], "#2b7bb9"), (r["cublas_tflops"], "#999"))):
            out.append(f'<rect x="{x + 40 * k}" y="{y(value):.1f}" width="36" height="{y(0) - y(value):.1f}" '
                       f'fill="{colour}"/><text x="{x + 40 * k + 18}" y="{y(value) - 4:.1f}" '
                       f'text-anchor="middle">{value:.0f}</text>')
        out.append(f'<text x="{x + 38}" y="{height - bottom + 16}" text-anchor="middle">'
                   f'{r["M"]}x{r["N"]}x{r["K"]}</text><text x="{x + 38}" y="{height - bottom + 30}" '
                   f'text-anchor="middle">{r["ratio"]:.2f}x</text>')
    out.append(f'<rect x="{width - 190}" y="30" width="12" height="12" fill="#2b7bb9"/>'
               f'<text x="{width - 172}" y="40">tilec</text><rect x="{width - 120}" y="30" width="12" '
               f'height="12" fill="#999"/><text x="{width - 102}" y="40">cuBLAS</text></svg>')
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
