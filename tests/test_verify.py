"""tilec verify: every correct kernel is proved; every deliberately broken one is refuted."""

import json
import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import tile_and_reference
from tilec import dialects
from tilec.lowering.driver import run_passes, to_loops, to_tile
from tilec.frontend import load_spec, spec_to_ta
from tilec.build.verification_spec import verify_spec
from tilec.verify.kernels import check_tile
from tilec.verify.online import check_online

SCHEDULE = "bm=64 bn=64 bk=32 warps=4 stages=3"


LOOP_ONLY = ()  # specs checked at --stage loop alone (every example has a verified tile kernel)


@pytest.mark.parametrize("example", ["gemm", "gemm_f32_nt", "batched_gemm", "matmul_bias_gelu", "attention",
                                     "causal_attention", "gqa_attention", "attention_bias", "masked_attention",
                                     "softmax", "logsumexp",
                                     "layernorm", "rmsnorm"])
def test_correct_kernels_are_proved(example):
    stage = "loop" if example in LOOP_ONLY else "tile"
    report = verify_spec(str(EXAMPLES / f"{example}.ta"), SCHEDULE, stage=stage)
    assert report.results, "nothing was checked"
    bad = [(r.check, r.verdict, r.detail, r.counterexample) for r in report.results
           if r.verdict not in ("proved", "tested") and not (r.verdict == "unknown" and r.check.startswith("attention tile"))]
    assert not bad, bad
    stages = {r.stage for r in report.results}
    assert stages - {"ta"} == ({"loop"} if stage == "loop" else {"tile", "cuda", "loop"})
    if example in ("attention", "softmax", "logsumexp", "layernorm", "matmul_bias_gelu"):  # rewrites fired
        assert "ta" in stages


def test_a_spec_without_tile_kernel_is_an_error_not_a_skip(tmp_path):
    spec = tmp_path / "three.ta"
    spec.write_text("param N = 5, C = 33\ninput X[N, C] : f32\noutput Y[N] : f32\n"  # a row sum times a column's
                    "Y[n] = sum[c](X[n, c]) * sum[m](X[m, 0])\n")
    report = verify_spec(str(spec), SCHEDULE)
    errors = [r for r in report.results if r.verdict == "error"]
    assert [(r.stage, r.property) for r in errors] == [("tile", "build")]
    # the plan's refusal: no form takes the function whole, nor the one kernel of its split
    assert errors[0].detail.startswith("no tile kernel: no tile lowering takes kernel 0 of 'three'")
    assert report.status() == 1


def test_a_row_sum_over_symbolic_leading_dims_is_lowered_merged_and_proved(tmp_path):
    """[B, N, C] summed over C with B and N symbolic: one row program over the B*N rows (the
    leading dims merged at symbolic sizes), proved for all shapes."""
    spec = tmp_path / "three.ta"
    spec.write_text("param B = 2, N = 5, C = 33\ninput X[B, N, C] : f32\noutput Y[B, N] : f32\n"
                    "Y[b, n] = sum[c](X[b, n, c])\n")
    report = verify_spec(str(spec), SCHEDULE)
    assert report.status() == 0, report.summary()
    assert any(r.stage == "tile" for r in report.results)


def test_a_head_dim_without_default_is_an_error_and_shape_fixes_it(tmp_path):
    text = (EXAMPLES / "attention.ta").read_text()
    spec = tmp_path / "renamed.ta"
    spec.write_text(re.sub(r"\bD\b", "E", text).replace("E = 64", "E"))
    report = verify_spec(str(spec), SCHEDULE)
    assert report.status() == 1 and any("--shape E=" in r.detail for r in report.results if r.verdict == "error")
    report = verify_spec(str(spec), SCHEDULE, shapes={"E": 32})
    assert report.status() == 0, report.summary()
    assert sum(r.stage == "tile" for r in report.results) >= 20


def test_a_renamed_head_dim_is_checked_like_d(tmp_path):
    """The head dim is found by the lowering, not by its name: every tile check stays."""
    spec = tmp_path / "renamed.ta"
    spec.write_text(re.sub(r"\bD\b", "E", (EXAMPLES / "attention.ta").read_text()))
    renamed = verify_spec(str(spec), SCHEDULE)
    original = verify_spec(str(EXAMPLES / "attention.ta"), SCHEDULE)
    assert renamed.status() == 0
    assert [r.check for r in renamed.results if r.stage == "tile"] == \
        [r.check for r in original.results if r.stage == "tile"]


def _tile_texts(example="matmul_bias_gelu", schedule=SCHEDULE):
    return tile_and_reference(example, schedule)


def _const(text: str, value: str) -> str:
    return re.search(rf"(%cst\w*) = arith.constant {re.escape(value)} : f32", text)[1]


def _acc_init(t: str) -> str:
    zero = re.search(r'"tile.map"\(\) \(\{\n\s+"tile.yield"\((%cst\w*)\) : \(f32\)', t)[1]
    return t.replace(f'"tile.yield"({zero}) : (f32)', f'"tile.yield"({_const(t, "1.000000e+00")}) : (f32)', 1)


