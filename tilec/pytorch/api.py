"""``tilec.compile``: PyTorch code in, a callable backed by tilec's stages out.

    graph = tilec.compile(model, (x,))            # torch.export -> linalg -> ta
    y = graph(x)                                  # runs the loop stage on the CPU
    print(graph.ta)                               # the raised ta IR

An op tilec has no rule for is reported with the user's source line; by
default the whole graph then stays in torch (a warning says why), with
``strict=True`` it is an error.
"""

from __future__ import annotations

import warnings

import torch

from ..dialects import param_ranges
from ..diagnostics import TilecError
from .dynamic import bind_sizes, dynamic_dims, evaluate_shape, raise_dynamic
from .support import stand_in, Unsupported
from .fallback import TilecFallbackWarning, failure_reason  # noqa: F401 - the API's names
from tilec.diagnostics import check_output
from tilec.dialects import context
from .importer import exportable, exported, import_torch, state_of
from .partition import partition
from .. import cache
from ..build.plan import Kernels
from ..executors.oracle import evaluate
from ..runtime import load, PackageError
from ..runtime.launch import target_of
from ..signature import signature
from ..tune.db import tuned
from ..verify.report import Report
from .training import Differentiable, Pair, check_precision, wants_gradients
from ..executors.precision import precision_for

STAGES = ("oracle", "loop", "tile", "cuda")


