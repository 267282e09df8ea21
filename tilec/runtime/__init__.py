"""Load a kernel package (.tkp) and call it on torch CUDA tensors.

    kernel = tilec.runtime.load("gemm.tkp")
    c = kernel(a, b)                  # or kernel(A=a, B=b)

This package imports only the standard library, torch and (when a kernel is
launched) cuda-bindings: it runs where tilec compiled nothing, e.g. a GPU
machine without MLIR. It never imports tilec's compiler, MLIR or z3.
"""

from .kernel import Kernel, load
from .package import PackageError, read_package

__all__ = ["Kernel", "PackageError", "load", "read_package"]
