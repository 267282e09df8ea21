"""Scalar ops of tile.map bodies as C statements."""

from torch_mlir import ir

from ..diagnostics import TilecError
from .cuda_scaled import exp_of_difference
from .cuda_text import ctype, float_literal

_BINARY = {"arith.addf": "{} + {}", "arith.subf": "{} - {}", "arith.mulf": "{} * {}", "arith.divf": "{} / {}",
           "arith.maximumf": "fmaxf({}, {})", "arith.minimumf": "fminf({}, {})",
           "arith.andi": "{} && {}", "arith.ori": "{} || {}",
           "arith.addi": "{} + {}", "arith.subi": "{} - {}", "arith.muli": "{} * {}",
           # the spec's index division floors (-3 / 2 = -2) and divides by a size, never by < 1
           "arith.floordivsi": "floor_div({}, {})"}
_UNARY = {"arith.negf": "-{}", "math.exp": "__expf({})", "math.log": "logf({})", "math.sqrt": "sqrtf({})",
          "math.rsqrt": "rsqrtf({})", "math.tanh": "tanhf({})", "math.erf": "erff({})", "math.absf": "fabsf({})",
          "arith.index_cast": "(long long)({})", "arith.sitofp": "(float)({})"}
_CMPF = {1: "==", 2: ">", 3: ">=", 4: "<", 5: "<=", 6: "!=", 8: "==", 9: ">", 10: ">=", 11: "<", 12: "<=", 13: "!="}
_CMPI = {0: "==", 1: "!=", 2: "<", 3: "<=", 4: ">", 5: ">="}


def _convert(name: str, op, arg: str) -> str:
    src, dst = str(op.operation.operands[0].type), str(op.result.type)
    if name == "arith.extf":
        return {"bf16": "__bfloat162float({})", "f16": "__half2float({})"}[src].format(arg)
    return {"bf16": "__float2bfloat16_rn({})", "f16": "__float2half_rn({})"}[dst].format(arg)


def scalar_statement(emitter, op, args: list[str]) -> str:
    """Emit ``op`` on C operands ``args``; returns the name holding its result."""
    name = op.operation.name
    if name == "arith.constant":
        attr = op.attributes["value"]
        expr = float_literal(ir.FloatAttr(attr).value) if isinstance(attr, ir.FloatAttr) else \
            f"{ir.IntegerAttr(attr).value}LL"
    elif name in _BINARY:
        expr = _BINARY[name].format(*args)
    elif name == "math.exp" and args[0] in emitter.differences:  # exp(a - b): one FFMA and ex2
        a, b = emitter.differences[args[0]]
        expr = exp_of_difference(emitter, a, b) or f"exp_diff({a}, {b})"
    elif name in _UNARY:
        expr = _UNARY[name].format(args[0])
    elif name in ("arith.extf", "arith.truncf"):
        expr = _convert(name, op, args[0])
    elif name in ("arith.cmpf", "arith.cmpi"):
        table = _CMPF if name == "arith.cmpf" else _CMPI
        expr = f"{args[0]} {table[ir.IntegerAttr(op.attributes['predicate']).value]} {args[1]}"
    elif name == "arith.select":
        expr = f"{args[0]} ? {args[1]} : {args[2]}"
    else:
        raise TilecError(f"the CUDA emitter has no rule for '{name}' in a tile.map body")
    var = emitter.fresh("v")
    emitter.line(f"const {ctype(op.result.type)} {var} = {expr};")
    if name == "arith.subf" and str(op.result.type) == "f32":
        emitter.differences[var] = tuple(args)
    return var
