"""tilec.build.plan: a function's kernels, one or the split tilec.graph cuts it into, run kernel
after kernel on the tile stage, the split read back against the function, and packaged (a .tkp
for one kernel, a graph package the runtime reads for several)."""

import json
import re
import warnings
import zipfile

import pytest
import torch
import torch.nn.functional as F

import tilec
from tilec.diagnostics import TilecError
from tilec.pytorch.api import TilecFallbackWarning
from tilec.runtime.manifest import seal
from tilec.runtime.package import PackageError
from conftest import ROOT


def mlp(x, w1, b1, w2, b2):
    return F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2)


def rmsnorm_linear(x, g, w):
    return F.linear(x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * g, w)


def swiglu(x, w1, w3, w2):
    return F.linear(F.silu(F.linear(x, w1)) * F.linear(x, w3), w2)


def linear_layernorm_linear(x, w1, b1, g, b, w2):
    return F.linear(F.layer_norm(F.gelu(F.linear(x, w1, b1)), (w1.shape[0],), g, b), w2)


def mlp_log_softmax(x, w1, b1, w2, b2):
    return F.linear(F.relu(F.linear(x, w1, b1)), w2, b2).log_softmax(-1)


# shapes that divide no tile; the norms over more columns than a row block (bn=256) has
CASES = {
    "mlp": (mlp, [(37, 72), (300, 72), (300,), (40, 300), (40,)], ["contraction", "contraction"]),
    "rmsnorm_linear": (rmsnorm_linear, [(17, 300), (300,), (56, 300)], ["rows", "contraction"]),
    "swiglu": (swiglu, [(33, 48), (136, 48), (136, 48), (48, 136)], ["contraction", "contraction"]),
    "linear_layernorm_linear": (linear_layernorm_linear, [(21, 40), (300, 40), (300,), (300,), (300,), (24, 300)],
                                ["contraction", "rows", "contraction"]),
    "mlp_log_softmax": (mlp_log_softmax, [(21, 40), (130, 40), (130,), (10, 130), (10,)],
                        ["contraction", "contraction", "rows"]),
}


def _close(got, expected) -> bool:
    """Within f32 reassociation of the largest output (the kernels sum in another order)."""
    return float((got - expected).abs().max()) <= 1e-5 * float(expected.abs().max())


def _inputs(shapes, dtype=torch.float32):
    torch.manual_seed(0)
    return [torch.randn(s).to(dtype) for s in shapes]


@pytest.mark.parametrize("name", sorted(CASES))
def test_split_graph_runs_on_the_tile_stage_like_eager(name):
    fn, shapes, forms = CASES[name]
    xs = _inputs(shapes)
    graph = tilec.compile(fn, xs, stage="tile", strict=True, name=name)
    assert [p.form for p in graph.kernels().pieces] == forms
    assert _close(graph(*xs), fn(*xs))


def test_a_graph_one_kernel_takes_is_not_split():
    xs = _inputs([(70, 64), (90, 64), (90, 64)])
    graph = tilec.compile(lambda q, k, v: torch.softmax(q @ k.T / 8.0, -1) @ v, xs, stage="tile")
    assert graph.kernels().single


def test_a_schedule_per_kernel_form_reaches_a_graph_one_kernel_takes():
    """{"contraction": ...} is the schedule of a graph that is one contraction, as of each
    contraction of a graph of several (it had fallen back to the default unsaid)."""
    from tilec.build.plan import Kernels

    graph = tilec.compile(torch.addmm, [torch.randn(5), torch.randn(9, 17), torch.randn(17, 5)], stage="oracle")
    schedule = "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2"
    with graph.context:
        kernels = Kernels.of(graph.module, {"contraction": schedule, "rows": "bm=4"})
    assert kernels.single and kernels.schedule_of(None) == schedule


