"""What the table generators share (bench/tables.py and the bench/tables_*.py modules it imports):
the results folder, loading a results file, and the way a schedule is written in a table."""

from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
_FLAGS = ("pingpong", "persistent", "tma-store", "softmax-overlap", "heavy-first")


def _load(name: str) -> dict:
    """A results file under bench/results/ (``steps/...`` for the step files), parsed."""
    return json.loads((RESULTS / name).read_text())


def short_schedule(text: str, warps: bool = True) -> str:
    """A schedule as the tables write it: tiles, warps and stages, then what is not the default
    (``warps=False``: without the warps, as the older tables write it)."""
    f = dict(part.split("=") for part in text.split(","))
    out = [f"{k}={f[k]}" for k in ("bm", "bn", "warps", "stages") if k in f and (warps or k != "warps")]
    out += [f"consumers={f['consumers']}"] if f.get("consumers", "0") != "0" else []
    out += [k for k in _FLAGS if f.get(k) == "true"]
    return " ".join(out + ([f"occupancy={f['occupancy']}"] if f.get("occupancy", "1") != "1" else []))


def yes_no(flag: bool) -> str:
    """A boolean column (causal, correct) as the tables write it."""
    return "yes" if flag else "no"