class CompiledGraph:
    """A torch function raised to ta, run through one of tilec's CPU stages."""

    def __init__(self, fn, example_inputs: tuple, stage: str, strict: bool, name: str, schedule: str = "",
                 partition_rest: bool = True, dynamic=None, replay: bool = True):
        if stage not in STAGES:
            raise ValueError(f"stage must be one of {', '.join(STAGES)}, not {stage!r}")
        self.fn, self.stage, self.fallback_reason, self.name = fn, stage, None, name
        self.schedule, self._loaded, self.partitioned, self._kernels = schedule, None, None, None
        self.strict, self.no_kernels = strict, None  # why no CUDA kernels take the graph, once found
        self.replay, self._replayed = replay, None  # the kernels' calls replayed as CUDA graphs (runtime/replay.py)
        self._whole_kernels = None  # whether kernels take the graph whole (None: not tried yet)
        self.dynamic = dynamic  # dynamic.DynamicDims: the dims the graph takes at any size (None: static)
        self.partition_rest = partition_rest and dynamic is None  # False for a region: not partitioned again
        self._programs = {}  # input shapes -> the loop stage JIT-ed once (tilec.executors.loop_runner.LoopProgram)
        self._inputs = None  # the ta function's input specs (signature), once read
        self._training, self._why_no_pair, self.no_backward = None, None, None  # training.py's pair, once built
        self._gradient_pair, self._why_no_cuda_pair = None, None  # its kernels on CUDA, once built
        self.shapes = [tuple(t.shape) for t in example_inputs]
        self._layouts = [(t.shape, t.stride(), t.dtype) for t in example_inputs]  # to trace regions with
        self._state = lambda: state_of(fn)
        self.context = context()
        with self.context, torch.no_grad():
            try:
                self.module, self.graph = _imported(fn, tuple(example_inputs), name, dynamic)
            except Unsupported as err:
                message = f"{err.op_name}: {err.reason}"
                if strict:
                    raise TilecError(f"tilec cannot compile '{err.op_name}': {err.reason}", err.loc) from None
                where = f"{err.loc}: " if err.loc else ""
                self.fallback_reason, self.module, self.graph = f"{where}{message}", None, None
                if self.partition_rest:
                    self._partition()
                regions = self.regions
                what = f"tilec compiles {len(regions)} region(s) of this graph and leaves the rest to torch" \
                    if regions else "tilec leaves this graph to torch"
                warnings.warn(f"{where}{what}: {message}", TilecFallbackWarning, stacklevel=3)
            except TilecError as err:  # a graph not generic in its dynamic dims
                if strict or dynamic is None:
                    raise
                self.fallback_reason, self.module, self.graph = err.message, None, None
                warnings.warn(f"tilec leaves this graph to torch: {err.message}", TilecFallbackWarning, stacklevel=3)

    def _partition(self) -> None:
        """Split the graph into regions tilec raises and the ops between them (partition.py)."""
        with self.context, torch.no_grad():
            wrapped, example, _ = exportable(self.fn, tuple(stand_in(*layout) for layout in self._layouts))
            self.partitioned = partition(wrapped, example, self._region_graph)

    def _region_graph(self, module, inputs: tuple, name: str) -> "CompiledGraph":
        """A region of this graph compiled on its own (at this graph's stage and schedule), not
        partitioned again."""
        return CompiledGraph(module, inputs, self.stage, False, name, self.schedule, partition_rest=False,
                             replay=self.replay)

    def _in_regions(self) -> bool:
        """Whether calls that need kernels (the tile stage, CUDA) go through regions: the graph
        raised whole, but no split into kernels takes it (an attention among other kernels:
        tilec.graph.split places one op at a time, and the attention's pieces lower only together).
        Then, unless ``strict``, it is partitioned as a graph that does not raise whole is
        (attention stays in torch), each region building its own kernels, and a
        TilecFallbackWarning says why (once)."""
        if self.partitioned is not None:
            return True
        if self._whole_kernels is not None or not self.partition_rest:
            return False
        try:
            self.kernels()
            self._whole_kernels = True
        except TilecError as err:
            if self.strict:
                raise
            self._whole_kernels = False
            self._partition()
            if not self._leaves_ops_to_torch():  # one region of the whole graph: nothing gained
                self.partitioned = None
                return False
            warnings.warn(f"no kernels take the whole graph '{self.name}', tilec compiles {len(self.regions)} "
                          f"region(s) of it and leaves the rest to torch: {err.message}",
                          TilecFallbackWarning, stacklevel=4)
        return self.partitioned is not None

    def _leaves_ops_to_torch(self) -> bool:
        return self.partitioned is not None and any(
            n.op == "call_function" and n.target.__module__ != "_operator" for n in self.partitioned.graph.nodes)

    @property
    def regions(self) -> list["CompiledGraph"]:
        """The compiled regions of a graph tilec raised in parts (empty otherwise)."""
        if self.partitioned is None:
            return []
        return [m.graph_ for m in self.partitioned.children() if hasattr(m, "graph_")]

    @property
    def ta(self) -> str:
        """The ta IR of the graph ('' when it stays in torch)."""
        return str(self.module) if self.module is not None else ""

    def __call__(self, *args):
        params = list(self._state().values())
        training = wants_gradients(params + list(args))  # the parameters kept in autograd's graph
        if self.module is None and self.partitioned is not None:
            return self.partitioned(*(t if training else t.detach() for t in params), *args)
        if self.module is None:
            return self.fn(*args)
        state = [t.detach() for t in params]
        check_precision(self.stage, list(args))
        env = self._sizes(state, list(args))
        if (self.stage in ("tile", "cuda") or any(t.is_cuda for t in args)) and self._in_regions():
            return self.partitioned(*(params if training else state), *args)
        if training:
            return self._differentiable(params, list(args), env)
        # views: the ta function takes its inputs without size-1 dims, and with leading dims
        # every op treats alike merged ([B, T, C] as [B*T, C]: merge_rows.py)
        tensors = [_taken(t).reshape(shape) for t, shape in zip(state + [a.detach() for a in args], self._arg_shapes(env))]
        if any(t.is_cuda for t in args):  # the graph's kernels, built once (cached) and launched
            kernels = self._cuda_kernels(args[0].device)
            if kernels is None:
                return self.fn(*args)
            run = self._replay_of(kernels)
            results = run(*tensors, sizes=env) if env else run(*tensors)
            results = list(results) if isinstance(results, tuple) else [results]
        else:
            outputs = self.run_stage(dict(zip(self.graph.state_names + self.graph.input_names, tensors)), env)
            results = [outputs[n] for n in self.graph.output_names]
        results = [r.reshape(evaluate_shape(shape, env)) for r, shape in zip(results, self.graph.output_shapes)]
        return results[0] if len(results) == 1 else tuple(results)

    def _differentiable(self, params: list, args: list, env: dict):
        """A call that needs gradients: the saved pair (training.py) as one autograd node, on the
        CPU by the graph's stage, on CUDA as the pair's kernels; where ta-grad cannot
        differentiate the graph, or no kernels take the pair on CUDA, the call runs in torch (a
        TilecFallbackWarning says why, once)."""
        cuda = any(t.is_cuda for t in args)
        node = self._cuda_pair(args[0].device) if cuda and self.pair() is not None else None
        if self.pair() is None or (cuda and node is None):
            if self.no_backward is None:
                self.no_backward = self._why_no_pair or self._why_no_cuda_pair
                warnings.warn(f"a call of '{self.name}' that needs gradients runs in torch: {self.no_backward}",
                              TilecFallbackWarning, stacklevel=3)
            return self.fn(*args)
        tensors = [_taken(t).reshape(shape) for t, shape in zip(params + args, self._arg_shapes(env))]
        if cuda:  # by name, in the order the forward package takes them
            named = dict(zip(self.graph.state_names + self.graph.input_names, tensors))
            results = node(*[named[n] for n in node.inputs], sizes=env)
            results = list(results) if isinstance(results, tuple) else [results]
        else:
            results = Differentiable.apply(self, tuple(self.graph.state_names + self.graph.input_names),
                                           tuple(self.graph.output_names), env, *tensors)
        results = [r.reshape(evaluate_shape(shape, env)) for r, shape in zip(results, self.graph.output_shapes)]
        return results[0] if len(results) == 1 else tuple(results)

    def _cuda_pair(self, device):
        """The training pair's kernels for ``device`` (runtime.training.GradientPair), built once;
        None (the reason kept) where no kernels take it, unless ``strict``."""
        if self._gradient_pair is None and self._why_no_cuda_pair is None:
            with self.context, ir_location():
                try:
                    self._gradient_pair = self.pair().on_cuda(_schedules(self.schedule), target_of(device),
                                                              _cached_package, list(self.graph.output_names))
                except TilecError as err:
                    if self.strict:
                        raise
                    self._why_no_cuda_pair = f"no CUDA kernels take its backward: {err.message}"
        return self._gradient_pair

    def pair(self):
        """The graph's training pair (training.Pair), built on first need; None (the reason kept)
        when ta-grad cannot differentiate the graph, unless ``strict``."""
        if self._training is None and self._why_no_pair is None:
            with self.context, ir_location():
                try:
                    self._training = Pair(self.module, self.stage)
                except TilecError as err:
                    if self.strict:
                        raise
                    self._why_no_pair = err.message
        return self._training

    def _sizes(self, state: list, args: list) -> dict:
        """The sizes of the graph's dynamic dims in a call (none for a static graph), its input
        shapes checked."""
        if self.dynamic is not None:
            labels = [f"state tensor '{n}'" for n in self.graph.state_names] + [f"input {k}" for k in range(len(args))]
            env = bind_sizes(self.graph.input_shapes, state + args, labels)
            ranges = param_ranges(self.module.body.operations[0]) if self.module is not None else {}
            for name, (low, high) in ranges.items():
                if not low <= env.get(name, low) <= high:  # past a sliced buffer's end: not defined there
                    raise TilecError(f"dynamic dim {name} = {env[name]} is outside [{low}, {high}], the sizes "
                                     f"this graph was compiled for (torch.export's range)")
            return env
        shapes = [tuple(t.shape) for t in args]
        if shapes != self.shapes:
            raise TilecError(f"compiled for input shapes {self.shapes}, called with {shapes} (pass dynamic_shapes= "
                             f"to compile it for other sizes)")
        return {}

    def _arg_shapes(self, env: dict) -> list:
        """The shapes the ta function takes its inputs in, at the call's sizes ``env``."""
        if self._inputs is None:  # read once: a call evaluates the dims
            from ..signature import signature

            self._inputs = signature(self.module.body.operations[0]).inputs
        return [list(s.shape(env)) for s in self._inputs]

    def kernels(self):
        """The graph's kernels (tilec.build.plan.Kernels): one, or the sequence a graph no one
        kernel takes is split into; computed once."""
        if self.module is None:
            raise TilecError(f"this graph stays in torch ({self.fallback_reason}); it has no kernel")
        if self._kernels is None:
            with self.context, ir_location():
                self._kernels = Kernels.of(self.module, _schedules(self.schedule), self._boundary())
        return self._kernels

    def _boundary(self) -> str | None:
        """How tensors between kernels are stored: in the 16-bit type of the graph's inputs (as torch
        eager stores them; a bf16 GEMM then reads a bf16 operand), f32 for an f32 graph."""
        dtypes = {str(s.dtype) for s in signature(self.module.body.operations[0]).inputs}
        return "bf16" if "torch.bfloat16" in dtypes else "f16" if "torch.float16" in dtypes else None

    def verify(self, schedule="", targets: tuple = ()):
        """The Z3 verification report of the graph's kernels against its ta (tilec.verify.Report);
        a graph of several kernels also gets the split read back against its ta."""
        import hashlib

        kernels = self.kernels()
        report = Report(f"{self.name} (PyTorch)", hashlib.sha256(self.ta.encode()).hexdigest(),
                        _schedule_text(schedule or self.schedule))
        with self.context, ir_location():
            report.results += _with(kernels, schedule).verify(self.name, tuple(targets))
        return report

    def package(self, path: str, schedule="", targets: tuple = (),
                compiler: str = "nvrtc", verify: bool = True) -> dict:
        """Write the graph's CUDA kernels to ``path`` (load it with tilec.runtime.load on a GPU
        machine): a kernel package (.tkp) when one kernel takes the graph, else a graph package
        of one per kernel, launched in order; each holds a kernel per target of ``targets``.
        ``schedule``: one schedule, or a dict of one per kernel form ("contraction", "online",
        "rows") or kernel ("k0", ...), a key prefixed "sm_90a:" for that target's kernel alone. With ``verify`` (the default) the Z3 report is
        checked first (no package on a failure; ``verify=False`` builds it unverified) and shipped
        inside. Returns the manifest."""
        check_output(str(path), "package")  # a name the system refuses is refused before any work
        kernels = _with(self.kernels(), schedule)
        with self.context, ir_location():
            report = None
            if verify:
                report = self.verify(schedule, targets)
                if report.status():
                    raise TilecError(f"{self.name}: verification failed ({report.summary()}); no package written")
            return kernels.package(path, self.name, tuple(targets), compiler, report)

    def _cuda_kernels(self, device):
        """The graph's CUDA kernel(s), or None when none take it: then, unless ``strict``, the graph
        runs in torch on CUDA and a TilecFallbackWarning says why (once)."""
        if self.no_kernels is None:
            try:
                return self._kernel(device)
            except TilecError as err:
                if self.strict:
                    raise
                self.no_kernels = err.message
                warnings.warn(f"tilec builds no CUDA kernels for '{self.name}', it runs in torch: {err.message}",
                              TilecFallbackWarning, stacklevel=3)
        return None if self.no_kernels else self._kernel(device)

    def _replay_of(self, kernels):
        """``kernels`` as the calls run them: replayed as captured CUDA graphs unless ``replay``
        is off (tilec.runtime.Replay: one graph per set of input shapes and addresses)."""
        if not self.replay:
            return kernels
        if self._replayed is None or self._replayed.fn is not kernels:
            from tilec.runtime.replay import Replay

            self._replayed = Replay(kernels)
        return self._replayed

    def _kernel(self, device):
        """The graph's CUDA kernel(s) for ``device``: a package in tilec's kernel cache, keyed by
        the ta IR, the schedules and the target, built here on first use."""
        if self._loaded is not None:
            return self._loaded
        import hashlib

        target = target_of(device)
        kernels = self.kernels()
        tuned = lambda text: self._tuned(text, target)  # noqa: E731
        chosen = [kernels.schedule_of(p, tuned) for p in (kernels.pieces or [None])]
        key = hashlib.sha256("\0".join([self.ta, *chosen, target]).encode()).hexdigest()

        def build(path: str) -> None:
            with self.context, ir_location():
                kernels.package(path, self.name, (target,), tuned=tuned)

        self._loaded = _cached_package(f"graph-{key}.tkp", key, build)
        return self._loaded

    @staticmethod
    def _tuned(text: str, target: str) -> str:
        """The fastest proved schedule ``tilec tune`` recorded for a kernel's ta IR (the graph's,
        written to a file, ``tilec tune GRAPH.ta.mlir``) on ``target``; '' (the default) without one."""
        best = tuned(text, {}, target)
        return best["schedule"] if best else ""

    def run_stage(self, inputs: dict, env: dict) -> dict:
        """The graph's outputs on named CPU tensors, by its stage."""
        from torch_mlir import ir

        with self.context, ir.Location.unknown():
            fn = self.module.body.operations[0]
            if self.stage == "oracle":  # f64 tensors computed in f64 (gradcheck's precision)
                with precision_for(inputs.values()):
                    return evaluate(fn, inputs, env)
            if self.stage == "loop":  # lowered and JIT-ed on the first call only (of each static shape)
                key = tuple(tuple(t.shape) for t in inputs.values()) if self.dynamic is None else "dynamic"
                if key not in self._programs:
                    from ..lowering.driver import to_loops
                    from ..executors.loop_runner import LoopProgram

                    self._programs[key] = LoopProgram(to_loops(self.module), signature(fn))
                return self._programs[key](inputs, env)
            # the tile interpreter, or ("cuda") each kernel's CUDA under the CPU model of the GPU, kernel after kernel
            return self.kernels().run(inputs, env=env, cuda=self.stage == "cuda")


