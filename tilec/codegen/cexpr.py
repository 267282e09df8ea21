"""C expressions built by evaluating index functions (layouts, dims) on symbols.

``Layout.offset`` only uses + * ^ & >>, so calling it with CExpr arguments prints
the swizzled address arithmetic the emitter puts in the kernel: the layout is
written once, in dialects/layout.py.
"""

from __future__ import annotations

from tilec.dialects.dims import DimExpr


def c(value) -> str:
    return value.text if isinstance(value, CExpr) else str(value)


class CExpr:
    """A C integer expression; arithmetic on it builds bigger expressions."""

    def __init__(self, text: str):
        self.text = text

    def _bin(self, op: str, other, swap: bool = False) -> "CExpr":
        if not isinstance(other, CExpr) and other == 0 and op in ("+", "^"):
            return self
        if not isinstance(other, CExpr) and other == 1 and op == "*":
            return self
        if not isinstance(other, CExpr) and other == 0 and op in ("*", "&"):
            return CExpr("0")
        a, b = (c(other), self.text) if swap else (self.text, c(other))
        return CExpr(f"({a} {op} {b})")

    def __add__(self, o):
        return self._bin("+", o)

    def __radd__(self, o):
        return self._bin("+", o, swap=True)

    def __sub__(self, o):
        return self._bin("-", o)

    def __mul__(self, o):
        return self._bin("*", o)

    def __rmul__(self, o):
        return self._bin("*", o, swap=True)

    def __xor__(self, o):
        return self._bin("^", o)

    def __and__(self, o):
        return self._bin("&", o)

    def __rshift__(self, o):
        return self._bin(">>", o)

    def __floordiv__(self, o):  # the operands are non-negative: C's / is floor division
        return self._bin("/", o)

    def __mod__(self, o):
        return self._bin("%", o)

    def __lt__(self, o):
        return CExpr(f"({self.text} < {c(o)})")

    def __str__(self) -> str:
        return self.text


def dim_expr(expr: DimExpr, params: dict[str, str]) -> str:
    """A dimension expression in C, with parameters named by ``params``."""
    if expr.op == "const":
        return f"{expr.value}LL"
    if expr.op == "sym":
        return params[expr.value]
    lhs, rhs = (dim_expr(a, params) for a in expr.args)
    return f"({lhs} {expr.op} {rhs})"
