"""PyTorch code through tilec.compile, on the CPU stages, against torch eager."""

import json
import math
import re

import pytest
import torch
import torch.nn.functional as F

import tilec
from tilec.diagnostics import TilecError
from tilec.pytorch.api import TilecFallbackWarning

torch.manual_seed(0)


def _attention(q, k, v):
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v


def _causal_attention(q, k, v):
    s = q.shape[-2]
    mask = torch.ones(s, s, dtype=torch.bool).tril()  # an index mask: inlined where it is read
    scores = (q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])).masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def _rmsnorm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w


def _rope(x, cos, sin):
    """Llama's rotary embedding: rotate_half is a torch.cat of the negated upper half and the lower one."""
    half = x.shape[-1] // 2
    return x * cos + torch.cat((-x[..., half:], x[..., :half]), dim=-1) * sin


CASES = {
    "matmul": (lambda a, b: a @ b, lambda: (torch.randn(33, 17), torch.randn(17, 9))),
    "matmul_size_1": (lambda a, b: a @ b, lambda: (torch.randn(1, 17), torch.randn(17, 5))),
    "linear_bias_gelu": (lambda x, w, b: F.gelu(F.linear(x, w, b)), lambda: (torch.randn(6, 16), torch.randn(24, 16), torch.randn(24))),
    "softmax": (lambda x: torch.softmax(x, dim=-1), lambda: (torch.randn(7, 33),)),
    "layernorm": (lambda x: F.layer_norm(x, (32,)), lambda: (torch.randn(5, 32),)),
    "rmsnorm": (_rmsnorm, lambda: (torch.randn(5, 32), torch.randn(32))),
    "attention": (_attention, lambda: (torch.randn(2, 19, 16), torch.randn(2, 23, 16), torch.randn(2, 23, 16))),
    "causal_attention": (_causal_attention, lambda: (torch.randn(2, 19, 16), torch.randn(2, 19, 16), torch.randn(2, 19, 16))),
    # a Linear on a [B, T, C] activation: torch-mlir collapses B and T into rows; raised over
    # B and T apart, one contraction with its bias (T = 1: a size-1 dim among them)
    "linear_3d": (lambda x, w, b: F.linear(x, w, b), lambda: (torch.randn(2, 5, 16), torch.randn(24, 16), torch.randn(24))),
    "linear_3d_t1": (lambda x, w, b: F.gelu(F.linear(x, w, b)), lambda: (torch.randn(3, 1, 16), torch.randn(8, 16), torch.randn(8))),
    "rope": (_rope, lambda: (torch.randn(2, 3, 7, 10), torch.randn(7, 10), torch.randn(7, 10))),
    # parts of unequal sizes, one of size 1, along the first dim, then a reduction over it
    "cat_then_sum": (lambda a, b, c: torch.cat((a, b * 2, c), dim=0).sum(0),
                     lambda: (torch.randn(3, 5), torch.randn(1, 5), torch.randn(4, 5))),
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("stage", ["oracle", "loop"])
def test_matches_torch_eager(name, stage):
    fn, make = CASES[name]
    args = make()
    graph = tilec.compile(fn, args, stage=stage, strict=True, name=name)
    assert '"ta.' in graph.ta
    torch.testing.assert_close(graph(*args), fn(*args), rtol=1e-4, atol=1e-4)


def test_module_parameters_are_inputs_not_constants():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.LayerNorm(32))
    x = torch.randn(4, 16)
    graph = tilec.compile(model, (x,), strict=True)
    assert "dense_resource" not in graph.ta and "0.weight" not in graph.ta
    with torch.no_grad():
        torch.testing.assert_close(graph(x), model(x), rtol=1e-4, atol=1e-4)
        model[0].weight.mul_(2)  # the compiled graph reads the module's current parameters
        torch.testing.assert_close(graph(x), model(x), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", ["matmul", "linear_bias_gelu", "linear_3d", "linear_3d_t1", "attention",
                                  "causal_attention"])
def test_tile_stage_matches_torch_eager(name):
    fn, make = CASES[name]
    args = make()
    graph = tilec.compile(fn, args, stage="tile", strict=True)
    torch.testing.assert_close(graph(*args), fn(*args), rtol=1e-4, atol=1e-4)