def _cached_package(name: str, key: str, build):
    """The package ``name`` of the kernel cache (tilec/cache.py), loaded from a private copy of
    its sealed entry; without one that loads, ``build(path)`` writes it, and it is kept.

        kernel = _cached_package(f"graph-{key}.tkp", key, lambda path: kernels.package(path, ...))
    """
    import tempfile
    from pathlib import Path

    again = "building it again"
    with tempfile.TemporaryDirectory() as folder:  # a copy only this process reads: what was checked is loaded
        path = Path(folder) / name
        data = cache.read("kernels", name, key, again)
        if data is not None:
            path.write_bytes(data)
            try:
                return load(str(path), register_op=False)
            except PackageError as err:
                cache.discard("kernels", name, f"is not a readable package ({str(err).split(': ', 1)[-1]})", again)
        build(str(path))
        cache.write("kernels", name, key, path.read_bytes())
        return load(str(path), register_op=False)


def _taken(t: torch.Tensor) -> torch.Tensor:
    """A tensor as the ta function takes it: a boolean one (a mask) as bf16 0/1 (support.io_type)."""
    return t.to(torch.bfloat16) if t.dtype == torch.bool else t


def ir_location():
    from torch_mlir import ir

    return ir.Location.unknown()


def _schedules(schedule) -> dict:
    """A schedule per kernel form: ``schedule`` a dict of them, or one for every kernel ('*')."""
    return dict(schedule) if isinstance(schedule, dict) else {"*": schedule} if schedule else {}


