"""tilec: tensor-algebra specs in, verified tile kernels out.

Stages: math spec -> ta (tensor algebra) -> loop IR -> tile IR -> CUDA -> cubin.
"""

__version__ = "0.1.0"