def test_a_schedule_given_for_one_target_is_that_targets_kernels_alone():
    """Keys prefixed with a target ("sm_90a:contraction", "sm_90a:*") come first for that target's
    kernel and are never another target's; each target's kernel is lowered by its own pipeline."""
    from tilec.build.plan import Kernels

    bf16 = [torch.randn(128).bfloat16(), torch.randn(64, 64).bfloat16(), torch.randn(64, 128).bfloat16()]
    graph = tilec.compile(torch.addmm, bf16, stage="oracle")
    hopper = "bm=64 bn=128 bk=64 warps=4 stages=2 consumers=1"
    with graph.context:
        kernels = Kernels.of(graph.module, {"*": "bm=64 bn=64", "sm_90a:*": "bm=128 bn=64",
                                            "sm_90a:contraction": hopper, "sm_80:k1": "bm=32"})
        assert kernels.schedule_of(None) == "bm=64 bn=64"
        assert kernels.schedule_of(None, target="sm_80") == "bm=64 bn=64"  # sm_80:k1 names no kernel here
        assert kernels.schedule_of(None, target="sm_90a") == hopper
        builds = kernels.lower_each(kernels.module, None, targets=("sm_80", "sm_90a"))
        assert [b.target for b in builds.values()] == ["sm_80", "sm_90a"]
        assert [b.schedule for b in builds.values()] == ["bm=64 bn=64", hopper]
        assert "tile.wgmma" in str(builds["sm_90a"].tile) and "tile.wgmma" not in str(builds["sm_80"].tile)


def test_size_one_rows_is_a_clear_error():
    """One row: the graph drops the size-1 dim and a contraction to a vector (a GEMV) has no
    tile form yet; the error names the kernel and why, the oracle and loop stages still run."""
    xs = _inputs([(1, 72), (300, 72), (300,), (40, 300), (40,)])
    graph = tilec.compile(mlp, xs, stage="tile", strict=True)
    with pytest.raises(TilecError, match="no tile lowering takes kernel 0 .*rank >= 2"):
        graph(*xs)
    assert _close(tilec.compile(mlp, xs, strict=True)(*xs), mlp(*xs))


def test_bf16_graph_stores_tensors_between_kernels_in_bf16():
    """Kernel 0 rounds its output to bf16 (as torch eager stores it) and kernel 1 reads that."""
    xs = _inputs(CASES["mlp"][1], torch.bfloat16)
    graph = tilec.compile(mlp, xs, stage="tile", strict=True)
    kernels = graph.kernels()
    (stored,) = kernels.rounded[1]
    assert kernels.rounded[0] == "bf16" and kernels.pieces[0].outputs == (stored,)
    assert "bf16" in kernels.pieces[1].text.split(f'ta.name = "{stored}"')[0].rsplit("%arg", 1)[1]
    wide = [t.float() for t in xs]
    hidden = F.gelu(F.linear(wide[0], wide[1], wide[2])).bfloat16().float()
    expected = F.linear(hidden, wide[3], wide[4]).bfloat16()
    assert torch.equal(graph(*xs), expected)


def test_split_is_proved_and_each_kernel_verified():
    xs = _inputs(CASES["rmsnorm_linear"][1])
    report = tilec.compile(rmsnorm_linear, xs, stage="tile", strict=True).verify()
    split = [r for r in report.results if r.property == "split"]
    assert [r.verdict for r in split] == ["proved"]
    assert report.status() == 0, report.as_text()
    assert {r.kernel for r in report.results} >= {"graph_k0", "graph_k1"}


def _tampered(pieces, k, **change):
    from dataclasses import replace

    return [replace(p, **change) if n == k else p for n, p in enumerate(pieces)]


def test_split_check_refutes_broken_splits():
    from tilec.verify.split import check_split

    xs = _inputs(CASES["linear_layernorm_linear"][1])
    graph = tilec.compile(linear_layernorm_linear, xs, stage="tile", strict=True)
    kernels = graph.kernels()
    pieces = kernels.pieces
    with graph.context:
        assert check_split(kernels.fused, pieces).verdict == "proved"
        first, second = pieces[0], pieces[1]
        # the norm reads the graph's input instead of the first kernel's output
        wrong_input = second.text.replace(f'"{second.inputs[0]}"', '"in0"')
        broken = {
            "reads another tensor": _tampered(pieces, 1, text=wrong_input),
            "out of order": [second, first] + pieces[2:],
            "another constant": _tampered(pieces, 1, text=second.text.replace("9.99999974E-6", "1.000000e-03")),
            "op left out": _tampered(pieces, 2, ops=pieces[2].ops[:-1]),
        }
        for what, bad in broken.items():
            assert check_split(kernels.fused, bad).verdict == "counterexample", what


