"""An on-disk cache of raised graphs: what a captured graph becomes in ta, kept by its hash.

``torch.compile(model, backend="tilec")`` hands tilec an ``fx.GraphModule``; exporting it
again, importing it through torch-mlir and raising it into ta take about 2 s a graph, in
every new process. A graph module's ta depends only on what is hashed here: its code, its
example inputs' shapes, strides and dtypes, the names, shapes and dtypes of its state
tensors (their values are the ta function's inputs), the values of any other tensor it
reads (constants are folded into the ta), and the versions of tilec, torch and torch-mlir.
An entry is the ta module printed with its locations (errors still point into the user's
code) and the graph's signature, as JSON; an entry that does not parse is ignored and
written again. Functions and modules that are not graph modules are not cached: their
graph is only known once exported.

    key = graph_key(gm, example, "graph")  # None: not cacheable
    hit = load(key)                       # (ta module, Graph) or None, in the current context
    store(key, module, graph)
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from importlib import metadata
from pathlib import Path

import torch
from torch_mlir import ir

from tilec import __version__


def cache_folder() -> Path:
    """``$TILEC_CACHE_DIR/../graphs`` (beside the kernel cache)."""
    from tilec.package import cache_dir

    return cache_dir().parent / "graphs"


def graph_key(fn, example: tuple, name: str) -> str | None:
    """The cache key of ``fn`` at ``example``, raised as the ta function ``name``; None unless
    ``fn`` is an fx.GraphModule."""
    if not isinstance(fn, torch.fx.GraphModule):
        return None
    digest = hashlib.sha256()
    for part in (__version__, torch.__version__, _version("torch-mlir"), name, fn.code):
        digest.update(str(part).encode() + b"\0")
    for t in example:
        digest.update(f"{tuple(t.shape)}{tuple(t.stride())}{t.dtype}".encode())
    state = {**dict(fn.named_parameters()), **dict(fn.named_buffers())}
    for name, t in state.items():
        digest.update(f"{name}{tuple(t.shape)}{t.dtype}".encode())
    for node in fn.graph.nodes:  # tensors read that are not state: constants, folded into the ta
        if node.op == "get_attr" and node.target not in state:
            value = _attribute(fn, node.target)
            if isinstance(value, torch.Tensor):
                digest.update(node.target.encode() + value.detach().cpu().contiguous().numpy().tobytes())
    return digest.hexdigest()


def load(key: str):
    """(ta module, importer.Graph) of the entry ``key``, parsed in the current context; None
    without a readable entry."""
    from .importer import Graph

    path = cache_folder() / f"{key}.json"
    try:
        entry = json.loads(path.read_text())
        module = ir.Module.parse(entry["ta"])
        graph = Graph(*(tuple(tuple(x) if isinstance(x, list) else x for x in field) for field in entry["graph"]))
    except (OSError, ValueError, KeyError, TypeError, ir.MLIRError):
        return None
    return module, graph


def store(key: str, module: ir.Module, graph) -> None:
    """Write the entry ``key`` (atomically: a reader sees the whole entry or none)."""
    folder = cache_folder()
    entry = {"ta": module.operation.get_asm(enable_debug_info=True),
             "graph": [graph.state_names, graph.input_names, graph.output_names, graph.input_shapes,
                       graph.output_shapes]}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=folder, suffix=".tmp", delete=False) as handle:
            json.dump(entry, handle)
        os.replace(handle.name, folder / f"{key}.json")
    except OSError:
        pass  # a cache that cannot be written costs time, not correctness


def _attribute(module, target: str):
    for part in target.split("."):
        module = getattr(module, part, None)
    return module


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"
