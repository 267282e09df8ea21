"""Gradients through ``tilec.compile``d graphs: the pair ``ta-grad{saved=true}`` builds, run by autograd.

A call on CPU tensors that needs gradients (grad mode on, a floating input or parameter that
requires grad) runs the graph's forward that also saves each softmax's log-sum-exp
(``@f_fwd``), and on ``backward()`` the backward that reads it (``@f_bwd``: FlashAttention's
form for attention, passes/ta_grad/saved.py), both on the graph's CPU stage: the oracle for
``stage="oracle"``, else the loop stage (the tile forms do not take a backward yet; at the
"tile" and "cuda" stages the forward's outputs are still the kernels'). Each
parameter of the module gets its ``.grad`` as torch's own backward would give it. On the
oracle, f64 tensors are computed in f64 (``torch.autograd.gradcheck``).

    graph = tilec.compile(model, (x,))
    graph(x).sum().backward()                 # model's parameters' .grad, x.grad
"""

from __future__ import annotations


import torch
from torch_mlir import ir

from ..diagnostics import TilecError
from ..lowering.driver import copy_module, run_passes
from ..executors.oracle import evaluate
from ..executors.precision import precision_for
from ..signature import signature


class Pair:
    """The forward that saves and the backward of a graph's ta module, each a module of one
    function, run at ``stage`` ("oracle", or "loop" for the rest)."""

    def __init__(self, module: ir.Module, stage: str):
        both = copy_module(module)
        try:
            # a softmax PyTorch code writes out (max, exp, sum, divide) as one op: its backward is
            # then FlashAttention's (the statistic saved, D from the output)
            run_passes(both, ["ta-raise-softmax", "ta-grad{saved=true replace=true}", "canonicalize", "cse"])
        except TilecError as err:
            raise TilecError(f"tilec builds no backward for this graph: {err.message}") from None
        forward, backward = list(both.body.operations)
        self.forward, self.backward = _alone(both, forward), _alone(both, backward)
        self.stage = stage
        self.saved = [t.name for t in signature(self.forward.body.operations[0]).outputs]
        self.statistics = self.saved[len(signature(module.body.operations[0]).outputs):]  # the lse's
        self.grads = [t.name for t in signature(self.backward.body.operations[0]).outputs]
        self._programs = {}

    def run(self, which: str, inputs: dict, env: dict) -> dict:
        module = self.forward if which == "forward" else self.backward
        fn = module.body.operations[0]
        if self.stage == "oracle":
            with precision_for(inputs.values()):
                return evaluate(fn, inputs, env)
        key = (which, tuple(tuple(t.shape) for t in inputs.values()), tuple(sorted(env.items())))
        if key not in self._programs:  # lowered and JIT-ed once per shape
            from ..executors.loop_runner import LoopProgram
            from ..lowering.driver import to_loops

            self._programs[key] = LoopProgram(to_loops(module), signature(fn))
        return self._programs[key](inputs, env)


    def on_cuda(self, schedules: dict, target: str, cached, outputs: list):
        """The pair's kernels for CUDA, a tilec.runtime GradientPair: the forward's and the
        backward's graph packages, each built once into the kernel cache by ``cached(name, key,
        build)``; a TilecError where no kernel takes either. The tensors between kernels stay
        f32: the saved statistics and D are the backward's exact inputs."""
        import hashlib

        from ..runtime.training import GradientPair

        loaded = []
        for (which, module), kernels in zip((("forward", self.forward), ("backward", self.backward)),
                                            self.plans(schedules)):
            chosen = [kernels.schedule_of(p, None) for p in (kernels.pieces or [None])]
            key = hashlib.sha256("\0".join([which, str(module), *chosen, target]).encode()).hexdigest()
            name = ir.StringAttr(module.body.operations[0].attributes["sym_name"]).value
            loaded.append(cached(f"pair-{key}.tkp", key, lambda path, k=kernels, n=name: k.package(path, n, (target,))))
        return GradientPair(*loaded, outputs=outputs)

    def plans(self, schedules: dict) -> tuple:
        """(the forward's, the backward's) kernels (tilec.build.plan.Kernels): what ``on_cuda``
        packages, and what runs on the CPU model of the GPU in the tests."""
        from ..build.plan import Kernels

        return Kernels.of(self.forward, schedules), Kernels.of(self.backward, schedules)


def _alone(module: ir.Module, fn) -> ir.Module:
    """A module holding a copy of ``fn`` only (what the stages take)."""
    with module.context, ir.Location.unknown():
        single = ir.Module.create()
        fn.operation.clone(ir.InsertionPoint(single.body))
    return single


class Differentiable(torch.autograd.Function):
    """The graph's call as one autograd node: the saving forward, then the backward on demand."""

    @staticmethod
    def forward(ctx, run, names: tuple, outputs: tuple, env: dict, *tensors):
        pair = run.pair()
        with run.context, ir.Location.unknown():
            inputs = dict(zip(names, (t.detach() for t in tensors)))
            if run.stage in ("oracle", "loop"):
                saved = pair.run("forward", inputs, env)
            else:  # the kernels as asked; the statistics they do not return from the loop stage
                saved = run.run_stage(inputs, env)
                if pair.statistics:
                    found = pair.run("forward", inputs, env)
                    saved.update((n, found[n]) for n in pair.statistics)
        ctx.run, ctx.names, ctx.outputs, ctx.env = run, names, outputs, env
        ctx.save_for_backward(*tensors, *(saved[n] for n in pair.saved))
        return tuple(saved[n] for n in outputs)

    @staticmethod
    def backward(ctx, *grads):
        pair = ctx.run.pair()
        held = ctx.saved_tensors
        tensors, saved = held[:len(ctx.names)], held[len(ctx.names):]
        inputs = dict(zip(ctx.names, tensors))
        inputs.update(zip(pair.saved, saved))
        for name, value, grad in zip(ctx.outputs, saved, grads):
            inputs[f"d{name}"] = torch.zeros_like(value) if grad is None else grad.to(value.dtype).contiguous()
        with ctx.run.context, ir.Location.unknown():
            found = pair.run("backward", inputs, ctx.env)
        return (None, None, None, None, *(found[f"d{n}"] if t.dtype.is_floating_point else None
                                          for n, t in zip(ctx.names, tensors)))


def check_precision(stage: str, tensors: list) -> None:
    """f64 tensors run on the oracle only (in f64: executors/precision.py); the other stages
    take the types the graph was compiled for."""
    if stage != "oracle" and any(t.dtype == torch.float64 for t in tensors):
        raise TilecError(f"float64 tensors run at stage='oracle' only (computed in f64 there, for gradcheck); "
                         f"stage='{stage}' takes the dtypes the graph was compiled for")


def wants_gradients(tensors: list) -> bool:
    """Whether a call builds an autograd graph through ``tensors``."""
    return torch.is_grad_enabled() and any(t.requires_grad for t in tensors)
