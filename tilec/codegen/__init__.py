"""Code generation: tile IR -> CUDA C++ -> cubin."""