TILE_MUTANTS = {
    "wrong XOR term (row >> 1)": lambda t: t.replace("[32, 64], [64, 1], [3, 3, 3]", "[32, 64], [64, 1], [3, 3, 4]"),
    "swizzle that is not a bijection": lambda t: t.replace("[64, 1], [3, 3, 3]", "[64, 1], [3, 3, 0]"),
    "missing barrier": lambda t: t.replace('      "tile.barrier"() : () -> ()\n', "", 1),
    "missing pipeline wait": lambda t: t.replace('      "tile.wait_group"() {pending = 1 : i64} : () -> ()\n', "", 1),
    "wait for too little": lambda t: t.replace("{pending = 1 : i64}", "{pending = 2 : i64}", 1),
    "dropped remainder K tile": lambda t: re.sub(r"arith.ceildivsi (%arg\d+), %c32", r"arith.floordivsi \1, %c32", t),
    "swapped offsets of A": lambda t: re.sub(r'"tile.async_copy"\(%arg0, (%\w+), (%\w+),',
                                             r'"tile.async_copy"(%arg0, \2, \1,', t),
    "B copied from A": lambda t: t.replace('"tile.async_copy"(%arg1,', '"tile.async_copy"(%arg0,'),
    "wrong accumulator initialisation": _acc_init,
    "wrong epilogue (bias subtracted)": lambda t: re.sub(r"arith.addf (%\d+), (%\d+) : f32\n(\s+)\"tile.yield\"",
                                                         r'arith.subf \1, \2 : f32\n\3"tile.yield"', t, count=1),
    "out-of-range program id": lambda t: t.replace('tile.grid = ["(M+63)/64*((N+63)/64)"',
                                                   'tile.grid = ["(M+63)/64*((N+63)/64)+1"'),
    "read from the wrong stage": lambda t: re.sub(r"(\n\s+%\d+ = arith.remsi %arg7, )%c3( : index\n\s+\"tile.wait_group\")",
                                                  r"\1%c2\2", t, count=1),
    "copy into the stage being read": lambda t: re.sub(r"arith.addi %arg7, %c2 : index", "arith.addi %arg7, %c3 : index", t),
    "prologue copies all into stage 0": lambda t: re.sub(r"(\"tile.async_copy\"\([^)]*), %arg7\)( \{tile.prologue\})? : ", r"\1, %c0)\2 : ", t,
                                                         count=2),
    "raster group not clamped": lambda t: re.sub(r"arith.remsi (%\d+), (%\d+) : index\n(\s+%\d+ = arith.addi)",
                                                 r"arith.remsi \1, %c8 : index\n\3", t, count=1),
}


@pytest.mark.parametrize("name", sorted(TILE_MUTANTS))
def test_broken_tile_kernels_are_refuted(name):
    tiled, reference = _tile_texts()
    mutated = TILE_MUTANTS[name](tiled)
    assert mutated != tiled, "the mutation did not apply"
    with dialects.context(), ir.Location.unknown():
        results = check_tile(ir.Module.parse(mutated), ir.Module.parse(reference), "m.ta")
    refuted = [r for r in results if r.verdict in ("counterexample", "error")]
    assert refuted, f"{name}: every property was still proved"
    assert all(r.counterexample or r.detail for r in refuted)


def _loop_text(example="attention"):
    with dialects.context(), ir.Location.unknown():
        return str(to_loops(load_spec(str(EXAMPLES / f"{example}.ta"))))


def _online_names(text: str):
    match = re.search(r"(%\d+) = memref.load (%alloc_?\d*)\[\] : memref<f32>\n\s+(%\d+) = arith.maximumf \1, (%\d+)",
                      text)
    return match[1], match[2], match[3], match[4]  # m, running buffer, m', x


ONLINE_MUTANTS = {
    "wrong rescale factor exp(m' - m)": lambda t, m, buf, m2, x: t.replace(f"arith.subf {m}, {m2}",
                                                                             f"arith.subf {m2}, {m}", 1),
    "stale running max": lambda t, m, buf, m2, x: t.replace(f"memref.store {m2}, {buf}[]", f"memref.store {m}, {buf}[]", 1),
    "new term not rescaled (p = 1)": lambda t, m, buf, m2, x: re.sub(
        rf"(%\d+) = arith.subf {x}, {m2} : f32\n(\s+)(%\d+) = math.exp \1 : f32\n(\s+)(%\d+) = arith.select "
        rf"(%\d+), (%cst\w*), \3 : f32", r"\1 = arith.subf " + f"{x}, {m2}" + r" : f32\n\2\3 = math.exp \1 : f32"
        r"\n\4\5 = arith.select \6, \7, \7 : f32", t, count=1),
}
# exp(x - m) for p is *not* a mutant: whenever x differs from the new max, the max did not
# change (m' = m), and when x is the new max the guard gives 1 = exp(0); the verifier proves it.


@pytest.mark.parametrize("example", ["attention", "causal_attention"])
@pytest.mark.parametrize("name", sorted(ONLINE_MUTANTS))
def test_broken_online_softmax_is_refuted(example, name):
    text = _loop_text(example)
    mutated = ONLINE_MUTANTS[name](text, *_online_names(text))
    assert mutated != text
    with dialects.context(), ir.Location.unknown():
        results = check_online(ir.Module.parse(mutated), "a.ta")
    assert results and any(r.verdict == "counterexample" for r in results), [r.verdict for r in results]


