"""A loaded kernel: argument checks, output allocation, grid computation and launch."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import torch

from .dims import GRID_LIMITS, MAX_PLANS, _solve_product, evaluate_dim, grid_of, torch_dtype  # noqa: F401
from .package import Package, PackageError
from .workspace import Workspace

@dataclass(frozen=True)
class Plan:
    """What calls at one set of input shapes share: the sizes, the outputs' shapes and
    dtypes, the grid."""
    env: dict
    outputs: tuple
    grid: tuple


class Kernel:
    """A compiled kernel; call it with torch CUDA tensors in the spec's input order (or by name).

    A package holds one kernel per target; a Kernel launches the one of ``target`` (by default
    the one the current GPU runs, else the first), and a call on a GPU that runs another of the
    package's kernels launches that one (``on``)."""

    def __init__(self, package: Package, target: str | None = None, cpu: bool = False):
        self.package = package
        # cpu: this kernel's CUDA text run on the CPU under tilec's model of the GPU (runtime/cpu/),
        # ``cpu_variant`` forcing its aligned or unaligned kernel (default: the GPU's choice),
        # ``cpu_order`` the model's thread order (runtime/cpu/launch.py, ORDERS)
        self.cpu, self.cpu_variant, self.cpu_order = cpu, None, "lowest-first"
        self.target = target or _preferred(package)
        self.manifest = m = package.kernel(self.target)
        self._siblings = {self.target: self}
        # the kernel of each GPU (by index) a call ran on, asked once per GPU: None for one target
        self._by_device = {} if len(package.targets) > 1 and not cpu else None
        self.name = m["kernel"]
        self.inputs = [a for a in m["args"] if a["role"] == "input"]
        self.outputs = [a for a in m["args"] if a["role"] == "output"]
        self.params = m["params"]
        # the launch's argument list, read once from the manifest: (0, n) the n-th input, (1, n)
        # the n-th output, (2, name) a size; then, by value, a tensor map of each mapped tensor
        place = {(role, s["name"]): (k, n) for k, (role, specs) in enumerate((("input", self.inputs),
                                                                              ("output", self.outputs)))
                 for n, s in enumerate(specs)}
        by_name = {name: where for (_, name), where in place.items()}
        self.slots = [(2, a["name"]) if a["role"] == "param" else place[(a["role"], a["name"])] for a in m["args"]]
        self.mapped = [(by_name[e["arg"]], e) for e in m.get("tensor_maps", [])]
        self.workspace = Workspace(m)  # a split-K kernel's (workspace.py): two pointers after the arguments
        self.arg_types = tuple(ctypes.c_longlong if role == 2 else ctypes.c_void_p for role, _ in self.slots) + \
            (ctypes.c_void_p,) * (2 if self.workspace else 0) + (None,) * len(self.mapped)
        self._functions: dict = {}
        self._plans: dict = {}
        self.launch_configs: dict = {}  # (grid, stream) -> a dependent launch's configuration (launch.py)
        self.op = None

    def _bind(self, tensors: list, sizes: dict | None = None) -> dict:
        """The sizes of the call: the shape parameters ``sizes`` gives (those the kernel names),
        then each one an input dim names alone, then one left in a product of known ones
        (T of a [2*T, C] input); every input's shape checked against them."""
        names = set(self.params)
        env = {k: v for k, v in (sizes or {}).items() if k in names}
        for spec, t in zip(self.inputs, tensors):
            where = f"{self.name}: input '{spec['name']}'"
            if not isinstance(t, torch.Tensor):
                raise TypeError(f"{where} must be a torch.Tensor, got {type(t).__name__}")
            if t.dtype != torch_dtype(spec["dtype"]):
                raise TypeError(f"{where} must be {spec['dtype']}, got {t.dtype}")
            if t.dim() != len(spec["dims"]):
                raise ValueError(f"{where} must have {len(spec['dims'])} dims, got shape {tuple(t.shape)}")
            for dim, size in zip(spec["dims"], t.shape):
                if isinstance(dim, str):
                    if env.setdefault(dim, size) != size:
                        raise ValueError(f"{where}: {dim} = {size} here but {env[dim]} elsewhere")
        for spec, t in zip(self.inputs, tensors):
            for dim, size in zip(spec["dims"], t.shape):
                _solve_product(dim, size, env)
        for name, size in self.manifest.get("fixed", {}).items():
            if env.setdefault(name, size) != size:
                raise ValueError(f"{self.name} was compiled for {name} = {size}, got {env[name]}")
        for name, (low, high) in self.manifest.get("ranges", {}).items():
            if name in env and not low <= env[name] <= high:  # a slice past its buffer's end: out of bounds
                raise ValueError(f"{self.name} is defined (and proved) for {name} in [{low}, {high}], got "
                                 f"{name} = {env[name]}")
        missing = sorted(names - set(env))
        if missing:
            raise ValueError(f"{self.name}: its inputs do not give the size of {', '.join(missing)} (they name it "
                             f"only in a product with another unknown one); pass sizes={{'{missing[0]}': ...}}")
        for spec, t in zip(self.inputs, tensors):
            expected = tuple(evaluate_dim(d, env) for d in spec["dims"])
            if tuple(t.shape) != expected:
                raise ValueError(f"{self.name}: input '{spec['name']}' has shape {tuple(t.shape)}, expected {expected}")
        return env

    def __call__(self, *args, sizes: dict | None = None, **kwargs):
        """Launch on ``args`` (the inputs in manifest order, or by name); ``sizes``: shape
        parameters the inputs do not give (B and T of a [B*T, C] input)."""
        if self._by_device is not None:  # several targets: the package's kernel for the call's GPU
            device = next((t.device for t in [*args, *kwargs.values()] if isinstance(t, torch.Tensor)), None)
            if device is not None and device.type == "cuda":
                kernel = self._by_device.get(device.index)
                if kernel is None:
                    kernel = self._by_device[device.index] = self.on(device)
                if kernel is not self:
                    return kernel._call(*args, sizes=sizes, **kwargs)
        return self._call(*args, sizes=sizes, **kwargs)

    def _call(self, *args, sizes: dict | None = None, **kwargs):
        """``__call__`` once the kernel is the one of the call's GPU."""
        tensors = list(args) + [kwargs.pop(spec["name"]) for spec in self.inputs[len(args):] if spec["name"] in kwargs]
        if kwargs or len(tensors) != len(self.inputs):
            names = ", ".join(s["name"] for s in self.inputs)
            raise TypeError(f"{self.name} takes the inputs ({names})")
        # the checks and sizes of a call depend only on its inputs' shapes, dtypes, devices and
        # strides (and the sizes given): a call like an earlier one reuses its plan (the launch's Python time)
        given = tuple(sorted((k, v) for k, v in (sizes or {}).items() if k in self.params))
        key = tuple((t.shape, t.dtype, t.device, t.stride()) if isinstance(t, torch.Tensor) else None
                    for t in tensors) + given
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plan(tensors, dict(given))
            if len(self._plans) >= MAX_PLANS:
                self._plans.pop(next(iter(self._plans)))
            self._plans[key] = plan
        device = tensors[0].device if tensors else torch.device("cuda")
        outs = self._fresh_outputs(plan, device)
        self._launch(device, tensors, outs, plan)
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _fresh_outputs(self, plan: "Plan", device) -> list:
        if self.cpu:  # NaN (integers: 0) where no thread writes
            return [torch.full(shape, float("nan")).to(dtype) if dtype.is_floating_point else
                    torch.zeros(shape, dtype=dtype) for shape, dtype in plan.outputs]
        return [torch.empty(shape, dtype=dtype, device=device) for shape, dtype in plan.outputs]

    def _launch(self, device, tensors: list, outs: list, plan: "Plan") -> None:
        if self.cpu:
            from .cpu.launch import launch_cpu
            launch_cpu(self, tensors, outs, plan, self.cpu_variant, self.cpu_order)
            return
        from .launch import launch
        launch(self, device, tensors, outs, plan)

    def _check_device(self, name: str, t, device) -> None:
        if self.cpu:
            if t.device.type != "cpu":
                raise ValueError(f"{self.name}: input '{name}' must be on the CPU (this is the kernel's CPU run), "
                                 f"got {t.device}")
            return
        if t.device.type != "cuda":
            raise ValueError(f"{self.name}: input '{name}' must be on cuda, got {t.device} (Kernel.on('cpu') runs "
                             f"the kernel's CUDA on the CPU, slowly, under tilec's model of the GPU)")

    def _plan(self, tensors: list, sizes: dict | None = None) -> "Plan":
        """Check a call's inputs (raising on the first problem) and work out its sizes, its
        outputs' shapes and its grid."""
        env = self._bind(tensors, sizes)
        device = tensors[0].device if tensors else torch.device("cuda")
        for spec, t in zip(self.inputs, tensors):
            self._check_device(spec["name"], t, device)
            if t.device != device:
                raise ValueError(f"{self.name}: input '{spec['name']}' is on {t.device}, the others on {device}")
            if not t.is_contiguous():
                raise ValueError(f"{self.name}: input '{spec['name']}' must be contiguous (call .contiguous())")
        outputs = tuple((tuple(evaluate_dim(d, env) for d in s["dims"]), torch_dtype(s["dtype"])) for s in self.outputs)
        if self.mapped:  # the copy engine's rules, checked once per input shapes and strides
            from .launch import check_maps
            check_maps(self, tensors, list(outputs), env)
        return Plan(env, outputs, grid_of(self.manifest, env))

    def on(self, device) -> "Kernel":
        """The Kernel of this package that runs on ``device``: the kernel of the target its
        compute capability runs (runtime/targets.py), PackageError naming both when none does;
        on "cpu", this kernel's CUDA text run under tilec's model of the GPU (runtime/cpu/)."""
        from .targets import cubin_target

        if torch.device(device).type == "cpu":  # the kernel's CUDA text under tilec's model of the GPU
            return self if self.cpu else Kernel(self.package, self.target, cpu=True)
        target = cubin_target(self.package.targets, torch.cuda.get_device_capability(device))
        if target not in self._siblings:
            sibling = self._siblings[target] = Kernel(self.package, target)
            sibling._siblings, sibling._by_device = self._siblings, self._by_device
        return self._siblings[target]

    def function(self, device):
        """The CUfunction for ``device`` (module loaded once per device)."""
        if device.index not in self._functions:
            from .launch import load_function
            self._functions[device.index] = load_function(self, device)
        return self._functions[device.index]


def _preferred(package: Package) -> str:
    """The target whose kernel a Kernel of ``package`` launches unless a call's GPU asks for
    another: the one the current GPU runs, else (no GPU, or none runs there: the call says so)
    the first."""
    targets = package.targets
    if len(targets) > 1 and torch.cuda.is_available():
        from .targets import cubin_target

        try:
            return cubin_target(targets, torch.cuda.get_device_capability())
        except PackageError:
            pass
    return targets[0]


__all__ = ["Kernel", "PackageError"]
