"""A training pair of packages called as one autograd node on CUDA tensors.

``tilec compile``'s training pair (``ta-grad{saved=true}``) is two functions: a forward that also
returns what the backward reads (each softmax's log-sum-exp) and the backward, which takes the
forward's inputs, its results and a cotangent ``dY`` per output ``Y``, and returns ``dX`` per
input ``X`` it differentiates. Each is a package (a kernel, or a graph of kernels); this joins
them the way autograd calls them:

    pair = GradientPair(load("attn_fwd.tkg"), load("attn_bwd.tkg"), outputs=["O"])
    o = pair(q, k, v)                    # the forward's kernels; lse kept for the backward
    o.sum().backward()                   # the backward's kernels: q.grad, k.grad, v.grad

Like the rest of tilec.runtime this imports torch (and cuda-bindings when a kernel launches) only.
"""

from __future__ import annotations

import torch


def names_of(package, role: str) -> list[str]:
    """The input or output names of a kernel (its manifest's arguments) or a kernel graph."""
    if role == "input":
        found = package.inputs
    else:
        found = package.outputs
    return [x if isinstance(x, str) else x["name"] for x in found]


class GradientPair:
    """``forward`` and ``backward`` packages of a training pair, ``outputs`` the forward's results
    a caller gets (the rest are saved for the backward alone)."""

    def __init__(self, forward, backward, outputs: list[str]):
        self.forward, self.backward = forward, backward
        self.inputs = names_of(forward, "input")
        self.saved = names_of(forward, "output")
        missing = [n for n in outputs if n not in self.saved]
        if missing:
            raise ValueError(f"the forward package returns no {', '.join(missing)}")
        self.outputs = list(outputs)
        known = set(self.inputs) | set(self.saved) | {f"d{n}" for n in self.outputs}
        unknown = [n for n in names_of(backward, "input") if n not in known]
        if unknown:
            raise ValueError(f"the backward package reads {', '.join(unknown)}, which neither the forward's inputs, "
                             f"its results nor the outputs' cotangents are")

    def __call__(self, *tensors, sizes: dict | None = None):
        """The outputs on ``tensors`` (the forward's inputs, in order), differentiable."""
        if len(tensors) != len(self.inputs):
            raise TypeError(f"the pair takes the inputs ({', '.join(self.inputs)})")
        out = _PairNode.apply(self, sizes or {}, *tensors)
        return out[0] if len(out) == 1 else out

    def run_forward(self, tensors: list, sizes: dict) -> dict:
        return _by_name(self.forward, self.saved, self.forward(*tensors, sizes=sizes))

    def run_backward(self, values: dict, sizes: dict) -> dict:
        reads = names_of(self.backward, "input")
        found = self.backward(*[values[n] for n in reads], sizes=sizes)
        return _by_name(self.backward, names_of(self.backward, "output"), found)


def _by_name(package, names: list, found) -> dict:
    return dict(zip(names, found if isinstance(found, tuple) else (found,)))


class _PairNode(torch.autograd.Function):
    """The forward's kernels now, the backward's kernels when autograd asks."""

    @staticmethod
    def forward(ctx, pair, sizes, *tensors):
        inputs = [t.detach().contiguous() for t in tensors]
        saved = pair.run_forward(inputs, sizes)
        ctx.pair, ctx.sizes = pair, sizes
        ctx.save_for_backward(*inputs, *(saved[n] for n in pair.saved))
        return tuple(saved[n] for n in pair.outputs)

    @staticmethod
    def backward(ctx, *grads):
        pair = ctx.pair
        held = ctx.saved_tensors
        values = dict(zip(pair.inputs, held[:len(pair.inputs)]))
        values.update(zip(pair.saved, held[len(pair.inputs):]))
        for name, grad in zip(pair.outputs, grads):
            value = values[name]
            values[f"d{name}"] = torch.zeros_like(value) if grad is None else grad.to(value.dtype).contiguous()
        found = pair.run_backward(values, ctx.sizes)
        grads = [found.get(f"d{n}") if t.dtype.is_floating_point else None for n, t in zip(pair.inputs, held)]
        return (None, None, *(g.to(t.dtype) if g is not None else None for g, t in zip(grads, held)))
