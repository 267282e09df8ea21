"""Dimension expressions of a manifest evaluated at a call's sizes: shapes, grids, limits.

    evaluate_dim(["*", "B", "T"], {"B": 2, "T": 5})   # 10

The leaf of tilec.runtime: the kernel, the launch, the graph and the custom op read sizes
through it.
"""

from __future__ import annotations

import functools

# a manifest's element type -> torch's name of it; torch is imported where a tensor is made
DTYPE_NAMES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16"}


@functools.cache
def torch_dtype(name: str):
    """torch's dtype of a manifest's element type: torch_dtype("bf16") -> torch.bfloat16."""
    import torch

    return getattr(torch, DTYPE_NAMES[name])


def evaluate_dim(tree, env: dict) -> int:
    """A dimension expression from the manifest: an int, a parameter name, or [op, a, b]."""
    if isinstance(tree, int):
        return tree
    if isinstance(tree, str):
        return env[tree]
    op, a, b = tree[0], evaluate_dim(tree[1], env), evaluate_dim(tree[2], env)
    return {"+": a + b, "-": a - b, "*": a * b}.get(op, a // b if b else 0)


def _solve_product(tree, size: int, env: dict) -> None:
    """Bind the one unknown name of a product dim ([*, a, b] of names and sizes) from its
    ``size``, when the other factors are known and divide it."""
    factors, stack = [], [tree]
    while stack:
        t = stack.pop()
        if isinstance(t, list) and t[0] == "*":
            stack += [t[1], t[2]]
        elif isinstance(t, list):
            return  # a sum or a quotient: not solved here
        else:
            factors.append(t)
    unknown = [f for f in factors if isinstance(f, str) and f not in env]
    if len(unknown) != 1 or factors.count(unknown[0]) != 1:
        return
    known = 1
    for f in factors:
        if f != unknown[0]:
            known *= evaluate_dim(f, env)
    if known and size % known == 0:
        env[unknown[0]] = size // known


MAX_PLANS = 64  # input shapes a kernel remembers the checks and sizes of


GRID_LIMITS = (2 ** 31 - 1, 65535, 65535)  # CUDA's, per grid dim


def grid_of(manifest: dict, env: dict) -> tuple:
    """The (x, y, z) grid of a call at sizes ``env``; ValueError past CUDA's limits (grid y counts
    a GEMM's batch or a pointwise kernel's leading dims)."""
    grid = tuple([max(evaluate_dim(g, env), 1) for g in manifest["grid"]] + [1, 1])[:3]
    if any(n > limit for n, limit in zip(grid, GRID_LIMITS)):
        raise ValueError(f"{manifest['kernel']}: these sizes need a grid of {list(grid)} CTAs; CUDA launches "
                         f"at most {list(GRID_LIMITS)}")
    return grid
