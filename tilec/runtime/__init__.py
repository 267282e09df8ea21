"""Load a kernel package (.tkp) and call it on torch CUDA tensors.

    kernel = tilec.runtime.load("gemm.tkp")
    c = kernel(a, b)                  # or kernel(A=a, B=b)
    step = tilec.runtime.Replay(kernel)   # calls replayed as captured CUDA graphs (replay.py)

This package imports only the standard library, torch and (when a kernel is
launched) cuda-bindings: it runs where tilec compiled nothing, e.g. a GPU
machine without MLIR. It never imports tilec's compiler, MLIR or z3.
"""

from .package import PackageError, read_package

__all__ = ["Kernel", "KernelGraph", "PackageError", "Replay", "load", "read_package"]


def __getattr__(name: str):
    """Kernel and load import torch: only when asked for, so that writing a package (the
    compiler's side, tilec.runtime.package) does not pay torch's start-up."""
    if name == "Kernel":
        from .kernel import Kernel

        return Kernel
    if name == "load":
        from .loading import load

        return load
    if name == "Replay":
        from .replay import Replay

        return Replay
    if name == "KernelGraph":
        from .graph import KernelGraph

        return KernelGraph
    raise AttributeError(f"module 'tilec.runtime' has no attribute '{name}'")
