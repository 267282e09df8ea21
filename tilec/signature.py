"""The interface of a ta function: named inputs and outputs, shape parameters.

A spec's function carries ``ta.name`` on each argument and result and a
``ta.params`` dictionary (parameter -> default, or unit when it has none).
``bind`` turns defaults, ``--shape`` values and actual input shapes into one
consistent set of parameter values, each size at most MAX_SIZE; ``random_inputs``
allocates only within MAX_RUN_ELEMENTS per tensor and MAX_RUN_BYTES in all.
A spec's inputs and outputs carry where they are declared (argument locations,
and the names in the return's fused location), so size errors point there.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from torch_mlir import ir

from tilec.dialects import param_ranges
from tilec.dialects.dims import DimError, DimExpr
from tilec.dialects.ta import tensor_dims

if TYPE_CHECKING:
    import torch

from .diagnostics import SourceLoc, TilecError, mlir_loc

MAX_SIZE = 2**31 - 1            # one dimension (as in the spec language and --shape)
MAX_ELEMENTS = 2**62            # one tensor, so that offsets and byte sizes fit in 64 bits
MAX_RUN_ELEMENTS = 2**31        # one tensor that tilec run allocates on the CPU
MAX_RUN_BYTES = 4 * 2**30       # every tensor tilec run allocates (inputs, outputs, temporaries)
MAX_RUN_WORK = 2**34            # multiply-adds of one contraction that tilec run computes (~1 s for the oracle)

# element type -> (torch's name of it, bytes). torch is imported where a tensor is made, not
# here: a compile that finds its package cached needs no torch (1.3 s of imports; docs/compile-time.md)
ELEMENTS = {"f32": ("float32", 4), "f16": ("float16", 2), "bf16": ("bfloat16", 2),
            "i1": ("bool", 1), "index": ("int64", 8), "i64": ("int64", 8)}


def element_of(t: ir.Type) -> str:
    """The element type of a tensor type (or the type itself) as a key of ELEMENTS: "bf16"."""
    if isinstance(t, ir.ShapedType):
        t = ir.ShapedType(t).element_type
    if str(t) not in ELEMENTS:
        raise TilecError(f"no torch dtype for {t}")
    return str(t)


def torch_dtype(element: str) -> torch.dtype:
    """torch's dtype of an ELEMENTS key: torch_dtype("bf16") -> torch.bfloat16."""
    import torch

    return getattr(torch, ELEMENTS[element][0])


def dtype_of(t: ir.Type) -> torch.dtype:
    """The torch dtype of an element type, or of a tensor type's elements."""
    return torch_dtype(element_of(t))


@dataclass(frozen=True)
class TensorSpec:
    name: str
    dims: tuple[DimExpr, ...]
    element: str  # a key of ELEMENTS: "bf16"
    loc: SourceLoc | None = field(default=None, compare=False)  # where it is declared, when known

    @property
    def dtype(self) -> torch.dtype:
        return torch_dtype(self.element)

    def shape(self, env: dict[str, int]) -> tuple[int, ...]:
        return tuple(d.evaluate(env) for d in self.dims)


@dataclass(frozen=True)
class Signature:
    name: str
    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]
    params: dict  # name -> default int or None
    temporaries: tuple[TensorSpec, ...] = ()  # the other tensor values the function computes
    work: tuple[TensorSpec, ...] = ()  # the iteration space of each contraction (its "shape" is the work)
    ranges: tuple = ()  # ((name, (low, high)), ...): the sizes the function is defined for (ta.ranges)


def _name(attrs, index: int, prefix: str) -> str:
    if attrs is None or index >= len(attrs):
        return f"{prefix}{index}"
    d = ir.DictAttr(attrs[index])
    return ir.StringAttr(d["ta.name"]).value if "ta.name" in d else f"{prefix}{index}"


def _declared(loc) -> SourceLoc | None:
    """A spec's location (loc("f.ta":3:7)); None for unknown or generated ones."""
    found = mlir_loc(loc, "<ir>")
    return found if found is not None and found.file != "<ir>" else None


_NAMED = re.compile(r'"(?P<name>(?:[^"\\]|\\.)*)"\("(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)\)')


