"""The row programs' tables (bench/tables.py renders them): bench/rows.py's two runs on the H100,
2026-12-07, the packages of bench/build_rows.py (softmax, log-sum-exp, LayerNorm, RMSNorm, bf16).

Every ratio is taken in each run, against the peer measured in that run, and the lower of the
two stated; GB/s figures are the lower of the two runs for tilec and the higher for the peers
(the copy and Inductor at their best)."""

from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
RUNS = [f"rows-h100-2026-12-07-run{n}.json" for n in (1, 2)]
BEFORE = "bm=8 bn=256 warps=4"  # what a spec without a schedule was built with at these widths: column blocks


def _runs() -> list:
    return [json.loads((RESULTS / name).read_text())["rows"] for name in RUNS]


def _before(row: dict) -> float:
    return row["per_schedule_gbs"][BEFORE]


def _schedule(label: str) -> str:
    """The schedule of a package label, its options that matter to a row program."""
    text = label.replace("C fixed: ", "")
    keep = [part for part in text.replace(",", " ").split() if part.split("=")[0] in ("bm", "bn", "warps")]
    return " ".join(keep)


def rows_default() -> list[str]:
    """Per kernel and shape: what `tilec compile --shape C=...` builds (the fixed-width default,
    or the column blocks at widths the script does not fix), against the copy, Inductor and the
    column blocks a spec without a schedule got before."""
    lines = ["| kernel | N x C | default schedule | tilec GB/s | copy GB/s | tilec / copy | Inductor GB/s | "
             "tilec / Inductor | before: column blocks, GB/s | tilec / before |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for rows in zip(*_runs()):
        r = rows[0]
        tilec = min(x["default_gbs"] for x in rows)
        copy = max(x["copy_gbs"] for x in rows)
        inductor = max(x["inductor_gbs"] for x in rows)
        before = min(_before(x) for x in rows)
        lines.append(f"| {r['kernel']} | {r['N']} x {r['C']} | {_schedule(r['default_schedule'])} | {tilec:.0f} | "
                     f"{copy:.0f} | {min(x['default_gbs'] / x['copy_gbs'] for x in rows):.2f} | {inductor:.0f} | "
                     f"{min(x['default_gbs'] / x['inductor_gbs'] for x in rows):.2f} | {before:.0f} | "
                     f"{min(x['default_gbs'] / _before(x) for x in rows):.2f} |")
    return lines


def rows_splits() -> list[str]:
    """At the wide widths, each way of sharing a row among warps (bench/build_rows.py WIDE), GB/s,
    the lower of two runs: what chose the default's 32 elements a lane."""
    from bench.build_rows import WIDE, WIDE_C

    lines = ["| kernel | N x C | default | " + " | ".join(WIDE.values()) + " |", "| --- " * (len(WIDE) + 3) + "|"]
    for rows in zip(*_runs()):
        r = rows[0]
        if r["C"] not in WIDE_C:
            continue
        keys = [f"C fixed: {schedule} bn={r['C']}" for schedule in WIDE.values()]
        cells = [f"{min(x['per_schedule_gbs'][k] for x in rows):.0f}" for k in keys]
        lines.append(f"| {r['kernel']} | {r['N']} x {r['C']} | {_schedule(r['default_schedule'])} | "
                     + " | ".join(cells) + " |")
    return lines
