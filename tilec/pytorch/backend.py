"""``torch.compile(model, backend="tilec")``: each graph TorchDynamo captures goes through
``tilec.compile`` (registered through the ``torch_dynamo_backends`` entry point).

A graph tilec cannot raise stays in torch (a ``TilecFallbackWarning`` says why), and so
does a call with shapes other than the ones compiled for (TorchDynamo recompiles).
"""

from __future__ import annotations

import torch

from .api import CompiledGraph
from .support import stand_in


def tilec_backend(gm: torch.fx.GraphModule, example_inputs, **options):
    """The TorchDynamo backend: a callable with ``gm``'s calling convention."""
    example = [stand_in(t.shape, t.stride(), t.dtype) if isinstance(t, torch.Tensor) else t for t in example_inputs]
    if not all(isinstance(t, torch.Tensor) for t in example):
        return gm.forward  # symbolic sizes or Python scalars: shapes tilec cannot fix
    graph = CompiledGraph(gm, tuple(example), options.get("stage", "loop"), False, "graph",
                          options.get("schedule", ""))
    if graph.module is None:
        return gm.forward
    output = next(n for n in gm.graph.nodes if n.op == "output").args[0]
    as_tuple = isinstance(output, (tuple, list))

    def run(*args):
        if [tuple(t.shape) for t in args] != graph.shapes:
            return gm.forward(*args)
        result = graph(*args)
        if not as_tuple:
            return result
        return tuple(result) if isinstance(result, tuple) else (result,)

    return run
