"""Running a package's kernel on the CPU: its CUDA text, built as C++ against tilec's model of
the GPU (include/), launched as the GPU runtime launches it.

    kernel = tilec.runtime.load("gemm.tkp").on("cpu")
    c = kernel(a, b)                  # torch CPU tensors; slow: for testing what ships

The arguments, sizes, grid, tensor maps and the aligned/unaligned variant come from the
manifest by the same code as on the GPU (runtime/kernel.py, runtime/tensor_map.py); outputs
start as NaN (zero for integers) so that an element no thread writes shows. A persistent
kernel is launched with ``RESIDENT`` CTAs, so each loops over several tiles. The build is a
program per CUDA text (cached for the process); a launch is one run of it, bounded by
``TILEC_CPU_TIMEOUT`` seconds (default 600), confined (include/tcpu_sandbox.h: memory and its
own two files; any other system call kills it). A fault, a deadlock, a forbidden system call or
an instruction with no model is CpuRunError with the model's one line (CTA, thread, what).

The C++ compiler is ziglang's clang (the cuda and cpu extras have it), with
its cache in a folder of this process's, or the one ``TILEC_CXX`` names. The model's headers
use C's library alone, so no C++ library is built or linked.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

from ..launch import _aligned, mapped_tensor
from ..tensor_map import tiled_arguments
from .source import CpuModelError, cpu_source

UNMODELLED = 5                       # the program's exit status where the model has no rule (tcpu_main.h)
RESIDENT = 3                         # CTAs a persistent kernel is launched with on the CPU
INCLUDE = Path(__file__).parent / "include"
_DIR: list = []  # this process's folder for the programs, compiler cache and launches (removed at exit)
_LASTING: list = []  # a folder the C++ compiler keeps its cache in across processes, where one is given


class CpuRunError(RuntimeError):
    """A CPU run that did not give the kernel's outputs: ``refused`` when the run could not be
    made (no C++ compiler, a build that does not compile, an instruction or a form the model has
    no rule for), else the kernel failed (a fault, a deadlock, a forbidden system call, a timeout)."""

    def __init__(self, message: str, refused: bool = False):
        super().__init__(message)
        self.refused = refused


def _workdir() -> Path:
    """This process's private folder, made at its first CPU run and removed when it exits."""
    if not _DIR:
        _DIR.append(tempfile.mkdtemp(prefix="tilec-cpu-"))
        atexit.register(shutil.rmtree, _DIR[0], True)
    return Path(_DIR[0])


def keep_compiler_cache(path) -> None:
    """Let ziglang keep its cache in ``path`` across processes (tilec's cache root, ``cpu/``, or
    ``$TILEC_CPU_CACHE_DIR``): the C library it builds for the first program (about 50 MB,
    3-10 s), so a later process does not build it again (each kernel's program is compiled in
    every process that runs it: 1-11 s at -O1). Without it, the cache lives in this process's
    folder and goes with it."""
    _LASTING[:] = [str(path)]


def compiler() -> tuple[list[str], dict]:
    """(the C++ compiler command, its environment): $TILEC_CXX, else ziglang's clang, its cache
    where ``keep_compiler_cache`` put it or in this process's own folder, and no C++ library
    linked (the model needs C's alone)."""
    given = os.environ.get("TILEC_CXX")
    if given:
        return given.split(), dict(os.environ)
    try:
        import ziglang  # noqa: F401
    except ImportError:
        raise CpuRunError("running CUDA on the CPU needs a C++ compiler: pip install 'tilec[cuda]' (or [cpu]: ziglang), "
                          "or name one in TILEC_CXX", refused=True) from None
    cache = _LASTING[0] if _LASTING else str(_workdir() / "zig")
    return [sys.executable, "-m", "ziglang", "c++", "-nostdlib++"], \
        {**os.environ, "ZIG_GLOBAL_CACHE_DIR": cache, "ZIG_LOCAL_CACHE_DIR": cache}


