"""Compare a stage's output with the oracle's, within the tolerance of the output dtype."""

from __future__ import annotations

from dataclasses import dataclass

import torch

# (atol, rtol): a few ulps of the dtype, with room for a different summation order
TOLERANCE = {torch.float32: (1e-4, 1e-4), torch.float16: (2e-3, 4e-3), torch.bfloat16: (1.6e-2, 1.6e-2)}


@dataclass(frozen=True)
class Comparison:
    max_abs: float
    max_rel: float
    ok: bool

    def __str__(self) -> str:
        return f"max abs err {self.max_abs:.3e}, max rel err {self.max_rel:.3e} ({'ok' if self.ok else 'MISMATCH'})"


def compare(actual: torch.Tensor, expected: torch.Tensor) -> Comparison:
    """Elementwise |a - e| <= atol + rtol |e| (NaN must match NaN, inf must match inf)."""
    atol, rtol = TOLERANCE[expected.dtype]
    a, e = actual.double(), expected.double()
    if a.shape != e.shape:
        return Comparison(float("inf"), float("inf"), False)
    same = (a == e) | (a.isnan() & e.isnan())  # equal infinities and NaN where NaN is expected agree
    diff = torch.where(same, torch.zeros_like(a), (a - e).abs())
    rel = torch.where(same, torch.zeros_like(a), diff / e.abs().clamp_min(atol))
    # where the expected value is inf or NaN only the same value agrees (inf <= inf would pass anything)
    ok = bool((same | (e.isfinite() & (diff <= atol + rtol * e.abs()))).all())
    return Comparison(float(diff.max()) if diff.numel() else 0.0, float(rel.max()) if rel.numel() else 0.0, ok)
