"""Bugs put into the CUDA text a package ships, each refuted on the CPU: the mutated kernel, run
under the runtime's model of the GPU (tilec/runtime/cpu/), differs from the oracle or faults,
deadlocks or is refused, at the GPU suite's sizes (tests/gpu/cases.py). Each mutant must
change the text (a pattern that no longer matches fails here, not silently), and the kernel
it mutates passes unmutated (test_cpu.py)."""

import dataclasses
import re

import pytest

from cpu_cases import run_case, tolerance
from tilec.diagnostics import TilecError
from tilec.runtime.cpu.launch import ORDERS


def _halve(m):
    return f"{m.group(1)}{int(m.group(2)) // 2}"


def _reads(pattern, replacement):
    """Every shared-memory read offset of the mma.sync operands (aoff/boff tables), not the writes."""
    def edit(source):
        return "".join(re.sub(pattern, replacement, line) if re.match(r"\s*const int [ab]off\d+\[", line) else line
                       for line in source.splitlines(keepends=True))
    return edit


def _copied_before_its_wait(source):
    """An asynchronous wgmma into a fresh tile, copied into the loop's carried accumulator at the
    loop's end, before the wgmma.wait_group that retires it (what the emitter wrote until it
    accumulated into the carried tile itself)."""
    lines = source.splitlines(keepends=True)
    copy = re.compile(r"( *)for \(int e = 0; e < \d+; \+\+e\) \(\(float\*\)(r\d+)\)\[e\] = \(\(float\*\)(r\d+)\)\[e\];\n")
    for i, line in enumerate(lines[:-1]):
        m = copy.fullmatch(line)
        if m and lines[i + 1].startswith(m.group(1) + "{  // wgmma over the stage"):
            end = lines.index(m.group(1) + "}\n", i + 1)
            block = [x.replace(f"&{m.group(2)}[", f"&{m.group(3)}[") for x in lines[i + 1:end + 1]]
            return "".join(lines[:i] + block + [line] + lines[end + 1:])
    return source


def _release_before_the_wait(source):
    """The key loop's release of block kt - 1's stage (after Q·Kᵀ, whose wait_group 0 retires
    block kt - 1's P·V) moved before Q·Kᵀ: the stage goes back while P·V may still read its V."""
    lines = source.splitlines(keepends=True)
    release = next(i for i, line in enumerate(lines) if re.fullmatch(r"\s*const bool c\d+ = k\d+ >= 1LL;\n", line))
    end = next(i for i in range(release, len(lines)) if "mbar_arrive(" in lines[i]) + 2  # through the closing brace
    block = lines[release:end]
    qk = max(i for i in range(release) if "{  // wgmma over the stage" in lines[i])
    return "".join(lines[:qk] + block + lines[qk:release] + lines[end:])


LONG_KEYS = {"B": 1, "H": 1, "S": 97, "T": 600}  # more key blocks than stages: the ring wraps
ALIGNED = {"M": 72, "N": 136, "K": 72}  # rows of whole 16-byte chunks: the cp.async kernel
DEEP = {"M": 264, "N": 136, "K": 1000}  # more k tiles than stages: the ring wraps
SPLIT_DEEP = {"M": 130, "N": 70, "K": 1000}  # three splits of 10-11 k tiles each, six output tiles

