"""Dynamic lengths (tilec/pytorch/dynamic.py, generalize.py): a graph compiled with
``dynamic_shapes`` is one ta function with the dynamic sizes as shape parameters, run at other
sizes by every stage without compiling again; what is not generic in those sizes is one clear
error; the graph runtime views and launches kernels at symbolic sizes."""

import copy
import sys
from pathlib import Path

import pytest
import torch
from torch.export import Dim

import tilec
from tilec.diagnostics import TilecError
from tilec.cache import where
from tilec.pytorch import importer
from tilec.pytorch.generalize import fit, points_around

sys.path.insert(0, str(Path(__file__).parent))
from test_pytorch import Block, _LlamaBlock, _rope  # noqa: E402
from test_raising import einsum_attention  # noqa: E402


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path))


def test_sizes_are_fitted_as_polynomials_of_the_dynamic_sizes():
    one = points_around({"T": 37}, {})
    assert one == [{"T": 37}, {"T": 44}, {"T": 50}]
    assert fit([37, 44, 50], one) == "T"
    assert fit([74, 88, 100], one) == "2*T"
    assert fit([38, 45, 51], one) == "T+1"
    assert fit([63, 56, 50], one) == "100-T"  # a size that shrinks as T grows
    assert fit([-37, -44, -50], one) is None  # negative everywhere: no size
    assert fit([18, 22, 25], one) is None  # T floordiv 2: no polynomial
    assert fit([1369, 1936, 2500], one) is None  # T * T: not multilinear
    two = points_around({"B": 3, "T": 37}, {})
    assert len(two) == 5  # the 4 corners of a box and a check point
    assert fit([p["B"] * p["T"] for p in two], two) == "B*T"
    assert fit([p["B"] * p["T"] + p["T"] for p in two], two) == "B*T+T"
    near_top = points_around({"T": 60}, {"T": (2, 64)})
    assert all(2 <= p["T"] <= 64 for p in near_top)
    with pytest.raises(Exception, match="too narrow"):
        points_around({"T": 3}, {"T": (2, 4)})


def test_a_llama_block_compiled_at_one_length_runs_at_others():
    """RMSNorm, RoPE, grouped heads, causal SDPA and SwiGLU: compiled at T = 37, the same graph
    runs at T = 61 and T = 5 on the loop stage (one JIT) and the tile stage, matching eager."""
    torch.manual_seed(0)
    model, t = _LlamaBlock(gqa="enable_gqa").eval(), Dim("T", max=4096)
    x, cos, sin = torch.randn(2, 37, 64), torch.randn(37, 16), torch.randn(37, 16)
    graph = tilec.compile(model, (x, cos, sin), dynamic_shapes=({1: t}, {0: t}, {0: t}), strict=True)
    assert "tensor<2x?x64xf32, [\"2\", \"T\", \"64\"]>" in graph.ta and "ta.params = {T}" in graph.ta
    for length in (61, 5):
        x, cos, sin = torch.randn(2, length, 64), torch.randn(length, 16), torch.randn(length, 16)
        with torch.no_grad():
            torch.testing.assert_close(graph(x, cos, sin), model(x, cos, sin), rtol=1e-4, atol=1e-4)
    assert len(graph._programs) == 1  # the loop stage JIT-ed once for every length
    graph.stage = "tile"
    with torch.no_grad():
        torch.testing.assert_close(graph(x, cos, sin), model(x, cos, sin), rtol=1e-4, atol=1e-4)