def test_reports(tilec, tmp_path):
    paths = {k: tmp_path / f"r.{k}" for k in ("json", "junit", "markdown")}
    status, out, err = tilec("verify", EXAMPLES / "matmul_bias_gelu.ta", "--schedule", "bm=64,bn=64,bk=32",
                             "--json", paths["json"], "--junit", paths["junit"], "--markdown", paths["markdown"])
    assert status == 0, err
    assert re.search(r"^\d+ proved( / \d+ tested)? / 0 counterexample / 0 unknown$", out.splitlines()[-1])
    data = json.loads(paths["json"].read_text())
    assert data["schema"] == "tilec.verify/1" and data["tools"]["z3"]
    row = data["results"][0]
    assert set(row) >= {"kernel", "stage", "property", "check", "verdict", "seconds", "domain", "counterexample"}
    assert {r["property"] for r in data["results"]} >= {"equivalence", "in-bounds", "swizzle", "races", "coverage"}
    assert paths["junit"].read_text().startswith('<?xml') and "<testsuite" in paths["junit"].read_text()
    assert "| kernel | stage | property |" in paths["markdown"].read_text()


def test_counterexample_exits_1_with_a_replay_command(tilec, tmp_path, monkeypatch):
    import tilec.verify.kernels as kernels

    original = kernels.check_tile

    def broken(tiled, reference, replay):
        text = TILE_MUTANTS["dropped remainder K tile"](str(tiled))
        return original(ir.Module.parse(text), reference, replay)

    monkeypatch.setattr(kernels, "check_tile", broken)
    status, out, err = tilec("verify", EXAMPLES / "gemm.ta", "--schedule", "bm=64,bn=64,bk=32")
    assert status == 1
    replay = next(line.split("replay: ", 1)[1] for line in out.splitlines() if "replay: " in line)
    # everything needed to see it: the stage, the kernel's whole schedule and the sizes of the model
    assert replay.startswith(f"tilec run {EXAMPLES / 'gemm.ta'} --stage tile --schedule bm=64,bn=64,bk=32,warps=4,")
    shapes = dict(item.split("=") for item in replay.split("--shape ")[1].split(","))
    assert set(shapes) == {"M", "N", "K"} and all(int(v) >= 1 for v in shapes.values()), replay


def test_replay_carries_fixed_sizes_and_schedule():
    from tilec.lowering.driver import build_tile
    from tilec.verify.replay import Replay

    with dialects.context(), ir.Location.unknown():
        built = build_tile(load_spec(str(EXAMPLES / "attention.ta")), {"S": 100}, SCHEDULE)
        replay = Replay.of("a.ta", built.tile.body.operations[0], built.fixed)
    command = replay({"T": 65, "pid": 3})
    assert command.startswith("tilec run a.ta --stage tile --schedule bm=64,bn=64,bk=32,warps=4,stages=3,")
    assert command.endswith("--shape S=100,D=64,T=65"), command


def test_verified_package_carries_its_report(tilec, tmp_path, monkeypatch):
    pytest.importorskip("cuda.bindings.nvrtc")
    from tilec.runtime import read_package

    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "g.tkp"
    status, stdout, err = tilec("compile", EXAMPLES / "gemm.ta", "-o", out, "--target", "sm_90a", "--verify",
                                "--schedule", "bm=64,bn=64,bk=32")
    assert status == 0, err
    package = read_package(str(out))
    report = json.loads(package.files["verify.json"])
    assert report["summary"]["counterexample"] == 0 and "verify.json" in package.manifest["files"]


def _loop_modules(example: str):
    from tilec.lowering.driver import LOOP_PIPELINE

    with dialects.context(), ir.Location.unknown():
        ta = spec_to_ta(example, "x.ta") if "\n" in example else load_spec(str(EXAMPLES / f"{example}.ta"))
        run_passes(ta, LOOP_PIPELINE[:-1])
        loops = ir.Module.parse(str(ta))
        run_passes(loops, LOOP_PIPELINE[-1:])
        return str(ta), str(loops)


SCALAR_SUM = "param N = 16\ninput X[N] : f32\noutput total[] : f32\ntotal = sum[i](X[i])\n"

def _about_old_mean(text: str) -> str:
    """The centred update's (x - s') t with s' the old mean s (delta = s - s' names both)."""
    old, new = re.search(r"= arith.subf (%\d+), (%\d+) : f32", text).groups()
    return re.sub(rf"(%\d+) = arith.subf (%\d+), {new} : f32(\n\s+%\d+ = arith.mulf %cst, \1)",
                  rf"\1 = arith.subf \2, {old} : f32\3", text, count=1)


REMAPPED_SUM = ("param F\ninput X[F] : f32\ninput X1[(F + 1) / 2] : f32\noutput Y[] : f32\n"
                "Y = sum[i](softmax[i](X[i]) - X1[i / 2])\n")

