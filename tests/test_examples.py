"""Every bundled example, run by the oracle, matches plain torch code written independently."""

import math

import pytest
import torch
import torch.nn.functional as F

from conftest import EXAMPLES, close, run_spec


def _f(x):
    return x.float()


def _attention(q, k, v, causal=False, bias=None):
    groups = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(groups, dim=1), v.repeat_interleave(groups, dim=1)
    scores = _f(q) @ _f(k).transpose(-1, -2) / math.sqrt(q.shape[-1])
    if bias is not None:
        scores = scores + bias
    if causal:
        s, t = scores.shape[-2:]
        scores = scores.masked_fill(torch.ones(s, t, dtype=torch.bool).triu(1), float("-inf"))
    return torch.softmax(scores, dim=-1) @ _f(v)


REFERENCES = {
    "gemm": lambda x: {"C": _f(x["A"]) @ _f(x["B"])},
    "gemm_f32_nt": lambda x: {"C": x["A"].double() @ x["B"].double().t()},
    "batched_gemm": lambda x: {"C": torch.bmm(_f(x["A"]), _f(x["B"]))},
    "matmul_bias_gelu": lambda x: {"Y": F.gelu(_f(x["X"]) @ _f(x["W"]) + _f(x["bias"]))},
    "softmax": lambda x: {"Y": torch.softmax(x["X"], dim=1)},
    "logsumexp": lambda x: {"L": torch.logsumexp(x["X"], dim=1)},
    "layernorm": lambda x: {
        "Y": F.layer_norm(_f(x["X"]), (x["X"].shape[1],), _f(x["gamma"]), _f(x["beta"]), eps=1e-5),
        "mean": _f(x["X"]).mean(dim=1),
        "rstd": torch.rsqrt(_f(x["X"]).var(dim=1, unbiased=False) + 1e-5)},
    "rmsnorm": lambda x: {"Y": F.rms_norm(_f(x["X"]), (x["X"].shape[1],), _f(x["w"]), eps=1e-6)},
    "attention": lambda x: {"O": _attention(x["Q"], x["K"], x["V"])},
    "causal_attention": lambda x: {"O": _attention(x["Q"], x["K"], x["V"], causal=True)},
    "attention_bias": lambda x: {"O": _attention(x["Q"], x["K"], x["V"], bias=x["bias"])},
    "gqa_attention": lambda x: {"O": _attention(x["Q"], x["K"], x["V"])},
    "masked_attention": lambda x: {"O": F.scaled_dot_product_attention(*(_f(x[n]) for n in "QKV"), x["mask"])},
    "einsum_attention": lambda x: {"O": torch.einsum("bhsd->bshd", _attention(
        *[x[n].transpose(1, 2) for n in "QKV"]))},
    "swiglu": lambda x: {"Y": F.silu(_f(x["X"]) @ _f(x["Wg"])) * (_f(x["X"]) @ _f(x["Wu"]))},
    "linear": lambda x: {"Y": _f(x["X"]) @ _f(x["W"]).T + _f(x["bias"])},
    "dequant_linear": lambda x: {"Y": torch.relu(_f(x["X"])) @ (_f(x["W"]) * _f(x["s"])).T},
    "rmsnorm_matmul": lambda x: {"Y": F.rms_norm(_f(x["X"]), (x["X"].shape[1],), _f(x["g"]), eps=1e-6)
                                 @ _f(x["W"]).T},
    "rope": lambda x: _rope(x),
}


def _rope(x):
    """Llama's RoPE as Hugging Face writes it, on X read as [B, H, T, D]; the spec's two outputs are its halves."""
    b, t, h, _, half = x["X"].shape
    q = _f(x["X"]).transpose(1, 2).reshape(b, h, t, 2 * half)
    cos, sin = (torch.cat((_f(x[n]), _f(x[n])), dim=-1) for n in ("Cos", "Sin"))
    out = q * cos + torch.cat((-q[..., half:], q[..., :half]), dim=-1) * sin
    return {"Lo": out[..., :half], "Hi": out[..., half:]}

# shapes that divide nothing, and size-1 dims
ODD_SHAPES = {
    "gemm": {"M": 33, "N": 7, "K": 1},
    "gemm_f32_nt": {"M": 1, "N": 33, "K": 7},
    "batched_gemm": {"Bt": 1, "M": 7, "N": 33, "K": 5},
    "matmul_bias_gelu": {"M": 1, "N": 33, "K": 7},
    "softmax": {"N": 1, "C": 7},
    "logsumexp": {"N": 7, "C": 1},
    "layernorm": {"N": 1, "C": 33},
    "rmsnorm": {"N": 7, "C": 1},
    "attention": {"B": 1, "H": 1, "S": 7, "T": 33, "D": 8},
    "causal_attention": {"B": 1, "H": 2, "S": 33, "D": 1},
    "attention_bias": {"B": 2, "H": 1, "S": 7, "T": 1, "D": 33},
    "gqa_attention": {"B": 1, "H": 4, "S": 1, "T": 7, "D": 16},
    "masked_attention": {"B": 1, "H": 2, "S": 7, "T": 1, "D": 33},
    "einsum_attention": {"B": 1, "H": 3, "S": 7, "T": 33, "D": 16},
    "swiglu": {"M": 7, "N": 1, "K": 33},
    "linear": {"B": 1, "T": 7, "C": 1, "N": 33},
    "dequant_linear": {"T": 7, "C": 33, "N": 1},
    "rmsnorm_matmul": {"M": 7, "K": 33, "N": 1},
    "rope": {"B": 1, "T": 7, "H": 1},
}


def test_every_example_has_a_reference():
    assert sorted(p.stem for p in EXAMPLES.glob("*.ta")) == sorted(REFERENCES)


@pytest.mark.parametrize("name", sorted(REFERENCES))
@pytest.mark.parametrize("shapes", ["default", "odd"])
def test_example_matches_torch(name, shapes):
    inputs, outputs, _ = run_spec(EXAMPLES / f"{name}.ta", ODD_SHAPES[name] if shapes == "odd" else None)
    expected = REFERENCES[name](inputs)
    assert sorted(outputs) == sorted(expected)
    for key, value in outputs.items():
        # the reference is computed in f32; round it like the spec's output
        close(value, expected[key].to(value.dtype).to(torch.float64))


def test_attention_reference_is_not_trivially_equal():
    """The comparison can fail: a wrong scale gives a different answer."""
    inputs, outputs, _ = run_spec(EXAMPLES / "attention.ta", {"S": 16, "T": 16})
    wrong = _attention(inputs["Q"], inputs["K"], inputs["V"] * 1.1)
    with pytest.raises(AssertionError):
        close(outputs["O"], wrong.to(torch.bfloat16).double())


def test_compare_treats_matching_nan_and_inf_as_equal():
    import torch

    from tilec.executors.compare import compare

    expected = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])
    assert compare(expected.clone(), expected).ok
    result = compare(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0]), expected)
    assert result.max_abs == 0.0 and result.max_rel == 0.0
    for wrong in ([0.0, float("inf"), -float("inf"), 1.0], [float("nan"), 1.0, -float("inf"), 1.0],
                  [float("nan"), float("inf"), -float("inf"), float("nan")]):
        assert not compare(torch.tensor(wrong), expected).ok, wrong
