"""Shared helpers for the Python-defined dialects' verifiers.

A verifier is a function that raises ``Invalid``; ``verifier`` turns it into the
``verify_invariants`` hook that MLIR calls, reporting the message at the op's
location the way C++ verifiers do ("'ta.reduce' op ...").
"""

from __future__ import annotations

from torch_mlir import ir


class Invalid(Exception):
    """Raised by a verifier: the op breaks one of its rules."""


def verifier(check):
    """Wrap ``check(op)`` (which raises Invalid) as an MLIR verify hook."""

    def verify_invariants(op):
        try:
            check(op)
        except Invalid as err:
            op.location.emit_error(f"'{op.operation.name}' op {err}")
            return False
        return True

    return staticmethod(verify_invariants)


def attr(op, name: str):
    """The attribute ``name`` of ``op``; Invalid when it is missing."""
    if name not in op.attributes:
        raise Invalid(f"requires attribute '{name}'")
    return op.attributes[name]


def int_attr(op, name: str) -> int:
    value = attr(op, name)
    if not isinstance(value, ir.IntegerAttr):
        raise Invalid(f"attribute '{name}' must be an integer")
    return ir.IntegerAttr(value).value


def int_list(op, name: str) -> list[int]:
    value = attr(op, name)
    if not isinstance(value, ir.ArrayAttr) or not all(
        isinstance(v, ir.IntegerAttr) for v in value
    ):
        raise Invalid(f"attribute '{name}' must be an array of integers")
    return [ir.IntegerAttr(v).value for v in value]


def str_attr(op, name: str, choices: tuple[str, ...] | None = None) -> str:
    value = attr(op, name)
    if not isinstance(value, ir.StringAttr):
        raise Invalid(f"attribute '{name}' must be a string")
    text = ir.StringAttr(value).value
    if choices and text not in choices:
        raise Invalid(f"attribute '{name}' must be one of {', '.join(choices)}; got '{text}'")
    return text


def affine_maps(op, name: str, count: int | None = None) -> list[ir.AffineMap]:
    value = attr(op, name)
    if not isinstance(value, ir.ArrayAttr) or not all(
        isinstance(v, ir.AffineMapAttr) for v in value
    ):
        raise Invalid(f"attribute '{name}' must be an array of affine maps")
    maps = [ir.AffineMapAttr(v).value for v in value]
    if count is not None and len(maps) != count:
        raise Invalid(f"expects {count} maps in '{name}', got {len(maps)}")
    return maps


def affine_maps_single(op, name: str) -> ir.AffineMap:
    value = attr(op, name)
    if not isinstance(value, ir.AffineMapAttr):
        raise Invalid(f"attribute '{name}' must be an affine map")
    return ir.AffineMapAttr(value).value


def projected_dims(amap: ir.AffineMap, what: str) -> list[int]:
    """Dim positions of a projected permutation map; Invalid otherwise."""
    if amap.n_symbols:
        raise Invalid(f"{what} map must not use symbols")
    dims = []
    for expr in amap.results:
        if not isinstance(expr, ir.AffineDimExpr):
            raise Invalid(f"{what} map must be a projected permutation, got {amap}")
        dims.append(ir.AffineDimExpr(expr).position)
    if len(set(dims)) != len(dims):
        raise Invalid(f"{what} map repeats a dimension: {amap}")
    return dims


FLOAT_TYPES = (ir.F32Type, ir.F16Type, ir.BF16Type)


def is_float(t: ir.Type) -> bool:
    return any(isinstance(t, cls) for cls in FLOAT_TYPES)