def test_graph_package_round_trip(tmp_path):
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    from tilec.runtime.graph import KernelGraph, load_graph

    xs = _inputs(CASES["mlp"][1], torch.bfloat16)
    graph = tilec.compile(mlp, xs, stage="oracle", strict=True, name="mlp")
    path = tmp_path / "mlp.tkg"
    manifest = graph.package(str(path), {"contraction": "bm=64 bn=64 bk=32 warps=4 stages=2"}, ("sm_80",))
    assert [next(iter(k["kernels"].values()))["kernel"] for k in manifest["packages"]] == ["mlp_k0", "mlp_k1"]
    loaded = tilec.runtime.load(str(path))
    assert isinstance(loaded, KernelGraph)
    assert [k.name for k in loaded.kernels] == ["mlp_k0", "mlp_k1"]  # each read, checked, from the zip
    assert loaded.inputs == ["in0", "in1", "in2", "in3", "in4"]
    assert [(list(r), list(w)) for _, r, w in loaded.steps] == \
        [(list(p.inputs), list(p.outputs)) for p in graph.kernels().pieces]
    stored = graph.kernels().pieces[0].outputs[0]
    assert loaded._free == [[], [stored]]  # the tensor between kernels goes after its reader

    def rewrite(change, reseal=True):
        bad = tmp_path / "bad.tkg"
        with zipfile.ZipFile(path) as src, zipfile.ZipFile(bad, "w") as dst:
            for item in src.namelist():
                data = src.read(item)
                if item == "graph.json" and change is not None:  # resealed: the check under test speaks
                    changed = change(json.loads(data))
                    data = json.dumps(dict(changed, seal=seal(changed)) if reseal else changed).encode()
                elif item == "k1.tkp" and change is None:  # a kernel that is not the one hashed
                    data = data[:-1] + bytes([data[-1] ^ 1])
                dst.writestr(item, data)
        return str(bad)

    with pytest.raises(PackageError, match="hash"):
        load_graph(rewrite(None))
    with pytest.raises(PackageError, match="before any step writes it"):
        load_graph(rewrite(lambda m: {**m, "steps": m["steps"][::-1]}))
    with pytest.raises(PackageError, match="graph.json needs"):
        load_graph(rewrite(lambda m: {**m, "steps": [{"package": 3}]}))
    with pytest.raises(PackageError, match="does not match its seal"):  # an edit the seal gives away
        load_graph(rewrite(lambda m: {**m, "steps": m["steps"][::-1]}, reseal=False))


def test_graph_no_kernel_takes_is_one_clear_error():
    """A sum down the columns: no kernel form reduces across rows yet; the error names, per
    form, what it lacks."""
    xs = _inputs([(9, 300)])
    graph = tilec.compile(lambda x: x.sum(0) * 2.0, xs, stage="tile", strict=True)
    with pytest.raises(TilecError, match="no tile lowering takes kernel 0 .*rows: a row program.*pointwise: 'ta.reduce'"):
        graph(*xs)


def test_a_transposed_map_is_a_pointwise_kernel():
    """No row program reads an input across its rows; a pointwise kernel reads it at any index."""
    xs = _inputs([(9, 300)])
    graph = tilec.compile(lambda x: x.transpose(0, 1) * 2.0, xs, stage="tile", strict=True)
    assert [p.form for p in graph.kernels().pieces] == ["pointwise"]
    assert _close(graph(*xs), xs[0].transpose(0, 1) * 2.0)


@pytest.mark.parametrize("shape", [(2, 9, 300), (2, 1, 300), (1, 9, 300)])
def test_leading_dims_treated_alike_are_merged(shape):
    """A LayerNorm and a Linear on [B, T, C]: the ta takes [B*T, C], the kernels are 2-D."""
    rows = 1
    for n in shape[:-1]:
        rows *= n
    xs = _inputs([shape, (300,), (300,), (64, 300), (64,)])

    def norm_linear(x, g, b, w, bias):
        return F.linear(F.layer_norm(x, (300,), g, b), w, bias)

    graph = tilec.compile(norm_linear, xs, stage="tile", strict=True)
    assert list(graph.module.body.operations[0].arguments[0].type.shape) == [rows, 300]
    assert [p.form for p in graph.kernels().pieces] == ["rows", "contraction"]
    assert _close(graph(*xs), norm_linear(*xs))


