"""ta-grad: the gradient function it adds, run on the oracle, equals torch's autograd through
the oracle's own run of the forward, for the examples (f32, at sizes that divide no tile and
size-1 dims; GQA's shared key heads and RoPE's constant indices included); what it cannot
differentiate is one located error."""

import pytest
import torch
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec import passes
from tilec.executors.oracle import evaluate
from tilec.frontend import spec_to_ta
from tilec.signature import bind, random_inputs, signature

DIFFERENTIABLE = ["rmsnorm", "layernorm", "softmax", "logsumexp", "attention", "causal_attention",
                  "masked_attention", "attention_bias", "einsum_attention", "matmul_bias_gelu", "gemm", "swiglu",
                  "batched_gemm", "linear", "rmsnorm_matmul", "dequant_linear", "gqa_attention", "rope"]
SIZES = [{}, {"N": 1, "M": 1, "S": 1, "B": 1}]  # the specs' defaults (odd where they are), and size-1 dims


def _f32(name: str) -> str:
    """An example in f32 throughout, so the comparison is not bf16's rounding."""
    return (EXAMPLES / f"{name}.ta").read_text().replace("bf16", "f32").replace("f16", "f32")


def _gradients(text: str, sizes: dict, name: str = "t"):
    """(ta-grad's gradients on the oracle, autograd's through the oracle's forward), by input."""
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(text, f"{name}.ta")
        forward = module.body.operations[0]
        sig = signature(forward)
        env = bind(sig, {k: v for k, v in sizes.items() if k in sig.params})
        inputs = random_inputs(sig, env, 0)
        info = passes.get("ta-grad")
        info.run(module.operation, info.options())
        module.operation.verify()
        grad = module.body.operations[1]
        leaves = {k: v.detach().clone().requires_grad_(True) for k, v in inputs.items()}
        outputs = evaluate(forward, leaves, env)
        torch.manual_seed(1)
        cotangents = {f"d{k}": torch.randn_like(v) for k, v in outputs.items()}
        sum((v * cotangents[f"d{k}"]).sum() for k, v in outputs.items()).backward()
        got = evaluate(grad, {**inputs, **cotangents}, env)
    want = {f"d{k}": v.grad if v.grad is not None else torch.zeros_like(v) for k, v in leaves.items()}
    return got, want


def _agrees(got, want) -> bool:
    """Within f32's rounding of the larger of the gradient's largest element and 1."""
    return float((got - want).abs().max()) <= 2e-5 * max(float(want.abs().max()), 1.0)


@pytest.mark.parametrize("sizes", SIZES, ids=["defaults", "size-1"])
@pytest.mark.parametrize("example", DIFFERENTIABLE)
def test_the_gradient_equals_autograd_through_the_oracle(example, sizes):
    got, want = _gradients(_f32(example), sizes, example)
    assert set(got) == set(want)
    for name, value in want.items():
        assert _agrees(got[name], value), name


def test_ties_of_a_max_share_its_gradient_as_torch_amax():
    text = "param N = 3, C = 4\ninput X[N, C] : f32\noutput M[N] : f32\nM[n] = max[c](X[n, c])\n"
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(text, "m.ta")
        info = passes.get("ta-grad")
        info.run(module.operation, info.options())
        grad = module.body.operations[1]
        x = torch.tensor([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0], [5.0, 1.0, 0.0, 4.0]])
        got = evaluate(grad, {"X": x, "dM": torch.ones(3)}, {"N": 3, "C": 4})["dX"]
    leaf = x.clone().requires_grad_(True)
    leaf.amax(1).sum().backward()
    assert torch.equal(got, leaf.grad)


def test_a_16_bit_function_gets_gradients_of_its_inputs_types():
    got, want = _gradients((EXAMPLES / "gemm.ta").read_text(), {"M": 33, "N": 17, "K": 40}, "gemm")
    assert got["dA"].dtype == torch.bfloat16 and got["dB"].dtype == torch.bfloat16
    assert float((got["dA"].float() - want["dA"].float()).abs().max()) <= 1e-2 * float(want["dA"].abs().max())


def test_an_input_no_output_reads_gets_zeros():
    got, _ = _gradients("param N = 4\ninput X[N] : f32\ninput Z[N] : f32\noutput Y[N] : f32\nY[n] = exp(X[n])\n",
                        {})
    assert torch.equal(got["dZ"], torch.zeros(4))


