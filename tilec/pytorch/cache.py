"""An on-disk cache of raised graphs: what a captured graph becomes in ta, kept by its hash.

``torch.compile(model, backend="tilec")`` hands tilec an ``fx.GraphModule``; exporting it
again, importing it through torch-mlir and raising it into ta take about 2 s a graph, in
every new process. A graph module's ta depends only on what is hashed here: its code, its
example inputs' shapes, strides and dtypes, the names, shapes and dtypes of its state
tensors (their values are the ta function's inputs), the values of any other tensor it
reads (constants are folded into the ta), and the versions of tilec, torch and torch-mlir.
An entry is the ta module printed with its locations (errors still point into the user's
code) and the graph's signature, as JSON, kept in the ``graphs/`` cache (tilec/cache.py)
sealed with its key and the sha256 of that JSON: an entry edited, truncated or written for
another key, or one that does not parse, is discarded with a warning and raised again. A
function or module that is not a graph module is keyed the same way by the graph
torch.export makes of it (``program_key``): the export is repeated, the torch-mlir import
and the raising are not.

    key = graph_key(gm, example, "graph")  # None: not a graph module, key its export instead
    hit = load(key)                       # (ta module, Graph) or None, in the current context
    store(key, module, graph)
"""

from __future__ import annotations

import hashlib
import json
from importlib import metadata
import torch
from torch_mlir import ir

from tilec import cache
from tilec.build_id import build_id
from .importer import Graph

AGAIN = "raising the graph again"


def graph_key(fn, example: tuple, name: str) -> str | None:
    """The cache key of ``fn`` at ``example``, raised as the ta function ``name``; None unless
    ``fn`` is an fx.GraphModule (any other function is keyed once exported: program_key)."""
    if not isinstance(fn, torch.fx.GraphModule):
        return None
    state = {**dict(fn.named_parameters()), **dict(fn.named_buffers())}
    constants = {}
    for node in fn.graph.nodes:  # tensors read that are not state: constants, folded into the ta
        if node.op == "get_attr" and node.target not in state:
            value = _attribute(fn, node.target)
            if isinstance(value, torch.Tensor):
                constants[node.target] = value
    return _digest(name, fn.graph, fn.code, example, state, constants)


def program_key(program, state: dict, example: tuple, name: str) -> str:
    """The cache key of torch.export's ``program`` of a function or module at ``example``, its
    parameters and buffers ``state`` (inputs of the program), raised as the ta function ``name``."""
    constants = {**dict(program.constants), **dict(program.state_dict)}
    return _digest(name, program.graph, program.graph_module.code, example, state, constants)


def _digest(name: str, graph, code: str, example: tuple, state: dict, constants: dict) -> str:
    """A graph's code and the source lines its ops came from (the ta's locations), the example
    inputs' shapes, strides and dtypes, the state tensors' names, shapes and dtypes, the values
    of constant tensors, and the versions of what raises it (tilec's with a hash of its source)."""
    digest = hashlib.sha256()
    for part in (build_id(), torch.__version__, _version("torch-mlir"), name, code):
        digest.update(str(part).encode() + b"\0")
    for node in graph.nodes:
        digest.update(str(node.meta.get("stack_trace", "")).encode() + b"\0")
    for t in example:
        digest.update(f"{tuple(t.shape)}{tuple(t.stride())}{t.dtype}".encode())
    for key, t in state.items():
        digest.update(f"{key}{tuple(t.shape)}{t.dtype}".encode())
    for key, value in sorted(constants.items()):
        if isinstance(value, torch.Tensor):
            digest.update(key.encode() + value.detach().cpu().contiguous().reshape(-1).view(torch.uint8).numpy().tobytes())
        else:  # an opaque object a graph may hold: not cacheable by value
            digest.update(f"{key}{id(value)}".encode())
    return digest.hexdigest()


def with_dynamic(key: str, dynamic) -> str:
    """``key`` for the graph raised for every size of ``dynamic``'s dims (dynamic.DynamicDims)."""
    return hashlib.sha256(f"{key}{dynamic!r}".encode()).hexdigest()


def load(key: str):
    """(ta module, importer.Graph) of the entry ``key``, parsed in the current context; None
    without a usable entry (one that fails its seal or does not parse is discarded)."""
    name = f"{key}.json"
    data = cache.read("graphs", name, key, AGAIN)
    if data is None:
        return None
    try:
        entry = json.loads(data)
        module = ir.Module.parse(entry["ta"])
        graph = Graph(*(tuple(tuple(x) if isinstance(x, list) else x for x in field) for field in entry["graph"]))
    except (ValueError, KeyError, TypeError, ir.MLIRError) as err:
        return cache.discard("graphs", name, f"is not a raised graph ({err.__class__.__name__})", AGAIN)
    return module, graph


def store(key: str, module: ir.Module, graph) -> None:
    """Write the entry ``key`` (atomically: a reader sees the whole entry or none)."""
    entry = {"ta": module.operation.get_asm(enable_debug_info=True),
             "graph": [graph.state_names, graph.input_names, graph.output_names, graph.input_shapes,
                       graph.output_shapes]}
    cache.write("graphs", f"{key}.json", key, json.dumps(entry).encode())


def _attribute(module, target: str):
    for part in target.split("."):
        module = getattr(module, part, None)
    return module


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"
