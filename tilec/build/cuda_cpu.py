"""A tile kernel's CUDA, exactly as a package ships it, run on the CPU (``tilec run --stage
cuda``, the tests): the emitted source and the launch manifest packaging writes, launched by
the runtime's CPU model of the GPU (tilec/runtime/cpu/), so the text's index, address, mask
and synchronisation arithmetic runs against the oracle where there is no GPU.

    outputs = run_cuda(build, signature(fn), inputs, env)        # build: a TileBuild
"""

from __future__ import annotations

from ..codegen.cuda import emit_cuda
from ..diagnostics import TilecError
from ..cache import folder
from ..runtime.cpu.launch import CpuRunError, keep_compiler_cache, program
from ..runtime.cpu.text import CpuModelError
from ..runtime.kernel import Kernel
from ..runtime.package import Package
from .packaging import launch_manifest


class CpuRefusal(TilecError):
    """The CPU run could not be made: no C++ compiler, a build that does not compile, or what
    the kernel does has no rule in the model (not a failure of the kernel)."""


def _keep_cache() -> None:
    """The C++ compiler's cache in tilec's, kept across processes (none where tilec's cache is off)."""
    lasting = folder("cpu")
    if lasting is not None:
        keep_compiler_cache(lasting)


def build_cpu_program(source: str) -> None:
    """Build the CPU program of CUDA text ``source`` now (runtime/cpu/launch.py ``program``, kept
    for the process), in the compiler cache cpu_kernel uses; a failure is left for the run to say."""
    _keep_cache()
    try:
        program(source)
    except (CpuRunError, CpuModelError):
        pass


def cpu_kernel(build, variant: str | None = None, kernel=None) -> Kernel:
    """The CPU run of ``build``'s kernel as packaging would ship it (``kernel``: its emitted
    CUDA, where the caller has it, e.g. a deliberately altered one)."""
    kernel = kernel or emit_cuda(build.tile)
    _keep_cache()
    entry = launch_manifest(build, build.target, kernel)
    package = Package({"kernels": {build.target: entry}}, {entry["source"]: kernel.source.encode()})
    cpu = Kernel(package, build.target, cpu=True)
    cpu.cpu_variant = variant
    return cpu


def run_cuda(build, sig, inputs: dict, env: dict, variant: str | None = None, kernel=None,
             order: str = "lowest-first") -> dict:
    """Every output of ``build``'s kernel, its CUDA run on the CPU over ``inputs`` (by name), the
    model's scheduler trying the threads in ``order`` (runtime/cpu/launch.py, ORDERS)."""
    cpu = cpu_kernel(build, variant, kernel)
    cpu.cpu_order = order
    sizes = {k: v for k, v in env.items() if k in cpu.params}
    try:
        outs = cpu(**{a["name"]: inputs[a["name"]] for a in cpu.inputs}, sizes=sizes)
    except CpuRunError as err:
        raise (CpuRefusal if err.refused else TilecError)(f"the kernel's CUDA on the CPU model of the GPU: {err}") from None
    outs = outs if isinstance(outs, tuple) else (outs,)
    return {a["name"]: out for a, out in zip(cpu.outputs, outs)}
