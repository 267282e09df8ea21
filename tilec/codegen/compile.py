"""CUDA C++ -> cubin with NVRTC (cuda-bindings) or nvcc, and the ptxas facts of the result.

Limits that can be known before compiling (shared memory, threads per block) are
checked first, so a schedule that cannot fit fails with a clear message, not a
launch error on the GPU.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from tilec.dialects.target import get as get_target

from ..diagnostics import TilecError

# per-block limits of the targets (dynamic shared memory with the opt-in attribute)


@dataclass(frozen=True)
class PtxasFacts:
    registers: int
    spill_stores: int
    spill_loads: int
    stack_bytes: int
    wgmma_serialized: bool = False  # ptxas C7514: a wait after every wgmma (a performance loss)

    def as_dict(self) -> dict:
        return self.__dict__.copy()


def registered(target: str):
    """The registered target ``target`` (dialects/target.py); TilecError naming the known ones otherwise."""
    try:
        return get_target(target)
    except ValueError as err:
        raise TilecError(str(err)) from None


def check_limits(target: str, threads: int, smem_bytes: int) -> None:
    limits = registered(target)
    if smem_bytes > limits.smem:
        raise TilecError(f"the schedule needs {smem_bytes} bytes of shared memory; {target} allows "
                         f"{limits.smem} per block: lower stages, bm, bn or bk")
    if threads > limits.threads:
        raise TilecError(f"the schedule needs {threads} threads per block; {target} allows {limits.threads}")


def parse_ptxas(log: str, kernel: str) -> PtxasFacts:
    """The facts ptxas -v reports for entry ``kernel`` (its own section of the log: a package's
    two variants, ``k`` and ``k_unaligned``, each have one)."""
    entry = f"entry function '{kernel}'"
    start = log.find(entry)
    section = log if start < 0 else log[start:]
    end = section.find("entry function '", len(entry))
    section = section if end < 0 else section[:end]
    number = lambda pattern: int(m[1]) if (m := re.search(pattern, section)) else 0
    serialized = re.search(rf"\(C7514\).*in the function '{re.escape(kernel)}'", log) is not None
    return PtxasFacts(number(r"Used (\d+) registers"), number(r"(\d+) bytes spill stores"),
                      number(r"(\d+) bytes spill loads"), number(r"(\d+) bytes stack frame"), serialized)


def _include_dirs() -> list[str]:
    dirs = []
    try:
        import nvidia
        for root in nvidia.__path__:
            for sub in ("cu13", "cuda_runtime"):
                path = os.path.join(root, sub, "include")
                if os.path.exists(os.path.join(path, "cuda_bf16.h")):
                    dirs.append(path)
    except ImportError:
        pass
    for path in ("/usr/local/cuda/include",):
        if os.path.exists(os.path.join(path, "cuda_bf16.h")):
            dirs.append(path)
    return dirs


def compile_nvrtc(source: str, kernel: str, target: str) -> tuple[bytes, str]:
    try:
        from cuda.bindings import nvrtc
    except ImportError:
        raise TilecError("NVRTC is not installed: pip install 'tilec[cuda]' (or use --compiler nvcc)") from None
    err, prog = nvrtc.nvrtcCreateProgram(source.encode(), f"{kernel}.cu".encode(), 0, [], [])
    # no -lineinfo: its debug sections name the directory NVRTC ran in, so a cubin would differ by
    # where it was built and `tilec verify PKG.tkp` run elsewhere could not rebuild its bytes; the
    # machine code (.text) is the same either way
    opts = [f"--gpu-architecture={target}".encode(), b"--std=c++17", b"--ptxas-options=-v"]
    opts += [f"-I{d}".encode() for d in _include_dirs()]
    result = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)[0]
    _, size = nvrtc.nvrtcGetProgramLogSize(prog)
    log = b" " * size
    nvrtc.nvrtcGetProgramLog(prog, log)
    log_text = log.decode(errors="replace").rstrip("\x00 ")
    if result != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise TilecError(f"NVRTC failed to compile {kernel} for {target}:\n{log_text}")
    _, size = nvrtc.nvrtcGetCUBINSize(prog)
    cubin = b" " * size
    nvrtc.nvrtcGetCUBIN(prog, cubin)
    nvrtc.nvrtcDestroyProgram(prog)
    return bytes(cubin), log_text


def compile_nvcc(source: str, kernel: str, target: str) -> tuple[bytes, str]:
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        raise TilecError("nvcc is not on the PATH (use --compiler nvrtc)")
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, f"{kernel}.cu"), os.path.join(tmp, f"{kernel}.cubin")
        with open(src, "w") as handle:
            handle.write(source)
        cmd = [nvcc, "-cubin", f"-arch={target}", "-std=c++17", "-Xptxas=-v", "-o", out, src]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise TilecError(f"nvcc failed to compile {kernel} for {target}:\n{proc.stderr}")
        with open(out, "rb") as handle:
            return handle.read(), proc.stderr


def compile_cuda(source: str, kernel: str, target: str, compiler: str = "nvrtc") -> tuple[bytes, PtxasFacts]:
    """(cubin, ptxas facts) of ``kernel`` in ``source`` for ``target``, compiled once per process:
    a command that picks a schedule, verifies its kernel and packages it compiles the one source
    three times otherwise (0.6-0.9 s of NVRTC each, docs/compile-time.md). The output is a
    function of these arguments alone (no build directory in it: compile_nvrtc)."""
    return _compile(source, kernel, target, compiler)


@functools.lru_cache(maxsize=32)
def _compile(source: str, kernel: str, target: str, compiler: str) -> tuple[bytes, PtxasFacts]:
    cubin, log = (compile_nvrtc if compiler == "nvrtc" else compile_nvcc)(source, kernel, target)
    facts = parse_ptxas(log, kernel)
    if facts.registers > registered(target).registers:
        raise TilecError(f"{kernel} needs {facts.registers} registers per thread")
    return cubin, facts


def forget_compiled() -> None:
    """Compile every source again from now on (a test that moves the directory it runs in)."""
    _compile.cache_clear()