LOOP_MUTANTS = {
    # a remapped input (X1 at i / 2) read at the remap's own index
    "remap read at its own index": (REMAPPED_SUM, lambda t: re.sub(r"memref.load %arg1\[%\d+\]",
                                                                 "memref.load %arg1[%arg4]", t, count=1)),
    # a reduction to a rank-0 output: its initial store sits outside every loop
    "scalar sum starts at 1": (SCALAR_SUM, lambda t: t.replace(
        "%cst = arith.constant 0.000000e+00 : f32", "%cst = arith.constant 1.000000e+00 : f32", 1)),
    # rmsnorm: the weight read at the row index instead of the column index
    "map reads the wrong index": ("rmsnorm", lambda t: re.sub(r"memref.load %arg1\[(%arg\d+)\]",
                                                              "memref.load %arg1[%arg5]", t, count=1)),
    # rmsnorm: the sum of squares starts at 1
    "reduction starts at the wrong value": ("rmsnorm", lambda t: t.replace(
        "%cst_0 = arith.constant 0.000000e+00 : f32", "%cst_0 = arith.constant 1.000000e+00 : f32", 1)),
    # gemm: the contraction subtracts
    "contraction subtracts": ("gemm", lambda t: re.sub(r"(%\d+) = arith.addf (%\d+), (%\d+) : f32\n(\s+)memref.store",
                                                       r"\1 = arith.subf \2, \3 : f32\n\4memref.store", t, count=1)),
    # softmax: a masked term (x = -inf) adds 1 instead of 0
    "masked term counted as 1": ("softmax", lambda t: t.replace(
        "%10 = arith.select %7, %cst_7, %9 : f32", "%10 = arith.select %7, %cst_6, %9 : f32", 1)),
    # rmsnorm: the last column is never visited
    "loop stops one short": ("rmsnorm", lambda t: re.sub(r"scf.for (%arg6) = %c0 to (%arg3) step %c1",
                                                         r"scf.for \1 = %c1 to \2 step %c1", t, count=1)),
    # layernorm's variance (a centred sum): Welford's new term about the old mean, not the new one
    "centred step about the old mean": ("layernorm", _about_old_mean),
    # layernorm's variance starts at 1 (%alloc_1 holds ta op #3, the centred sum)
    "centred sum starts at 1": ("layernorm", lambda t: re.sub(
        r"memref.store %cst_\d+, (%alloc_1)\[", r"memref.store %cst, \1[", t, count=1)),
}


@pytest.mark.parametrize("name", sorted(LOOP_MUTANTS))
def test_broken_loop_nests_are_refuted(name):
    from tilec.verify.loop_sums import check_loop_sums
    from tilec.verify.loops import check_loops

    example, mutate = LOOP_MUTANTS[name]
    ta, loops = _loop_modules(example)
    mutated = mutate(loops)
    assert mutated != loops
    with dialects.context(), ir.Location.unknown():
        ta_module, loop_module = ir.Module.parse(ta), ir.Module.parse(mutated)  # kept alive while checked
        fns = ta_module.body.operations[0], loop_module.body.operations[0]
        results = check_loops(*fns, "x.ta") + check_online(loop_module, "x.ta") + check_loop_sums(*fns, "x.ta")
    assert any(r.verdict == "counterexample" for r in results), [(r.check, r.verdict) for r in results]


def test_a_fused_sum_of_a_remapped_input_is_proved(tmp_path):
    """The loops read a remapped input at its source (X1[i / 2]); the check follows the remap
    (it once crashed comparing an MLIR value with None, then refuted the right loop)."""
    spec = tmp_path / "remapped.ta"
    spec.write_text(REMAPPED_SUM)
    report = verify_spec(str(spec), stage="loop")
    assert report.results and all(r.verdict in ("proved", "tested") for r in report.results), report.as_text()


def test_scalar_reduction_is_proved_at_every_size(tmp_path):
    """A rank-0 output: its loop nest is proved (no false counterexample at N=1), and it is not
    taken for an online-softmax running max."""
    spec = tmp_path / "total.ta"
    spec.write_text(SCALAR_SUM)
    report = verify_spec(str(spec), stage="loop")
    assert [(r.check, r.verdict) for r in report.results] == [("op #0 (ta.reduce) equals its loop nests", "proved")]


def test_an_unreadable_loop_nest_is_an_error_not_a_counterexample():
    from tilec.verify.loops import check_loops

    ta, loops = _loop_modules("gemm")
    # the initialisation nest of the contraction is lost: the fold alone proves nothing either way
    mutated = re.sub(r"scf.for[^\n]*\{\n(\s+)scf.for[^\n]*\{\n\s+memref.store %cst[^\n]*\n\s+\}\n\s+\} \{ta.origin = 0 : i64\}",
                     "", loops, count=1)
    assert mutated != loops
    with dialects.context(), ir.Location.unknown():
        ta_module, loop_module = ir.Module.parse(ta), ir.Module.parse(mutated)
        results = check_loops(ta_module.body.operations[0], loop_module.body.operations[0], "x.ta")
    row = next(r for r in results if "ta.contract" in r.check)
    assert row.verdict == "error" and "form this check does not read" in row.detail


def test_verify_a_package(tilec, tmp_path, monkeypatch):
    pytest.importorskip("cuda.bindings.nvrtc")

    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "g.tkp"
    assert tilec("compile", EXAMPLES / "gemm.ta", "-o", out, "--target", "sm_90a",
                 "--schedule", "bm=64,bn=64,bk=32")[0] == 0
    status, stdout, err = tilec("verify", out)
    assert status == 0, err
    assert "the package's launch fields, CUDA source and cubin are what its source, schedule and sizes build" \
        in stdout
    # a package whose source (and hash) was replaced is not vouched for
    forged = tmp_path / "forged.tkp"
    from tilec.runtime.package import read_package, write_package
    package = read_package(str(out))
    files = dict(package.files)
    files["gemm.sm_90a.cu"] = files["gemm.sm_90a.cu"] + b"\n// edited\n"
    manifest = {k: v for k, v in package.manifest.items() if k not in ("files", "format")}
    write_package(str(forged), manifest, files)
    status, stdout, err = tilec("verify", forged)
    assert status == 1 and "was not built from its source" in stdout and "0 proved" in stdout


