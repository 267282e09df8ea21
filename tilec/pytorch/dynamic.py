"""Graphs compiled once for every size of their dynamic dims (a sequence length, a batch).

    graph = tilec.compile(model, (x,), dynamic_shapes=({1: torch.export.Dim("T")},))
    graph(x_of_another_length)          # the same ta, loop program and kernels

``dynamic_shapes`` is torch.export's: one entry per example input, None or a dict from a dim
to a ``torch.export.Dim`` (or a name). torch.export checks that the code does not specialise
those dims (a ``Dim`` whose size the code fixes is its error, reported as tilec's); tilec
then raises the graph at a few sizes and keeps the one ta function they share, with the
dynamic sizes as its shape parameters (generalize.py). Every stage below ta takes shape
parameters already (a spec's ``param``): the loop program is JIT-compiled once, the kernels
read their sizes from the tensors at launch, and the proofs hold for every size.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import torch
from torch_mlir import ir

from tilec.dialects import MAX_SIZE, set_param_ranges
from tilec.dialects.dims import parse_dim

from ..diagnostics import TilecError
from .generalize import Specialized, fit, generalize, points_around
from .importer import _quiet_export, exportable, Graph, import_torch
from ..lowering.driver import run_passes


@dataclass(frozen=True)
class DynamicDims:
    """Which example-input dims are dynamic: (input, dim) -> the size's name, and each name's
    range (inclusive)."""

    names: tuple[tuple[tuple[int, int], str], ...]
    ranges: tuple[tuple[str, tuple[int, int]], ...]
    traced: bool = False  # TorchDynamo traced the graph with these sizes symbolic: no export checks it again

    def sizes(self, example: tuple) -> dict[str, int]:
        """Each dynamic size's value in ``example``."""
        return {name: example[k].shape[d] for (k, d), name in self.names}

    def inputs_at(self, example: tuple, point: dict[str, int]) -> tuple:
        """Stand-ins for ``example`` (zeros, same dtypes) with the dynamic sizes of ``point``."""
        if point == self.sizes(example):
            return example
        at = dict(self.names)
        out = []
        for k, t in enumerate(example):
            shape = [point[at[(k, d)]] if (k, d) in at else n for d, n in enumerate(t.shape)]
            out.append(torch.zeros(shape, dtype=t.dtype))
        return tuple(out)


def dynamic_dims(spec, example: tuple, traced: bool = False) -> DynamicDims:
    """``spec`` (torch.export's dynamic_shapes: per example input None or {dim: Dim or name})
    checked against ``example``; ``traced``: TorchDynamo's symbolic sizes (already checked)."""
    if not isinstance(spec, (tuple, list)) or len(spec) != len(example):
        raise TypeError(f"dynamic_shapes takes one entry per example input ({len(example)}), each None or a "
                        f"dict from a dim to a torch.export.Dim")
    names, ranges, values = {}, {}, {}
    for k, (entry, t) in enumerate(zip(spec, example)):
        if entry is None:
            continue
        if not isinstance(entry, dict):
            raise TypeError(f"dynamic_shapes[{k}] must be None or a dict from a dim to a torch.export.Dim")
        for d, dim in entry.items():
            if not isinstance(d, int) or not -t.dim() <= d < t.dim():
                raise ValueError(f"dynamic_shapes[{k}]: input {k} has {t.dim()} dims, no dim {d}")
            name, low, high = _dim(dim)
            d %= t.dim()
            size = t.shape[d]
            if values.setdefault(name, size) != size:
                raise ValueError(f"dynamic dim {name} is {values[name]} in one example input and {size} in another")
            if not max(low, 2) <= size <= high:
                raise ValueError(f"dynamic dim {name} is {size} in the example, outside its range [{max(low, 2)}, "
                                 f"{high}] (sizes 0 and 1 are never dynamic)")
            names[(k, d)] = name
            ranges[name] = (max(low, 2), high)
    if not names:
        raise ValueError("dynamic_shapes names no dim")
    return DynamicDims(tuple(sorted(names.items())), tuple(sorted(ranges.items())), traced)


def _dim(dim) -> tuple[str, int, int]:
    if isinstance(dim, str):
        if not dim.isidentifier():
            raise ValueError(f"a dynamic dim's name must be an identifier, not {dim!r}")
        return dim, 2, 2**31 - 1
    name = getattr(dim, "__name__", None)
    if name is None or not hasattr(dim, "min"):
        raise TypeError(f"a dynamic dim is a torch.export.Dim or a name, not {type(dim).__name__}")
    high = dim.max if isinstance(dim.max, int) else 2**31 - 1
    return name, int(dim.min), min(int(high), 2**31 - 1)