def _schedule_text(schedule) -> str:
    if isinstance(schedule, dict):
        return "; ".join(f"{k}: {v}" for k, v in sorted(schedule.items())) or "default"
    return schedule or "default"


def _with(kernels, schedule):
    """``kernels`` under ``schedule`` (when given) instead of the graph's own."""
    from dataclasses import replace

    return replace(kernels, schedules=_schedules(schedule)) if schedule else kernels


def _imported(fn, example: tuple, name: str, dynamic=None):
    """(ta module, Graph) of ``fn``: from the graph cache when it was raised before (cache.py:
    a graph module by its code, any other function by the graph torch.export makes of it),
    else imported and raised (for every size of the ``dynamic`` dims: dynamic.py), and kept there."""
    from . import cache

    key, program = cache.graph_key(fn, example, name), None
    if key is None:  # a function or module: its graph is known once exported
        program = exported(fn, example)
        key = cache.program_key(program[0], state_of(fn), example, name)
    if dynamic is not None:
        key = cache.with_dynamic(key, dynamic)
    hit = cache.load(key)
    if hit is not None:
        return hit
    if dynamic is not None:
        module, graph = raise_dynamic(fn, example, dynamic, name, program)
    else:
        module, graph = import_torch(fn, example, name, program)
    cache.store(key, module, graph)
    return module, graph