def test_leading_dims_read_apart_are_kept():
    """Attention reads T apart from B (keys against queries): nothing is merged."""
    xs = _inputs([(2, 40, 32), (2, 50, 32), (2, 50, 32)])
    graph = tilec.compile(lambda q, k, v: torch.softmax(q @ k.transpose(-1, -2), -1) @ v, xs, strict=True)
    assert [list(a.type.shape) for a in graph.module.body.operations[0].arguments] == [[2, 40, 32], [2, 50, 32],
                                                                                         [2, 50, 32]]


def test_compile_writes_a_spec_of_several_kernels_as_a_graph_package(tilec, tmp_path):
    """The norm's statistic, then a GEMM whose prologue scales X by it; each kernel takes only
    the shape parameters its own tensors name (a launch binds them from its inputs)."""
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    from tilec.runtime.graph import load_graph

    
    spec = ROOT / "examples" / "rmsnorm_matmul.ta"
    status, out, err = tilec("compile", spec, "-o", tmp_path / "g.tkg", "--target", "sm_80")
    assert status == 0, out + err
    assert "graph package of 2 kernel(s)" in out and re.search(r" proved( / \d+ tested)? / 0 counterexample", out)
    import io
    import json
    import zipfile

    inner = zipfile.ZipFile(io.BytesIO(zipfile.ZipFile(tmp_path / "g.tkg").read("k0.tkp")))
    report = json.loads(inner.read("verify.json"))  # verified by default, the report shipped with each kernel
    assert any(r["check"] == "2 kernels in order compute the function" and r["verdict"] == "proved"
               for r in report["results"]), [r["check"] for r in report["results"]]
    graph = load_graph(str(tmp_path / "g.tkg"))
    assert [k.params for k in graph.kernels] == [["K", "M"], ["K", "M", "N"]]
    assert [o["name"] for o in graph.outputs] == ["Y"]


def test_a_graph_no_kernels_take_runs_in_torch_on_cuda_with_a_warning(monkeypatch):
    """On CUDA tensors a graph tilec cannot build kernels for runs in torch (warned once);
    with strict=True it is the error. (No GPU here: the CUDA check and the build are stood in.)"""
    from tilec.pytorch.api import CompiledGraph, TilecFallbackWarning

    def fn(x):
        return x.sum(0) * 2.0  # a sum down the columns: no kernel form takes it

    x = torch.randn(9, 300)
    monkeypatch.setattr(torch.Tensor, "is_cuda", property(lambda self: True))
    monkeypatch.setattr("tilec.pytorch.api.target_of", lambda device: "sm_90a")
    graph = tilec.compile(fn, (x,))
    with pytest.warns(TilecFallbackWarning, match="no CUDA kernels for 'graph', it runs in torch: no tile lowering"):
        assert torch.equal(graph(x), fn(x))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the reason is kept: no second warning, no second build
        assert torch.equal(graph(x), fn(x))
    monkeypatch.setattr(CompiledGraph, "_kernel", lambda self, device: pytest.fail("built again"))
    assert torch.equal(graph(x), fn(x))
    strict = tilec.compile(fn, (x,), strict=True)
    monkeypatch.undo()
    monkeypatch.setattr(torch.Tensor, "is_cuda", property(lambda self: True))
    monkeypatch.setattr("tilec.pytorch.api.target_of", lambda device: "sm_90a")
    with pytest.raises(TilecError, match="no tile lowering"):
        strict(x)


class _NanoGPTBlock(torch.nn.Module):
    """nanoGPT's block: LayerNorm, causal SDPA attention (QKV split, heads as views), MLP."""

    def __init__(self, c=32, heads=4):
        super().__init__()
        self.ln_1, self.ln_2 = torch.nn.LayerNorm(c), torch.nn.LayerNorm(c)
        self.c_attn, self.c_proj = torch.nn.Linear(c, 3 * c), torch.nn.Linear(c, c)
        self.fc, self.proj = torch.nn.Linear(c, 4 * c), torch.nn.Linear(4 * c, c)
        self.heads = heads

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = (y.view(b, t, self.heads, c // self.heads).transpose(1, 2)
                   for y in self.c_attn(self.ln_1(x)).split(c, dim=2))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).contiguous().view(b, t, c)
        x = x + self.c_proj(y)
        return x + self.proj(F.gelu(self.fc(self.ln_2(x))))