def check_generic(wrapped: torch.nn.Module, example: tuple, state: int, dims: DynamicDims) -> None:
    """torch.export's own check that ``wrapped`` (importer.exportable's module; its first
    ``state`` inputs are state tensors) does not specialise the dynamic dims; a TilecError with
    torch's reason when it does."""
    from torch.export import Dim

    made = {name: Dim(name, min=low, max=high) for name, (low, high) in dims.ranges}
    per_input = [None] * len(example)
    for (k, d), name in dims.names:
        per_input[state + k] = {**(per_input[state + k] or {}), d: made[name]}
    params = list(inspect.signature(wrapped.forward).parameters.values())
    variadic = len(params) == 1 and params[0].kind == inspect.Parameter.VAR_POSITIONAL

    try:
        with _quiet_export():
            torch.export.export(wrapped, example, dynamic_shapes=(tuple(per_input),) if variadic else
                                tuple(per_input), strict=False)
    except Exception as err:  # noqa: BLE001 - torch's constraint errors have many types
        lines = [line.strip(" -") for line in str(err).splitlines() if line.strip()]
        why = [line for line in lines if line.startswith("Not all values")]  # torch's guard, named
        reason = "; ".join(lines[:1] + why[:2]) or type(err).__name__
        raise TilecError(f"the graph is not generic in its dynamic dims, torch.export says: {reason}") from None


def raise_dynamic(fn, example: tuple, dims: DynamicDims, name: str, program=None):
    """(ta module, importer.Graph) of ``fn`` for every size of ``dims``: raised at
    points_around the example's sizes, canonicalized, and generalized. ``program``: what
    importer.exported made of ``fn`` at ``example`` already, when the caller has it."""
    if not dims.traced:  # torch.export inside TorchDynamo's backend would trace under its guards
        wrapped, full, state = exportable(fn, example)
        check_generic(wrapped, full, len(state), dims)
    points = points_around(dims.sizes(example), dict(dims.ranges))
    modules, graphs = [], []
    for point in points:
        at_example = point == dims.sizes(example)
        module, graph = import_torch(fn, dims.inputs_at(example, point), name, program if at_example else None)
        run_passes(module, ["ta-canonicalize"])  # index arithmetic of reshapes the extents decide, dropped
        modules.append(module)
        graphs.append(graph)
    try:
        with ir.Location.unknown():
            module = generalize(modules, points)
        # the largest size torch.export allows (a slice of a 64-row buffer: at most 64) bounds the
        # function: the proofs assume it, and a call past it is refused (size 1 is in its domain,
        # though torch traces sizes of 2 and more)
        set_param_ranges(module.body.operations[0], {n: (1, high) for n, (_, high) in dims.ranges
                                                     if high < MAX_SIZE})
        shapes = lambda field: tuple(_general_shape([getattr(g, field)[k] for g in graphs], points)  # noqa: E731
                                     for k in range(len(getattr(graphs[0], field))))
    except Specialized as err:
        raise TilecError(f"the graph raised at different sizes of its dynamic dims differs: {err}") from None
    first = graphs[0]
    return module, Graph(first.state_names, first.input_names, first.output_names, shapes("input_shapes"),
                         shapes("output_shapes"))


def _general_shape(shapes: list, points: list) -> tuple:
    out = []
    for sizes in zip(*shapes):
        if len(set(sizes)) == 1:
            out.append(sizes[0])
            continue
        expr = fit(list(sizes), points)
        if expr is None:
            raise Specialized(f"a graph input or output size is {sizes[0]} at one point and {sizes[1]} at another")
        out.append(expr)
    return tuple(out)


def bind_sizes(shapes: tuple, args: list, labels: list) -> dict[str, int]:
    """The dynamic sizes of a call: each named dim of ``shapes`` (importer.Graph's, state first)
    read off ``args`` (named ``labels`` in errors); a TilecError when a static size or a
    repeated name disagrees."""
    env: dict[str, int] = {}
    for label, shape, t in zip(labels, shapes, args):
        if len(shape) != t.dim():
            raise TilecError(f"{label} has shape {list(t.shape)}; the graph takes {len(shape)} dims")
        for want, size in zip(shape, t.shape):
            if isinstance(want, str) and parse_dim(want).op == "sym" and env.setdefault(want, size) != size:
                raise TilecError(f"dynamic dim {want} is {env[want]} in one input and {size} in another")
    for label, shape, t in zip(labels, shapes, args):
        expected = evaluate_shape(shape, env)
        if expected != tuple(t.shape):
            raise TilecError(f"{label} has shape {list(t.shape)}, the graph takes {list(expected)} "
                             f"({', '.join(map(str, shape))})")
    return env


def evaluate_shape(shape: tuple, env: dict[str, int]) -> tuple[int, ...]:
    return tuple(n if isinstance(n, int) else parse_dim(n).evaluate(env) for n in shape)
