"""Gradients through tilec.compile: a call that needs them runs the saved pair of ta-grad
(the forward that keeps each softmax's log-sum-exp, the backward that reads it) as one autograd
node, and every input and parameter gets torch's gradient: exactly (gradcheck in float64) on the
oracle, within f32's rounding at the loop stage; a graph ta-grad cannot differentiate runs in
torch, said once."""

import warnings

import pytest
import torch

import tilec
from tilec.diagnostics import TilecError
from tilec.pytorch.fallback import TilecFallbackWarning


def attention(q, k, v):
    return torch.softmax(q @ k.transpose(-1, -2) / 4.0, dim=-1) @ v


def causal(q, k, v):
    s = q @ k.transpose(-1, -2) / 4.0
    mask = torch.ones(s.shape[-2], s.shape[-1], dtype=torch.bool).tril()
    return torch.softmax(s.masked_fill(~mask, float("-inf")), dim=-1) @ v


def _strict():
    """Any fallback to torch fails the test: the gradients checked are tilec's."""
    warnings.simplefilter("error", TilecFallbackWarning)


@pytest.mark.parametrize("fn", [attention, causal], ids=["attention", "causal"])
def test_gradcheck_in_float64_on_the_oracle(fn):
    _strict()
    torch.manual_seed(0)
    q, k, v = (torch.randn(1, 2, 5, 3) for _ in range(3))
    graph = tilec.compile(fn, (q, k, v), stage="oracle")  # compiled for f32, called in f64
    assert graph.module is not None
    wide = [t.double().requires_grad_(True) for t in (q, k, v)]
    assert graph(*wide).dtype == torch.float64
    assert torch.autograd.gradcheck(graph, tuple(wide))
    assert graph.pair() is not None  # the saved pair ran, not torch


def _close(got: list, want: list, tol: float = 1e-5) -> None:
    for a, b in zip(got, want):
        assert float((a - b).abs().max()) <= tol * max(float(b.abs().max()), 1.0)


def _grads(model_or_fn, inputs, params, cotangent):
    for t in list(inputs) + params:
        t.grad = None
    (model_or_fn(*inputs) * cotangent).sum().backward()
    return [t.grad.clone() for t in list(inputs) + params]


@pytest.mark.parametrize("fn, shape", [(attention, (2, 3, 7, 8)), (causal, (1, 2, 6, 4)), (attention, (1, 1, 1, 4))],
                         ids=["attention", "causal", "size-1"])
def test_attention_gradients_at_the_loop_stage(fn, shape):
    _strict()
    torch.manual_seed(1)
    q, k, v = (torch.randn(*shape, requires_grad=True) for _ in range(3))
    graph = tilec.compile(fn, (q, k, v))
    cotangent = torch.randn(shape)
    got, want = _grads(graph, (q, k, v), [], cotangent), _grads(fn, (q, k, v), [], cotangent)
    _close(got, want)


def test_pytorch_attention_gets_flashattentions_backward():
    """The softmax PyTorch code writes out is raised to one op (ta-raise-softmax) before ta-grad:
    the forward saves its log-sum-exp, and the backward reads it and the output instead of
    computing the row max and sum again."""
    q, k, v = (torch.randn(1, 2, 5, 3) for _ in range(3))
    graph = tilec.compile(attention, (q, k, v))
    pair = graph.pair()
    assert pair.statistics == ["lse"]
    backward = str(pair.backward)
    assert "ta.softmax" not in backward and 'kind = "max"' not in backward and "ta.recompute" in backward
    # D from the saved output through the importer's casts of P and O: no sum over the scores
    # is left, so the backward is FlashAttention's three kernels (D, dK/dV, dQ)
    from tilec.pytorch.api import ir_location

    with graph.context, ir_location():
        _, kernels = pair.plans({})
    assert [p.form for p in kernels.pieces] == ["rows", "recompute", "recompute"]


def test_a_modules_parameters_get_their_gradients():
    """Linear, GELU and LayerNorm: the weights, biases and the input, as torch's backward gives them."""
    _strict()
    torch.manual_seed(2)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.LayerNorm(32))
    x = torch.randn(5, 16, requires_grad=True)
    graph = tilec.compile(model, (x,))
    cotangent = torch.randn(5, 32)
    params = list(model.parameters())
    got, want = _grads(graph, (x,), params, cotangent), _grads(model, (x,), params, cotangent)
    _close(got, want)


