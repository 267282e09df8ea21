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


CHUNK = 1 << 20  # elements compared at a time: a few MiB of float64 temporaries, whatever the size


def compare(actual: torch.Tensor, expected: torch.Tensor, scale: torch.Tensor | None = None) -> Comparison:
    """Elementwise |a - e| <= atol + rtol |e| (NaN must match NaN, inf must match inf), CHUNK
    elements at a time: a whole tensor of 2^28 elements in float64, and the six temporaries
    of the test, would take 12 GiB beside the tensors themselves. ``scale``: where the error is
    measured against more than |e| (a sum's Σ|terms|, which bounds its rounding: magnitude.py),
    |a - e| <= atol + rtol max(|e|, scale)."""
    atol, rtol = TOLERANCE[expected.dtype]
    if actual.shape != expected.shape:
        return Comparison(float("inf"), float("inf"), False)
    a_all, e_all = actual.reshape(-1), expected.reshape(-1)
    s_all = scale.reshape(-1) if scale is not None else None
    max_abs, max_rel, ok = 0.0, 0.0, True
    for start in range(0, a_all.numel(), CHUNK):
        a, e = a_all[start:start + CHUNK].double(), e_all[start:start + CHUNK].double()
        size = e.abs() if s_all is None else torch.maximum(e.abs(), s_all[start:start + CHUNK].double().abs())
        same = (a == e) | (a.isnan() & e.isnan())  # equal infinities and NaN where NaN is expected agree
        diff = torch.where(same, torch.zeros_like(a), (a - e).abs())
        rel = torch.where(same, torch.zeros_like(a), diff / size.clamp_min(atol))
        # where the expected value is inf or NaN only the same value agrees (inf <= inf would pass anything)
        ok &= bool((same | (e.isfinite() & (diff <= atol + rtol * size))).all())
        max_abs, max_rel = _nan_max(max_abs, diff.max()), _nan_max(max_rel, rel.max())
    return Comparison(max_abs, max_rel, ok)


def _nan_max(so_far: float, chunk: torch.Tensor) -> float:
    """The running maximum, NaN once any chunk's is (as torch's max of the whole tensor would be)."""
    value = float(chunk)
    return value if value != value or so_far != so_far else max(so_far, value)


def checksums(t: torch.Tensor) -> tuple[float, float]:
    """(sum, sum of absolute values) of ``t`` in float64, CHUNK elements at a time."""
    flat, total, absolute = t.reshape(-1), 0.0, 0.0
    for start in range(0, flat.numel(), CHUNK):
        part = flat[start:start + CHUNK].double()
        total += part.sum().item()
        absolute += part.abs().sum().item()
    return total, absolute