def test_nanogpt_block_regions_run_as_kernels_and_strided_copies():
    """The block raises whole (SDPA included) and runs whole on the oracle and loop stages; no
    split into kernels takes it whole (the attention's pieces lower only together), so kernels
    run in the regions around SDPA, which stays in torch: the norms with B and T merged, the
    QKV split and the three head transposes as one pointwise kernel, the heads back as a strided
    copy in torch."""
    model, x = _NanoGPTBlock().eval(), torch.randn(2, 16, 32)
    graph = tilec.compile(model, (x,), stage="tile")
    assert graph.module is not None and not graph.regions
    with torch.no_grad(), pytest.warns(TilecFallbackWarning, match="no kernels take the whole graph"):
        assert _close(graph(x), model(x))
    forms = [[(p.form, p.merged) for p in r.kernels().pieces] for r in graph.regions]
    assert len(forms) == 2 and all(("rows", True) in f for f in forms), forms
    assert {("strided", False), ("pointwise", False)} <= set(forms[0] + forms[1]), forms
    with torch.no_grad():
        assert _close(tilec.compile(model, (x,), stage="loop")(x), model(x))


def test_nanogpt_block_runs_whole_as_kernels_attention_included():
    """With head dims the attention kernel takes (16), the whole block is one sequence of
    kernels: LayerNorm, the QKV GEMM, the attention (its ops placed as one unit,
    tilec/split_units.py; Q, K and V read as the heads of the QKV projection, no copy; its
    output stored [B, T, H, D]), a view back to [B, T, C], the projection, LayerNorm and the MLP."""
    model, x = _NanoGPTBlock(c=64).eval(), torch.randn(2, 37, 64)
    graph = tilec.compile(model, (x,), stage="tile", strict=True)
    forms = [p.form for p in graph.kernels().pieces]
    assert forms.count("online") == 1 and forms.count("rows") == 2 and forms.count("contraction") == 4, forms
    assert forms.count("pointwise") == 0 and forms.count("strided") == 1, forms
    with torch.no_grad():
        assert _close(graph(x), model(x))
    assert not graph.regions
    # the attention stores [B, T, H, D] (ta-canonicalize's permute_into_reshape), so the step back
    # to [B, T, C] is a view of it: row-major strides, no copy
    attention = next(p for p in graph.kernels().pieces if p.form == "online")
    assert '-> (tensor<2x37x4x16xf32, ["2", "37", "4", "16"]>' in attention.text
    assert _view_form(next(p for p in graph.kernels().pieces if p.form == "strided"))


def _view_form(piece) -> bool:
    """Is the strided step ``piece`` a row-major view of its source (no element moves)?"""
    from torch_mlir import ir

    from tilec import dialects
    from tilec.graph.strided import strided_form

    with dialects.context(), ir.Location.unknown():
        module = ir.Module.parse(piece.text)  # kept alive while its ops are read
        ops = [op for op in module.body.operations[0].entry_block.operations
               if op.operation.name in ("ta.remap", "ta.map")]
        form = strided_form(ops if len(ops) > 1 else ops[0])
    rows = [1]
    for n in reversed(form["size"][1:]):
        rows.insert(0, rows[0] * n)
    return form["offset"] == 0 and form["stride"] == rows


def test_an_attention_reading_the_heads_of_the_qkv_projection_is_proved():
    """nanoGPT's attention kernel reads Q, K and V at columns h * D, C + h * D and 2C + h * D of
    the QKV projection's [B, T, 3C]: proved on both forms like any attention."""
    from torch_mlir import ir

    from tilec.build.verification import check_spec

    model, x = _NanoGPTBlock(c=256).eval().bfloat16(), torch.randn(2, 37, 256, dtype=torch.bfloat16)
    graph = tilec.compile(model, (x,), stage="oracle", strict=True)
    piece = next(p for p in graph.kernels().pieces if p.form == "online")
    assert '(%arg0: tensor<2x37x768xbf16, ["2", "37", "768"]>' in piece.text  # the projection itself, no copy
    for schedule, target in (("bm=64 bn=32 warps=4 stages=2", "sm_80"),
                             ("bm=128 bn=64 warps=8 stages=2 consumers=2", "sm_90a")):
        with graph.context, ir.Location.unknown():
            rows = check_spec(ir.Module.parse(piece.text), schedule, "nanogpt", targets=(target,))
        assert all(r.verdict in ("proved", "tested") for r in rows), [(r.check, r.verdict) for r in rows if r.verdict not in ("proved", "tested")]


