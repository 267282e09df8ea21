"""tilec: tensor-algebra specs in, verified tile kernels out.

Stages: math spec -> ta (tensor algebra) -> loop IR -> tile IR -> CUDA -> cubin.
"""

__version__ = "0.1.0"


def compile(fn, example_inputs, **options):
    """Raise PyTorch code into ta and run it through tilec's stages (see tilec.pytorch.api).

    Imported on first use: ``import tilec`` (and tilec.runtime) stays free of MLIR."""
    from .pytorch.api import compile as compile_graph

    return compile_graph(fn, example_inputs, **options)
