"""The reduction kinds of ``ta.reduce``, ``ta.online`` and ``tile.reduce``, each written once.

A kind is its neutral element and its combine of two values. Every layer folds the same
entry into its own domain: the passes build the arith op (``arith_op``), the oracle and the
interpreter reduce torch tensors (``reduce``), the verifier combines Z3 terms and the CUDA
emitter C text (``combine`` with the domain's select, ``c``).

    >>> KINDS["max"].combine(2.0, 3.0)
    3.0
    >>> KINDS["min"].c.format("a", "b")
    'fminf(a, b)'
    >>> KINDS["sum"].neutral
    0.0

``combine(a, b, select)`` takes the domain's if-then-else (``z3.If``, ``torch.where``) for max
and min; without one it is Python's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class ReduceKind:
    """One reduction kind: its neutral element and its combine, in each domain's terms."""

    name: str
    neutral: float  # what a reduction over nothing (and a masked element) is
    arith: str      # the arith op class combining two floats (NaN-propagating for max and min)
    c: str          # C text combining two floats (format with the two operands)
    torch: str      # the torch.Tensor method reducing along dims

    def combine(self, a, b, select=None):
        """``a`` combined with ``b``: a + b, or the larger (smaller) of the two through ``select(cond,
        x, y)`` of the domain (Python's conditional when none is given)."""
        if self.name == "sum":
            return a + b
        keep_a = a >= b if self.name == "max" else a <= b
        if select is None:
            return a if keep_a else b
        return select(keep_a, a, b)

    def arith_op(self, lhs, rhs):
        """The arith op combining ``lhs`` and ``rhs`` (built at the insertion point); its result value."""
        from torch_mlir.dialects import arith

        return getattr(arith, self.arith)(lhs, rhs).result

    def reduce(self, tensor, dims, keepdim: bool = False):
        """``tensor`` reduced along ``dims`` (an int or a list of ints) with torch (``keepdim``:
        the reduced dims kept, of size 1)."""
        return getattr(tensor, self.torch)(dim=dims, keepdim=keepdim)


KINDS = {k.name: k for k in (
    ReduceKind("sum", 0.0, "AddFOp", "{} + {}", "sum"),
    ReduceKind("max", -math.inf, "MaximumFOp", "fmaxf({}, {})", "amax"),
    ReduceKind("min", math.inf, "MinimumFOp", "fminf({}, {})", "amin"),
)}
NAMES = tuple(KINDS)  # ("sum", "max", "min"): the order errors list them in