def test_attention_package_is_verified_at_its_own_sizes(tilec, tmp_path, monkeypatch):
    """compile --shape D=32 --verify proves the D=32 kernel it ships; verify PKG rebuilds that one."""
    pytest.importorskip("cuda.bindings.nvrtc")
    import json

    from tilec.runtime import read_package

    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "a.tkp"
    status, stdout, err = tilec("compile", EXAMPLES / "attention.ta", "-o", out, "--target", "sm_90a", "--verify",
                                "--shape", "D=32", "--schedule", "bm=64,bn=64,bk=32")
    assert status == 0, err
    package = read_package(str(out))
    assert package.kernel("sm_90a")["fixed"] == {"D": 32}
    report = json.loads(package.files["verify.json"])
    tile_rows = [r for r in report["results"] if r["stage"] == "tile"]
    assert tile_rows and all(r["verdict"] == "proved" for r in tile_rows)
    assert any("tile 64x32" in r["check"] for r in tile_rows)  # the shared tiles of head dim 32
    status, stdout, err = tilec("verify", out)
    assert status == 0, stdout + err
    assert "proved  attention [package sm_90a] equivalence: the package's launch fields" in stdout


def _attention_tile_text(example="causal_attention"):
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / f"{example}.ta"))
        run_passes(module, ["ta-specialize-shapes{shapes=D=64}"])
        return str(to_tile(module, "bm=32 bn=32 warps=2 stages=3"))


def _in_map(text: str, result_type: str, edit):
    """Apply ``edit`` to the first tile.map producing ``result_type`` that contains math.exp."""
    pattern = r'(%\d+) = "tile.map"\(\) \(\{\n((?:(?!"tile.map").)*?)\n\s+\}\) : \(\) -> '
    for match in re.finditer(pattern + re.escape(result_type) + r"[,>][^\n]*\n", text, re.S):
        body = match[2]
        if "math.exp" in body and '"tile.map"' not in body:
            return text[:match.start(2)] + edit(body) + text[match.end(2):]
    return text


def _swap_first_subf(body):
    return re.sub(r"arith.subf (%\d+), (%\d+)", r"arith.subf \2, \1", body, count=1)


ATTENTION_MUTANTS = {
    "wrong rescale factor exp(m' - m)": lambda t: _in_map(t, "tensor<32xf32", _swap_first_subf),
    "stale running max": lambda t: re.sub(r"scf.yield (%\d+), ", "scf.yield %arg9, ", t, count=1),
    "block exponentials against the old max": lambda t: _in_map(
        t, "tensor<32x32xf32", lambda b: re.sub(r'"tile.elem"\((%\d+)\) \{map = (#map\d*)\} : \((tensor<32xf32[^)]*)\)',
                                                r'"tile.elem"(%arg9) {map = \2} : (\3)', b, count=1)),
    "accumulator not rescaled": lambda t: re.sub(r'("tile.mma"\(%\d+, %\d+, )(%\d+)(\) : \(tensor<32x32xbf16)',
                                                 r"\1%arg11\3", t, count=1),
    "missing wait before reading a stage": lambda t: t.replace(
        '      "tile.wait_group"() {pending = 1 : i64} : () -> ()\n', "", 1),
    "skipped block that is not fully masked": lambda t: re.sub(
        r"= arith.addi (%\d+), %c32 : index\n(\s+)(%\d+) = arith.ceildivsi", r"= arith.addi \1, %c0 : index\n\2\3"
        r" = arith.ceildivsi", t, count=1),
}


# the old rule p = 1 where x = m' counted each key of a fully masked row (output: mean of V); in
# the per-row guard the same bug is a max left at -inf: exp(-inf - -inf) counts a masked key as 1
def _guard_keeps_neg_inf(text: str) -> str:
    """the row guard m'' = (m' == -inf ? 0 : m') keeps m' = -inf"""
    pattern = r'"tile.map"\(\) \(\{\n((?:(?!"tile.map").)*?)\n\s+\}\) : \(\) -> tensor<32xf32'
    for match in re.finditer(pattern, text, re.S):
        body = match[1]
        if "math.exp" not in body and "arith.select" in body:
            edited = re.sub(r"arith.select (%\d+), %cst, (%\d+)", r"arith.select \1, \2, \2", body, count=1)
            return text[:match.start(1)] + edited + text[match.end(1):]
    return text


def _q_copy_after_prologue(text: str) -> str:
    """The Q tile's copy (and its commit) issued after the K/V prologue, not before it: its group
    is then the newest before the loop, still pending at the first iteration's wait."""
    q_copy = re.search(r'\n(\s+"tile.async_copy"\(%arg0[^\n]*\n\s+"tile.commit_group"\(\) : \(\) -> \(\))\n', text)
    if q_copy is None:
        return text
    text = text[:q_copy.start()] + text[q_copy.end() - 1:]
    return text.replace("    } {tile.prologue}\n", "    } {tile.prologue}\n" + q_copy[1] + "\n", 1)


ATTENTION_MUTANTS["masked key counted as 1"] = _guard_keeps_neg_inf
ATTENTION_MUTANTS["Q copied after the K/V prologue"] = _q_copy_after_prologue
ATTENTION_MUTANTS["causal mask off by one"] = lambda t: t.replace("arith.cmpi sle", "arith.cmpi slt", 1)
# found by hand-written bugs once proved: the last row block never written, the output not divided
# by the row sum, the key one past the end counted
ATTENTION_MUTANTS["grid rounded down"] = ("attention", lambda t: t.replace('tile.grid = ["(S+31)/32"',
                                                                           'tile.grid = ["S/32"'))
