"""Symbolic tensor dimensions.

A ta tensor type carries, in its encoding, one dimension expression per axis:

    tensor<?x?xbf16, ["M", "K"]>        # symbolic M x K
    tensor<?x4x?xf32, ["B", "4", "H/4"]>

A dimension expression is an integer, a shape parameter, or +, -, * and floor
division / of those. ``parse_dim`` reads one; ``DimExpr.evaluate`` binds the
parameters; ``str(expr)`` is the canonical spelling that verifiers compare.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from lark import Lark, Transformer, v_args
from lark.exceptions import LarkError

_GRAMMAR = r"""
?sum: product | sum "+" product -> add | sum "-" product -> sub
?product: atom | product "*" atom -> mul | product "/" atom -> div
?atom: INT -> const | NAME -> sym | "(" sum ")"
%import common.INT
%import common.CNAME -> NAME
%import common.WS
%ignore WS
"""

_PARSER = Lark(_GRAMMAR, start="sum", parser="lalr")

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


class DimError(ValueError):
    """A dimension expression that does not parse or cannot be evaluated."""


@dataclass(frozen=True)
class DimExpr:
    """A node of a dimension expression: op is 'const', 'sym' or one of + - * /."""

    op: str
    args: tuple = ()
    value: int | str | None = None

    def __str__(self) -> str:
        return self._format(0)

    def _format(self, parent_prec: int) -> str:
        if self.op == "const":
            return str(self.value)
        if self.op == "sym":
            return str(self.value)
        prec = _PRECEDENCE[self.op]
        lhs = self.args[0]._format(prec)
        rhs = self.args[1]._format(prec + 1)  # left-associative
        text = f"{lhs}{self.op}{rhs}"
        return f"({text})" if prec < parent_prec else text

    @property
    def symbols(self) -> set[str]:
        if self.op == "sym":
            return {self.value}
        return set().union(*(a.symbols for a in self.args)) if self.args else set()

    @property
    def static(self) -> int | None:
        """The integer value if the expression has no symbols, else None."""
        return self.evaluate({}) if not self.symbols else None

    def evaluate(self, env: dict[str, int]) -> int:
        """Value of the expression with every parameter bound by ``env``."""
        if self.op == "const":
            return self.value
        if self.op == "sym":
            if self.value not in env:
                raise DimError(f"shape parameter '{self.value}' has no value")
            return env[self.value]
        lhs, rhs = (a.evaluate(env) for a in self.args)
        if self.op == "+":
            return lhs + rhs
        if self.op == "-":
            return lhs - rhs
        if self.op == "*":
            return lhs * rhs
        if rhs == 0:
            raise DimError(f"division by zero in dimension '{self}'")
        return lhs // rhs


def const(value: int) -> DimExpr:
    return DimExpr("const", value=int(value))


def sym(name: str) -> DimExpr:
    return DimExpr("sym", value=name)


def binary(op: str, lhs: DimExpr, rhs: DimExpr) -> DimExpr:
    """Build lhs op rhs, folding when both sides are integers."""
    node = DimExpr(op, (lhs, rhs))
    return const(node.evaluate({})) if not node.symbols and (op != "/" or rhs.value) else node


@v_args(inline=True)
class _ToDim(Transformer):
    def const(self, tok):
        return const(int(tok))

    def sym(self, tok):
        return sym(str(tok))

    def add(self, a, b):
        return binary("+", a, b)

    def sub(self, a, b):
        return binary("-", a, b)

    def mul(self, a, b):
        return binary("*", a, b)

    def div(self, a, b):
        return binary("/", a, b)


@lru_cache(maxsize=4096)
def parse_dim(text: str) -> DimExpr:
    """Parse a dimension expression such as ``"H/4"`` or ``"N-1"``."""
    try:
        return _ToDim().transform(_PARSER.parse(text))
    except LarkError as err:
        raise DimError(f"invalid dimension expression '{text}'") from err


def substitute(expr: DimExpr, values: dict[str, int]) -> DimExpr:
    """``expr`` with the symbols in ``values`` replaced by integers (folded)."""
    if expr.op == "sym":
        return const(values[expr.value]) if expr.value in values else expr
    if expr.op == "const":
        return expr
    return binary(expr.op, *(substitute(a, values) for a in expr.args))
