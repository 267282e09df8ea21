"""The index arithmetic of tile IR (arith's ops on ``index``), its meaning written once.

The raster, the copies' offsets, ring slots and trip counts are arith ops on ``index`` values.
Every layer reads them through ``INDEX``, each in its own domain: the interpreter and the cost
model on Python ints, the verifier on Z3 integers, the CUDA emitter as C text.

    >>> INDEX["arith.ceildivsi"](300, 64)
    5
    >>> INDEX["arith.remsi"]("kt", "3", C)
    'kt % 3'

A division (``DIVISIONS``: divsi, remsi, floordivsi, ceildivsi) has its meaning here for a
dividend >= 0 and a divisor > 0 only. There C's truncating ``/`` and ``%``, Python's ``//`` and
``%`` and Z3's ``/`` and ``%`` agree, so each domain writes a division with its own operators and
all of them mean the same. That every division of a kernel is such one is a proof obligation:
the verifier proves it over all sizes, program ids and loop iterations
(``verify/index_divisions.py``), and the interpreter refuses a division outside it.
"""

from __future__ import annotations

import operator

from .scalar_ops import Domain  # one type of domain for the index and the scalar ops

# index values in each layer: the divisions for a dividend >= 0 and a divisor > 0 (``div_nonneg``,
# ``rem_nonneg``), the smaller and larger of two
INTS = Domain("ints", div_nonneg=operator.floordiv, rem_nonneg=operator.mod, min=min, max=max)
C = Domain("C", add=lambda a, b: f"{a} + {b}", sub=lambda a, b: f"{a} - {b}", mul=lambda a, b: f"{a} * {b}",
           div_nonneg=lambda a, b: f"{a} / {b}", rem_nonneg=lambda a, b: f"{a} % {b}",
           min=lambda a, b: f"min({a}, {b})", max=lambda a, b: f"max({a}, {b})")


def z3_domain() -> Domain:
    """Index values as Z3 integers (z3 imported where the verifier asks, not by every layer)."""
    import z3

    return Domain("z3", div_nonneg=lambda a, b: a / b, rem_nonneg=lambda a, b: a % b,
                  min=lambda a, b: z3.If(a < b, a, b), max=lambda a, b: z3.If(a > b, a, b))


def _ceildiv(d: Domain, a, b):
    """ceil(a / b), as (a + b - 1) / b: in C text ``(a + b - 1) / b``."""
    if d is C:
        return f"({a} + {b} - 1) / {b}"
    return d.div_nonneg(d.sub(d.add(a, b), 1), b)


class _Op:
    """One index op's meaning, called as ``INDEX[name](a, b, domain=INTS)``."""

    def __init__(self, meaning):
        self.meaning = meaning

    def __call__(self, a, b, domain: Domain = INTS):
        return self.meaning(domain, a, b)


INDEX = {
    "arith.addi": _Op(lambda d, a, b: d.add(a, b)),
    "arith.subi": _Op(lambda d, a, b: d.sub(a, b)),
    "arith.muli": _Op(lambda d, a, b: d.mul(a, b)),
    "arith.divsi": _Op(lambda d, a, b: d.div_nonneg(a, b)),
    "arith.floordivsi": _Op(lambda d, a, b: d.div_nonneg(a, b)),
    "arith.ceildivsi": _Op(_ceildiv),
    "arith.remsi": _Op(lambda d, a, b: d.rem_nonneg(a, b)),
    "arith.minsi": _Op(lambda d, a, b: d.min(a, b)),
    "arith.maxsi": _Op(lambda d, a, b: d.max(a, b)),
}
DIVISIONS = frozenset({"arith.divsi", "arith.floordivsi", "arith.ceildivsi", "arith.remsi"})


def defined(name: str, a: int, b: int) -> bool:
    """Is index op ``name`` on ints ``a`` and ``b`` inside the domain its meaning is given for?"""
    return name not in DIVISIONS or (a >= 0 and b > 0)