ATTENTION_MUTANTS["no final division by the row sum"] = ("attention", lambda t: re.sub(
    r"arith.divf %cst_1, (%\d+)", r"arith.divf %cst_1, %cst_1", t, count=1))
ATTENTION_MUTANTS["key mask past the end off by one"] = ("attention", lambda t: re.sub(
    r"arith.cmpi slt, (%\d+), %arg8", r"arith.cmpi sle, \1, %arg8", t, count=1))
# torch's SDPA guard of fully masked rows (examples/masked_attention.ta): the epilogue's select
# reads the loop's running max; a guard that tests it the wrong way round gives 0 for every row
ATTENTION_MUTANTS["masked-row guard inverted"] = ("masked_attention", lambda t: t.replace(
    "arith.cmpf oeq", "arith.cmpf one", 1))
ATTENTION_MUTANTS["wrong grouped head index"] = ("gqa_attention", lambda t: re.sub(
    r"arith.floordivsi (%\d+), %c4", r"arith.floordivsi \1, %c1", t, count=1))


@pytest.mark.parametrize("name", sorted(ATTENTION_MUTANTS))
def test_broken_attention_tile_kernels_are_refuted(name):
    from tilec.lowering.driver import tile_pipeline
    from tilec.verify.kernels import check_tile

    example, mutate = ATTENTION_MUTANTS[name] if isinstance(ATTENTION_MUTANTS[name], tuple) else \
        ("causal_attention", ATTENTION_MUTANTS[name])
    text = _attention_tile_text(example)
    mutated = mutate(text)
    assert mutated != text, "the mutation did not apply"
    with dialects.context(), ir.Location.unknown():
        module = ir.Module.parse(mutated)
        fused = load_spec(str(EXAMPLES / f"{example}.ta"))
        run_passes(fused, ["ta-specialize-shapes{shapes=D=64}"] + tile_pipeline("")[:-2])
        results = check_tile(module, fused, "a.ta")
    refuted = [r for r in results if r.verdict in ("counterexample", "error")]
    assert refuted, f"{name}: every property was still proved"


def test_a_group_max_of_another_stabiliser_is_refuted():
    """The loop's running max stands for the group's max op only if that op maximises the same x:
    a max op whose mask term is dropped (its x differs where a key is masked) is refuted."""
    from tilec.lowering.driver import tile_pipeline

    text = _attention_tile_text("masked_attention")
    with dialects.context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        fused = load_spec(str(EXAMPLES / "masked_attention.ta"))
        run_passes(fused, ["ta-specialize-shapes{shapes=D=64}"] + tile_pipeline("")[:-2])
        fn = fused.body.operations[0]
        running_max = next(op for op in fn.entry_block.operations if op.operation.name == "ta.online" and
                           ir.StringAttr(op.attributes["kind"]).value == "max")
        add = next(op for op in running_max.regions[0].blocks[0].operations if op.operation.name == "arith.addf")
        add.result.replace_all_uses_with(add.operation.operands[0])  # max_j of the scores alone
        results = check_tile(module, fused, "a.ta")
    row = next(r for r in results if "the group's max op maximises" in r.check)
    assert row.verdict == "counterexample", row


TWO_STAGES = "bm=64 bn=64 bk=32 warps=4 stages=2"  # the one-iteration prologue is inlined


TWO_STAGE_MUTANTS = {
    "no wait before reading a stage": lambda t: t.replace(
        '      "tile.wait_group"() {pending = 0 : i64} : () -> ()\n', "", 1),
    "prologue copies A into stage 1": lambda t: re.sub(r'("tile.async_copy"\(%arg0, %\w+, %c0, %\w+, )%c0\)',
                                                       r"\1%c1)", t, count=1),
}


def test_two_stage_kernels_are_proved():
    tiled, reference = _tile_texts("gemm", TWO_STAGES)
    assert tiled.count("scf.for") == 1  # no prologue loop left
    with dialects.context(), ir.Location.unknown():
        results = check_tile(ir.Module.parse(tiled), ir.Module.parse(reference), "m.ta")
    assert results and {r.verdict for r in results} <= {"proved", "tested"}


@pytest.mark.parametrize("name", sorted(TWO_STAGE_MUTANTS))
def test_broken_two_stage_kernels_are_refuted(name):
    tiled, reference = _tile_texts("gemm", TWO_STAGES)
    mutated = TWO_STAGE_MUTANTS[name](tiled)
    assert mutated != tiled, "the mutation did not apply"
    with dialects.context(), ir.Location.unknown():
        results = check_tile(ir.Module.parse(mutated), ir.Module.parse(reference), "m.ta")
    assert [r for r in results if r.verdict in ("counterexample", "error")], f"{name}: every property was still proved"


PER_HEAD_BIAS = """param B = 1, H = 4, S = 128, T = 128, D = 64
input Q[B, H, S, D] : bf16
input K[B, H, T, D] : bf16
input V[B, H, T, D] : bf16
input slopes[H] : f32
output O[B, H, S, D] : bf16
O[b, h, i, d] = sum[j](softmax[j](sum[e](Q[b, h, i, e] * K[b, h, j, e]) * rsqrt(D) + slopes[h] * (j - i)) * V[b, h, j, d])
"""