@functools.lru_cache(maxsize=32)
def program(cuda: str) -> Path:
    """The CPU program of CUDA text ``cuda`` (built once per process)."""
    source = cpu_source(cuda)
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    exe = _workdir() / f"k{digest}"
    cpp = exe.with_suffix(".cpp")
    cpp.write_text(source)
    command, env = compiler()
    cmd = [*command, "-std=c++17", "-O1", "-w", "-fno-exceptions", "-fno-rtti", "-fno-threadsafe-statics", "-I", str(INCLUDE), "-o", str(exe),
           str(cpp)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise CpuRunError(f"the C++ compiler ({cmd[0]}) did not run: {err}", refused=True) from None
    if done.returncode:
        raise CpuRunError(f"the CPU build of the kernel's CUDA does not compile:\n{done.stderr[-3000:]}", refused=True)
    return exe


def _words(*values) -> bytes:
    return struct.pack(f"<{len(values)}q", *values)


def _map_words(tensor: torch.Tensor, entry: dict) -> list[int]:
    """Words 1..14 of include/tcpu_ptx.h's tensor map (word 0, the address, is the buffer's)."""
    dtype = str(tensor.dtype).removeprefix("torch.")
    args = tiled_arguments(tensor.shape, tensor.stride(), dtype, entry["box"], entry["swizzle"])
    size = tensor.element_size()
    rank = len(args.dims)
    dims = list(args.dims) + [1] * (5 - rank)
    strides = [size, *args.strides] + [0] * (5 - rank)
    box = sum(b << (9 * i) for i, b in enumerate(args.box))
    return [rank, size, args.swizzle, *dims, *strides, box]


ORDERS = ("lowest-first", "highest-first")  # the thread orders the model's scheduler runs in


def launch_cpu(kernel, inputs: list, outputs: list, plan, variant: str | None = None,
               order: str = "lowest-first") -> None:
    """Run ``kernel``'s (runtime.Kernel) CUDA on the CPU over ``inputs`` into ``outputs`` (CPU
    tensors) with ``plan``'s sizes and grid; ``order``: which ready thread the scheduler runs
    first, the lowest-numbered (a warp released at a barrier runs ahead of the others) or the
    highest (the producer ahead of its consumers)."""
    if order not in ORDERS:
        raise ValueError(f"order {order!r}: one of {', '.join(ORDERS)}")
    m = kernel.manifest
    name = m["variants"][variant or ("aligned" if kernel.mapped or _aligned(inputs) else "unaligned")]
    cuda = kernel.package.files[m["source"]].decode()
    try:
        exe = program(cuda)
    except CpuModelError as err:
        raise CpuRunError(f"{kernel.name}: {err}", refused=True) from None
    tensors = (inputs, outputs)
    grid = list(plan.grid)
    # a split-K kernel's workspace (runtime/workspace.py) after the outputs: its parts (NaN: a part
    # read before it is written shows) and zero counts
    ws = kernel.workspace
    space = [torch.full((ws.slots(grid) * ws.splits * ws.floats,), float("nan")),
             torch.zeros(ws.slots(grid), dtype=torch.int32)] if ws else []
    buffers = [t.contiguous() for t in [*inputs, *outputs]] + space
    index = {(0, n): n for n in range(len(inputs))} | {(1, n): len(inputs) + n for n in range(len(outputs))}
    params = []
    for role, where in kernel.slots:
        params.append(_words(1, plan.env[where]) if role == 2 else _words(0, index[(role, where)]))
    params += [_words(0, len(inputs) + len(outputs) + n) for n in range(len(space))]
    for (role, n), entry in kernel.mapped:
        viewed = mapped_tensor(tensors[role][n], entry, plan.env)
        params.append(_words(2, index[(role, n)], *_map_words(viewed, entry)))
    if m.get("persistent"):
        grid[0] = min(grid[0], RESIDENT)
    blob = [b"TCPU0001", _words(len(name)), name.encode(), _words(*grid, m["threads"], m["smem_bytes"]),
            _words(len(buffers))]
    for b in buffers:
        data = b.reshape(-1).view(torch.uint8).numpy().tobytes() if b.numel() else b""
        blob += [_words(len(data)), data]
    blob += [_words(len(params)), *params]
    work = Path(tempfile.mkdtemp(dir=_workdir()))
    try:
        (work / "launch").write_bytes(b"".join(blob))
        timeout = float(os.environ.get("TILEC_CPU_TIMEOUT", "600"))
        try:
            done = subprocess.run([str(exe), str(work / "launch"), str(work / "out"), order], capture_output=True,
                                  text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise CpuRunError(f"{kernel.name}: the CPU run took over {timeout:g} s (TILEC_CPU_TIMEOUT)") from None
        if done.returncode == -signal.SIGSYS:
            raise CpuRunError(f"{name}: the kernel made a system call the CPU run forbids (it may use memory and "
                              f"the launch's own files, nothing else)")
        if done.returncode:
            line = next((s for s in done.stderr.splitlines() if s.startswith("tilec-cpu:")), done.stderr.strip()[-500:])
            raise CpuRunError(f"{name}: {line.removeprefix('tilec-cpu: ') or f'exit status {done.returncode}'}",
                              refused=done.returncode == UNMODELLED)
        out = (work / "out").read_bytes()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    at = sum(b.numel() * b.element_size() for b in buffers[:len(inputs)])
    for t in outputs:
        size = t.numel() * t.element_size()
        if size:
            t.view(-1).view(torch.uint8).copy_(torch.frombuffer(bytearray(out[at:at + size]), dtype=torch.uint8))
        at += size
    if space and any(out[at + space[0].numel() * 4:]):  # the next launch starts from the counts this one leaves
        raise CpuRunError(f"{name}: the split-K workspace's counts are not left at zero")
