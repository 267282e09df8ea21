"""Split a graph tilec cannot raise whole into regions it can and the rest.

    module = partition(fn, example_inputs, compile_region)    # an fx.GraphModule, or None

The graph is exported (state tensors as leading inputs, as ``importer`` does) and its
aten ops are grouped by torch.fx's ``CapabilityBasedPartitioner`` into maximal regions of
ops tilec has rules for (``RAISED``); each region becomes what ``compile_region`` makes of it
(a ``CompiledGraph``, handed in by tilec.pytorch.api), called from
the graph, the rest runs in torch. A region that still cannot be raised, or whose compile
fails otherwise, runs in torch too (a ``TilecFallbackWarning`` says why).
"""

from __future__ import annotations

import warnings

import torch
from torch._guards import tracing
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase
from torch.fx.passes.shape_prop import ShapeProp

from .support import stand_in
from .fallback import TilecFallbackWarning, failure_reason
from .importer import export

# aten ops whose linalg form tilec raises (elementwise, reductions, contractions, views)
RAISED = {
    "add", "sub", "mul", "div", "neg", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "erf", "abs", "pow",
    "relu", "gelu", "silu", "maximum", "minimum", "clamp", "where", "masked_fill", "logical_not", "bitwise_not",
    "gt", "ge", "lt", "le", "eq", "ne", "tril", "triu", "ones", "zeros", "full", "arange", "scalar_tensor",
    "matmul", "mm", "bmm", "addmm", "linear", "t", "transpose", "permute", "view", "reshape", "_unsafe_view",
    "expand", "unsqueeze", "squeeze", "clone", "contiguous", "split", "split_with_sizes", "slice", "select",
    "softmax", "_softmax", "log_softmax", "layer_norm", "native_layer_norm", "sum", "mean", "amax", "amin",
    "_to_copy", "to", "type_as", "alias", "detach", "cat", "unflatten",
}


class _Raised(OperatorSupportBase):
    def is_node_supported(self, submodules, node: torch.fx.Node) -> bool:
        if node.op != "call_function":
            return False
        if node.target.__module__ == "_operator":  # getitem of a supported op's tuple
            return all(isinstance(a, torch.fx.Node) and self.is_node_supported(submodules, a)
                       for a in node.args[:1])
        name = getattr(node.target, "__name__", "").split(".")[0]
        return name in RAISED


class _Region(torch.nn.Module):
    """A region as a module the partitioned graph calls."""

    def __init__(self, graph):
        super().__init__()
        self.graph_ = graph

    def forward(self, *args):
        return self.graph_(*args)


def partition(wrapped: torch.nn.Module, example: tuple, compile_region):
    """The exported ``wrapped`` with its raisable regions compiled by ``compile_region(module,
    inputs, name)`` (a CompiledGraph); None when there are none."""
    module = export(wrapped, example).module()
    partitioner = CapabilityBasedPartitioner(module, _Raised(), allows_single_node_partition=False)
    regions = partitioner.propose_partitions()
    if not regions:
        return None
    fused = partitioner.fuse_partitions(regions)
    with tracing(None):  # else, inside TorchDynamo's backend, ShapeProp takes its fake mode: symbolic strides
        ShapeProp(fused).propagate(*example)
    compiled = 0
    for node in fused.graph.nodes:
        if node.op != "call_module" or not node.target.startswith("fused_"):
            continue
        graph = _region(fused, node, compile_region)
        if graph is not None:
            setattr(fused, node.target, _Region(graph))
            compiled += 1
    fused.recompile()
    return fused if compiled else None


def _region(fused: torch.fx.GraphModule, node: torch.fx.Node, compile_region):
    """The CompiledGraph of region ``node`` of ``fused``; None when it stays in torch: it does not
    raise (its own TilecFallbackWarning says why), or compiling it fails otherwise (one says so)."""
    inputs = [stand_in(m.shape, m.stride, m.dtype) for m in (a.meta["tensor_meta"] for a in node.args)]
    try:
        graph = compile_region(getattr(fused, node.target), tuple(inputs), node.target)
    except Exception as err:  # noqa: BLE001 - any failure leaves this region to torch, not the graph
        warnings.warn(f"tilec leaves region '{node.target}' to torch: {failure_reason(err)}", TilecFallbackWarning,
                      stacklevel=2)
        return None
    return graph if graph.module is not None else None
