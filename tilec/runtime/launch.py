"""Loading cubins and launching them through the CUDA driver API (cuda-bindings)."""

from __future__ import annotations

import functools
import math
import os

import torch

from .dims import MAX_PLANS, evaluate_dim


def _check(result):
    err = result[0] if isinstance(result, tuple) else result
    if int(err) != 0:
        raise RuntimeError(f"CUDA driver error {err}")
    return result[1] if isinstance(result, tuple) and len(result) == 2 else result[1:] if isinstance(result, tuple) else None


def target_of(device) -> str:
    """The target tilec compiles for ``device`` (runtime/targets.py; PackageError for a GPU it
    builds for none of)."""
    from .targets import build_target

    return build_target(torch.cuda.get_device_capability(device))


def load_function(kernel, device):
    """(module, {variant: CUfunction}, CTAs resident on the whole device at once) for ``device``;
    the last is what a persistent kernel is launched with, at most."""
    from cuda.bindings import driver

    from .package import PackageError
    from .targets import cubin_target, runs_on

    torch.cuda.init()
    with torch.cuda.device(device):
        torch.zeros(1, device=device)  # makes the primary context current
        capability = torch.cuda.get_device_capability(device)
        if not runs_on(kernel.target, capability):  # the kernel's own target: another GPU's kernel is Kernel.on's
            cubin_target(kernel.package.targets, capability)  # none of the package's runs there: says which to build
            raise PackageError(f"{kernel.name}: its {kernel.target} kernel does not run on a GPU of compute capability "
                               f"{capability[0]}.{capability[1]} (Kernel.on(device) is the package's kernel that does)")
        cubin = kernel.package.cubin(kernel.target)
        module = _check(driver.cuModuleLoadData(cubin))
        smem = kernel.manifest["smem_bytes"]
        attr = driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        functions = {}
        for variant, name in kernel.manifest["variants"].items():
            functions[variant] = _check(driver.cuModuleGetFunction(module, name.encode()))
            _check(driver.cuFuncSetAttribute(functions[variant], attr, smem))
        per_sm = min(_check(driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            f, kernel.manifest["threads"], smem)) for f in functions.values())
        resident = max(1, per_sm) * torch.cuda.get_device_properties(device).multi_processor_count
    return module, functions, resident


def _aligned(inputs) -> bool:
    """Whether every input's rows are whole 16-byte chunks starting 16-byte aligned (cp.async),
    and every vector starts 16-byte aligned (a row program reads a norm's gain 16 bytes at once)."""
    return all(t.dim() < 1 or t.data_ptr() % 16 == 0 and
               (t.dim() < 2 or (t.shape[-1] * t.element_size()) % 16 == 0) for t in inputs)


def mapped_tensor(tensor, entry: dict, env: dict):
    """The tensor a tensor map of the manifest describes: the argument itself, or its row-major
    view (``view``: dims, an input stored [B, S, H, D] read as [B, S, H*D])."""
    from .tensor_map import TensorMapError

    if "view" not in entry:
        return tensor
    shape = [evaluate_dim(d, env) for d in entry["view"]]
    try:
        return tensor.view(shape)
    except RuntimeError:
        raise TensorMapError(f"its rows are read as the row-major view {shape} of its {list(tensor.shape)} "
                             f"elements, which these strides {list(tensor.stride())} do not allow (pass a "
                             f"contiguous tensor)") from None


def check_maps(kernel, inputs: list, output_shapes: list, env: dict) -> None:
    """Refuse, before anything is launched or allocated, a call whose tensors the copy engine
    cannot describe (manifest ``tensor_maps``: a row stride not a multiple of 16 bytes, a view
    the strides do not allow, ...): TensorMapError naming the tensor, the rule and the schedule
    that reads rows of any length. Runs on the tensors' shapes and strides alone (any device)."""
    from .tensor_map import TensorMapError, tiled_arguments

    for (role, n), entry in kernel.mapped:
        try:
            if role == 0:
                tensor = mapped_tensor(inputs[n], entry, env)
                shape, strides, dtype = tensor.shape, tensor.stride(), str(tensor.dtype).removeprefix("torch.")
            else:  # an output: allocated contiguous by the runtime, written through its view if it has one
                shape = [evaluate_dim(d, env) for d in entry["view"]] if "view" in entry else output_shapes[n][0]
                strides = [math.prod(shape[k + 1:]) for k in range(len(shape))]
                dtype = str(output_shapes[n][1]).removeprefix("torch.")
            tiled_arguments(shape, strides, dtype, entry["box"], entry["swizzle"])
        except TensorMapError as err:
            verb, fix = ("writes", "tma-store=false") if role == 1 else ("reads", "consumers=0")
            raise TensorMapError(f"{kernel.name} {verb} {entry['arg']} with the copy engine: {err} (compile with "
                                 f"{fix} for any row length)") from None


