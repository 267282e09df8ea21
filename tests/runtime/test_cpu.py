"""tilec/runtime/cpu: the CUDA text of the GPU suite's kernels (tests/gpu/cases.py), run on the
CPU under the runtime's model of the GPU, equals the oracle at the cases' sizes (which divide
no tile), with the GPU suite's tolerances. A selection of one case per form runs here; every
case with TILEC_CPU_CASES=all. Then the model's own refusals: each a located error."""

import os
from pathlib import Path

import pytest
import torch

from cpu_cases import CASES, run_case, tolerance
from tilec.build.cuda_cpu import CpuRefusal
from tilec.diagnostics import TilecError
from tilec.runtime.cpu.source import CpuModelError, cpu_source

# one case of each form the emitter has rules for: sm_80 (cp.async, ldmatrix, mma.sync; element
# copies for rows of no whole chunk; row, pointwise and gather programs) and sm_90a (the copy
# engine, mbarrier rings, wgmma; persistent, ping-pong, staged stores, the rotated key loop)
SELECTED = [
    "gemm_nn", "gemm_nt_odd_rows", "gemm_tt", "gemm_bf16_by_f16", "gemm_f32_nn", "batched_gemm", "gemm_bias_gelu",
    "gemm_fixed_k", "prologue_shifted", "merged_k", "attention", "attention_causal", "attention_bias",
    "attention_gqa", "attention_d16_one_warp", "attention_value_dim_8", "attention_causal_strict", "softmax",
    "layernorm", "layernorm_odd_rows", "rmsnorm", "rmsnorm_one_warp", "logsumexp", "rope", "rope_64",
    "pointwise_transpose", "softmax_one_block", "layernorm_wide_rows", "softmax_wide_rows",
    "rmsnorm_rows_shared_by_warps", "layernorm_split_column_blocks", "gemm_split_k", "wgmma_gemm_split_k",
    "wgmma_gemm_nn", "wgmma_gemm_tt", "wgmma_gemm_persistent", "wgmma_gemm_tma_store_tn",
    "wgmma_gemm_pingpong_two_slabs_tn", "wgmma_attention", "wgmma_attention_pingpong",
    "wgmma_attention_softmax_overlap", "wgmma_attention_causal_pingpong_three", "wgmma_attention_tma_store",
    "wgmma_attention_gqa_softmax_overlap_one",
]
# graph cases are several kernels (their kernels are cases of their own forms)
NAMES = [n for n, c in CASES.items() if not c.graph] if os.environ.get("TILEC_CPU_CASES") == "all" else SELECTED


@pytest.mark.parametrize("name", NAMES)
def test_case_on_the_cpu_model(name):
    """Under both thread orders: a warp released at a barrier running ahead, the producer ahead."""
    assert run_case(name) <= tolerance(name)
    assert run_case(name, order="highest-first") <= tolerance(name)


def test_both_variants_of_a_gemm():
    """The cp.async kernel and the element-copy one, on the same aligned inputs."""
    run = {"M": 72, "N": 136, "K": 72}
    assert run_case("gemm_nn", run, "aligned") <= tolerance("gemm_nn")
    assert run_case("gemm_nn", run, "unaligned") <= tolerance("gemm_nn")


def test_the_selection_names_cases():
    assert set(SELECTED) <= set(CASES)


def test_inline_ptx_the_model_was_not_written_for_is_refused():
    source = ('#include <cuda_bf16.h>\n__device__ __forceinline__ void cp_async_commit() '
              '{ asm volatile("cp.async.commit_group;" ::); }\nextern "C" __global__ void k() {}\n')
    with pytest.raises(CpuModelError, match="cp_async_commit .* a text it was not written for"):
        cpu_source(source)
    with pytest.raises(CpuModelError, match="no model"):
        cpu_source(source.replace("cp_async_commit", "mystery"))
    with pytest.raises(CpuModelError, match="writes registers"):
        cpu_source('extern "C" __global__ void k() { int r; asm volatile("mov.u32 %0, 1;" : "=r"(r)); }\n')


def test_a_deadlock_names_the_waiting_threads():
    def hang(kernel):  # the full barrier waits for two arrivals where the producer makes one
        import dataclasses
        import re
        source, n = re.subn(r"(mbar_init\(\w+ \+ 8 \* s), 1\);", r"\1, 2);", kernel.source, count=1)
        assert n == 1
        return dataclasses.replace(kernel, source=source)
    with pytest.raises(TilecError, match="deadlocks, .* threads waiting") as failed:
        run_case("wgmma_gemm_nn", edit=hang)
    assert not isinstance(failed.value, CpuRefusal)  # the kernel failed: a counterexample in verify


def test_an_access_past_a_tensor_faults_with_its_place():
    def overrun(kernel):  # the epilogue's row bound one past the output's rows
        return _replace(kernel, "if (gr < p_M) {", "if (gr < p_M + 64) {", 2)
    with pytest.raises(TilecError, match="memory access .* past the end of argument buffer 2") as failed:
        run_case("gemm_nn", edit=overrun)
    assert not isinstance(failed.value, CpuRefusal)


def _replace(kernel, old: str, new: str, times: int):
    import dataclasses
    assert kernel.source.count(old) >= 1, old
    return dataclasses.replace(kernel, source=kernel.source.replace(old, new, times))


def test_a_compile_error_is_reported():
    def broken(kernel):
        return _replace(kernel, "__syncthreads();", "__syncthreads(;", 1)
    with pytest.raises(CpuRefusal, match="does not compile"):  # the run cannot be made: an error in verify
        run_case("gemm_nn", edit=broken)


