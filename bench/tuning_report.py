"""How well the cost model ranks what the GPU measured: per results file of
``python -m tilec.runtime.measure``, the Spearman rank correlation of predicted and measured
times, how far the model's top-1 is from the measured best, and an SVG of predicted against
measured (no plotting library needed).

    python bench/tuning_report.py bench/results/tuning/*.json --svg docs/tuning-h200.svg
    python bench/tuning_report.py RUN1.json ... --again RUN2.json ... --first 5 --schedule bm=8,bn=256,bk=32,warps=4

With ``--again``, each file is compared with the same-named kernel's second run (in the same
order): how far a candidate's record moves between runs and whether the winner is the same.
``--first N``: the best of the first N candidates of the order (what ``--budget N`` measures)
against the best, in the second run's times when there is one. ``--schedule``: where a given
schedule (a prefix of its text) stands against the best. Spilling candidates are listed with
their measured rank.
"""

import argparse
import json
import math


def ranks(values: list[float]) -> list[float]:
    """Average ranks (ties share theirs), 1-based."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    k = 0
    while k < len(order):
        j = k
        while j + 1 < len(order) and values[order[j + 1]] == values[order[k]]:
            j += 1
        for m in range(k, j + 1):
            out[order[m]] = (k + j) / 2 + 1
        k = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    var = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return cov / var if var else 0.0


def summary(data: dict) -> dict:
    rows = [r for r in data["results"] if r["median_ms"] is not None and r.get("predicted_ms") is not None]
    predicted, measured = [r["predicted_ms"] for r in rows], [r["median_ms"] for r in rows]
    best = min(measured)
    top1 = min(rows, key=lambda r: r["predicted_ms"])
    rank_of_top1 = sorted(measured).index(top1["median_ms"]) + 1
    # the order measured in: the model's with ptxas's facts (a results file lists the candidates
    # in it; space.with_ptxas_facts)
    order = list(range(len(rows)))
    first = rows[0] if rows and "spill_bytes" in rows[0] else None
    return {"candidates": len(rows), "spearman": spearman(predicted, measured), "best_ms": best,
            "spearman_ptxas": spearman(order, measured) if first else None,
            "first_over_best": first["median_ms"] / best - 1 if first else None,
            "top1_ms": top1["median_ms"], "top1_over_best": top1["median_ms"] / best - 1, "top1_rank": rank_of_top1,
            "top1": top1["schedule"], "best": min(rows, key=lambda r: r["median_ms"])["schedule"],
            "best_predicted_ms": min(rows, key=lambda r: r["median_ms"])["predicted_ms"],
            "spills": [(sorted(measured).index(r["median_ms"]) + 1, r["spill_bytes"]) for r in rows
                       if r.get("spill_bytes")],
            "points": list(zip(predicted, measured))}


def against(first: dict, again: dict, n: int | None) -> str:
    """How two runs of the same candidates agree, and what the first ``n`` of the order find."""
    times = {r["schedule"]: r["median_ms"] for r in again["results"] if r["median_ms"] is not None}
    mine = {r["schedule"]: r["median_ms"] for r in first["results"] if r["median_ms"] is not None}
    moved = sorted(abs(mine[k] / times[k] - 1) for k in mine if k in times)
    winner, winner_again = min(mine, key=mine.get), min(times, key=times.get)
    line = (f"  second run: records move by {moved[len(moved) // 2]:.1%} (median), at most {moved[-1]:.1%}; "
            f"the winner {'is the same' if winner == winner_again else 'differs'}; the first run's winner is "
            f"{times[winner] / times[winner_again] - 1:+.1%} in the second")
    if n:
        order = [r["schedule"] for r in first["results"] if r["median_ms"] is not None][:n]
        chosen = min(order, key=mine.get)
        line += f"; the best of the first {n} is {times[chosen] / times[winner_again] - 1:+.1%} from its best"
    return line


def svg(named: dict) -> str:
    w, h, pad = 260, 240, 44
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * len(named)}" height="{h}" font-family="sans-serif" '
           f'font-size="11">']
    for n, (name, s) in enumerate(named.items()):
        xs, ys = zip(*s["points"])
        lo, hi = min(xs + ys) * 0.95, max(xs + ys) * 1.05
        px = lambda v: n * w + pad + (w - pad - 12) * (v - lo) / (hi - lo)
        py = lambda v: h - pad - (h - pad - 24) * (v - lo) / (hi - lo)
        out.append(f'<text x="{n * w + pad}" y="14">{name}: Spearman {s["spearman"]:.2f}</text>')
        out.append(f'<line x1="{px(lo)}" y1="{py(lo)}" x2="{px(hi)}" y2="{py(hi)}" stroke="#ccc"/>')
        out.append(f'<text x="{n * w + pad}" y="{h - 8}">predicted ms (x), measured ms (y)</text>')
        out += [f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="#2b7bb9"/>' for x, y in s["points"]]
    return "\n".join(out + ["</svg>"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("results", nargs="+")
    parser.add_argument("--svg")
    parser.add_argument("--again", nargs="+", default=[], metavar="RESULTS",
                        help="second runs of the same candidates, in the same order as the results")
    parser.add_argument("--first", type=int, metavar="N", help="the best of the first N of the order")
    parser.add_argument("--schedule", metavar="TEXT", help="where this schedule (a prefix) stands")
    args = parser.parse_args()
    if args.again and len(args.again) != len(args.results):
        parser.error("--again takes one second run per results file")
    named = {}
    for k, path in enumerate(args.results):
        data = json.load(open(path))
        s = summary(data)
        name = path.rsplit("/", 1)[-1].removesuffix(".json")
        named[name] = s
        print(f"{name}: {s['candidates']} candidates on {data['gpu']}, Spearman {s['spearman']:.2f}; model's top-1 "
              f"{s['top1_ms']:.4f} ms is {s['top1_over_best']:+.1%} from the measured best {s['best_ms']:.4f} ms "
              f"(rank {s['top1_rank']}); top-1 {s['top1']}; best {s['best']}")
        print(f"  GPU time {data.get('gpu_seconds', float('nan')):.1f} s; the best predicted at "
              f"{s['best_predicted_ms']:.4f} ms; spilling candidates (measured rank, bytes): {s['spills']}")
        if s["spearman_ptxas"] is not None:
            print(f"  with ptxas's spill facts: Spearman {s['spearman_ptxas']:.2f}; the first measured is "
                  f"{s['first_over_best']:+.1%} from the best")
        if args.schedule:
            hits = [r for r in data["results"] if r["schedule"].startswith(args.schedule) and r["median_ms"]]
            for r in hits:
                print(f"  {r['schedule']}: {r['median_ms'] / s['best_ms'] - 1:+.1%} from the best")
        if args.again:
            print(against(data, json.load(open(args.again[k])), args.first))
    if args.svg:
        with open(args.svg, "w") as handle:
            handle.write(svg(named))


if __name__ == "__main__":
    main()