def launch(kernel, device, inputs, outputs, plan) -> None:
    """Launch ``kernel`` on ``device``'s current stream with the sizes, grid and outputs of
    ``plan`` (kernel.Plan)."""
    from cuda.bindings import driver

    _, functions, resident = kernel.function(device)
    m = kernel.manifest
    # a copy-engine kernel has one variant; its tensor maps check the rows of what they read
    variant = "aligned" if kernel.mapped or _aligned(inputs) else "unaligned"
    tensors = (inputs, outputs)
    values = [plan.env[where] if role == 2 else tensors[role][where].data_ptr() for role, where in kernel.slots]
    if kernel.workspace:  # a split-K kernel's tiles and counts (workspace.py)
        values += kernel.workspace.pointers(device, plan.grid)
    for (role, n), entry in kernel.mapped:  # by value, after the other arguments
        from .tensor_map import TensorMapError, tensor_map
        try:
            values.append(tensor_map(mapped_tensor(tensors[role][n], entry, plan.env), entry["box"], entry["swizzle"]))
        except TensorMapError as err:
            verb, fix = ("writes", "tma-store=false") if role == 1 else ("reads", "consumers=0")
            raise TensorMapError(f"{kernel.name} {verb} {entry['arg']} with the copy engine: {err} (compile with "
                                 f"{fix} for any row length)") from None
    grid = plan.grid
    if m.get("persistent"):  # CTAs that loop over the tiles: as many as the GPU holds at once, at most
        grid = (min(grid[0], resident), *grid[1:])
    stream = driver.CUstream(torch.cuda.current_stream(device).cuda_stream)
    params = (tuple(values), kernel.arg_types)
    if not dependent_launch(m, device):
        _check(driver.cuLaunchKernel(functions[variant], grid[0], grid[1], grid[2], m["threads"], 1, 1,
                                     m["smem_bytes"], stream, params, 0))
        return
    _check(driver.cuLaunchKernelEx(_config(kernel, grid, stream), functions[variant], params, 0))


def _config(kernel, grid: tuple, stream):
    """The launch configuration of a dependent launch of ``kernel`` (grid, block, shared
    memory, stream and the programmatic-serialization attribute), built once per grid and
    stream: building it took about 20 us of Python a launch."""
    from cuda.bindings import driver

    configs = kernel.launch_configs
    key = (grid, int(stream))
    config = configs.get(key)
    if config is not None:
        return config
    m = kernel.manifest
    config = driver.CUlaunchConfig()
    config.gridDimX, config.gridDimY, config.gridDimZ = grid
    config.blockDimX, config.blockDimY, config.blockDimZ = m["threads"], 1, 1
    config.sharedMemBytes, config.hStream = m["smem_bytes"], stream
    attribute = driver.CUlaunchAttribute()
    attribute.id = driver.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
    attribute.value.programmaticStreamSerializationAllowed = 1
    config.attrs, config.numAttrs = [attribute], 1
    if len(configs) >= MAX_PLANS:  # as many as the plans it serves: keep the newest
        configs.pop(next(iter(configs)))
    configs[key] = config
    return config


def dependent_launch(manifest: dict, device) -> bool:
    """Whether ``manifest``'s kernel may be launched before the grid ahead of it on the stream
    has ended (programmatic dependent launch): only a kernel that waits for that grid before it
    touches global memory (``grid_dependency``, codegen.cuda.GRID_DEPENDENCY), only on sm_90+
    (where the wait is compiled in), and not when TILEC_DEPENDENT_LAUNCH=0 asks for plain launches."""
    if manifest.get("grid_dependency") != "wait at entry" or os.environ.get("TILEC_DEPENDENT_LAUNCH") == "0":
        return False
    return _major(device) >= 9


@functools.lru_cache(maxsize=None)
def _major(device) -> int:
    return torch.cuda.get_device_capability(device)[0]