def _buffers(graph) -> list[str]:
    from tilec.lowering.driver import to_loops

    with graph.context:
        return re.findall(r"memref.alloc\(\)[^:]*: memref<([^>]*)>", str(to_loops(graph.module)))


@pytest.mark.parametrize("name, scores", [("attention", "19x23"), ("causal_attention", "19x19")])
def test_attention_fuses_into_one_pass_over_keys(name, scores):
    fn, make = CASES[name]
    buffers = _buffers(tilec.compile(fn, make(), strict=True))
    assert buffers and not [b for b in buffers if scores in b], buffers  # no scores buffer


class Block(torch.nn.Module):
    """Pre-norm transformer block: attention (2 heads) + GELU MLP."""

    def __init__(self, d=32, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv, self.proj = torch.nn.Linear(d, 3 * d), torch.nn.Linear(d, d)
        self.norm1, self.norm2 = torch.nn.LayerNorm(d), torch.nn.LayerNorm(d)
        self.up, self.down = torch.nn.Linear(d, 4 * d), torch.nn.Linear(4 * d, d)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).split(d, dim=-1)
        q, k, v = (t.reshape(b, s, self.heads, d // self.heads).transpose(1, 2) for t in (q, k, v))
        x = x + self.proj(_attention(q, k, v).transpose(1, 2).reshape(b, s, d))
        return x + self.down(F.gelu(self.up(self.norm2(x))))


def test_transformer_block_matches_eager_and_fuses_attention():
    block, x = Block(), torch.randn(2, 7, 32)
    graph = tilec.compile(block, (x,), strict=True)
    with torch.no_grad():
        torch.testing.assert_close(graph(x), block(x), rtol=1e-4, atol=1e-4)
    buffers = _buffers(graph)
    assert not [b for b in buffers if "7x7" in b], buffers  # attention: one pass, no 7x7 scores


def _unsupported(x):
    return torch.sort(x, dim=-1).values  # sort has no ta rule


class _Sorting(torch.nn.Module):
    def forward(self, x):
        return torch.sort(x, dim=-1).values


def test_unsupported_op_is_located_in_user_code():
    x = torch.randn(4, 8)
    with pytest.raises(TilecError) as err:
        tilec.compile(_Sorting(), (x,), strict=True)
    assert "test_pytorch.py" in str(err.value.loc) and "'tm_tensor.sort'" in err.value.message


def _sort_in_a_helper(x):
    y = x * 2
    return torch.sort(y, dim=-1).values  # the op's own line


class _SortingThroughAHelper(torch.nn.Module):
    def forward(self, x):
        return _sort_in_a_helper(x + 1)  # the helper's call


def test_an_unsupported_op_in_a_helper_is_located_at_its_own_line():
    import inspect

    with pytest.raises(TilecError) as err:
        tilec.compile(_SortingThroughAHelper(), (torch.randn(4, 8),), strict=True)
    lines, first = inspect.getsourcelines(_sort_in_a_helper)
    assert err.value.loc.line == first + 2 and "'tm_tensor.sort'" in err.value.message, err.value.loc


def test_unsupported_op_falls_back_to_torch():
    x = torch.randn(4, 8)
    with pytest.warns(TilecFallbackWarning, match="leaves this graph to torch"):
        graph = tilec.compile(_unsupported, (x,))
    assert graph.ta == "" and "tm_tensor.sort" in graph.fallback_reason
    torch.testing.assert_close(graph(x), _unsupported(x))


def test_called_with_other_shapes_is_an_error():
    a, b = torch.randn(3, 4), torch.randn(4, 5)
    graph = tilec.compile(lambda a, b: a @ b, (a, b), stage="oracle")
    with pytest.raises(TilecError, match="compiled for input shapes"):
        graph(torch.randn(5, 4), b)


def _bf16(*shapes):
    return tuple(torch.randn(*s).to(torch.bfloat16) for s in shapes)


BF16 = {
    "attention": (_attention, lambda: _bf16((2, 2, 40, 64), (2, 2, 70, 64), (2, 2, 70, 64))),
    "causal_attention": (_causal_attention, lambda: _bf16((2, 2, 70, 64), (2, 2, 70, 64), (2, 2, 70, 64))),
    "causal_attention_batch_1": (_causal_attention, lambda: _bf16((1, 2, 70, 64), (1, 2, 70, 64), (1, 2, 70, 64))),
    "linear_bias_gelu": (CASES["linear_bias_gelu"][0], lambda: _bf16((40, 32), (72, 32), (72,))),
    "linear_3d": (CASES["linear_3d"][0], lambda: _bf16((2, 37, 32), (72, 32), (72,))),
    "sdpa_causal": (lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
                    lambda: _bf16((2, 2, 70, 64), (2, 2, 70, 64), (2, 2, 70, 64))),
}


@pytest.mark.parametrize("name", BF16)
def test_bf16_graphs_are_one_kernel_and_match_on_the_tile_stage(name, tmp_path):
    fn, make = BF16[name]
    args = make()
    graph = tilec.compile(fn, args, stage="tile", strict=True)
    expected = fn(*(a.float() for a in args))  # intermediates in f32, as tilec computes them
    torch.testing.assert_close(graph(*args).float(), expected, rtol=2e-2, atol=2e-2)
    manifest = graph.package(str(tmp_path / f"{name}.tkp"), "bm=64 bn=64 warps=4 stages=2", ("sm_90a",))
    assert list(manifest["kernels"]) == ["sm_90a"]
    kernel = manifest["kernels"]["sm_90a"]
    assert kernel["cubin"] == f"{kernel['kernel']}.sm_90a.cubin"
    assert [a["dtype"] for a in kernel["args"] if a["role"] != "param"] == ["bf16"] * len(kernel["args"])


def test_torch_compile_backend_runs_graphs_through_tilec(backend_graphs):
    built = backend_graphs
    torch._dynamo.reset()
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.LayerNorm(32))
    x = torch.randn(4, 16)
    with torch.no_grad():
        torch.testing.assert_close(torch.compile(model, backend="tilec")(x), model(x), rtol=1e-4, atol=1e-4)
    assert built and built[0].module is not None and '"ta.contract"' in built[0].ta


def test_torch_compile_backend_leaves_unsupported_graphs_to_torch():
    torch._dynamo.reset()
    x = torch.randn(4, 8)
    with pytest.warns(TilecFallbackWarning):
        out = torch.compile(_unsupported, backend="tilec")(x)
    torch.testing.assert_close(out, _unsupported(x))


class _LinearGeluThen(torch.nn.Module):
    """A Linear + GELU, then an op with no ta rule (torch.sort, torch.cumsum)."""

    def __init__(self, then):
        super().__init__()
        self.lin, self.then = torch.nn.Linear(16, 16), then

    def forward(self, x):
        return self.then(F.gelu(self.lin(x)))


@pytest.mark.parametrize("then", [lambda y: torch.sort(y, -1).values, lambda y: torch.cumsum(y, -1)],
                         ids=["sort", "cumsum"])
def test_torch_compile_backend_runs_the_regions_of_a_mixed_graph(then, backend_graphs, monkeypatch):
    """Under TorchDynamo the region is traced with real sizes, not its fake mode's symbolic ones
    (once 'SymIntArrayRef expected to contain only concrete integers'), and the regions it compiled run."""
    from tilec.pytorch import partition

    ran = []
    monkeypatch.setattr(partition._Region, "forward", lambda self, *args: ran.append(self) or self.graph_(*args))
    torch._dynamo.reset()
    model, x = _LinearGeluThen(then), torch.randn(4, 16)
    with torch.no_grad(), pytest.warns(TilecFallbackWarning, match="compiles 1 region"):
        out = torch.compile(model, backend="tilec")(x)
    with torch.no_grad():
        torch.testing.assert_close(out, model(x), rtol=1e-4, atol=1e-4)
    assert len(built := backend_graphs) == 1 and '"ta.contract"' in built[0].regions[0].ta and ran


def test_torch_compile_backend_leaves_what_fails_in_tilec_to_torch(monkeypatch):
    """Whatever fails in tilec (here: a region's compile, the whole graph's, then a graph's first
    call) leaves that region or graph to torch with a TilecFallbackWarning, never the user's program."""
    from tilec.pytorch import api, backend

    def broken(*args, **kwargs):
        raise RuntimeError("broken on purpose")

    imported = api._imported
    regions_broken = lambda fn, example, name, *rest: broken() if name.startswith("fused_") else \
        imported(fn, example, name, *rest)  # noqa: E731 - the regions tilec compiles are named fused_*
    failures = [(api, "_imported", regions_broken, "leaves region 'fused_0' to torch: RuntimeError: broken"),
                (backend, "CompiledGraph", broken, "leaves this graph to torch: RuntimeError: broken"),
                (api.CompiledGraph, "run_stage", broken, "leaves this graph to torch: RuntimeError: broken")]
    model, x = _Partly(), torch.randn(4, 8)
    for owner, name, replacement, warning in failures:
        with monkeypatch.context() as patch:
            patch.setattr(owner, name, replacement)
            torch._dynamo.reset()
            with torch.no_grad(), pytest.warns(TilecFallbackWarning, match=warning):
                out = torch.compile(model, backend="tilec")(x)
        with torch.no_grad():
            torch.testing.assert_close(out, model(x), rtol=1e-4, atol=1e-4)


class _PagedLookup(torch.nn.Module):
    """A Linear + GELU beside a lookup through an int64 block table."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(16, 16)

    def forward(self, x, cache, block_table):
        return F.gelu(self.lin(x)) + cache[block_table].sum(0)


class _Positions(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("position_ids", torch.arange(4))

    def forward(self, x):
        return x + self.position_ids[:, None]


def test_an_int64_input_is_named_and_left_to_torch(backend_graphs):
    """An int64 input (a block table) is as an op with no ta rule: named in a TilecError with
    strict=True, else the graph is split around it (tilec.compile and torch.compile alike); an
    int64 buffer likewise (once a TypeError from the importer, and an MLIRError for the buffer)."""
    model, args = _PagedLookup(), (torch.randn(4, 16), torch.randn(5, 16), torch.tensor([0, 3, 4]))
    taken = r"dtype torch.int64 is not taken \(tilec takes f32, f16, bf16 and bool tensors\)"
    with pytest.raises(TilecError, match=rf"'example input 2 \(block_table\)': {taken}"):
        tilec.compile(model, args, strict=True)
    with pytest.warns(TilecFallbackWarning, match=rf"compiles 1 region.*example input 2 \(block_table\): {taken}"):
        graph = tilec.compile(model, args)
    torch._dynamo.reset()
    with torch.no_grad():
        torch.testing.assert_close(graph(*args), model(*args))
        with pytest.warns(TilecFallbackWarning, match=rf"compiles 1 region.*block_table.*: {taken}"):
            torch.testing.assert_close(torch.compile(model, backend="tilec")(*args), model(*args))
    assert backend_graphs[0].regions and '"ta.contract"' in backend_graphs[0].regions[0].ta
    with pytest.raises(TilecError, match=rf"'state tensor position_ids': {taken}"):
        tilec.compile(_Positions(), args[:1], strict=True)


VERIFIED = {
    "attention": (_attention, [(2, 2, 200, 64)] * 3),
    "causal_attention": (_causal_attention, [(2, 2, 200, 64)] * 3),
    "linear_bias_gelu": (CASES["linear_bias_gelu"][0], [(40, 96), (72, 96), (72,)]),
}


@pytest.mark.parametrize("name", VERIFIED)
def test_kernels_from_pytorch_are_proved(name):
    # one target (sm_80's build and run are the package tests' and test_a_kernel_whose_sizes_fit...)
    fn, shapes = VERIFIED[name]
    graph = tilec.compile(fn, [torch.zeros(s, dtype=torch.bfloat16) for s in shapes], stage="oracle", strict=True)
    report = graph.verify(targets=("sm_90a",))
    assert report.status() == 0 and len(report.results) >= 20, report.summary()


@pytest.mark.parametrize("fn", [_causal_attention, BF16["sdpa_causal"][0]], ids=["tril", "sdpa"])
def test_causal_mask_from_tril_skips_key_blocks(fn):
    from tilec.lowering.driver import to_tile

    graph = tilec.compile(fn, _bf16((2, 2, 200, 64), (2, 2, 200, 64), (2, 2, 200, 64)), stage="oracle", strict=True)
    with graph.context:
        assert "arith.minsi" in str(to_tile(graph.module))  # the key loop stops at the diagonal


def test_verified_package_ships_its_report(tmp_path):
    from tilec.runtime import read_package

    fn, shapes = VERIFIED["linear_bias_gelu"]
    graph = tilec.compile(fn, [torch.zeros(s, dtype=torch.bfloat16) for s in shapes], stage="oracle", strict=True)
    graph.package(str(tmp_path / "k.tkp"), "bm=64 bn=64 bk=32 warps=4 stages=3", ("sm_90a",), verify=True)
    report = json.loads(read_package(str(tmp_path / "k.tkp")).files["verify.json"])
    verdicts = {r["verdict"] for r in report["results"]}
    assert verdicts == {"proved", "tested"} and len(report["results"]) >= 20


def test_a_kernel_whose_sizes_fit_one_k_block_keeps_its_main_loop_and_is_proved():
    """K = 32 fits one k block: tile-canonicalize keeps the main loop of one iteration, which the
    verifier reads (once it was inlined, and the kernel was an error row: "no main loop")."""
    fn = CASES["linear_bias_gelu"][0]
    graph = tilec.compile(fn, _bf16((40, 32), (72, 32), (72,)), stage="oracle", strict=True)
    report = graph.verify()
    assert report.status() == 0, report.as_text(proved=False)
    assert any(r.property == "pipeline" and r.verdict == "proved" for r in report.results)


class _Partly(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)

    def forward(self, x):
        y = torch.softmax(self.lin(x), -1)
        z = torch.sort(y, -1).values  # no ta rule: stays in torch between two compiled regions
        return F.layer_norm(torch.relu(z * 2 + 1), (8,))


def test_unsupported_op_splits_the_graph_into_compiled_regions():
    model, x = _Partly(), torch.randn(4, 8)
    with pytest.warns(TilecFallbackWarning, match="compiles 2 region"):
        graph = tilec.compile(model, (x,))
    assert len(graph.regions) == 2 and all('"ta.' in r.ta for r in graph.regions)
    with torch.no_grad():
        torch.testing.assert_close(graph(x), model(x), rtol=1e-4, atol=1e-4)


def test_a_cat_stays_in_the_compiled_region_of_a_split_graph():
    """RoPE, then an op with no ta rule: the region tilec compiles holds the rotation's cat."""
    def rotate_then_sort(x, cos, sin):
        return torch.sort(_rope(x, cos, sin), dim=-1).values

    args = (torch.randn(2, 3, 7, 10), torch.randn(7, 10), torch.randn(7, 10))
    with pytest.warns(TilecFallbackWarning, match="compiles 1 region"):
        graph = tilec.compile(rotate_then_sort, args)
    assert len(graph.regions) == 1 and '"ta.remap"' in graph.regions[0].ta
    torch.testing.assert_close(graph(*args), rotate_then_sort(*args), rtol=1e-5, atol=1e-5)


class _NanoGPTAttention(torch.nn.Module):
    """nanoGPT's CausalSelfAttention: after SDPA, transpose(1, 2).contiguous().view(B, T, C),
    whose .contiguous() torch.export drops (SDPA's output is laid out so that it is a no-op)."""

    def __init__(self, n_embd=32, n_head=4):
        super().__init__()
        self.c_attn, self.c_proj = torch.nn.Linear(n_embd, 3 * n_embd), torch.nn.Linear(n_embd, n_embd)
        self.n_head, self.n_embd = n_head, n_embd

    def forward(self, x):
        b, t, c = x.size()
        q, k, v = (y.view(b, t, self.n_head, c // self.n_head).transpose(1, 2)
                   for y in self.c_attn(x).split(self.n_embd, dim=2))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(y.transpose(1, 2).contiguous().view(b, t, c))


def test_regions_are_traced_with_the_strides_torch_export_saw():
    """A region after SDPA reads its output through a view that only its real strides allow;
    the region is re-traced from inputs laid out like them (once a crash: 'Cannot view a
    tensor with shape [2, 16, 4, 8] and strides ...'). The graph raises whole, SDPA included, but
    no split into kernels takes it whole, so the tile stage runs kernels in the regions around SDPA."""
    model, x = _NanoGPTAttention().eval(), torch.randn(2, 16, 32)
    graph = tilec.compile(model, (x,), stage="tile")
    with torch.no_grad(), pytest.warns(TilecFallbackWarning, match="compiles 2 region"):
        torch.testing.assert_close(graph(x), model(x), rtol=1e-4, atol=1e-4)


def test_loop_stage_jits_once_per_graph(monkeypatch):
    """Calls after the first reuse the JIT-ed program (no lowering, no ExecutionEngine)."""
    import tilec.executors.loop_runner as loop_runner

    built = []
    original = loop_runner.LoopProgram.__init__

    def counting(self, *args, **kwargs):
        built.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(loop_runner.LoopProgram, "__init__", counting)
    fn, make = CASES["linear_bias_gelu"]
    graph = tilec.compile(fn, make(), stage="loop", strict=True)
    for _ in range(3):
        args = make()
        torch.testing.assert_close(graph(*args), fn(*args), rtol=1e-4, atol=1e-4)
    assert len(built) == 1


def test_bf16_model_runs_on_the_loop_stage():
    model = torch.nn.Sequential(torch.nn.Linear(16, 8), torch.nn.GELU()).to(torch.bfloat16)
    x = torch.randn(4, 16, dtype=torch.bfloat16)
    graph = tilec.compile(model, (x,), stage="loop", strict=True)
    with torch.no_grad():
        torch.testing.assert_close(graph(x), model(x), rtol=2e-2, atol=2e-2)


def test_compile_prints_no_warning_of_torch_internals():
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tilec.compile(lambda a, b: a @ b, (torch.randn(3, 4), torch.randn(4, 5)), strict=True)
    assert [str(w.message) for w in caught if issubclass(w.category, FutureWarning)] == []


class _SDPA(torch.nn.Module):
    """F.scaled_dot_product_attention as models call it, with its options."""

    def __init__(self, **options):
        super().__init__()
        self.options = options

    def forward(self, q, k, v, *mask):
        return F.scaled_dot_product_attention(q, k, v, *mask, **self.options)


def _masked_rows(s, t):
    """An additive mask with a fully masked query row (3) and one with a single key left (5)."""
    mask = torch.randn(s, t)
    mask[3] = float("-inf")
    mask[5, :-1] = float("-inf")
    return mask


SDPA = {
    "plain": ({}, ()),
    "causal": ({"is_causal": True}, ()),
    "scale": ({"scale": 0.3}, ()),
    "dropout_0": ({"dropout_p": 0.0}, ()),
    "additive mask, fully masked rows": ({}, (_masked_rows(37, 150),)),
    "boolean mask, fully masked rows": ({}, (_masked_rows(37, 150) > -1,)),
    "grouped heads (enable_gqa)": ({"enable_gqa": True, "is_causal": True}, ()),
}


@pytest.mark.parametrize("stage", ["oracle", "loop", "tile"])
@pytest.mark.parametrize("name", SDPA)
def test_scaled_dot_product_attention_is_raised(name, stage):
    """SDPA compiles whole (strict: nothing left to torch) and matches eager on every stage,
    at lengths that divide no block; a fully masked row is 0, as torch's SDPA says (its guard
    reads the softmax's own max and fuses with it)."""
    options, mask = SDPA[name]
    heads = 2 if options.get("enable_gqa") else 4  # grouped: 2 query heads share each K/V head
    q, k, v = torch.randn(2, 4, 37, 32), torch.randn(2, heads, 150, 32), torch.randn(2, heads, 150, 32)
    model = _SDPA(**options)
    graph = tilec.compile(model, (q, k, v, *mask), stage=stage, strict=True)
    expected = model(q, k, v, *mask)
    out = graph(q, k, v, *mask)
    torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-4)
    if mask:
        assert not out.isnan().any() and (out[:, :, 3] == 0).all()


def test_scaled_dot_product_attention_is_one_proved_kernel_with_its_guard():
    from tilec.lowering.driver import to_tile

    q, k, v = (torch.zeros(2, 2, 200, 64, dtype=torch.bfloat16) for _ in range(3))
    graph = tilec.compile(_SDPA(), (q, k, v, torch.zeros(200, 200)), stage="oracle", strict=True)
    assert "arith.cmpf oeq" in graph.ta and "i1," not in graph.ta  # the guard, on the float max
    with graph.context:
        tile = str(to_tile(graph.module))
    assert tile.count("scf.for") >= 1 and "arith.select" in tile
    report = graph.verify(targets=("sm_90a",))
    assert report.status() == 0, report.summary()
    assert any("the group's max op maximises the stabiliser" in r.check and r.verdict == "proved"
               for r in report.results)


@pytest.mark.parametrize("form", ["repeat_interleave", "enable_gqa"])
def test_grouped_heads_read_kv_through_one_kernel(form):
    """K and V repeated for grouped heads are read through (h // G), not copied: one attention
    kernel on the tile stage, either way the model writes it."""
    def attend(q, k, v):
        if form == "enable_gqa":
            return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        k, v = k.repeat_interleave(2, dim=1), v.repeat_interleave(2, dim=1)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    q, k, v = torch.randn(2, 4, 37, 32), torch.randn(2, 2, 150, 32), torch.randn(2, 2, 150, 32)
    graph = tilec.compile(attend, (q, k, v), stage="tile", strict=True)
    assert graph.kernels().single  # no copy of K or V: one kernel reads them through
    torch.testing.assert_close(graph(q, k, v), attend(q, k, v), rtol=1e-4, atol=1e-4)
    shapes = [(2, 4, 200, 64), (2, 2, 200, 64), (2, 2, 200, 64)]
    proved = tilec.compile(attend, [torch.zeros(s, dtype=torch.bfloat16) for s in shapes], stage="oracle", strict=True)
    report = proved.verify(targets=("sm_90a",))
    assert report.status() == 0 and not any(r.verdict == "unknown" for r in report.results), report.summary()


def test_one_kv_head_is_read_through_by_one_kernel():
    """Multi-query attention (one K/V head shared by every query head, enable_gqa): K's scale
    hoists out of the scores contraction and K is read as stored, broadcast over the heads."""
    def mqa(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)

    q, k, v = torch.randn(2, 4, 37, 16), torch.randn(2, 1, 37, 16), torch.randn(2, 1, 37, 16)
    graph = tilec.compile(mqa, (q, k, v), stage="tile", strict=True)
    assert graph.kernels().single
    torch.testing.assert_close(graph(q, k, v), mqa(q, k, v), rtol=1e-4, atol=1e-4)
    shapes = [(2, 4, 200, 64), (2, 1, 200, 64), (2, 1, 200, 64)]
    proved = tilec.compile(mqa, [torch.zeros(s, dtype=torch.bfloat16) for s in shapes], stage="oracle", strict=True)
    report = proved.verify(targets=("sm_90a",))
    assert report.status() == 0 and not any(r.verdict == "unknown" for r in report.results), report.summary()


def test_causal_sdpa_is_proved():
    """The causal mask SDPA adds (where(j <= i, 0, -inf)) is proved like a select of the scores:
    a finite score plus -inf is -inf (verify/scalars.py)."""
    q, k, v = (torch.zeros(2, 2, 200, 64, dtype=torch.bfloat16) for _ in range(3))
    graph = tilec.compile(BF16["sdpa_causal"][0], (q, k, v), stage="oracle", strict=True)
    report = graph.verify(targets=("sm_90a",))
    assert report.status() == 0, report.summary()


def test_bf16_gelu_divides_by_no_square_root():
    """torch's bf16 GELU divides by sqrt(2.0) computed in its body: raised as a multiplication by
    the reciprocal (an IEEE division per element of a GEMM epilogue cost a third of it on the H200)."""
    x = torch.randn(4, 8, dtype=torch.bfloat16)
    graph = tilec.compile(lambda t: F.gelu(t), (x,), stage="loop", strict=True)
    assert "arith.divf" not in graph.ta and "math.sqrt" not in graph.ta
    torch.testing.assert_close(graph(x).float(), F.gelu(x.float()), rtol=1e-2, atol=1e-2)


def _all_any(x):
    """Boolean reductions as code writes them: all(x == -inf) and any(x > 0) along the last dim."""
    empty = torch.all(x == float("-inf"), dim=-1, keepdim=True)
    positive = torch.any(x > 0, dim=-1, keepdim=True)
    return torch.where(empty, 0.0, x) + torch.where(positive, 1.0, -1.0)


@pytest.mark.parametrize("stage", ["oracle", "loop"])
def test_all_and_any_are_raised(stage):
    x = torch.randn(6, 9)
    x[2] = float("-inf")
    x[4] = -x[4].abs()
    graph = tilec.compile(_all_any, (x,), stage=stage, strict=True)
    torch.testing.assert_close(graph(x), _all_any(x))


def _rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class _LlamaBlock(torch.nn.Module):
    """A Llama block: RMSNorm, RoPE (rotate_half's cat), grouped K/V heads, causal SDPA, SwiGLU."""

    def __init__(self, c=64, heads=4, kv_heads=2, hidden=128, gqa="repeat_interleave"):
        super().__init__()
        self.h, self.kv, self.d, self.gqa = heads, kv_heads, c // heads, gqa
        self.q, self.o = torch.nn.Linear(c, c, bias=False), torch.nn.Linear(c, c, bias=False)
        self.k = torch.nn.Linear(c, kv_heads * self.d, bias=False)
        self.v = torch.nn.Linear(c, kv_heads * self.d, bias=False)
        self.w1, self.w3 = torch.nn.Linear(c, hidden, bias=False), torch.nn.Linear(c, hidden, bias=False)
        self.w2 = torch.nn.Linear(hidden, c, bias=False)
        self.g1, self.g2 = torch.nn.Parameter(torch.rand(c) + 0.5), torch.nn.Parameter(torch.rand(c) + 0.5)

    @staticmethod
    def _norm(x, g):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * g

    def forward(self, x, cos, sin):
        b, t, c = x.shape
        h = self._norm(x, self.g1)
        q = self.q(h).view(b, t, self.h, self.d).transpose(1, 2)
        k = self.k(h).view(b, t, self.kv, self.d).transpose(1, 2)
        v = self.v(h).view(b, t, self.kv, self.d).transpose(1, 2)
        q, k = q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin
        if self.gqa == "enable_gqa":
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        else:
            rep = self.h // self.kv
            y = F.scaled_dot_product_attention(q, k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1),
                                               is_causal=True)
        x = x + self.o(y.transpose(1, 2).reshape(b, t, c))
        h = self._norm(x, self.g2)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