def test_llama_block_runs_whole_as_kernels_rope_included():
    """Llama's block: RMSNorm, the Q, K and V GEMMs, RoPE on Q and on K as pointwise kernels
    (rotate_half's cat and the head transpose read through tile.gather), grouped heads read
    through by the attention (V as the heads of its projection, no copy), the projection,
    RMSNorm and SwiGLU: every op in a tilec kernel or a strided copy, matching eager."""
    from test_pytorch import _LlamaBlock

    model, x = _LlamaBlock(gqa="enable_gqa").eval(), torch.randn(2, 37, 64)
    cos, sin = torch.randn(37, 16), torch.randn(37, 16)
    graph = tilec.compile(model, (x, cos, sin), stage="tile", strict=True)
    forms = [p.form for p in graph.kernels().pieces]
    assert forms.count("online") == 1 and forms.count("pointwise") == 2 and forms.count("rows") == 2, forms
    assert set(forms) <= {"online", "pointwise", "rows", "contraction", "strided"}, forms
    with torch.no_grad():
        assert _close(graph(x, cos, sin), model(x, cos, sin))
    # the attention's output back to [B, T, C] is a view: the attention stores [B, T, H, D]
    assert all(_view_form(p) for p in graph.kernels().pieces if p.form == "strided")
    assert not graph.regions


def test_an_attention_unit_that_does_not_lower_is_placed_op_by_op():
    """A fusion group no kernel takes (a norm's statistics fused into the QKV GEMM's reduction)
    is no unit; the attention's is, and its ops are one kernel."""
    from torch_mlir import ir

    from tilec.lowering.driver import UNFUSED_REWRITES, rewrite
    from tilec.graph.split import FunctionView
    from tilec.graph.split_units import units

    model, x = _NanoGPTBlock(c=64).eval(), torch.randn(2, 37, 64)
    graph = tilec.compile(model, (x,), stage="oracle", strict=True)
    with graph.context, ir.Location.unknown():
        unfused, _ = rewrite(graph.module, UNFUSED_REWRITES)
        s = FunctionView(unfused.body.operations[0], fuse_each=True)
        found = {id(u): u for u in units(s, [op for op in s.ops if op.result not in s.through]).values()}
        assert len(found) == 1
        unit = next(iter(found.values()))
        names = [op.operation.name for op in unit]
        assert names.count("ta.contract") == 2 and names.count("ta.reduce") == 2, names


def test_merge_and_strided_checks_refute_broken_kernels(monkeypatch):
    """A merged kernel that reads another row, and a strided copy with a wrong stride, are refuted."""
    from tilec.graph.strided import strided_form
    from tilec.verify.strided import check_strided
    from tilec.verify.split import check_merge

    model, x = _NanoGPTBlock().eval(), torch.randn(2, 16, 32)
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        graph = tilec.compile(model, (x,), stage="tile")
        graph(x)  # no kernels take it whole: its regions around SDPA are compiled
    region = next(r for r in graph.regions  # the one after SDPA: the heads back as a strided copy
                  if {"strided", "rows"} <= {p.form for p in r.kernels().pieces})
    pieces = region.kernels().pieces
    merged = next(p for p in pieces if p.merged and p.form == "rows")
    copy = next(p for p in pieces if p.form == "strided")
    from torch_mlir import ir

    with region.context, ir.Location.unknown():
        piece, good = ir.Module.parse(merged.text), merged.kernel_module()
        assert check_merge(piece.body.operations[0], good.body.operations[0]).verdict == "proved"
        # a row statistic read at the column index (B*T = C = 32 here: the IR is well typed)
        text = str(good).replace("affine_map<(d0, d1) -> (d0)>", "affine_map<(d0, d1) -> (d1)>", 1)
        assert text != str(good)
        bad = ir.Module.parse(text)
        assert check_merge(piece.body.operations[0], bad.body.operations[0]).verdict == "counterexample"
        module = ir.Module.parse(copy.text)
        op = next(o for o in module.body.operations[0].entry_block.operations if o.operation.name in ("ta.remap", "ta.map"))
        assert [r.verdict for r in check_strided(op, "k")] == ["proved", "proved"]
        form = strided_form(op)
        wrong = dict(form, stride=[s + 1 if n == 0 else s for n, s in enumerate(form["stride"])])
        monkeypatch.setattr("tilec.verify.strided.strided_form", lambda op: wrong)
        assert check_strided(op, "k")[0].verdict == "counterexample"


