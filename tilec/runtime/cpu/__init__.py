"""A package's CUDA text run on the CPU under tilec's model of the GPU (``Kernel.on("cpu")``):
what ships, executed where there is no GPU. launch.py runs it; source.py builds it; include/
is the model."""
