"""An epilogue's global operands read two columns at a time (tilec/codegen/cuda_pairs.py):
what the emitter writes and when; the numbers are checked on the GPU (tests/gpu: the
linear_residual cases, and an operand at an odd address in test_gpu_launch.py)."""

import re

import pytest
import torch

from tilec.runtime.launch import _even_addresses

def _spec(n: str, body: str) -> str:
    return (f"param M, K\ninput X[M, K] : bf16\ninput W[{n}, K] : bf16\ninput bias[{n}] : bf16\n"
            f"input R[M, {n}] : bf16\noutput Y[M, {n}] : bf16\n{body}\n").replace("param M, K", "param M, K" +
                                                                                     (", N" if n == "N" else ""))


RESIDUAL = "Y[i, j] = sum[k](X[i, k] * W[j, k]) + bias[j] + R[i, j]"
# Z is read twice, so it is held in registers: the accumulator map of cuda_regs
GELU = ("let Z[i, j] = sum[k](X[i, k] * W[j, k]) + bias[j] + R[i, j]\n"
        "Y[i, j] = 0.5 * Z[i, j] * (1 + erf(Z[i, j] * 0.7071067811865476))")
HOPPER = "bm=128,bn=128,bk=64,warps=8,stages=4,consumers=2,persistent=true,tma-store=true"
SM80 = "bm=64,bn=64,bk=32"


def _cuda(tilec, tmp_path, spec: str, schedule: str, target: str) -> str:
    path = tmp_path / "linear_residual.ta"
    path.write_text(spec)
    status, out, err = tilec("compile", path, "--emit", "cuda", "--shape", "M=300,K=72", "--schedule", schedule,
                             "--target", target)
    assert status == 0, err
    return out


def _pairs(cuda: str) -> dict:
    """{tensor: [the offsets its pairs are loaded at]}."""
    corners = dict(re.findall(r"const __nv_bfloat16\* (pb\d+) = (g_\w+) \+", cuda))
    out = {}
    for base, at in re.findall(r"reinterpret_cast<const __nv_bfloat162\*>\((pb\d+) \+ (.*)\);\n", cuda):
        out.setdefault(corners[base], []).append(at)
    return out


@pytest.mark.parametrize("target,schedule", [("sm_90a", HOPPER), ("sm_80", SM80)])
def test_an_accumulator_map_reads_bias_and_residual_in_pairs(tilec, tmp_path, target, schedule):
    """Z held in registers: the bias once per column pair of a fragment, before the loop over
    its two rows, and the residual once per row pair; every test in the loops is a 32-bit one
    against the room left, and no element is read with a 64-bit index."""
    cuda = _cuda(tilec, tmp_path, _spec("264", GELU), schedule, target).split('extern "C"')[1]
    pairs = _pairs(cuda)
    assert all(re.fullmatch(r"c\d+", at) for at in pairs["g_bias"]), pairs
    assert all(re.fullmatch(r"r\d+ \* 264 \+ c\d+", at) for at in pairs["g_R"]), pairs
    bias_at, res_at = cuda.index("reinterpret_cast<const __nv_bfloat162*>(pb"), cuda.rindex("__nv_bfloat162*>(pb")
    assert bias_at < cuda.index("for (int h = 0; h < 2; ++h) {", bias_at) < res_at
    assert re.search(r"const int pc\d+ = clamp_i32\(264LL - i\d+\);", cuda)
    assert re.search(r"if \(pe\d+ && r\d+ < pr\d+ && c\d+ \+ 1 < pc\d+\) \{", cuda)
    assert not re.search(r"g_(bias|R)\[", cuda)


def test_a_map_fused_into_the_store_reads_by_element(tilec, tmp_path):
    """A map read only by the store is emitted inside the store's loop: no pairs there."""
    cuda = _cuda(tilec, tmp_path, _spec("264", RESIDUAL), HOPPER, "sm_90a")
    assert not _pairs(cuda) and re.search(r"g_R\[", cuda)


def test_odd_rows_read_the_residual_by_element(tilec, tmp_path):
    """N = 131: the residual's rows start at odd elements, so no pair of it is aligned and it is
    read element by element; the bias (a vector with no rows) is still read in pairs."""
    cuda = _cuda(tilec, tmp_path, _spec("131", GELU), SM80, "sm_80").split('extern "C"')[1]
    assert list(_pairs(cuda)) == ["g_bias"]
    assert re.search(r"g_R\[", cuda)


def test_a_row_length_known_at_run_time_is_tested_even(tilec, tmp_path):
    """N a parameter: the residual's pairs are taken only when N is even, tested once a tile."""
    cuda = _cuda(tilec, tmp_path, _spec("N", GELU), HOPPER, "sm_90a")
    assert re.search(r"const bool pe\d+ = \(\(i\d+\) & 1LL\) == 0 && \(\(p_N\) & 1LL\) == 0;", cuda)
    assert all(re.fullmatch(r"r\d+ \* \(long long\)p_N \+ c\d+", at) for at in _pairs(cuda)["g_R"])


def test_the_unaligned_variant_reads_by_element(tilec, tmp_path):
    """The sm_80 kernel for rows of any length (no aligned base address promised) takes no pairs."""
    first, second = _cuda(tilec, tmp_path, _spec("264", GELU), SM80, "sm_80").split('extern "C"')[1:3]
    assert _pairs(first) and not _pairs(second)
    assert "_unaligned(" in second.split("{")[0]


@pytest.mark.parametrize("offset,copied", [(0, False), (1, True), (2, False)])
def test_a_view_at_an_odd_address_is_copied(offset, copied):
    """launch.py copies an input whose address is not 4-byte aligned (a view from an odd
    element) before a copy-engine kernel reads it in pairs; the tensor-mapped ones stay (their
    tensor maps refuse them with their own message)."""
    base = torch.arange(40, dtype=torch.bfloat16)
    view = base[offset:offset + 32].view(4, 8)
    mapped = base[1:33].view(4, 8)
    out = _even_addresses([view, mapped], mapped={1})
    assert (out[0] is not view) == copied and out[1] is mapped
    assert torch.equal(out[0], view) and out[0].data_ptr() % 4 == 0