# (what, case, (pattern, replacement, count: 0 every match) or a function of the text, run)
MUTANTS = [
    ("a wgmma k16 step counted in bytes, not 16-byte units", "wgmma_gemm_nn", (r"\bda \+ 2\b", "da + 32", 1), None),
    ("the A operand's warpgroup offset halved", "wgmma_gemm_nn", (r"(\(warp / 4\) \* )(\d+)", _halve, 0), None),
    ("a copy-engine box one half-box off in its column", "wgmma_gemm_nn",
     (r"(tma_load_2d\([^;]*\(int\)\(i\d+ \+ )64\)", r"\g<1>32)", 1), None),
    ("the store's row stride the K extent's", "gemm_nn", (r"gr \* p_N\b", "gr * p_K", 0), None),
    ("the k-tile count's ceiling division rounded down", "gemm_nn",
     (r"\(p_K \+ (\d+)LL - 1\) / (\d+)LL", r"p_K / \2LL", 0), None),
    ("the output's row bound one too far", "gemm_nn", (r"if \(gr < p_M\) \{", "if (gr <= p_M) {", 0), None),
    ("an element of the unaligned copy dropped", "gemm_nt_odd_rows",
     (r"for \(int e = 0; e < 8; \+\+e\)", "for (int e = 0; e < 7; ++e)", 0), None),
    ("the wrong half of a row vector", "rope", (r"(const long long x\d+ = )1LL;", r"\g<1>0LL;", 1), None),
    ("a barrier of the staged store narrowed to a warp", "wgmma_gemm_tma_store_tn",
     (r"bar\.sync (\d+), 256;", r"bar.sync \1, 32;", 0), None),
    ("the CTA's barrier narrowed to a warp", "gemm_nn", (r"__syncthreads\(\);", "__syncwarp();", 0), None),
    ("the A fragment's row read from the wrong lanes", "gemm_nn", _reads(r"\(lane % 16\)", "(lane % 8)"), ALIGNED),
    ("the swizzle of the operands' shared-memory reads", "gemm_nn", _reads(r"& 56\)", "& 48)"), ALIGNED),
    ("the row maximum over the wrong lanes of a quad", "attention",
     (r"__shfl_xor_sync\(0xffffffffu, v, 2\)", "__shfl_xor_sync(0xffffffffu, v, 4)", 1), None),
    ("the online softmax's rescale forgotten", "attention", (r"= exp_diff\(", "= 0.0f * exp_diff(", 1), None),
    ("the producer's empty-barrier parity flipped", "wgmma_gemm_nn", (r"1LL - (i\d+)", r"\1", 1), None),
    ("the main loop's copy wait allowing one more pending group", "gemm_nn",
     (r"cp_async_wait<(\d+)>\(\);\n(\s*)__syncthreads", lambda m: f"cp_async_wait<{int(m.group(1)) + 1}>();\n"
      f"{m.group(2)}__syncthreads", 0), ALIGNED),
    ("the main loop's copy wait dropped", "attention", (r"cp_async_wait<\d+>\(\);\n(\s*)__syncthreads",
                                                        r"\1__syncthreads", 0), None),
    ("the P·V accumulator copied into the loop's before its wgmma wait", "wgmma_attention", _copied_before_its_wait,
     None),
    ("the wait after Q·Kᵀ leaving its wgmma group in flight", "wgmma_attention",
     (r"(commit_group\.sync\.aligned;\" ::: \"memory\"\);\n\s*asm volatile\(\"wgmma\.wait_group\.sync\.aligned )0;",
      r"\g<1>1;", 1), None),
    ("the last wgmma wait before the epilogue leaving a group in flight", "wgmma_gemm_nn",
     (r"wgmma\.wait_group\.sync\.aligned 0;", "wgmma.wait_group.sync.aligned 1;", 0), None),
    ("attention's release of the block before moved ahead of the wait that retires its P·V", "wgmma_attention",
     _release_before_the_wait, LONG_KEYS),
    ("the barrier between the warps' partial row values and their fold dropped", "layernorm_wide_rows",
     (r"(\[\w+ \* \d+ \+ warp\] = r\d+\[i\];\n)\s*__syncthreads\(\);\n", r"\1", 0), None),
    ("the barrier before a column loop's reduction rewrites its slots dropped", "rmsnorm_split_column_blocks_f32",
     (r"(float\* p\d+ = reinterpret_cast<float\*>\(smem \+ \d+\);[^\n]*\n)\s*__syncthreads\(\);\n", r"\1", 0),
     None),
    ("a row's partial values folded from the wrong warp's slots", "rmsnorm_rows_shared_by_warps",
     (r"(const float\* part = p\d+ \+ )\(\(i \* 2\) \+ \(warp % 2\)\)", r"\g<1>(i * 2)", 0), None),
    ("split-K: the slot's count not set back to zero by the CTA that finishes it", "gemm_split_k",
     (r"if \(tid == 0\) \*count = 0u;", "", 0), SPLIT_DEEP),
    ("split-K: every CTA writing its part over part 0", "gemm_split_k",
     (r"\(ws \+ own \* ", "(ws + 0 * ", 0), SPLIT_DEEP),
    ("split-K: the CTA arriving next to last finishing the tile", "gemm_split_k",
     (r"atomicAdd\(count, 1u\) == (\d+)u", lambda m: f"atomicAdd(count, 1u) == {int(m.group(1)) - 1}u", 0),
     SPLIT_DEEP),
    ("split-K: the sum missing the last part", "gemm_split_k",
     (r"for \(int p = 0; p < (\d+); \+\+p\)", lambda m: f"for (int p = 0; p < {int(m.group(1)) - 1}; ++p)", 0),
     SPLIT_DEEP),
    ("split-K: every tile's parts in the first slot", "wgmma_gemm_split_k",
     (r"split_ws \+ \(long long\)\([^)]*\) \*", "split_ws + (long long)(0) *", 0), {"M": 264, "N": 264, "K": 1000}),
    ("the consumers' arrival on the empty barrier dropped", "wgmma_gemm_nn",
     (r"if \(lane == 0\) mbar_arrive\(", "if (lane == 99) mbar_arrive(", 1), DEEP),
]


@pytest.mark.parametrize("what, case, change, run", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_mutant_is_refuted_on_the_cpu(what, case, change, run):
    def mutate(kernel):
        source = change(kernel.source) if callable(change) else re.sub(change[0], change[1], kernel.source,
                                                                          count=change[2])
        assert source != kernel.source, f"the mutant's change is not in {case}'s CUDA"
        return dataclasses.replace(kernel, source=source)

    assert run_case(case, run) <= tolerance(case)  # the kernel itself passes at that run
    errors = []
    for order in ORDERS:  # as verification runs it: refuted when either thread order refutes it
        try:
            errors.append(run_case(case, run, edit=mutate, order=order))
        except TilecError as err:  # a fault, a deadlock or a refusal: refuted (a mutant that does not compile is not)
            assert "does not compile" not in str(err), str(err)
            return
    assert max(errors) > tolerance(case), f"{what}: the mutant's outputs are within {max(errors):.2e} of the oracle"


def test_the_second_thread_order_finds_what_the_first_does_not():
    """A stage released before the wgmma reading it retires: run lowest-numbered first, the
    consumers reach the wait before the producer (the highest threads) runs again, so nothing
    shows; run highest first, the producer refills the stage the moment the last consumer warp
    releases it, while P·V still reads it, and the model says so."""
    what, case, change, run = next(m for m in MUTANTS if m[0].startswith("attention's release of the block before"))

    def mutate(kernel):
        return dataclasses.replace(kernel, source=change(kernel.source))
    assert run_case(case, run, edit=mutate) <= tolerance(case)
    with pytest.raises(TilecError, match="which a wgmma of warpgroup 0 still reads"):
        run_case(case, run, edit=mutate, order="highest-first")
