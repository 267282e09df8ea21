"""tilec.runtime.load: a package file as the object that runs it.

    kernel = tilec.runtime.load("gemm.tkp")     # a Kernel (and a torch custom op)
    graph = tilec.runtime.load("block.tkg")     # a KernelGraph
"""

from __future__ import annotations

import hashlib

from .graph import is_graph, load_graph
from .kernel import Kernel
from .package import read_package


def load(path: str, register_op: bool = True):
    """Load a package (a Kernel); with ``register_op`` the kernel is also a torch custom op (works
    under torch.compile: its fake implementation gives the output shapes). A graph package
    (several kernels, tilec.runtime.graph) loads as a KernelGraph."""
    if is_graph(path):
        return load_graph(path)
    kernel = Kernel(read_package(path))
    if register_op:
        from .custom_op import register
        kernel.op = register(kernel, hashlib.sha256(str(kernel.package.manifest["files"]).encode()).hexdigest()[:12])
    return kernel
