"""Emitter mutants: the GPU suite's cases built with one deliberate bug in the emitted CUDA.

    python tests/gpu/mutants.py --out build/gpu-mutants [--target sm_90a] [--only NAME]

Every CPU check passes such a bug (the verifier proves the tile IR, not the C the emitter
prints), so only the GPU suite can catch it. Each mutant is one edit of the CUDA source that
the real emitter (``tilec.codegen.cuda.emit_cuda``) returns, made just before NVRTC compiles
it, and stands for one wrong line of the emitter (named in ``line``). For each mutant, the
cases of tests/gpu/cases.py it affects are built as build.py builds them (packages, oracle
outputs, manifest.json) into OUT/<mutant>/; test_gpu_mutants.py runs them on the GPU and
fails when every run still matches the oracle. A mutant whose edit no longer applies to a
case (the emitter prints that code differently now) fails the build, naming both.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build import build_cases  # noqa: E402  (puts the repository root on sys.path)
from cases import CASES  # noqa: E402
from tilec.build import package  # noqa: E402
from tilec.codegen import cuda  # noqa: E402
from tilec.diagnostics import TilecError  # noqa: E402


@dataclass(frozen=True)
class Mutant:
    """One emitter bug: ``pattern`` (a multi-line regex over the emitted source) replaced by
    ``replacement`` everywhere it matches; ``cases``: the suite's cases it is built for.

    Example: Mutant("barrier-to-syncwarp", "a block barrier narrowed to the warp",
                    "cuda.py op_tile_barrier", r"__syncthreads\\(\\);", "__syncwarp();", ("attention",))"""

    name: str
    bug: str
    line: str              # the emitter's line that would hold the bug
    pattern: str
    replacement: str | Callable[[re.Match], str]
    cases: tuple[str, ...]
    survives: str = ""     # why no output can show this bug (an equivalent mutant); test_gpu_mutants.py
                           # then expects every run to pass, and fails when one does not

    def apply(self, source: str) -> tuple[str, int]:
        """(the mutated source, the number of edits)."""
        return re.subn(self.pattern, self.replacement, source, flags=re.MULTILINE)


MUTANTS = [
    Mutant("ceildiv-rounds-down", "a ceiling division rounds down: (a + b - 1) / b emitted as a / b "
           "(the K-tile, column-block and key-block loop counts, the tile counts of the swizzle)",
           "cuda.py op_arith_ceildivsi",
           r"\((\w+) \+ (\d+)LL - 1\) / \2LL", r"\1 / \2LL", ("gemm_f16", "attention", "softmax")),
    Mutant("copy-row-stride", "the global row stride of an async tile copy is the row count, not the row "
           "length: src + gr * rows + gc",
           "cuda_ops.py op_tile_async_copy (src + gr * {n_cols} + gc)",
           r"\(gr < (\w+) && gc( \+ e)? < (\w+)\)(.*?\n?.*?)gr \* \3 \+ gc", r"(gr < \1 && gc\2 < \3)\4gr * \1 + gc",
           ("gemm_f16", "attention")),
    Mutant("unaligned-copy-drops-last", "the element-copy loop of the unaligned variant runs to per_chunk - 1: "
           "the last element of every chunk stays whatever shared memory held",
           "cuda_ops.py op_tile_async_copy (for e < {per_chunk})",
           r"for \(int e = 0; e < (\d+); \+\+e\)\n(\s*)d\[e\] = ",
           lambda m: f"for (int e = 0; e < {int(m[1]) - 1}; ++e)\n{m[2]}d[e] = ",
           ("gemm_f16", "gemm_f32_nn", "attention_bias")),
    Mutant("mask-lt-as-le", "a mask comparison of a tile.map body off by one: arith.cmpi slt printed as <= "
           "(column c < C, key j < T, causal j < i)",
           "cuda_scalar.py C (lt)",
           r"^(\s*const bool v\d+ = [^;<>=]+?) < ([^;]+;)$", r"\1 <= \2",
           ("softmax", "logsumexp", "attention", "attention_causal_strict")),
    Mutant("row-reduce-first-half", "a row reduction of an mma tile written for h = 0 only: the second row "
           "(lane/4 + 8) of each 16-row slice keeps no max or sum",
           "cuda_regs.py op_tile_reduce (for h < 2)",
           r"for \(int h = 0; h < 2; \+\+h\) \{\n(\s*)float v = ", r"for (int h = 0; h < 1; ++h) {\n\1float v = ",
           ("attention", "attention_d16_one_warp")),
    Mutant("barrier-to-syncwarp", "the block barrier between filling a shared stage and reading it narrowed "
           "to the warp: __syncthreads() emitted as __syncwarp()",
           "cuda.py op_tile_barrier",
           r"__syncthreads\(\);", "__syncwarp();", ("gemm_f16", "gemm_nn_8_warps", "attention")),
    Mutant("warp-reduce-drops-16", "the warp reduction of a row program drops its first xor shuffle "
           "(offset 16): lanes 0-15 and 16-31 each keep half a row",
           "cuda_blocked.py reduce (for shift in (16, 8, 4, 2, 1))",
           r"^.*__shfl_xor_sync\(0xffffffffu, v, 16\).*\n", "", ("softmax", "layernorm", "rmsnorm")),
    Mutant("gather-vector-shifted", "a pointwise gather read as a vector one vector further along its "
           "tensor: the 16-byte load's address 8 elements on",
           "cuda_gather.py _vector_read (the vector load)",
           r"reinterpret_cast<const uint4\*>\((g_\w+) \+ ", r"reinterpret_cast<const uint4*>(\1 + 8 + ",
           ("rope_fixed", "rope_64")),
    Mutant("vector-edge-off-by-one", "the row programs' vector-load edge test off by one: gc + vec <= C "
           "emitted as gc + vec <= C + 1",
           "cuda_blocked.py load (gc + vec <= C)",
           r"gc \+ (\d+) <= (\w+)\)", r"gc + \1 <= \2 + 1)", ("softmax", "layernorm", "rmsnorm_one_warp"),
           survives="gc and C are multiples of vec in the aligned variant (whole 16-byte rows), so the test changes "
                    "only for vec = 1 (rmsnorm_one_warp), where it admits the one element at column C (the next "
                    "row's first, or one past the last row); every reduction masks columns >= C and every store "
                    "skips them, so no output changes: an out-of-bounds read only a memory checker can see"),
]


@contextmanager
def injected(mutant: Mutant):
    """Within: every package tilec.build.package builds carries ``mutant``'s edit; yields the number of
    (kernel, edits) per package built. A kernel the edit does not change raises TilecError."""
    real = cuda.emit_cuda
    edits = []

    def emit_mutated(module):
        kernel = real(module)
        kernel.source, count = mutant.apply(kernel.source)
        if count == 0:
            raise TilecError(f"mutant {mutant.name} does not apply: no match of {mutant.pattern!r} in the "
                             f"emitted source of {kernel.name} (the emitter prints it differently now)")
        edits.append((kernel.name, count))
        return kernel

    # tilec.build.package calls the name it imported; patch both, so that either spelling reaches the mutant
    package.emit_cuda = cuda.emit_cuda = emit_mutated
    try:
        yield edits
    finally:
        package.emit_cuda = cuda.emit_cuda = real


def build_mutant(mutant: Mutant, out: Path, target: str) -> bool:
    """Build ``mutant``'s cases into ``out``/<name>/ with the bug injected; whether all built."""
    folder = out / mutant.name
    shutil.rmtree(folder, ignore_errors=True)  # no files of an older build of this mutant
    with injected(mutant) as edits:
        manifest, failed = build_cases(list(mutant.cases), folder, target)
    if not failed and len(edits) != len(mutant.cases):
        failed = list(mutant.cases)  # the build never called the wrapped emitter: nothing was mutated
        print(f"error: {mutant.name} was not injected ({len(edits)} kernels emitted through it)", file=sys.stderr)
    manifest["mutant"] = {"name": mutant.name, "bug": mutant.bug, "line": mutant.line, "pattern": mutant.pattern,
                          "edits": edits, "survives": mutant.survives}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"{mutant.name}: {len(mutant.cases) - len(failed)}/{len(mutant.cases)} cases built, "
          f"edits per kernel {', '.join(f'{k}: {n}' for k, n in edits)}", flush=True)
    return not failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="build/gpu-mutants", help="folder of one folder per mutant")
    parser.add_argument("--target", default="sm_90a", help="cubin target (sm_80, sm_90a)")
    parser.add_argument("--only", action="append", metavar="NAME", help="build this mutant only (repeatable)")
    args = parser.parse_args(argv)
    names = [m.name for m in MUTANTS]
    unknown = sorted(set(args.only or ()) - set(names))
    if unknown:
        parser.error(f"no mutant named {', '.join(unknown)} (mutants: {', '.join(names)})")
    missing = [(m.name, c) for m in MUTANTS for c in m.cases if c not in CASES]
    if missing:
        parser.error("mutants name cases that tests/gpu/cases.py lacks: " + ", ".join(f"{m}: {c}" for m, c in missing))
    failed = [m.name for m in MUTANTS if (not args.only or m.name in args.only)
              and not build_mutant(m, Path(args.out), args.target)]
    if failed:
        print(f"error: {len(failed)} mutant(s) failed to build: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