def test_float64_runs_on_the_oracle_only():
    q, k, v = (torch.randn(1, 2, 5, 3) for _ in range(3))
    graph = tilec.compile(attention, (q, k, v))
    with pytest.raises(TilecError, match="float64 tensors run at stage='oracle' only"):
        graph(q.double(), k.double(), v.double())


def test_gradcheck_fails_on_a_wrong_backward(monkeypatch):
    """The check can fail: a contraction's adjoint doubled in ta-grad (dV = 2 Pᵀ·dO, ...),
    gradcheck says so."""
    from tilec.passes import ta_grad
    from tilec.passes.ta_grad import tensors

    def doubled(op, ybar):
        return tensors.contract(op, tensors.total([ybar, ybar], op.result))

    monkeypatch.setitem(ta_grad._RULES, "ta.contract", doubled)
    q, k, v = (torch.randn(1, 2, 5, 3) for _ in range(3))
    graph = tilec.compile(attention, (q, k, v), stage="oracle")
    wide = [t.double().requires_grad_(True) for t in (q, k, v)]
    assert not torch.autograd.gradcheck(graph, tuple(wide), raise_exception=False)


def test_at_the_tile_stage_the_forward_is_the_kernels(monkeypatch):
    """stage="tile": the outputs are the tile kernels' (interpreted), the backward runs at the
    loop stage, the gradients torch's."""
    from tilec.build import plan

    _strict()
    ran = []
    real = plan.Kernels.run
    monkeypatch.setattr(plan.Kernels, "run", lambda *a, **k: ran.append(1) or real(*a, **k))
    torch.manual_seed(4)
    q, k, v = (torch.randn(1, 2, 9, 16, requires_grad=True) for _ in range(3))
    graph = tilec.compile(attention, (q, k, v), stage="tile")
    cotangent = torch.randn(1, 2, 9, 16)
    got, want = _grads(graph, (q, k, v), [], cotangent), _grads(attention, (q, k, v), [], cotangent)
    assert ran
    _close(got, want, 1e-4)


def test_torch_compile_with_the_tilec_backend_takes_the_same_path():
    """torch.compile(backend="tilec") on CPU tensors: the graph TorchDynamo captures is called
    with the parameters requiring grad, so the call is tilec's autograd node too."""
    _strict()
    torch.manual_seed(3)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.LayerNorm(32))
    x = torch.randn(5, 16, requires_grad=True)
    compiled = torch.compile(model, backend="tilec")
    y = compiled(x)
    nodes, seen = [y.grad_fn], []
    while nodes:  # tilec's node is in the graph autograd walks
        node = nodes.pop()
        seen.append(type(node).__name__)
        nodes += [n for n, _ in node.next_functions if n is not None]
    assert "DifferentiableBackward" in seen, seen
    cotangent = torch.randn(5, 32)
    params = list(model.parameters())
    got, want = _grads(compiled, (x,), params, cotangent), _grads(model, (x,), params, cotangent)
    _close(got, want, 3e-5)


def test_no_gradients_wanted_runs_as_before():
    """Under no_grad (or with nothing requiring grad) the call is the plain forward: no pair built."""
    _strict()
    q, k, v = (torch.randn(1, 2, 5, 3, requires_grad=True) for _ in range(3))
    graph = tilec.compile(attention, (q, k, v))
    with torch.no_grad():
        out = graph(q, k, v)
    assert not out.requires_grad and graph._training is None
    assert not graph(q.detach(), k.detach(), v.detach()).requires_grad


def test_a_graph_ta_grad_refuses_runs_in_torch_with_a_warning():
    """A read at a shifted index (x[1:] - x[:-1]) has no gradient in ta-grad: the call that needs
    one runs in torch, its gradient right, and a TilecFallbackWarning says why."""
    def diff(x):
        return (x[:, 1:] - x[:, :-1]) * x[:, 1:]

    x = torch.randn(3, 6, requires_grad=True)
    graph = tilec.compile(diff, (x,))
    if graph.module is None:
        pytest.skip("the importer leaves this graph to torch")
    with pytest.warns(TilecFallbackWarning, match="needs gradients runs in torch"):
        y = graph(x)
    y.sum().backward()
    got = x.grad.clone()
    x.grad = None
    diff(x).sum().backward()
    assert torch.equal(got, x.grad)