def compile(fn, example_inputs, *, stage: str = "loop", strict: bool = False, name: str = "graph",
            schedule: str = "", dynamic_shapes=None, replay: bool = True) -> CompiledGraph:
    """Raise ``fn`` (an nn.Module or a function of tensors) at ``example_inputs`` into ta.

    On CPU tensors ``stage`` picks how calls run: "oracle" (ta with torch), "loop" (loop IR
    through MLIR's ExecutionEngine), "tile" (the tile interpreter) or "cuda" (the kernels' CUDA
    text on the CPU model of the GPU, tilec/runtime/cpu). On CUDA tensors the
    graph's kernels (one, or the sequence a graph no one kernel takes is split into) are
    built under ``schedule`` (one, or a dict per kernel form or kernel) and launched through
    tilec.runtime.

    ``dynamic_shapes`` (torch.export's: per example input None or {dim: torch.export.Dim})
    names dims the graph takes at any size: one ta function, loop program and set of kernels
    for all of them (tilec/pytorch/dynamic.py).

    ``replay`` (on CUDA): the kernels' calls run as captured CUDA graphs, one per set of input
    shapes and addresses, each call's results fresh tensors (tilec.runtime.Replay; off with
    ``replay=False`` or ``TILEC_REPLAY=0``).
    """
    if not callable(fn):
        raise TypeError(f"tilec.compile takes an nn.Module or a function of tensors, got {type(fn).__name__}")
    example_inputs = tuple(example_inputs)
    for k, t in enumerate(example_inputs):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"tilec.compile: example input {k} ({type(t).__name__}) is not a tensor (the graph "
                            f"is traced at the example tensors' shapes and dtypes)")
    dynamic = dynamic_dims(dynamic_shapes, example_inputs) if dynamic_shapes is not None else None
    return CompiledGraph(fn, example_inputs, stage, strict, name, schedule, dynamic=dynamic, replay=replay)
