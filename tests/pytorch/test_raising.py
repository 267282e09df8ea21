"""Ordinary PyTorch modules through tilec.compile, whole (strict: no op left to torch), on the
tile stage against torch eager: the kinds a user brings first (attention as nanoGPT, torch.einsum
and nn.MultiheadAttention write it, the MLPs and norms of transformer blocks, row reductions,
broadcast and fused-add matmuls, a classifier head). Shapes divide no tile."""

import inspect
import math
import os

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

import tilec
from tilec.diagnostics import SourceLoc, TilecError, mlir_loc

torch.manual_seed(0)


class NanoGPTAttention(nn.Module):
    """nanoGPT's CausalSelfAttention: one QKV Linear, heads as views, causal SDPA, the projection."""

    def __init__(self, c: int = 64, heads: int = 4):
        super().__init__()
        self.heads, self.c_attn, self.c_proj = heads, nn.Linear(c, 3 * c), nn.Linear(c, c)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in self.c_attn(x).split(c, dim=2))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(y.transpose(1, 2).contiguous().view(b, t, c))


class SwiGLU(nn.Module):
    def __init__(self, c: int = 32, f: int = 48):
        super().__init__()
        self.w1, self.w3, self.w2 = nn.Linear(c, f, bias=False), nn.Linear(c, f, bias=False), nn.Linear(f, c, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class RMSNorm(nn.Module):
    def __init__(self, c: int = 32):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(c))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight


class Classifier(nn.Module):
    def __init__(self, c: int = 32, hidden: int = 64, classes: int = 10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(c, hidden), nn.ReLU(), nn.Linear(hidden, classes))

    def forward(self, x):
        return F.log_softmax(self.net(x), dim=-1)


class SelfAttention(nn.Module):
    def __init__(self, c: int = 64, heads: int = 4):
        super().__init__()
        self.attention = nn.MultiheadAttention(c, heads, batch_first=True)

    def forward(self, x):
        return self.attention(x, x, x, need_weights=False)[0]


def einsum_attention(q, k, v):
    """Attention as torch.einsum writes it: torch merges B and H for its bmm and splits them again."""
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(q.shape[-1])
    return torch.einsum("bhqk,bhkd->bhqd", scores.softmax(-1), v)


MODULES = {
    "nanogpt_attention": (NanoGPTAttention(), [(2, 19, 64)]),
    # batch-first: its P·V over [B*H, T, D] merged as [T, B, H*D] is rebuilt over (h, d), V read
    # through a column offset of the input projection's [T, B, 3C] (fold_reshape_into_contract)
    "multihead_attention": (SelfAttention(), [(2, 19, 64)]),
    "einsum_attention": (einsum_attention, [(2, 4, 19, 16), (2, 4, 23, 16), (2, 4, 23, 16)]),
    "swiglu_mlp": (SwiGLU(), [(2, 19, 32)]),
    "rmsnorm": (RMSNorm(), [(2, 19, 32)]),
    "layernorm_linear_gelu": (nn.Sequential(nn.LayerNorm(32), nn.Linear(32, 48), nn.GELU()), [(2, 19, 32)]),
    "softmax": (lambda x: torch.softmax(x, -1), [(7, 33)]),
    "logsumexp": (lambda x: torch.logsumexp(x, -1), [(7, 33)]),
    "broadcast_bmm": (lambda a, b: torch.matmul(a, b), [(2, 3, 9, 17), (3, 17, 5)]),
    "addmm": (lambda c, a, b: torch.addmm(c, a, b), [(5,), (9, 17), (17, 5)]),
    "baddbmm": (lambda c, a, b: torch.baddbmm(c, a, b, beta=0.5, alpha=2.0), [(3, 9, 5), (3, 9, 17), (3, 17, 5)]),
    "mlp_classifier": (Classifier(), [(9, 32)]),
}


@pytest.mark.parametrize("name", MODULES)
def test_module_runs_whole_on_the_tile_stage(name):
    fn, shapes = MODULES[name]
    if isinstance(fn, nn.Module):
        fn.eval()
    inputs = [torch.randn(s) for s in shapes]
    graph = tilec.compile(fn, inputs, stage="tile", name=name, strict=True)
    with torch.no_grad():
        torch.testing.assert_close(graph(*inputs), fn(*inputs), rtol=1e-4, atol=1e-4)


def _canonicalize_rows(report) -> list:
    return [r.verdict for r in report.results if "ta-canonicalize" in r.check]


def test_einsum_attention_reshapes_fold_and_are_proved():
    """torch's merged [B*H] bmm, split again, is rebuilt over [B, H] (ta-canonicalize's
    fold_reshape_into_contract), and the rewrite checker proves the step."""
    inputs = [torch.randn(s) for s in MODULES["einsum_attention"][1]]
    graph = tilec.compile(einsum_attention, inputs, stage="tile", name="einsum", strict=True)
    assert _canonicalize_rows(graph.verify()) == ["proved"]


def test_multihead_attention_fuses_and_its_reshapes_are_proved():
    """nn.MultiheadAttention's merged-head P·V is rebuilt over (b, h, t, d), so softmax·V fuses
    into one attention kernel, and the rewrite checker proves ta-canonicalize's step."""
    x = torch.randn(*MODULES["multihead_attention"][1][0])
    graph = tilec.compile(SelfAttention().eval(), [x], stage="tile", name="mha", strict=True)
    assert "online" in [p.form for p in graph.kernels().pieces]
    assert _canonicalize_rows(graph.verify()) == ["proved"]


def test_an_attention_no_kernel_takes_is_refused_with_its_own_reason():
    """A head dim of 8 (nanoGPT's module at C = 32, 4 heads): the error names the fused
    attention's reason, not only the piece the split was left with."""
    x = torch.randn(2, 19, 32)
    graph = tilec.compile(NanoGPTAttention(32, 4).eval(), [x], stage="tile", strict=True)
    with pytest.raises(TilecError, match="fused reduction .* head dim .* multiple of 16") as err:
        graph(x)
    # located at the user's SDPA call, not at tilec's wrapper that called the module
    lines, first = inspect.getsourcelines(NanoGPTAttention.forward)
    sdpa = first + next(k for k, line in enumerate(lines) if "scaled_dot_product_attention" in line)
    assert (err.value.loc.file, err.value.loc.line) == (__file__, sdpa)


def test_a_traced_op_is_located_in_the_users_code():
    """Of a traced op's call stack, the innermost frame outside torch's modules and tilec."""
    torch_file = os.path.join(os.path.dirname(torch.__file__), "nn", "modules", "activation.py")
    wrapper = os.path.join(os.path.dirname(tilec.__file__), "pytorch", "importer.py")
    stack = f'loc(callsite("{torch_file}":1494:0 at callsite("/home/u/model.py":66:0 at "{wrapper}":54:0)))'
    assert mlir_loc(stack, "<ir>") == SourceLoc("/home/u/model.py", 66, 0)
    only_library = f'loc(callsite("{torch_file}":1494:0 at "{wrapper}":54:0))'
    assert mlir_loc(only_library, "<ir>").line == 1494  # no user frame: the innermost
    assert mlir_loc('loc("spec.tl":3:5)', "<ir>") == SourceLoc("spec.tl", 3, 5)
