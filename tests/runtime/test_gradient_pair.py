"""tilec.runtime.training.GradientPair: a training pair's two packages as one autograd node.
The packages here are stand-ins with a package's call and names (what the node reads), so the
wiring runs on the CPU; the real kernels run on the GPU (bench/check_training.py). The pair
compile builds both packages from a PyTorch module (Pair.on_cuda), NVRTC included."""

import pytest
import torch

from tilec.runtime.training import GradientPair


class _Package:
    """A callable with a package's input and output names."""

    def __init__(self, inputs, outputs, fn):
        self.inputs, self.outputs, self.fn = inputs, [{"name": n} for n in outputs], fn

    def __call__(self, *tensors, sizes=None):
        out = self.fn(*tensors)
        return out if len(self.outputs) > 1 else out[0]


def _scaled_softmax_pair():
    """y = softmax(x * w) over the last dim, saving lse; the backward of x and w."""
    def forward(x, w):
        s = x * w
        lse = torch.logsumexp(s, -1)
        return torch.exp(s - lse[..., None]), lse

    def backward(x, w, y, lse, dy):
        p = torch.exp(x * w - lse[..., None])
        ds = p * (dy - (dy * y).sum(-1, keepdim=True))
        return ds * w, (ds * x).sum(0)

    return GradientPair(_Package(["x", "w"], ["y", "lse"], forward),
                        _Package(["x", "w", "y", "lse", "dy"], ["dx", "dw"], backward), outputs=["y"])


def test_the_pair_gives_torchs_gradients_through_autograd():
    torch.manual_seed(0)
    x, w = torch.randn(5, 7, dtype=torch.float64), torch.randn(7, dtype=torch.float64)
    pair = _scaled_softmax_pair()
    xs, ws = x.clone().requires_grad_(), w.clone().requires_grad_()
    (pair(xs, ws) * torch.arange(7.0, dtype=torch.float64)).sum().backward()
    xr, wr = x.clone().requires_grad_(), w.clone().requires_grad_()
    (torch.softmax(xr * wr, -1) * torch.arange(7.0, dtype=torch.float64)).sum().backward()
    assert torch.allclose(xs.grad, xr.grad) and torch.allclose(ws.grad, wr.grad)


def test_only_the_named_outputs_are_returned_and_lse_is_kept_for_the_backward():
    pair = _scaled_softmax_pair()
    out = pair(torch.randn(2, 3, requires_grad=True), torch.randn(3))
    assert isinstance(out, torch.Tensor) and out.shape == (2, 3) and out.grad_fn is not None
    assert pair.saved == ["y", "lse"] and pair.outputs == ["y"]


def test_a_backward_reading_what_the_forward_does_not_give_is_refused():
    forward = _Package(["x"], ["y"], lambda x: (x * 2,))
    backward = _Package(["x", "m", "dy"], ["dx"], lambda x, m, dy: (dy * 2,))
    with pytest.raises(ValueError, match="reads m"):
        GradientPair(forward, backward, outputs=["y"])
    with pytest.raises(ValueError, match="returns no z"):
        GradientPair(forward, _Package(["dy"], ["dx"], lambda dy: (dy,)), outputs=["z"])
    pair = GradientPair(forward, _Package(["dy"], ["dx"], lambda dy: (dy * 2,)), outputs=["y"])
    with pytest.raises(TypeError, match="takes the inputs"):
        pair(torch.ones(1), torch.ones(1))


def test_the_pair_of_a_pytorch_module_compiles_to_two_packages(tmp_path):
    import tilec
    from tilec.pytorch.api import ir_location
    from tilec.runtime import load

    class RowSoftmax(torch.nn.Module):
        def forward(self, x):
            return torch.softmax(x, dim=-1)

    graph = tilec.compile(RowSoftmax(), (torch.zeros(64, 256, dtype=torch.bfloat16),), stage="oracle", strict=True)
    paths = iter(("fwd", "bwd"))

    def written(name, key, build):
        path = str(tmp_path / f"{next(paths)}.tkp")
        build(path)
        return load(path, register_op=False)

    with graph.context, ir_location():
        pair = graph.pair().on_cuda({}, "sm_80", written, list(graph.graph.output_names))
    assert pair.inputs == ["in0"] and pair.outputs == ["out0"] and "lse" in pair.saved
    assert (tmp_path / "fwd.tkp").exists() and (tmp_path / "bwd.tkp").exists()


class _OnTheCpuModel:
    """A package stand-in running a plan's emitted CUDA on the CPU model of the GPU."""

    def __init__(self, kernels, module):
        from tilec.signature import signature

        sig = signature(module.body.operations[0])
        self.kernels, self.inputs = kernels, [s.name for s in sig.inputs]
        self.outputs = [{"name": s.name} for s in sig.outputs]

    def __call__(self, *tensors, sizes=None):
        found = self.kernels.run(dict(zip(self.inputs, tensors)), cuda=True)
        out = tuple(found[o["name"]] for o in self.outputs)
        return out if len(out) > 1 else out[0]


def test_the_pairs_cuda_gives_torchs_gradients_of_pytorch_attention():
    # the CUDA the pair's packages hold, run on the CPU model of the GPU and joined as autograd
    # joins them: bf16 gradients of attention written as PyTorch code against f32 autograd
    import tilec
    from tilec.pytorch.api import ir_location

    class Attention(torch.nn.Module):
        def forward(self, q, k, v):
            return torch.softmax(q @ k.transpose(-1, -2) * 0.125, dim=-1) @ v

    torch.manual_seed(0)
    q, k, v, do = (torch.randn(1, 1, 24, 64).to(torch.bfloat16) for _ in range(4))
    graph = tilec.compile(Attention(), (q, k, v), stage="oracle", strict=True)
    with graph.context, ir_location():
        pair = graph.pair()
        forward, backward = pair.plans({})
        # FlashAttention's backward: D from the saved output, dK/dV and dQ recomputing P from lse
        # (P reaches P·V through the importer's casts; D is not a row sum over the scores)
        assert [p.form for p in backward.pieces] == ["rows", "recompute", "recompute"]
        node = GradientPair(_OnTheCpuModel(forward, pair.forward), _OnTheCpuModel(backward, pair.backward),
                            outputs=list(graph.graph.output_names))
        leaves = [x.reshape(24, 64).clone().requires_grad_() for x in (q, k, v)]
        got = torch.autograd.grad(node(*leaves), leaves, do.reshape(24, 64))
    wide = [x.float().requires_grad_() for x in (q, k, v)]
    ref = torch.autograd.grad(Attention()(*wide), wide, do.float())
    for g, r in zip(got, ref):
        assert float((g.float() - r.reshape(24, 64)).abs().max() / r.abs().max()) < 2e-2