def test_batch_and_length_both_dynamic_merge_into_one_row_dim():
    """An MLP with LayerNorm on [B, T, C]: its rows are B*T, one parameter product; each
    kernel of the tile stage runs at any B and T."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 16),
                                torch.nn.LayerNorm(16)).eval()
    graph = tilec.compile(model, (torch.randn(3, 37, 16),), dynamic_shapes=({0: Dim("B"), 1: Dim("T")},),
                          strict=True)
    assert '["B*T", "16"]' in graph.ta
    assert graph.graph.input_shapes[-1] == ("B", "T", 16) and graph.graph.output_shapes == (("B", "T", 16),)
    for stage in ("loop", "tile"):
        graph.stage = stage
        for b, t in ((2, 5), (7, 100)):
            x = torch.randn(b, t, 16)
            with torch.no_grad():
                torch.testing.assert_close(graph(x), model(x), rtol=1e-4, atol=1e-4)


def test_a_nanogpt_block_is_dynamic_in_its_length():
    torch.manual_seed(0)
    model = Block().eval()
    graph = tilec.compile(model, (torch.randn(2, 7, 32),), dynamic_shapes=({1: Dim("T")},), strict=True)
    x = torch.randn(2, 19, 32)
    with torch.no_grad():
        torch.testing.assert_close(graph(x), model(x), rtol=1e-4, atol=1e-4)


class _MaskBuffer(torch.nn.Module):
    """nanoGPT's first attention: a tril buffer of the longest length, sliced to T."""

    def __init__(self, c=32, heads=4, longest=64):
        super().__init__()
        self.c_attn, self.c_proj, self.heads = torch.nn.Linear(c, 3 * c), torch.nn.Linear(c, c), heads
        self.register_buffer("bias", torch.tril(torch.ones(longest, longest)).view(1, 1, longest, longest))

    def forward(self, x):
        b, t, c = x.size()
        q, k, v = (y.view(b, t, self.heads, c // self.heads).transpose(1, 2) for y in self.c_attn(x).split(c, dim=2))
        att = (q @ k.transpose(-2, -1)) * (1.0 / (c // self.heads) ** 0.5)
        att = torch.softmax(att.masked_fill(self.bias[:, :, :t, :t] == 0, float("-inf")), dim=-1)
        return self.c_proj((att @ v).transpose(1, 2).contiguous().view(b, t, c))


def test_a_mask_buffer_sliced_to_the_length_is_dynamic_below_its_size():
    """torch guards the slice [:T] of a 64-long buffer with T != 64: a range up to 64 is torch's
    error, named; up to 63 the graph runs at any length."""
    torch.manual_seed(0)
    model, x = _MaskBuffer().eval(), torch.randn(2, 13, 32)
    with pytest.raises(TilecError, match=r"torch.export says: .*Not all values of T .*!= 64"):
        tilec.compile(model, (x,), dynamic_shapes=({1: Dim("T", max=64)},), strict=True)
    graph = tilec.compile(model, (x,), dynamic_shapes=({1: Dim("T", max=63)},), strict=True)
    for length in (29, 2):
        y = torch.randn(2, length, 32)
        with torch.no_grad():
            torch.testing.assert_close(graph(y), model(y), rtol=1e-4, atol=1e-4)


class _RotaryCache(torch.nn.Module):
    """HF Llama's rotary embedding: cos and sin cached as buffers for the longest length, sliced to T."""

    def __init__(self, d=16, longest=64):
        super().__init__()
        freqs = torch.outer(torch.arange(longest).float(), 1.0 / 10000 ** (torch.arange(0, d, 2).float() / d))
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos())
        self.register_buffer("sin_cached", emb.sin())

    def forward(self, x):
        t = x.shape[-2]
        return _rope(x, self.cos_cached[:t].to(x.dtype), self.sin_cached[:t].to(x.dtype))


SLICED_BUFFERS = {"rotary_cache": (_RotaryCache, (2, 2, 13, 16), 2),
                  "mask_buffer": (lambda: _MaskBuffer(c=64), (2, 13, 64), 1)}  # head dim 16: an mma's k step


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("name", SLICED_BUFFERS)
def test_a_bf16_buffer_sliced_to_the_length_runs_and_packages(name, dynamic, tmp_path):
    """A bf16 buffer sliced to the length (``cos_cached[:T]``, ``bias[:, :, :T, :T]``): its widening
    to f32 moves after the slice, which reads the bf16 buffer through a remap (once the widening
    read all 64 rows at the slice's indices: invalid ta). The loop stage matches the module in
    f32, and the graph packages for sm_90a."""
    torch.manual_seed(0)
    make, shape, t_dim = SLICED_BUFFERS[name]
    model = make().eval().bfloat16()
    x = torch.randn(shape).bfloat16()
    spec = ({t_dim: Dim("T", max=63)},) if dynamic else None
    graph = tilec.compile(model, (x,), dynamic_shapes=spec, strict=True)
    wide = copy.deepcopy(model).float()  # intermediates in f32, as tilec computes them
    for length in (13, 29) if dynamic else (13,):
        y = torch.randn(shape[:t_dim] + (length,) + shape[t_dim + 1:]).bfloat16()
        with torch.no_grad():
            torch.testing.assert_close(graph(y).float(), wide(y.float()), rtol=2e-2, atol=2e-2)
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    graph.package(str(tmp_path / f"{name}.tkg"), "", ("sm_90a",))


class _MeanOverLength(torch.nn.Module):
    def forward(self, x):
        return x - x.mean(dim=1, keepdim=True)


class _Branches(torch.nn.Module):
    def forward(self, x):
        return x * 2.0 if x.shape[1] > 40 else x * 3.0


def test_what_is_not_generic_in_a_dynamic_size_is_one_clear_error():
    x = torch.randn(2, 37, 8)
    # the mean's 1/T is a constant of each raised graph: tilec has no parameter for it in a body
    with pytest.raises(TilecError, match="differs: .*(constant|value).* at one size"):
        tilec.compile(_MeanOverLength(), (x,), dynamic_shapes=({1: Dim("T")},), strict=True)
    with pytest.raises(TilecError, match="not generic in its dynamic dims, torch.export says"):
        tilec.compile(_Branches(), (x,), dynamic_shapes=({1: Dim("T")},), strict=True)
    # without strict, the graph stays in torch (and so does TorchDynamo's, under torch.compile)
    from tilec.pytorch.api import TilecFallbackWarning

    with pytest.warns(TilecFallbackWarning, match="leaves this graph to torch"):
        graph = tilec.compile(_MeanOverLength(), (x,), dynamic_shapes=({1: Dim("T")},))
    y = torch.randn(2, 11, 8)
    torch.testing.assert_close(graph(y), _MeanOverLength()(y))
    torch._dynamo.reset()
    with pytest.warns(TilecFallbackWarning):
        compiled = torch.compile(_MeanOverLength(), backend="tilec", dynamic=True)
        torch.testing.assert_close(compiled(y), _MeanOverLength()(y))


def test_dynamic_shapes_are_checked_and_calls_bound():
    model, x = torch.nn.Linear(8, 4), torch.randn(3, 5, 8)
    with pytest.raises(TypeError, match="one entry per example input"):
        tilec.compile(model, (x,), dynamic_shapes=({1: Dim("T")}, None))
    with pytest.raises(ValueError, match="no dim 3"):
        tilec.compile(model, (x,), dynamic_shapes=({3: Dim("T")},))
    with pytest.raises(ValueError, match="outside its range"):
        tilec.compile(model, (torch.randn(3, 1, 8),), dynamic_shapes=({1: Dim("T")},))
    with pytest.raises(ValueError, match="names no dim"):
        tilec.compile(model, (x,), dynamic_shapes=({},))
    graph = tilec.compile(model, (x,), dynamic_shapes=({1: "T"},), strict=True)
    with pytest.raises(TilecError, match=r"input 0 has shape \[3, 5, 9\], the graph takes \[3, 5, 8\] \(3, T, 8\)"):
        graph(torch.randn(3, 5, 9))
    static = tilec.compile(model, (x,), strict=True)
    with pytest.raises(TilecError, match="pass dynamic_shapes="):
        static(torch.randn(3, 6, 8))


def test_a_dynamic_graph_is_read_back_from_the_cache(monkeypatch):
    model, x = torch.nn.Linear(8, 4), torch.randn(3, 5, 8)
    first = tilec.compile(model, (x,), dynamic_shapes=({1: Dim("T")},), strict=True)
    static = tilec.compile(model, (x,), strict=True)
    assert first.ta != static.ta and len(list(where("graphs").glob("*.json"))) == 2

    def no_import(*args):
        raise AssertionError("a cached graph is not imported again")

    monkeypatch.setattr(importer, "_linalg", no_import)
    again = tilec.compile(model, (x,), dynamic_shapes=({1: Dim("T")},), strict=True)
    assert again.ta == first.ta and again.graph == first.graph
    with torch.no_grad():
        y = torch.randn(3, 11, 8)
        torch.testing.assert_close(again(y), model(y), rtol=1e-5, atol=1e-5)


class _Step:
    """A stand-in kernel of a graph package: doubles its input, declaring ``dims``."""

    def __init__(self, name, reads, dims):
        self.name, self.inputs, self.seen = name, [{"name": reads, "dims": dims}], []

    def __call__(self, x, sizes=None):
        self.seen.append((tuple(x.shape), dict(sizes or {})))
        return x * 2


def test_the_graph_runtime_views_tensors_at_symbolic_sizes():
    """A kernel declaring [B*T, C] reads a [B, T, C] tensor as that view, the next one
    declaring [B, T, C] reads it back; the results take their declared symbolic shapes."""
    from tilec.runtime.graph import KernelGraph

    merged, apart = _Step("k0", "x", [["*", "B", "T"], 4]), _Step("k1", "y", ["B", "T", 4])
    graph = KernelGraph("g", ["x"], [(merged, ("x",), ("y",)), (apart, ("y",), ("z",))], [("out", "z")],
                        [["B", "T", 4]])
    x = torch.randn(3, 5, 4)
    out = graph(x, sizes={"B": 3, "T": 5})
    assert out.shape == (3, 5, 4) and torch.equal(out, x * 4)
    assert merged.seen[0][0] == (15, 4) and apart.seen[0][0] == (3, 5, 4)
    assert merged.seen[0][1]["T"] == 5


def test_a_kernel_binds_a_size_named_in_a_product_of_known_ones():
    from tilec.runtime.kernel import _solve_product

    env = {"B": 3}
    _solve_product(["*", "B", "T"], 15, env)
    assert env == {"B": 3, "T": 5}
    env = {}
    _solve_product(["*", 2, "T"], 74, env)
    assert env == {"T": 37}
    env = {}
    _solve_product(["*", "B", "T"], 15, env)  # two unknowns: left to the caller's sizes
    assert env == {}


def test_torch_compile_graphs_with_symbolic_sizes_run_in_tilec(backend_graphs):
    """torch.compile(dynamic=True), and the graph TorchDynamo recompiles with a dynamic length
    once it sees a second one: tilec compiles each once, for every size (its integer inputs
    read off the tensors, LayerNorm's eps, passed as a tensor, compiled in)."""
    made = backend_graphs
    torch.manual_seed(0)
    model = Block().eval()
    for dynamic, compiles in ((True, [True]), (None, [False, True])):
        made.clear()
        torch._dynamo.reset()
        compiled = torch.compile(model, backend="tilec", dynamic=dynamic)
        with torch.no_grad():
            for length in (7, 19, 33):
                x = torch.randn(2, length, 32)
                torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
        assert [g.dynamic is not None for g in made] == compiles
        assert all(g.module is not None for g in made)  # run by tilec, not left to torch


def test_torch_compile_recompiles_einsum_attention_at_a_new_length(backend_graphs):
    """The recompile at a second length makes Q's length one symbol and K's and V's another, which
    they share: both of K's and V's dims vary with it (once only K's did, and raising the graph at
    another K length failed in torch: 'einsum(): subscript k has size 103 ... 110')."""
    made = backend_graphs
    torch._dynamo.reset()
    compiled = torch.compile(einsum_attention, backend="tilec")
    for length in (9, 12, 17):
        q, k, v = (torch.randn(2, 2, length, 16) for _ in range(3))
        torch.testing.assert_close(compiled(q, k, v), einsum_attention(q, k, v), rtol=1e-4, atol=1e-4)
    assert [g.dynamic is not None for g in made] == [False, True]  # no third compile: one for every length
    assert all(g.module is not None for g in made)  # run by tilec, not left to torch


def test_a_dynamic_graph_packages_and_its_kernels_bind_their_sizes(tmp_path):
    """The MLP dynamic in B and T as a graph package: its kernels take [B*T, C] rows; a call
    binds B and T from the sizes given (without them: one error saying so), and is then checked
    as any call (here: refused for CPU tensors, before any launch)."""
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    from tilec.runtime.graph import KernelGraph

    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 16)).bfloat16()
    x = torch.randn(3, 37, 16, dtype=torch.bfloat16)
    graph = tilec.compile(model, (x,), dynamic_shapes=({0: Dim("B"), 1: Dim("T")},), strict=True)
    path = tmp_path / "mlp.tkp"
    graph.package(str(path), "", ("sm_80",))
    loaded = tilec.runtime.load(str(path), register_op=False)
    kernels = loaded.kernels if isinstance(loaded, KernelGraph) else [loaded]
    first = kernels[0]
    assert any(["*", "B", "T"] in s["dims"] for s in first.inputs)  # the rows, B and T merged
    state = [t.detach() for t in importer.state_of(model).values()]
    rows = torch.randn(2 * 5, 16, dtype=torch.bfloat16)
    taken = [rows if s["name"] == "in0" else dict(zip(graph.graph.state_names, state))[s["name"]]
             for s in first.inputs]
    with pytest.raises(ValueError, match=r"do not give the size of B, T .*pass sizes="):
        first(*taken)
    with pytest.raises(ValueError, match="must be on cuda"):
        first(*taken, sizes={"B": 2, "T": 5})
    with pytest.raises(ValueError, match=r"has shape \(10, 16\), expected \(12, 16\)"):
        first(*taken, sizes={"B": 3, "T": 4})


def test_a_dynamic_attention_is_proved_for_every_length():
    """SDPA with a dynamic T: one kernel whose proofs range over all shapes (every sequence
    length by induction over key blocks), nothing unproved."""
    import torch.nn.functional as F

    def attention(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    t, q = Dim("T"), torch.randn(2, 4, 37, 64, dtype=torch.bfloat16)
    graph = tilec.compile(attention, (q, q, q), dynamic_shapes=({2: t}, {2: t}, {2: t}), strict=True)
    report = graph.verify(targets=("sm_90a",))
    assert report.status() == 0, report.summary()
    assert all(r.verdict in ("proved", "tested") for r in report.results)
    assert any("every sequence length" in r.domain for r in report.results)


def test_a_length_that_slices_a_buffer_is_bounded_proved_and_checked(tmp_path):
    """cos_cached[:T] of a 64-row buffer is defined for T <= 64 only: torch.export's range (max 63)
    becomes the function's (ta.ranges), the proofs assume it (without it the gather past the
    buffer's end is a counterexample), and a call past it is refused on the CPU stages and by the
    runtime before any launch."""
    from tilec.dialects import RANGES_ATTR

    torch.manual_seed(0)
    model, x = _RotaryCache().eval().bfloat16(), torch.randn(2, 2, 13, 16).bfloat16()
    graph = tilec.compile(model, (x,), dynamic_shapes=({2: Dim("T", max=63)},), strict=True)
    assert "ta.ranges = {T = [1, 63]}" in graph.ta
    assert graph.verify().status() == 0
    with pytest.raises(TilecError, match=r"dynamic dim T = 64 is outside \[1, 63\]"):
        graph(torch.randn(2, 2, 64, 16).bfloat16())
    forgot = tilec.compile(model, (x,), dynamic_shapes=({2: Dim("T", max=63)},), strict=True)
    with forgot.context:
        del forgot.module.body.operations[0].attributes[RANGES_ATTR]  # the bound forgotten
    report = forgot.verify()
    assert any(r.verdict == "counterexample" and r.property == "in-bounds" for r in report.results), \
        report.as_text(proved=False)
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    graph = tilec.compile(model, (x,), dynamic_shapes=({2: Dim("T", max=63)},), strict=True)
    path = tmp_path / "rope.tkg"
    graph.package(str(path), "", ("sm_90a",))
    (kernel,) = tilec.runtime.load(str(path), register_op=False).kernels  # the rotation's one kernel
    assert kernel.manifest["ranges"] == {"T": [1, 63]}
    inputs = [torch.zeros(64, 16).bfloat16(), torch.zeros(64, 16).bfloat16(), torch.zeros(2, 2, 64, 16).bfloat16()]
    with pytest.raises(ValueError, match=r"defined \(and proved\) for T in \[1, 63\], got T = 64"):
        kernel(*inputs)
