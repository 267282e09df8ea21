"""Scalar ops of tile.map bodies as C statements: the meanings of dialects/scalar_ops.py in C text."""

from tilec.dialects.scalar_ops import Domain, NoRule, evaluate

from ..diagnostics import TilecError
from .cuda_scaled import exp_of_difference
from .cuda_text import ctype, float_literal

_MATH = {"math.exp": "__expf({})", "math.log": "logf({})", "math.sqrt": "sqrtf({})", "math.rsqrt": "rsqrtf({})",
         "math.tanh": "tanhf({})", "math.erf": "erff({})", "math.absf": "fabsf({})"}
_TO_FLOAT = {"bf16": "__bfloat162float({})", "f16": "__half2float({})"}
_FROM_FLOAT = {"bf16": "__float2bfloat16_rn({})", "f16": "__float2half_rn({})"}


def _table(table: dict, key: str, what: str) -> str:
    if key not in table:
        raise NoRule(f"{what} {key}")
    return table[key]


def _cast(name: str, a: str, src, dst) -> str:
    """A widening to f32 (arith.extf) or a rounding from it (arith.truncf, to nearest even)."""
    if name == "arith.extf":
        return _table(_TO_FLOAT, str(src), "a widening from").format(a)
    return _table(_FROM_FLOAT, str(dst), "a rounding to").format(a)


def _infix(sign: str):
    return lambda a, b: f"{a} {sign} {b}"


# the scalar ops' meanings (dialects/scalar_ops.py) as C text, on operands that are names (each
# op's result is one: scalar_statement); CUDA's float arithmetic is IEEE 754's
C = Domain(
    "C", add=_infix("+"), sub=_infix("-"), mul=_infix("*"), div=_infix("/"), neg=lambda a: f"-{a}",
    floordiv=lambda a, b: f"floor_div({a}, {b})",  # flooring, as the spec's index division does
    max=lambda a, b: f"fmaxf({a}, {b})", min=lambda a, b: f"fminf({a}, {b})",
    eq=_infix("=="), ne=_infix("!="), lt=_infix("<"), le=_infix("<="), gt=_infix(">"), ge=_infix(">="),
    not_=lambda a: f"!({a})", and_=_infix("&&"), or_=_infix("||"), xor=_infix("!="),
    select=lambda c, a, b: f"{c} ? {a} : {b}",
    const=lambda value, type_: float_literal(value) if isinstance(value, float) else f"{value}LL",
    index_cast=lambda a: f"(long long)({a})", to_float=lambda a, type_: f"(float)({a})", cast=_cast,
    math=lambda name, a: _table(_MATH, name, "the function").format(a))


def scalar_statement(emitter, op, args: list[str]) -> str:
    """Emit ``op`` on C operands ``args``; returns the name holding its result."""
    name = op.operation.name
    if name == "math.exp" and args[0] in emitter.differences:  # exp(a - b): one FFMA and ex2
        a, b = emitter.differences[args[0]]
        expr = exp_of_difference(emitter, a, b) or f"exp_diff({a}, {b})"
    else:
        try:
            expr = evaluate(op, args, C)
        except NoRule as missing:
            raise TilecError(f"the CUDA emitter has no rule for '{name}' in a tile.map body ({missing})") from None
    var = emitter.fresh("v")
    emitter.line(f"const {ctype(op.result.type)} {var} = {expr};")
    if name == "arith.subf" and str(op.result.type) == "f32":
        emitter.differences[var] = tuple(args)
    return var