def _output_locs(fn) -> dict[str, SourceLoc]:
    """name -> declaration, from the return's location loc(fused["C"("f.ta":4:8), ...])."""
    ops = list(fn.entry_block.operations) if len(fn.regions[0].blocks) else []
    if not ops or ops[-1].operation.name != "func.return":
        return {}
    return {m["name"]: SourceLoc(m["file"], int(m["line"]), int(m["col"]))
            for m in _NAMED.finditer(str(ops[-1].location))}


def _iteration_space(op) -> tuple[DimExpr, ...] | None:
    """The extents of a ta.contract's loops (each read off an operand or the result that it indexes)."""
    try:
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
        types = [v.type for v in op.operands] + [op.results[0].type]
        extents = {}
        for amap, t in zip(maps, types):
            for position, expr in enumerate(amap.results):
                extents.setdefault(ir.AffineDimExpr(expr).position, tensor_dims(t)[position])
        return tuple(extents[k] for k in sorted(extents))
    except Exception:  # not the form the oracle runs either: nothing to bound here
        return None


def _work(fn) -> tuple[TensorSpec, ...]:
    found = []
    for op in fn.entry_block.operations if len(fn.regions[0].blocks) else ():
        space = _iteration_space(op) if op.operation.name == "ta.contract" else None
        if space is not None:
            found.append(TensorSpec("the ta.contract", space, "f32", _declared(op.location)))
    return tuple(found)


def _temporaries(fn) -> tuple[TensorSpec, ...]:
    found = []
    for op in fn.entry_block.operations if len(fn.regions[0].blocks) else ():
        for result in op.results:
            if not isinstance(result.type, ir.RankedTensorType):
                continue
            try:
                dims = tuple(tensor_dims(result.type))
            except Exception:  # not a ta tensor (no named dims): nothing to size
                continue
            found.append(TensorSpec(f"the {op.operation.name} result", dims,
                                    element_of(result.type), _declared(op.location)))
    return tuple(found)


def signature(fn) -> Signature:
    """Read the interface of a ta ``func.func``."""
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    arg_attrs = fn.attributes["arg_attrs"] if "arg_attrs" in fn.attributes else None
    res_attrs = fn.attributes["res_attrs"] if "res_attrs" in fn.attributes else None
    spec = lambda t, attrs, i, p, loc: TensorSpec(_name(attrs, i, p), tuple(tensor_dims(t)), element_of(t), loc)
    params = {}
    if "ta.params" in fn.attributes:
        for named in ir.DictAttr(fn.attributes["ta.params"]):
            value = named.attr
            params[named.name] = ir.IntegerAttr(value).value if isinstance(value, ir.IntegerAttr) else None
    blocks = len(fn.regions[0].blocks)
    arg_locs = [_declared(a.location) for a in fn.arguments] if blocks else []
    out_locs = _output_locs(fn)
    inputs = tuple(spec(t, arg_attrs, i, "arg", arg_locs[i] if i < len(arg_locs) else None)
                   for i, t in enumerate(ftype.inputs))
    outputs = tuple(spec(t, res_attrs, i, "out", None) for i, t in enumerate(ftype.results))
    outputs = tuple(TensorSpec(o.name, o.dims, o.element, out_locs.get(o.name)) for o in outputs)
    return Signature(ir.StringAttr(fn.attributes["sym_name"]).value, inputs, outputs, params, _temporaries(fn),
                     _work(fn), tuple(sorted(param_ranges(fn).items())))


def _size_error(spec: TensorSpec, message: str) -> TilecError:
    return TilecError(message, spec.loc)


