"""Registering a loaded kernel as a torch custom op, with a fake (meta) implementation."""

from __future__ import annotations

import torch

from .dims import evaluate_dim, torch_dtype


def register(kernel, tag: str):
    """torch.ops.tilec.<kernel>_<tag>: the kernel as an op torch.compile can trace through."""
    name = f"tilec::{kernel.name}_{tag}"
    if len(kernel.outputs) != 1:
        return None  # custom ops with several outputs: not registered yet; call the kernel directly
    spec = kernel.outputs[0]
    params = ", ".join(f"Tensor {s['name']}" for s in kernel.inputs)
    lib_name = f"{kernel.name}_{tag}"
    try:
        torch.library.define(name, f"({params}) -> Tensor")
    except RuntimeError:
        return getattr(torch.ops.tilec, lib_name)  # already registered in this process

    @torch.library.impl(name, "CUDA")
    def _run(*tensors):
        return kernel(*tensors)

    @torch.library.register_fake(name)
    def _fake(*tensors):
        env = {}
        for s, t in zip(kernel.inputs, tensors):
            for dim, size in zip(s["dims"], t.shape):
                if isinstance(dim, str):
                    env.setdefault(dim, size)
        shape = [evaluate_dim(d, env) for d in spec["dims"]]
        return tensors[0].new_empty(shape, dtype=torch_dtype(spec["dtype"]))

    return getattr(torch.ops.tilec, lib_name)
