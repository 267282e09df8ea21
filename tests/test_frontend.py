"""Spec-language constructs, each run by the oracle and compared with torch."""

import math

import pytest
import torch

from conftest import close, run_spec


def test_reductions_of_every_kind_and_several_outputs():
    spec = """
    param N = 7, C = 33      # comment after a declaration
    input X[N, C] : f32
    output S[N] : f32
    output Mx[N] : f32
    output Mn[N] : f32
    S[n] = sum[c](X[n, c])
    Mx[n] = max[c](X[n, c])
    Mn[n] = min[c](X[n, c])
    """
    x, out, _ = run_spec(spec)
    close(out["S"], x["X"].sum(1))
    close(out["Mx"], x["X"].amax(1))
    close(out["Mn"], x["X"].amin(1))


@pytest.mark.parametrize("n", [1, 7, 33, 1000])
def test_full_reduction_to_a_scalar(n):
    spec = "param N\ninput X[N] : f32\noutput total[] : f32\ntotal = sum[i](X[i] * X[i])\n"
    x, out, _ = run_spec(spec, {"N": n})
    close(out["total"], (x["X"] ** 2).sum())


def test_pointwise_functions_and_select():
    spec = """
    param N = 33
    const half = 0.5
    input X[N] : f32
    output Y[N] : f32
    Y[i] = select(X[i] > 0, sigmoid(X[i]) + tanh(X[i]) * half, abs(X[i]) - sqrt(abs(X[i])) + exp(-X[i]) / 3) + max(X[i], 0.25) - min(X[i], -1)
    """
    x, out, _ = run_spec(spec)
    v = x["X"]
    neg = v.abs() - v.abs().sqrt() + torch.exp(-v) / 3
    expected = torch.where(v > 0, torch.sigmoid(v) + torch.tanh(v) * 0.5, neg) + v.clamp(min=0.25) - v.clamp(max=-1)
    close(out["Y"], expected)


def test_masks_with_and_and_index_arithmetic():
    spec = """
    param S = 9
    input X[S, S] : f32
    output Y[S, S] : f32
    Y[i, j] = X[i, j] where j <= i and i - j < 3 else -inf
    """
    x, out, _ = run_spec(spec)
    i, j = torch.meshgrid(torch.arange(9), torch.arange(9), indexing="ij")
    expected = x["X"].masked_fill(~((j <= i) & (i - j < 3)), -math.inf)
    assert torch.equal(out["Y"], expected)


def test_affine_subscripts_shift_transpose_and_group():
    spec = """
    param N = 7, H = 6
    const G = 3
    input X[N + 1] : f32
    input A[N, H] : f32
    input K[H / G, N] : f32
    output D[N] : f32
    output T[H, N] : f32
    output R[H, N] : f32
    D[i] = X[i + 1] - X[i + 0]
    T[h, i] = A[i, h]
    R[h, i] = K[h / G, i]
    """
    x, out, _ = run_spec(spec)
    close(out["D"], x["X"][1:] - x["X"][:-1])
    close(out["T"], x["A"].t())
    close(out["R"], x["K"].repeat_interleave(3, dim=0))


def test_parameters_and_indices_as_values():
    spec = "param N = 5, D = 16\ninput X[N] : f32\noutput Y[N] : f32\nY[i] = X[i] * rsqrt(D) + i\n"
    x, out, _ = run_spec(spec)
    close(out["Y"], x["X"] / 4 + torch.arange(5))


def test_temporaries_and_size_one_dims():
    spec = """
    param B = 1, N = 1, C = 7
    input X[B, N, C] : bf16
    output Y[B, N, C] : bf16
    let m[b, n] = max[c](X[b, n, c])
    Y[b, n, c] = exp(X[b, n, c] - m[b, n])
    """
    x, out, _ = run_spec(spec)
    v = x["X"].float()
    close(out["Y"], torch.exp(v - v.amax(-1, keepdim=True)).bfloat16())


def test_logsumexp_and_softmax_sugar_match_their_definitions():
    spec = """
    param N = 3, C = 1000
    input X[N, C] : f32
    output L[N] : f32
    output P[N, C] : f32
    L[n] = logsumexp[c](X[n, c] * 10)
    P[n, c] = softmax[c](X[n, c] * 10)
    """
    x, out, _ = run_spec(spec)
    close(out["L"], torch.logsumexp(x["X"] * 10, 1))
    close(out["P"], torch.softmax(x["X"] * 10, 1))


def test_shape_mismatch_of_given_inputs_is_reported():
    from torch_mlir import ir

    from tilec import dialects
    from tilec.diagnostics import TilecError
    from tilec.frontend import spec_to_ta
    from tilec.signature import bind, signature

    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta("param M, K\ninput A[M, K] : f32\noutput B[M] : f32\nB[i] = sum[k](A[i, k])\n", "t.ta")
        sig = signature(module.body.operations[0])
        with pytest.raises(TilecError, match=r"input 'A' has shape \[3, 4\] but the spec says \[M, K\] = \[3, 5\]"):
            bind(sig, {"K": 5}, {"A": torch.zeros(3, 4)})


def test_float_literals_are_not_index_arithmetic():
    """1.0 / N divides reals (oracle: 1/7 per element), 1 / N would be an index (0)."""
    import torch

    from conftest import run_spec

    inputs, outputs, env = run_spec("param N\ninput X[N] : f32\noutput Y[N] : f32\nY[i] = X[i] * (1.0 / N)\n",
                                    {"N": 7})
    torch.testing.assert_close(outputs["Y"], inputs["X"] / 7)
    inputs, outputs, env = run_spec("param N\nconst G = 2.0\ninput X[N] : f32\noutput Y[N] : f32\n"
                                    "Y[i] = X[i] / G\n", {"N": 3})
    torch.testing.assert_close(outputs["Y"], inputs["X"] / 2)