def _what(spec: TensorSpec) -> str:
    return spec.name if spec.name.startswith("the ") else f"'{spec.name}'"  # a temporary, or a named tensor


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
    for name, value in env.items():
        if not 1 <= value <= MAX_SIZE:
            raise TilecError(f"shape parameter '{name}' = {value}: sizes are between 1 and 2^31 - 1")
        low, high = dict(sig.ranges).get(name, (1, MAX_SIZE))
        if not low <= value <= high:  # reads past a sliced buffer's end: the function is not defined there
            raise TilecError(f"shape parameter '{name}' = {value} is outside [{low}, {high}], the sizes "
                             f"{sig.name} is defined for")
    for spec in (*sig.inputs, *sig.outputs):
        try:
            shape = spec.shape(env)
        except DimError as err:
            raise _size_error(spec, f"shape of '{spec.name}': {err}") from None
        if any(n < 1 for n in shape):
            raise _size_error(spec, f"'{spec.name}' would have shape {list(shape)} = "
                                    f"[{', '.join(map(str, spec.dims))}]; every size must be at least 1")
        if any(n > MAX_SIZE for n in shape) or math.prod(shape) > MAX_ELEMENTS:
            raise _size_error(spec, f"'{spec.name}' would have shape {_shape_text(shape)} = "
                                    f"[{', '.join(map(str, spec.dims))}]; a size is at most 2^31 - 1 and a "
                                    f"tensor has at most 2^62 elements")
        if inputs and spec in sig.inputs and tuple(inputs[spec.name].shape) != shape:
            raise TilecError(f"input '{spec.name}' has shape {list(inputs[spec.name].shape)} but the spec "
                             f"says [{', '.join(map(str, spec.dims))}] = {list(shape)}")
    return env


def _shape_text(shape) -> str:
    return "[" + ", ".join(str(n) if n < 10**12 else f"~{n:.3g}" for n in shape) + "]"


def check_allocation(sig: Signature, env: dict[str, int], stage: str | None = None) -> None:
    """Refuse to run a function whose tensors would not fit: each of its inputs, outputs and
    temporaries has at most MAX_RUN_ELEMENTS elements, and all of them MAX_RUN_BYTES bytes
    (with a ``stage`` run after the oracle, its outputs count twice: the oracle's are kept to
    compare with); and one that would run too long: each contraction at most MAX_RUN_WORK
    multiply-adds. The error is located at the tensor that passes the limit.

        check_allocation(sig, {"M": 40000, "N": 40000, "K": 1000})
        # gemm.ta:8:11: error: the tensors up to the ta.map result [40000, 40000] need 8,160,000,000
        # bytes (7.6 GiB); tilec run allocates at most 4,294,967,296 bytes (4 GiB) for a function
    """
    total = 0
    twice = sig.outputs if stage else ()
    for spec in (*sig.inputs, *sig.outputs, *twice, *sig.temporaries):
        try:
            shape = spec.shape(env)
        except DimError:
            continue  # bind() has reported the inputs and outputs; a temporary's dims follow them
        elements = math.prod(shape)
        if elements > MAX_RUN_ELEMENTS:
            raise _size_error(spec, f"{_what(spec)} would have shape {_shape_text(shape)}, {elements:.3g} "
                                    f"elements; tilec runs tensors of at most 2^31 elements")
        total += elements * ELEMENTS[spec.element][1]
        if total > MAX_RUN_BYTES:
            also = f" (the {stage} stage's outputs beside the oracle's)" if stage else ""
            raise _size_error(spec, f"the tensors up to {_what(spec)} {_shape_text(shape)}{also} need {total:,} "
                                    f"bytes ({total / 2**30:.1f} GiB); tilec run allocates at most "
                                    f"{MAX_RUN_BYTES:,} bytes ({MAX_RUN_BYTES // 2**30} GiB) for a function")
    for space in sig.work:
        try:
            extents = space.shape(env)
        except DimError:
            continue
        if math.prod(extents) > MAX_RUN_WORK:
            raise _size_error(space, f"this contraction iterates over {_shape_text(extents)}, "
                                     f"{math.prod(extents):.3g} multiply-adds; tilec run computes at most "
                                     f"2^34 per contraction (give smaller --shape values)")


def random_inputs(sig: Signature, env: dict[str, int], seed: int) -> dict[str, torch.Tensor]:
    """Standard-normal inputs of the right shapes and dtypes, reproducible from ``seed``
    (refused before anything is allocated when the function would not fit: check_allocation)."""
    check_allocation(sig, env)
    import torch

    gen = torch.Generator().manual_seed(seed)
    return {s.name: torch.randn(s.shape(env), generator=gen).to(s.dtype) for s in sig.inputs}