SLIDING_WINDOW = """param S = 128, D = 64
const W = 32
input Q[S, D] : bf16
input K[S, D] : bf16
input V[S, D] : bf16
output O[S, D] : bf16
O[i, d] = sum[j](softmax[j](sum[e](Q[i, e] * K[j, e]) * rsqrt(D) where j <= i and i - j < W else -inf) * V[j, d])
"""


@pytest.mark.parametrize("text", [PER_HEAD_BIAS, SLIDING_WINDOW], ids=["per-head-bias", "sliding-window"])
def test_attention_variants_are_proved_and_their_cuda_compiles(text, tmp_path):
    """A per-head 1-D bias once proved and then failed in NVRTC; an integer constant and 'and' in a
    mask once crashed the verifier. Proved now covers the emitted, compiled CUDA."""
    pytest.importorskip("cuda.bindings.nvrtc")
    spec = tmp_path / "variant.ta"
    spec.write_text(text)
    report = verify_spec(str(spec), SCHEDULE, targets=("sm_90a",))
    bad = [(r.stage, r.check, r.verdict, r.detail) for r in report.results if r.verdict not in ("proved", "tested")]
    assert not bad, bad
    assert any(r.stage == "cuda" and "compiles for sm_90a" in r.check for r in report.results)


def test_cuda_that_does_not_compile_is_an_error_row(tmp_path, monkeypatch):
    pytest.importorskip("cuda.bindings.nvrtc")
    import tilec.codegen.cuda as cuda

    original = cuda.emit_cuda

    def broken(module):
        kernel = original(module)
        kernel.source = kernel.source.replace("__syncthreads();", "__syncthreads()", 1)
        return kernel

    monkeypatch.setattr("tilec.build.verification_cuda.emit_cuda", broken)
    monkeypatch.setattr("tilec.build.verification.emit_cuda", broken)  # the text a worker compiles ahead
    report = verify_spec(str(EXAMPLES / "gemm.ta"), SCHEDULE, targets=("sm_80",))
    rows = [r for r in report.results if r.stage == "cuda" and "compiles" in r.check]
    assert [r.verdict for r in rows] == ["error"] and "NVRTC failed" in rows[0].detail
    assert report.status() == 1


def test_a_report_prints_as_the_cli_shows_it():
    report = verify_spec(str(EXAMPLES / "gemm.ta"), SCHEDULE, stage="loop")
    text = str(report)
    assert text.splitlines()[-1] == report.summary() and "Report(" not in text
    assert "proved  gemm [loop] equivalence" in text


F32_OUT_ATTENTION = """param S, T, D = 64
input Q[S, D] : bf16
input K[T, D] : bf16
input V[T, D] : bf16
output O[S, D] : f32
O[i, d] = sum[j](softmax[j](sum[e](Q[i, e] * K[j, e]) * rsqrt(D)) * V[j, d])
"""


def test_f32_output_attention_keeps_f32_accuracy_and_is_proved(tmp_path):
    """P is rounded to bf16 for the mma; an f32 result adds the rounding residual through a second
    mma, so the tile stage meets the f32 tolerance; the verifier reads the two-mma chain, and
    one whose second mma re-reads P instead of its residual is not proved."""
    from tilec.lowering.driver import build_tile
    from tilec.signature import bind, random_inputs, signature
    from tilec.executors.oracle import evaluate
    from tilec.executors.tile_interpreter import run_tile
    from tilec.executors.compare import compare
    from tilec.verify.attention import check_attention

    spec = tmp_path / "f32out.ta"
    spec.write_text(F32_OUT_ATTENTION)
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(F32_OUT_ATTENTION, "f32out.ta")
        built = build_tile(module, {"S": 40, "T": 70}, "bm=32 bn=32 warps=2 stages=2")
        sig = signature(module.body.operations[0])
        env = bind(sig, {"S": 40, "T": 70})
        inputs = random_inputs(sig, env, 0)
        result = compare(run_tile(built.tile, sig, inputs, env)["O"], evaluate(module.body.operations[0], inputs, env)["O"])
        text = str(built.tile)
    assert result.ok, str(result)
    assert text.count('"tile.mma"') == 3  # scores, P, and P's residual
    report = verify_spec(str(spec), SCHEDULE, shapes={"S": 40}, targets=("sm_80",))
    assert report.status() == 0, report.as_text()
    mmas = re.findall(r'"tile.mma"\((%\w+), (%\w+), (%\w+)\)', text)
    first_p, second_p = mmas[1][0], mmas[2][0]
    mutated = text.replace(f'"tile.mma"({second_p}, ', f'"tile.mma"({first_p}, ', 1)
    assert mutated != text
    with dialects.context(), ir.Location.unknown():
        rows = check_attention(ir.Module.parse(mutated), "f32out.ta")
    assert any(r.verdict in ("counterexample", "error") for r in rows if "online-softmax" in r.check)


@pytest.mark.parametrize("body", ["Y = s[]", "Y = sigmoid(s[])", "Y = max[i](X[i]) * 2.0", "Y = logsumexp[i](X[i])",
                                  "Y = sum[i](X[i])"])
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_rank_0_results_are_proved_not_crashed(body, dtype, tmp_path):
    """A rank-0 result is computed outside every loop; a plain reduction to a scalar is not an
    online-softmax running max."""
    spec = tmp_path / "scalar.ta"
    spec.write_text(f"param N = 8\ninput s[] : f32\ninput X[N] : f32\noutput Y[] : {dtype}\n{body}\n")
    report = verify_spec(str(spec), stage="loop")
    assert report.status() == 0, report.as_text()