def test_an_instruction_the_model_has_no_rule_for_is_a_refusal_not_a_failure():
    def trap(kernel):
        return _replace(kernel, "__syncthreads();", 'asm volatile("trap;");', 99)
    with pytest.raises(CpuRefusal, match="no model of the PTX `trap;`"):
        run_case("gemm_nn", edit=trap)


def test_a_kernel_that_opens_a_file_is_stopped():
    """A package's CUDA is data: run on the CPU it may touch memory and its own two files alone."""
    def snoop(kernel):
        return _replace(kernel, "const int tid = threadIdx.x,",
                        'if (threadIdx.x == 0) { FILE* f = fopen("/etc/hostname", "r"); (void)f; }\n'
                        "    const int tid = threadIdx.x,", 2)
    with pytest.raises(TilecError, match="a system call the CPU run forbids") as failed:
        run_case("gemm_nn", edit=snoop)
    assert not isinstance(failed.value, CpuRefusal)


@pytest.mark.parametrize("line", ['#include "/etc/hostname"', "#pragma clang diagnostic ignored \"-Wall\"",
                                  "__attribute__((constructor)) static void early() {}",
                                  "[[gnu::constructor]] static void early() {}", '_Pragma("once")'])
def test_text_the_cpu_build_does_not_take_is_refused(line):
    source = f'#include <cuda_bf16.h>\n{line}\nextern "C" __global__ void k() {{}}\n'
    with pytest.raises(CpuModelError, match="line 2: .* (not one the CPU build takes|is not taken by the CPU build)"):
        cpu_source(source)


def test_no_compiler_is_one_located_error(tilec, monkeypatch, tmp_path):
    """Without a C++ compiler the CPU run is one error saying how to get one, from the CLI (no
    traceback) and as a verification row (error, not a skip)."""
    monkeypatch.setenv("TILEC_CXX", str(tmp_path / "no-such-compiler"))
    spec = tmp_path / "scale.ta"  # a kernel of its own: no program built earlier in this process is reused
    spec.write_text("param M = 7, N = 37\ninput X[M, N] : f32\noutput Y[M, N] : f32\nY[i, j] = X[i, j] * 3.5\n")
    status, out, err = tilec("run", spec, "--stage", "cuda")
    assert status == 1 and "did not run" in err and "Traceback" not in err, out + err
    status, out, err = tilec("verify", spec)
    assert status == 1 and "error  scale [cuda" in out and "execution" in out, out + err


def test_the_gpu_agreement_the_docs_state_is_the_results_file():
    """docs/verification.md's figures of the model against an H100 come from the saved results."""
    import json

    from conftest import ROOT

    data = json.loads((ROOT / "bench/results/cpu-model-h100-2026-12-06.json").read_text())
    runs, mixed = data["runs"], data["bf16_by_f16_gemm"]
    text = " ".join((ROOT / "docs/verification.md").read_text().split())
    assert all(r["ok"] for r in runs) and f"{len(runs)} outputs" in text
    assert f"at most {max(r['relative_difference'] for r in runs):.4f} of the largest" in text
    assert f"{100 * min(r['bit_identical'] for r in runs):.0f}% to 100%" in text
    before = mixed["before"]
    assert f"off by {before['gpu_max_abs_err_vs_f32_product']:.2f} on the H100" in text
    assert f"by {before['cpu_model_max_abs_err_vs_f32_product']:.2f} in the model" in text
    assert f"({before['gpu_vs_cpu_model_max_abs_diff']:.1e} apart)" in text
    assert mixed["after"]["gpu_max_abs_err_vs_f32_product"] == mixed["after"]["cpu_model_max_abs_err_vs_f32_product"] == 0


def test_a_process_leaves_no_files_behind(tmp_path, monkeypatch):
    """The programs and the launches live in one folder of the process's, removed when it exits;
    the C++ compiler's cache in tilec's cache root (cpu/), kept for the next process, or where
    $TILEC_CPU_CACHE_DIR says (the test run's, warm: its C library is not built again here)."""
    import subprocess
    import sys

    from conftest import EXAMPLES
    from tilec.cache import where

    shared = Path(os.environ["TILEC_CPU_CACHE_DIR"])
    monkeypatch.delenv("TILEC_CPU_CACHE_DIR")
    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "cache"))
    assert where("cpu") == tmp_path / "cache" / "cpu"
    before = set(shared.rglob("*"))
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp"), "TILEC_CPU_CACHE_DIR": str(shared)}
    done = subprocess.run([sys.executable, "-m", "tilec", "run", str(EXAMPLES / "gemm.ta"), "--stage", "cuda",
                           "--shape", "M=33,N=17,K=20"], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0 and "(ok)" in done.stdout, done.stdout + done.stderr
    assert list((tmp_path / "tmp").iterdir()) == []
    assert set(shared.rglob("*")) - before  # the compiler wrote its cache there
    assert not (tmp_path / "cache" / "cpu").exists()


def test_run_takes_the_thread_order(tilec):
    """`tilec run --stage cuda --thread-order highest-first` reproduces what verify's second run
    finds; an order that is not one is a usage error."""
    from conftest import EXAMPLES
    for order in ("lowest-first", "highest-first"):
        status, out, err = tilec("run", EXAMPLES / "gemm.ta", "--stage", "cuda", "--shape", "M=33,N=17,K=20",
                                 "--thread-order", order)
        assert status == 0 and "cuda vs oracle:" in out and "(ok)" in out, out + err
    with pytest.raises(SystemExit) as exit_:
        tilec("run", EXAMPLES / "gemm.ta", "--stage", "cuda", "--thread-order", "random")
    assert exit_.value.code == 2