@pytest.mark.parametrize("gqa", ["repeat_interleave", "enable_gqa"])
def test_llama_block_raises_whole_and_matches_eager(gqa):
    """RoPE, grouped heads either way, SDPA, RMSNorm and SwiGLU: the whole block is one ta
    function (nothing left to torch) and the loop stage matches eager."""
    model, x = _LlamaBlock(gqa=gqa).eval(), torch.randn(2, 37, 64)
    cos, sin = torch.randn(37, 16), torch.randn(37, 16)
    graph = tilec.compile(model, (x, cos, sin), stage="loop", strict=True)
    with torch.no_grad():
        torch.testing.assert_close(graph(x, cos, sin), model(x, cos, sin), rtol=1e-4, atol=1e-4)


def test_builtins_compile_and_bad_arguments_are_clear_errors():
    """A builtin (no Python signature) is traced through a wrapper; what is not a function of
    tensors is a TypeError saying so, not an error from inside the tracer."""
    x = torch.randn(4, 8)
    graph = tilec.compile(F.gelu, (x,), stage="oracle")
    torch.testing.assert_close(graph(x), F.gelu(x), rtol=1e-5, atol=1e-5)
    with pytest.raises(TypeError, match="takes an nn.Module or a function of tensors, got int"):
        tilec.compile(42, (x,))
    with pytest.raises(TypeError, match=r"example input 1 \(int\) is not a tensor"):
        tilec.compile(lambda a, b: a * b, (x, 3))


def test_the_cuda_stage_runs_the_kernels_cuda_on_the_cpu_model(monkeypatch):
    """stage="cuda": each kernel's CUDA text, as a package ships it, under the CPU model of the GPU."""
    from tilec.build import cuda_cpu

    ran = []
    real = cuda_cpu.run_cuda
    monkeypatch.setattr(cuda_cpu, "run_cuda", lambda *a, **k: ran.append(1) or real(*a, **k))
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(40, 24), torch.nn.GELU()).bfloat16()
    x = torch.randn(5, 40).bfloat16()
    graph = tilec.compile(model, (x,), stage="cuda")
    torch.testing.assert_close(graph(x).float(), model(x).float(), atol=2e-2, rtol=2e-2)
    assert ran and graph.fallback_reason is None
