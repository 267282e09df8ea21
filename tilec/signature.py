"""The interface of a ta function: named inputs and outputs, shape parameters.

A spec's function carries ``ta.name`` on each argument and result and a
``ta.params`` dictionary (parameter -> default, or unit when it has none).
``bind`` turns defaults, ``--shape`` values and actual input shapes into one
consistent set of parameter values.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch_mlir import ir

from tilec.dialects.dims import DimError, DimExpr
from tilec.dialects.ta import tensor_dims

from .diagnostics import TilecError

_DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
           "i1": torch.bool, "index": torch.int64, "i64": torch.int64}


def dtype_of(t: ir.Type) -> torch.dtype:
    """The torch dtype of an element type, or of a tensor type's elements."""
    if isinstance(t, ir.ShapedType):
        t = ir.ShapedType(t).element_type
    try:
        return _DTYPES[str(t)]
    except KeyError:
        raise TilecError(f"no torch dtype for {t}") from None


@dataclass(frozen=True)
class TensorSpec:
    name: str
    dims: tuple[DimExpr, ...]
    dtype: torch.dtype

    def shape(self, env: dict[str, int]) -> tuple[int, ...]:
        return tuple(d.evaluate(env) for d in self.dims)


@dataclass(frozen=True)
class Signature:
    name: str
    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]
    params: dict  # name -> default int or None


def _name(attrs, index: int, prefix: str) -> str:
    if attrs is None or index >= len(attrs):
        return f"{prefix}{index}"
    d = ir.DictAttr(attrs[index])
    return ir.StringAttr(d["ta.name"]).value if "ta.name" in d else f"{prefix}{index}"


def signature(fn) -> Signature:
    """Read the interface of a ta ``func.func``."""
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    arg_attrs = fn.attributes["arg_attrs"] if "arg_attrs" in fn.attributes else None
    res_attrs = fn.attributes["res_attrs"] if "res_attrs" in fn.attributes else None
    spec = lambda t, attrs, i, p: TensorSpec(_name(attrs, i, p), tuple(tensor_dims(t)), dtype_of(t))
    params = {}
    if "ta.params" in fn.attributes:
        for named in ir.DictAttr(fn.attributes["ta.params"]):
            value = named.attr
            params[named.name] = ir.IntegerAttr(value).value if isinstance(value, ir.IntegerAttr) else None
    return Signature(ir.StringAttr(fn.attributes["sym_name"]).value,
                     tuple(spec(t, arg_attrs, i, "arg") for i, t in enumerate(ftype.inputs)),
                     tuple(spec(t, res_attrs, i, "out") for i, t in enumerate(ftype.results)),
                     params)


def bind(sig: Signature, given: dict[str, int], inputs: dict[str, torch.Tensor] | None = None) -> dict[str, int]:
    """Parameter values: ``given`` over defaults, the rest read from input shapes; checked."""
    for name in given:
        if name not in sig.params:
            known = ", ".join(sig.params) or "none"
            raise TilecError(f"'{name}' is not a shape parameter of {sig.name} (parameters: {known})")
    env = {k: v for k, v in sig.params.items() if v is not None}
    env.update(given)
    for spec in sig.inputs if inputs else ():
        for dim, size in zip(spec.dims, inputs[spec.name].shape):
            if dim.op == "sym" and dim.value not in given:
                env[dim.value] = size
    missing = [k for k in sig.params if k not in env]
    if missing:
        raise TilecError(f"shape parameter '{missing[0]}' has no value; pass --shape {missing[0]}=...")
    for spec in (*sig.inputs, *sig.outputs):
        try:
            shape = spec.shape(env)
        except DimError as err:
            raise TilecError(f"shape of '{spec.name}': {err}") from None
        if any(n < 1 for n in shape):
            raise TilecError(f"'{spec.name}' would have shape {list(shape)} = "
                             f"[{', '.join(map(str, spec.dims))}]; every size must be at least 1")
        if inputs and spec in sig.inputs and tuple(inputs[spec.name].shape) != shape:
            raise TilecError(f"input '{spec.name}' has shape {list(inputs[spec.name].shape)} but the spec "
                             f"says [{', '.join(map(str, spec.dims))}] = {list(shape)}")
    return env


def random_inputs(sig: Signature, env: dict[str, int], seed: int) -> dict[str, torch.Tensor]:
    """Standard-normal inputs of the right shapes and dtypes, reproducible from ``seed``."""
    gen = torch.Generator().manual_seed(seed)
    return {s.name: torch.randn(s.shape(env), generator=gen).to(s.dtype) for s in sig.inputs}
