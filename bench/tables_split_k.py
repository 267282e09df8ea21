"""The split-K tables of docs/benchmarks.md ("Split-K"), from bench/split_k.py's results files:
per shape, cuBLAS (the faster of its two readings in a run) against tilec's fastest package
with and without split_k, and what each way of summing the parts cost at one shape."""

from __future__ import annotations

from bench.tables_common import _load, short_schedule

RUNS = ("split-k-h100-2026-12-07-run1.json", "split-k-h100-2026-12-07-run2.json")
# the same packages' earlier builds: the parts added by atomics, then read one after another
WAYS = (("each element added into one tile by atomics", "steps/split-k-atomics-h100-2026-12-07-run{}.json"),
        ("parts written, the last CTA reading them one after another",
         "steps/split-k-parts-read-in-turn-h100-2026-12-07-run{}.json"),
        ("... its loads of a pair unrolled", "steps/split-k-loads-unrolled-h100-2026-12-07-run{}.json"),
        ("... 8-byte stores, one thread's fences (now)", "split-k-h100-2026-12-07-run{}.json"))
WAY_SCHEDULE = "bm=128,bn=128,bk=64,warps=8,stages=5"


def _split(label: str) -> int:
    return int(dict(part.split("=") for part in label.split(",")).get("split-k", "1"))


def _best(row: dict, split: bool) -> tuple[str, float]:
    """The fastest package of ``row`` with (or without) a split K."""
    runs = {label: ms for label, ms in row["ms"].items() if (_split(label) > 1) == split}
    label = min(runs, key=runs.get)
    return label, runs[label]


def split_k_shapes() -> list[str]:
    """Per shape and run: cuBLAS, the fastest unsplit and split packages, each / cuBLAS."""
    lines = ["| M x N x K | run | cuBLAS (ms) | fastest unsplit (ms, / cuBLAS) | fastest split (ms, / cuBLAS) | "
             "split / unsplit | its schedule |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for n, name in enumerate(RUNS, 1):
        for row in _load(name)["results"]:
            peer = min(row["cublas_ms"])
            (_, plain), (label, split) = _best(row, False), _best(row, True)
            lines.append(f"| {row['M']}x{row['N']}x{row['K']} | {n} | {peer:.4f} | {plain:.4f} ({peer / plain:.2f}) | "
                         f"{split:.4f} ({peer / split:.2f}) | {plain / split:.2f} | {short_schedule(label)} "
                         f"split-k={_split(label)} |")
    return lines


def split_k_ways() -> list[str]:
    """The 128 x 128 two-consumer package unsplit and split 2 ways, at 1024³ and 2048³, as each way
    of summing the parts built it (the faster of each package's two runs)."""
    lines = ["| how the parts are summed | 1024³: unsplit / split 2 (ms) | 2048³: unsplit / split 2 (ms) |",
             "| --- | --- | --- |"]
    for what, pattern in WAYS:
        cells = []
        for shape in ((1024, 1024, 1024), (2048, 2048, 2048)):
            times = []
            for split in ("1", "2"):
                best = []
                for n in (1, 2):
                    row = next(r for r in _load(pattern.format(n))["results"] if (r["M"], r["N"], r["K"]) == shape)
                    best += [ms for label, ms in row["ms"].items() if label.startswith(WAY_SCHEDULE)
                             and "consumers=2" in label and str(_split(label)) == split]
                times.append(min(best))
            cells.append(f"{times[0]:.4f} / {times[1]:.4f}")
        lines.append(f"| {what} | {cells[0]} | {cells[1]} |")
    return lines
