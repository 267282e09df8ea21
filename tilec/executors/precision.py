"""The oracle's f32 computed in f64 on request: a reference precise enough for gradcheck.

Inside ``float64()`` the oracle (oracle.py, oracle_scalar.py) computes every f32 value of a ta
function in f64 and accumulates contractions in f64; 16-bit values keep their own types (a
rounding the function states is kept). ``tilec.compile(..., stage="oracle")`` enters it for a
call on f64 tensors, so ``torch.autograd.gradcheck`` checks tilec's gradients at f64's precision.

    with float64():
        outputs = evaluate(fn, {"X": x.double()}, env)     # f64 outputs
"""

from __future__ import annotations

import contextlib
import contextvars

import torch

from ..signature import dtype_of

_WIDE = contextvars.ContextVar("tilec_oracle_float64", default=False)


@contextlib.contextmanager
def float64():
    """The oracle computes f32 as f64 inside this block."""
    token = _WIDE.set(True)
    try:
        yield
    finally:
        _WIDE.reset(token)


def precision_for(tensors):
    """``float64()`` when any of ``tensors`` is f64 (a gradcheck's call), else a block that
    changes nothing: how every caller of the oracle picks its precision."""
    return float64() if any(t.dtype == torch.float64 for t in tensors) else contextlib.nullcontext()


def computed(type_) -> torch.dtype:
    """The dtype the oracle holds a value of ta type ``type_`` in: its own, f32 as f64 inside float64()."""
    dtype = dtype_of(type_)
    return torch.float64 if dtype == torch.float32 and _WIDE.get() else dtype


def accumulator() -> torch.dtype:
    """What a contraction sums its products in: f32, or f64 inside float64()."""
    return torch.float64 if _WIDE.get() else torch.float32
