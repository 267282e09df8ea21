"""``torch.compile(model, backend="tilec")``: each graph TorchDynamo captures goes through
``tilec.compile`` (registered through the ``torch_dynamo_backends`` entry point).

A graph tilec cannot raise stays in torch (a ``TilecFallbackWarning`` says why; one it raises
in parts runs its regions in tilec and the rest in torch), and so does a call with shapes other
than the ones compiled for (TorchDynamo recompiles), and any graph on which tilec fails. A graph
with symbolic sizes (``dynamic=True``, or the sizes TorchDynamo makes dynamic once a second
shape is seen) is compiled once for every value of them (tilec/pytorch/dynamic.py): its
integer inputs are the sizes of its tensors' dims, read off the tensors.
"""

from __future__ import annotations

import copy
import warnings

import torch

from .api import CompiledGraph, TilecFallbackWarning, failure_reason
from .dynamic import dynamic_dims
from .support import stand_in


def tilec_backend(gm: torch.fx.GraphModule, example_inputs, **options):
    """The TorchDynamo backend: a callable with ``gm``'s calling convention. Whatever fails in
    tilec leaves the graph to torch with a TilecFallbackWarning saying why, never the user's
    program: a graph tilec raised in regions runs them, and the ops between them, in torch.

        compiled = torch.compile(model, backend="tilec"); y = compiled(x)
    """
    try:
        return _compiled(gm, example_inputs, options)
    except Exception as err:  # noqa: BLE001 - any failure: this graph runs in torch (docs/pytorch.md)
        warnings.warn(f"tilec leaves this graph to torch: {failure_reason(err)}", TilecFallbackWarning, stacklevel=2)
        return gm.forward


def _compiled(gm: torch.fx.GraphModule, example_inputs, options: dict):
    if not all(isinstance(t, (torch.Tensor, int, torch.SymInt)) for t in example_inputs):
        return gm.forward  # Python scalars of other kinds: nothing tilec fixes
    symbolic = _symbolic(gm, example_inputs)
    if symbolic is None:
        return gm.forward  # sizes tilec does not take apart (an expression of symbols as a dim)
    scalars = {k: t.clone() for k, t in enumerate(example_inputs) if _scalar(t)}
    taken = [k for k, t in enumerate(example_inputs) if isinstance(t, torch.Tensor) and k not in scalars]
    tensors = [stand_in(example_inputs[k].shape, example_inputs[k].stride(), example_inputs[k].dtype) for k in taken]
    fn = gm if len(taken) == len(example_inputs) else _tensors_only(gm, example_inputs, symbolic, scalars)
    if fn is None:
        return gm.forward  # a scalar input used other than as its value
    spec = [None] * len(tensors)
    for name, dims in symbolic.items():
        for k, d in dims:  # every dim of that size (K's and V's length): each varies with it
            spec[k] = {**(spec[k] or {}), d: name}
    dynamic = dynamic_dims(spec, tuple(tensors), traced=True) if symbolic else None
    graph = CompiledGraph(fn, tuple(tensors), options.get("stage", "loop"), False, "graph",
                          options.get("schedule", ""), dynamic=dynamic, replay=options.get("replay", True))
    if graph.module is None and graph.partitioned is None:
        return gm.forward
    return _Run(gm, graph, taken, scalars)


class _Run:
    """Calls of a graph tilec compiled: in torch for a call it was not compiled for (other
    static shapes, another value of a scalar it was compiled with), and from the first call on
    which tilec fails (a TilecFallbackWarning says why, once)."""

    def __init__(self, gm, graph: CompiledGraph, taken: list, scalars: dict):
        self.gm, self.graph, self.taken, self.scalars, self.failed = gm, graph, taken, scalars, False
        output = next(n for n in gm.graph.nodes if n.op == "output").args[0]
        self.as_tuple = isinstance(output, (tuple, list))

    def __call__(self, *args):
        tensors = [args[k] for k in self.taken]
        if self.failed or not self._compiled_for(tensors, args):
            return self.gm.forward(*args)
        try:
            result = self.graph(*tensors)
        except Exception as err:  # noqa: BLE001 - a failure in tilec's stages: the graph runs in torch
            self.failed = True
            warnings.warn(f"tilec leaves this graph to torch: {failure_reason(err)}", TilecFallbackWarning,
                          stacklevel=2)
            return self.gm.forward(*args)
        if not self.as_tuple:
            return result
        return tuple(result) if isinstance(result, tuple) else (result,)

    def _compiled_for(self, tensors: list, args: tuple) -> bool:
        if self.graph.dynamic is None and [tuple(t.shape) for t in tensors] != self.graph.shapes:
            return False
        return all(torch.equal(args[k], v) for k, v in self.scalars.items())


def _symbolic(gm, example_inputs) -> dict | None:
    """symbol -> [(tensor number, dim), ...]: every tensor dim each symbolic size is, in order;
    {} for a static graph; None when a dim is an expression of symbols or an integer input no
    dim gives."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    found, k = {}, 0
    for node, example in zip(placeholders, example_inputs):
        if not isinstance(example, torch.Tensor) or _scalar(example):
            continue
        value = node.meta.get("example_value")
        for d, size in enumerate(value.shape if value is not None else ()):
            if isinstance(size, torch.SymInt) and not str(size).isdigit():  # a SymInt may hold a constant
                if not str(size).isidentifier():
                    return None
                found.setdefault(str(size), []).append((k, d))
        k += 1
    ints = [str(e) for e in example_inputs if isinstance(e, torch.SymInt)]
    return None if any(n not in found for n in ints) else found


def _scalar(t) -> bool:
    """A 0-dim f64 tensor input: a Python float of the model (LayerNorm's eps) that TorchDynamo
    passes as an input; compiled in as the value it has (a call with another one runs in torch)."""
    return isinstance(t, torch.Tensor) and t.dim() == 0 and t.dtype == torch.float64


def _tensors_only(gm, example_inputs, symbolic: dict, scalars: dict):
    """A copy of ``gm`` that takes only its tensor inputs: each integer input read off a tensor's
    shape (``symbolic``: symbol -> its (tensor number, dim)s, the first read) or, static, a constant; each scalar
    (``scalars``: input number -> value) read by ``.item()`` replaced by its value. None when a
    scalar is used otherwise."""
    graph = copy.deepcopy(gm.graph)
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    tensors = [n for n, e in zip(placeholders, example_inputs) if isinstance(e, torch.Tensor) and not _scalar(e)]
    for k, (node, example) in enumerate(zip(placeholders, example_inputs)):
        if isinstance(example, torch.SymInt):
            t, d = symbolic[str(example)][0]
            with graph.inserting_after(placeholders[-1]):
                node.replace_all_uses_with(graph.call_function(torch.ops.aten.sym_size.int, (tensors[t], d)))
        elif isinstance(example, int):
            _replace_with_value(node, example)
        elif k in scalars:
            if any(u.op != "call_method" or u.target != "item" for u in node.users):
                return None
            for use in list(node.users):
                _replace_with_value(use, scalars[k].item())
                graph.erase_node(use)
        else:
            continue
        graph.erase_node(node)
    return torch.fx.GraphModule(gm, graph)


def _replace_with_value(node, value) -> None:
    """Every use of ``node`` reads the Python constant ``value`` instead."""
    for user in list(node.users):
        user.args = torch.fx.node.map_arg(user.args, lambda n: value if n is node else n)
        user.kwargs = torch.fx.node.map_arg(user.kwargs, lambda n: value if n is node else n)