def test_f32_attention_has_a_cuda_error_row_not_a_crash(tmp_path, tilec):
    spec = tmp_path / "f32att.ta"
    spec.write_text(F32_OUT_ATTENTION.replace(": bf16", ": f32"))
    for target in ("sm_80", "sm_90a"):  # lowered for either, the emitter has no f32 P·V
        report = verify_spec(str(spec), SCHEDULE, targets=(target,))
        errors = [(r.stage, r.property) for r in report.results if r.verdict == "error"]
        assert errors == [("cuda", "build")], report.as_text()
    status, out, err = tilec("compile", spec, "--emit", "cuda")
    assert status == 1 and "use bf16 or f16 inputs" in err and "internal error" not in err


def test_a_bank_conflict_replays_as_the_proof_and_reproduces(tilec):
    """Unswizzled 64-element rows: real ldmatrix conflicts (see dialects/test_layout.py). A serial run cannot
    show them, so the replay re-runs the proof with the kernel's schedule and sizes, and it fails again."""
    import shlex

    status, out, err = tilec("verify", EXAMPLES / "attention.ta", "--shape", "D=64", "--target", "sm_90a",
                             "--schedule", "bm=64,bn=64,bk=32,swizzle=false")
    assert status == 1
    replays = [line.split("replay: ", 1)[1] for line in out.splitlines() if "replay: " in line]
    assert replays and all(r.startswith("tilec verify ") and "D=64" in r and "swizzle=false" in r
                           for r in replays), replays
    args = shlex.split(replays[0])[1:] + ["--target", "sm_90a"]
    status, again, err = tilec(*args)
    assert status == 1 and "counterexample" in again


def test_head_dim_96_tiles_are_proved_free_of_bank_conflicts(tilec):
    """Rows of 192 bytes (12 chunks) are swizzled too (dialects/layout.py, smem_tile_layout): every
    Q, K and V tile's ldmatrix and cp.async phases are proved conflict-free, and the kernel builds
    for both targets."""
    status, out, err = tilec("verify", EXAMPLES / "attention.ta", "--shape", "D=96", "--schedule", "bm=64,bn=64,bk=32")
    assert status == 0 and "0 counterexample" in out, out
    for tile in ("Q tile 64x96", "K tile 64x96", "V tile 64x96"):
        for phases in ("ldmatrix", "cp.async"):
            assert re.search(rf"proved +attention \[tile sm_80\] swizzle: {tile}: {phases} phases are free of bank", out), out
    for target in ("sm_80", "sm_90a"):
        assert re.search(rf"proved +attention \[cuda {target}\] build: the CUDA source compiles for {target}", out), out


def test_tiles_of_another_head_dim_are_refuted():
    """A kernel built for D=64 checked against the ta at D=32: the tile widths are read from the
    IR on both sides, so the mismatch is a counterexample (it once proved a narrower-V kernel)."""
    from tilec.lowering.driver import build_tile, tile_pipeline
    from tilec.verify.attention import check_reference

    with dialects.context(), ir.Location.unknown():
        built = build_tile(load_spec(str(EXAMPLES / "attention.ta")), {"D": 64}, "bm=32 bn=32 warps=2 stages=2")
        fused = load_spec(str(EXAMPLES / "attention.ta"))
        run_passes(fused, ["ta-specialize-shapes{shapes=D=32}"] + tile_pipeline("")[:-2])
        rows = check_reference(built.tile, fused, "a.ta")
    wide = [r for r in rows if "as wide as" in r.check]
    assert len(wide) == 3 and all(r.verdict == "counterexample" for r in wide), [(r.check, r.verdict) for r in wide]


def test_a_schedule_illegal_for_the_form_is_an_error_row(tilec):
    """stages=1 suits a row program but not a pipelined contraction: the gemm is not built, and
    the report says so as an error (exit 1), never a silent drop of its checks."""
    status, out, err = tilec("verify", EXAMPLES / "gemm.ta", "--schedule", "stages=1")
    assert status == 1
    assert "cannot build this contraction kernel: stages must be at least 2" in out


def test_gemm_accumulator_reset_and_rounded_grid_are_refuted():
    """Two bugs once proved: an mma onto a fresh zero tile at every K step, and a grid rounded down."""
    from tilec.lowering.driver import build_tile
    from tilec.verify.kernels import check_tile

    with dialects.context(), ir.Location.unknown():
        build = build_tile(load_spec(str(EXAMPLES / "gemm.ta")), {}, "bm=64 bn=64 bk=32")
        text = str(build.tile)
        reference = ir.Module.parse(str(build.ta))
        run_passes(reference, ["ta-canonicalize"])
        zero = re.search(r'(%\d+) = "tile.map"\(\) \(\{\n\s+"tile.yield"\(%cst\)', text)[1]
        mutants = {
            "accumulator reset": re.sub(r'("tile.mma"\(%\d+, %\d+, )(%arg\d+)', lambda m: m[1] + zero, text, count=1),
            "grid rounded down": text.replace('tile.grid = ["(M+63)/64*((N+63)/64)"', 'tile.grid = ["M/64*((N+63)/64)"'),
        }
        for name, mutated in mutants.items():
            assert mutated != text, name
            verdicts = [r.verdict for r in check_tile(ir.Module.parse(mutated), reference, "gemm.ta")]
            assert "counterexample" in verdicts, name
        assert all(r.verdict in ("proved", "tested") for r in check_tile(ir.Module.parse(text), reference, "gemm.ta"))