def test_a_graph_package_binds_its_sizes_from_its_inputs_own_dims(tilec, tmp_path):
    """A row sum of [B, N, C] with B and N symbolic is one kernel over the B*N rows; the graph
    package records its inputs' own dims, so a call binds B and N from X's shape (and is then
    refused only for the CPU tensor, before any launch); a broken record is refused on load."""
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    from tilec.runtime.graph import load_graph

    spec = tmp_path / "three.ta"
    spec.write_text("param B = 2, N = 5, C = 33\ninput X[B, N, C] : f32\noutput Y[B, N] : f32\n"
                    "Y[b, n] = sum[c](X[b, n, c])\n")
    path = tmp_path / "three.tkg"
    assert tilec("compile", spec, "-o", path, "--target", "sm_90a")[0] == 0
    graph = _load(path)  # the module: ``tilec`` is the command-line fixture here
    assert graph.input_dims == [["B", "N", "C"]]
    assert graph.kernels[0].inputs[0]["dims"] == [["*", "B", "N"], "C"]
    with pytest.raises(ValueError, match="must be on cuda"):
        graph(torch.randn(3, 7, 300))
    bad = tmp_path / "bad.tkg"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.namelist():
            data = src.read(item)
            if item == "graph.json":
                data = json.dumps({**json.loads(data), "input_dims": [["B", ["%", "N", 2], "C"]]}).encode()
            dst.writestr(item, data)
    with pytest.raises(PackageError, match="input_dims"):
        load_graph(str(bad))


def _load(path):
    return tilec.runtime.load(str(path))


def test_a_kernel_package_of_a_spec_of_several_kernels_says_to_write_a_graph_package(tilec, tmp_path):
    """rmsnorm_matmul.ta is two kernels: -o x.tkp (one kernel) and --emit cuda say so and how to
    build it, and the README's --out-dir run says it in its line for the stages not written."""
    
    spec = ROOT / "examples" / "rmsnorm_matmul.ta"
    status, out, err = tilec("compile", spec, "-o", tmp_path / "x.tkp")
    assert status == 1 and f"-o rmsnorm_matmul.tkg" in err and "is 2 kernels" in err, err
    assert "no tile lowering takes" not in err and not (tmp_path / "x.tkp").exists()
    status, out, err = tilec("compile", spec, "--emit", "cuda")
    assert status == 1 and "'rmsnorm_matmul' is 2 kernels: a graph package holds them" in err, err
    status, out, err = tilec("compile", spec, "--out-dir", tmp_path / "b")
    assert status == 0 and "'rmsnorm_matmul' is 2 kernels: a graph package holds them" in out, out + err


NO_INPUT_PIECE = """param N = 8, R = 16, I = 4, U = 8
input A[N, R] : f32
output S[N] : f32
output Z[I, U] : f32
S[n] = sum[r](A[n, r])
Z[i, u] = i * 0.5
"""


@pytest.mark.parametrize("text", [NO_INPUT_PIECE, "param I = 4, U = 8\noutput Z[I, U] : f32\nZ[i, u] = i * 0.5\n"],
                         ids=["split", "whole"])
def test_a_kernel_that_reads_no_input_runs_and_is_proved(tilec, tmp_path, text):
    """A kernel of no arguments but its output (MLIR then keeps no arg_attrs): one of a split
    spec, or a spec that declares no input."""
    from tilec.build.verification_spec import verify_spec

    spec = tmp_path / "noinput.ta"
    spec.write_text(text)
    status, out, err = tilec("run", spec, "--stage", "tile")
    assert status == 0 and "MISMATCH" not in out, out + err
    report = verify_spec(str(spec), targets=())
    assert [r.detail for r in report.results if r.verdict not in ("proved", "tested")] == []