def test_what_it_cannot_differentiate_is_one_located_error(tilec, tmp_path):
    """A read at a shifted index: its gradient would scatter to i + 1, which ta-grad does not build."""
    spec = tmp_path / "shift.ta"
    spec.write_text("param N = 4\ninput X[N + 1] : f32\noutput Y[N] : f32\nY[i] = X[i + 1] * 2\n")
    status, ta, err = tilec("compile", spec, "--emit", "ta")
    assert status == 0, err
    source = tmp_path / "f.mlir"
    source.write_text(ta)
    status, out, err = tilec("opt", source, "--pass-pipeline", "builtin.module(ta-grad)")
    assert status == 1 and "ta-grad:" in err and "shifts or scales an index" in err and "Traceback" not in err, err
    assert err.startswith(f"{source}:"), err  # located at the op that reads so


def test_names_the_gradient_would_take_that_the_function_uses_are_refused(tilec, tmp_path):
    source = tmp_path / "f.mlir"
    source.write_text('func.func @f(%x: tensor<?xf32, ["N"]> {ta.name = "X"}, %y: tensor<?xf32, ["N"]> {ta.name = "dY"})'
                      ' -> (tensor<?xf32, ["N"]> {ta.name = "Y"}) {\n  return %x : tensor<?xf32, ["N"]>\n}\n')
    status, out, err = tilec("opt", source, "--pass-pipeline", "builtin.module(ta-grad)")
    assert status == 1 and "would be named dY" in err and "Traceback" not in err, err


def test_a_wrong_rule_is_refuted(monkeypatch):
    """Mutants: softmax's gradient without its Σ_j dy·y term (the D of FlashAttention's backward),
    and rsqrt's derivative without its factor of -1/2; each makes the comparison fail."""
    from tilec.passes.ta_grad import _RULES, scalar, tensors

    def no_d_term(op, ybar):
        x, y = op.operation.operands[0], op.result
        n = tensors.rank(x)
        from tilec.dialects import ta_builders as tb
        from torch_mlir.dialects import arith
        full = tensors.identity(n)
        return [(x, tb.build_map(tensors.f32_type(x), lambda: arith.MulFOp(tb.at(y, full), tb.at(ybar, full)).result))]

    monkeypatch.setitem(_RULES, "ta.softmax", no_d_term)
    got, want = _gradients(_f32("softmax"), {})
    assert not _agrees(got["dX"], want["dX"])
    monkeypatch.undo()
    real = scalar._rules

    def rsqrt_unscaled(op, a):
        if op.operation.name == "math.rsqrt":
            y = op.result
            return [(op.operation.operands[0], scalar.arith.MulFOp(a, scalar.arith.MulFOp(y, y).result).result)]
        return real(op, a)
    monkeypatch.setattr(scalar, "_rules", rsqrt_unscaled)
    got, want = _gradients(_f32("rmsnorm"), {})
    assert not _agrees(got["dX"], want["dX"])


@pytest.mark.parametrize("example, stage", [("softmax", "loop"), ("attention", "loop"), ("layernorm", "loop"),
                                            ("softmax", "tile"), ("gemm", "tile")])
def test_a_gradient_function_lowers_like_any_other(example, stage):
    """What ta-grad builds is ta: fused and lowered to loops (and, where a tile form takes each
    of its kernels, to tiles), it equals the oracle's run of it."""
    from tilec.build.stages import run_stage

    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(_f32(example), f"{example}.ta")
        info = passes.get("ta-grad")
        info.run(module.operation, info.options(replace=True))
        fn = module.body.operations[0]
        sig = signature(fn)
        env = bind(sig, {})
        inputs = random_inputs(sig, env, 0)
        want = evaluate(fn, inputs, env)
        got = run_stage(stage, module, sig, inputs, env, "")
    for name, value in want.items():
        assert float((got[name] - value).abs().max()) <= 1e-4 * max(float(value.abs().max()), 1.0), name


def test_every_function_of_the_spec_language_has_its_derivative():
    """exp log sqrt rsqrt tanh sigmoid abs erf, max, min, select and a mask, min over a row,
    an index and a parameter as values, in one spec (abs kept off 0, where it has no derivative)."""
    text = """param N = 5, C = 6
input X[N, C] : f32
input Z[N, C] : f32
output Y[N, C] : f32
output R[N] : f32
Y[n, c] = exp(X[n, c]) + log(abs(X[n, c]) + 1) + sqrt(abs(Z[n, c]) + 1) * rsqrt(abs(X[n, c]) + 2) + tanh(X[n, c]) * sigmoid(Z[n, c]) + erf(X[n, c]) * c + max(X[n, c], Z[n, c]) - min(X[n, c], 2 * Z[n, c]) + select(X[n, c] > 0, X[n, c] * N, -Z[n, c]) + (X[n, c] / (Z[n, c] * Z[n, c] + 1) where c <= n else 0)
R[n] = min[c](X[n, c] * Z[n, c]) + sum[c](X[n, c])
"""
    got, want = _gradients(text, {})
    for name, value in want.items():
        assert _agrees(got[name], value), name
