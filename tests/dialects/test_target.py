"""The target axis (dialects/target.py): a registry of targets, the target recorded in the tile
module by ta-to-tile, and every layer asking it (legality, the emitter, the verifier's CUDA rows,
packaging, the command line)."""

from __future__ import annotations


import pytest
from torch_mlir import ir

from tilec import dialects
from tilec.codegen.cuda import emit_cuda
from tilec.diagnostics import TilecError
from tilec.dialects.schedule import Schedule
from tilec.dialects.target import FEATURES, Target, common, get, names, register, set_target, target_of
from tilec.lowering.driver import build_tile, lowering_target
from tilec.frontend import load_spec
from tilec.build.verification_cuda import check_cuda
from conftest import ROOT

EXAMPLES = ROOT / "examples"
WARP_SPECIALISED = "bm=128 bn=128 bk=64 warps=8 stages=3 consumers=2"


def test_the_registry_holds_each_target_with_its_limits_and_features():
    assert names() == ["sm_80", "sm_90a"]
    assert get("sm_90a").has("tma", "wgmma", "setmaxnreg") and get("sm_90a").smem == 227 * 1024
    assert get("sm_80").lacks("cp_async", "tma", "wgmma") == ["tma", "wgmma"]
    assert all(get(n).has("cp_async", "ldmatrix", "mma_sync") for n in names())
    with pytest.raises(ValueError, match=r"unknown target 'sm_100a' \(targets: sm_80, sm_90a\)"):
        get("sm_100a")
    with pytest.raises(ValueError, match="registered already"):
        register(Target("sm_80", 1))
    with pytest.raises(ValueError, match="unknown target feature 'tensor_cores'"):
        get("sm_80").has("tensor_cores")
    assert set(get("sm_90a").features) <= set(FEATURES)


def test_the_common_target_is_the_one_every_target_runs():
    assert common(["sm_80", "sm_90a"]).name == "sm_80"
    assert common(["sm_90a"]).name == "sm_90a"
    assert common([]).name == "sm_80"


def test_a_schedule_names_the_features_and_targets_it_needs():
    plain, ws = Schedule(), Schedule(bm=128, bn=128, bk=64, warps=8, consumers=2)
    assert plain.features() == () and plain.targets() == ["sm_80", "sm_90a"]
    assert ws.features() == ("tma", "wgmma", "setmaxnreg") and ws.targets() == ["sm_90a"]
    assert ws.runs_on(["sm_80"]) == []
    (reason,) = ws.legal("contraction", target="sm_80")
    assert reason.startswith("consumers=2 (a warp-specialised kernel) needs tma, wgmma, setmaxnreg")
    assert ws.legal("contraction", target="sm_90a") == []


def test_the_default_attention_pipeline_is_as_deep_as_the_target_holds():
    sizes = {"head_dim": 128}
    assert Schedule().smem_bytes("online", 2, 128) > get("sm_80").smem  # three stages of D = 128 do not fit
    assert Schedule().fitted("online", sizes, "sm_80").stages == 2
    assert Schedule().fitted("online", sizes, "sm_90a") == Schedule()
    with dialects.context(), ir.Location.unknown():
        for target, stages in (("sm_80", 2), ("sm_90a", 3)):
            tile = build_tile(load_spec(str(EXAMPLES / "attention.ta")), {"D": 128}, "", target).tile
            assert f"stages = {stages} : i64" in str(tile.body.operations[0].attributes["tile.schedule"])


def test_lowering_target_is_the_one_whose_kernel_every_target_runs():
    assert lowering_target("", ("sm_80", "sm_90a")) == "sm_80"
    assert lowering_target("", ("sm_90a",)) == "sm_90a"
    assert lowering_target(WARP_SPECIALISED) == "sm_90a"  # no target named: those that run it
    with pytest.raises(TilecError, match="builds a kernel for sm_90a alone"):
        lowering_target(WARP_SPECIALISED, ("sm_80", "sm_90a"))
    with pytest.raises(TilecError, match="which sm_80 does not have"):
        lowering_target(WARP_SPECIALISED, ("sm_80",))


def _tile(schedule: str, target: str | None = None, example: str = "gemm", shapes=None):
    return build_tile(load_spec(str(EXAMPLES / f"{example}.ta")), shapes or {}, schedule, target)


def test_ta_to_tile_records_the_target_and_the_module_answers_for_every_op():
    with dialects.context(), ir.Location.unknown():
        build = _tile("bm=64 bn=64 bk=32", "sm_90a")
        assert build.target == "sm_90a" and 'tile.target = "sm_90a"' in str(build.tile)
        fn = build.tile.body.operations[0]
        assert target_of(build.tile).name == target_of(fn).name == "sm_90a"
        inner = fn.regions[0].blocks[0].operations[0]
        assert target_of(inner).name == "sm_90a"  # asked from any op of the module
        assert target_of(_tile("bm=64 bn=64 bk=32").tile).name == "sm_80"  # none named: sm_80's kernel


def test_a_module_without_a_registered_target_is_refused_by_the_emitter():
    with dialects.context(), ir.Location.unknown():
        build = _tile("bm=64 bn=64 bk=32", "sm_80")
        del build.tile.operation.attributes["tile.target"]
        with pytest.raises(ValueError, match="names no target"):
            target_of(build.tile)
        with pytest.raises(TilecError, match="names no target"):
            emit_cuda(build.tile)
        build.tile.operation.attributes["tile.target"] = ir.StringAttr.get("sm_75")
        with pytest.raises(TilecError, match="unknown target 'sm_75'"):
            emit_cuda(build.tile)
        build.tile.operation.attributes["tile.target"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 90)
        with pytest.raises(TilecError, match="names a target as a string"):
            emit_cuda(build.tile)


def test_a_warp_specialised_module_relabelled_for_sm_80_is_refused_by_the_emitter_and_the_verifier():
    """The mutant: a kernel of copy-engine and wgmma ops whose module claims sm_80."""
    with dialects.context(), ir.Location.unknown():
        build = _tile(WARP_SPECIALISED, "sm_90a", shapes={"M": 256, "N": 256, "K": 256})
        assert "wgmma" in emit_cuda(build.tile).source
        set_target(build.tile, "sm_80")
        with pytest.raises(TilecError, match="is for sm_80, which has no tma, wgmma, setmaxnreg"):
            emit_cuda(build.tile)
        rows = check_cuda(build, ("sm_80",))
        assert [(r.verdict, r.check) for r in rows][:1] == [("error", "the tile program is emitted as CUDA")]
        set_target(build.tile, "sm_90a")
        rows = check_cuda(build, ("sm_80", "sm_90a"))  # an sm_90a kernel asked to compile for sm_80 too
        by_target = {r.check: r for r in rows if "compiles for" in r.check}
        assert by_target["the CUDA source compiles for sm_80 (nvrtc)"].verdict == "error"
        assert "uses tma, wgmma, setmaxnreg, which sm_80 does not have" in \
            by_target["the CUDA source compiles for sm_80 (nvrtc)"].detail


def test_every_command_honours_target(tilec, tmp_path):
    spec = EXAMPLES / "gemm.ta"
    status, out, err = tilec("compile", spec, "--emit", "tile", "--target", "sm_90a", "--schedule", "bm=64,bn=64")
    assert status == 0 and 'module attributes {tile.target = "sm_90a"}' in out
    status, out, err = tilec("compile", spec, "--emit", "tile", "--schedule", "bm=64,bn=64")
    assert status == 0 and 'tile.target = "sm_80"' in out  # a package for every target runs sm_80's kernel
    status, out, err = tilec("compile", spec, "--emit", "cuda", "--target", "sm_80", "--schedule", WARP_SPECIALISED
                             .replace(" ", ","))
    assert status == 1 and "which sm_80 does not have" in err and "Traceback" not in err
    status, out, err = tilec("run", spec, "--stage", "tile", "--target", "sm_90a", "--shape", "M=130,N=72,K=64",
                             "--schedule", WARP_SPECIALISED.replace(" ", ","))
    assert status == 0 and "tile vs oracle:" in out and "(ok)" in out, out + err
    status, out, err = tilec("layout", spec, "--operand", "A", "--target", "sm_90a", "--schedule", WARP_SPECIALISED.replace(" ", ","))
    assert status == 0, err
    status, out, err = tilec("targets")
    assert status == 0 and "sm_90a: compute capability 9.0" in out and "tma, wgmma, setmaxnreg" in out
    assert ("passes after ta-to-tile: tile-warp-specialize, tile-persistent, tile-pingpong, tile-softmax-overlap, "
            "tile-tma-store") in out
    assert "passes after ta-to-tile: none" in out  # sm_80's pipeline is ta-to-tile's program as it is


def test_emit_and_run_for_several_targets_show_each_targets_own_kernel(tilec, tmp_path):
    """--emit tile|cuda and run --stage tile|cuda with several --target: each target's kernel by
    its own pipeline and schedule, as a package for them holds it; the modules split as MLIR's
    tools split input."""
    spec, own = EXAMPLES / "gemm.ta", "sm_90a:" + WARP_SPECIALISED.replace(" ", ",")
    status, out, err = tilec("compile", spec, "--emit", "tile", "--target", "sm_80", "--target", "sm_90a",
                             "--schedule", "bm=64,bn=64,bk=32", "--schedule", own)
    assert status == 0, err
    first, second = out.split("\n// -----\n")
    assert 'tile.target = "sm_80"' in first and "tile.mma" in first and "tile.wgmma" not in first
    assert 'tile.target = "sm_90a"' in second and "tile.wgmma" in second
    (tmp_path / "two.mlir").write_text(out)
    status, cuda, err = tilec("translate", "--split-input-file", tmp_path / "two.mlir")
    assert status == 0 and "mma_bf16(" in cuda and "wgmma_m64n128k16" in cuda, err
    status, out, err = tilec("run", spec, "--stage", "cuda", "--target", "sm_80", "--target", "sm_90a",
                             "--schedule", "bm=64,bn=64,bk=32", "--schedule", own, "--shape", "M=130,N=72,K=64")
    assert status == 0 and "cuda sm_80 vs oracle:" in out and "cuda sm_90a vs oracle:" in out, out + err
    assert out.count("(ok)") == 2
    status, out, err = tilec("layout", spec, "--operand", "B", "--target", "sm_80", "--target", "sm_90a",
                             "--schedule", "bm=64,bn=64,bk=32", "--schedule", own)
    assert status == 0, err
    first, second = out.split("// examples/gemm.ta: the sm_90a kernel".replace("examples/gemm.ta", str(spec)))
    assert "the sm_80 kernel" in first and "32x64 tile" in first  # B's k x n tile: bk=32 rows of bn=64
    assert "64x128 tile" in second  # sm_90a's own schedule: bk=64 rows of bn=128, the copy engine's box
    status, out, err = tilec("layout", spec, "--operand", "B", "--target", "sm_80", "--target", "sm_90a",
                             "--png", tmp_path / "b.png")
    assert status == 1 and "--png draws one kernel's layout" in err and not (tmp_path / "b.png").exists()


def test_an_unregistered_target_is_a_usage_error(tilec):
    with pytest.raises(SystemExit) as exit_:
        tilec("compile", EXAMPLES / "gemm.ta", "--emit", "cuda", "--target", "sm_100a")
    assert exit_.value.code == 2


def test_a_package_for_two_targets_holds_a_kernel_per_target_from_its_own_pipeline(tilec, tmp_path):
    """Each target's kernel is built by its own pipeline at its own schedule (--schedule TARGET:...),
    and the runtime launches the one a GPU's capability runs."""
    from tilec.runtime import read_package
    from tilec.runtime.targets import cubin_target

    out = tmp_path / "g.tkp"
    status, _, err = tilec("compile", EXAMPLES / "gemm.ta", "-o", out, "--schedule", "bm=64,bn=64,bk=32",
                           "--schedule", "sm_90a:" + WARP_SPECIALISED.replace(" ", ","), "--no-verify", "--no-cache")
    assert status == 0, err
    package = read_package(str(out))
    assert package.targets == ("sm_80", "sm_90a")
    ampere, hopper = package.kernel("sm_80"), package.kernel("sm_90a")
    assert "consumers=0" in ampere["schedule"] and ampere["tensor_maps"] == [] and ampere["threads"] == 128
    assert "consumers=2" in hopper["schedule"] and hopper["tensor_maps"] and hopper["threads"] == 384
    assert "wgmma" in package.files[hopper["source"]].decode() and "wgmma" not in package.files[ampere["source"]].decode()
    assert cubin_target(package.targets, (9, 0)) == "sm_90a" and cubin_target(package.targets, (8, 9)) == "sm_80"
    # one schedule for every target that some of them cannot run: refused, with the way out
    status, _, err = tilec("compile", EXAMPLES / "gemm.ta", "-o", out, "--schedule", WARP_SPECIALISED.replace(" ", ","),
                           "--target", "sm_80", "--target", "sm_90a", "--no-verify", "--no-cache")
    assert status == 1 and "which sm_80 does not have" in err
    status, _, err = tilec("compile", EXAMPLES / "gemm.ta", "-o", out, "--target", "sm_80",
                           "--schedule", "sm_90a:bm=64", "--no-verify", "--no-cache")
    assert status == 1 and "--schedule names sm_90a, which is not among the targets built (sm_80)" in err
    status, _, err = tilec("compile", EXAMPLES / "gemm.ta", "-o", out, "--schedule", "sm_90a:bm=64",
                           "--schedule", "sm_90a:bm=128", "--no-verify", "--no-cache")
    assert status == 1 and "sm_90a is given two schedules" in err
    status, _, err = tilec("compile", EXAMPLES / "gemm.ta", "-o", out, "--schedule", "sm_75:bm=64", "--no-cache")
    assert status == 1 and "'sm_75' is not a target" in err


def test_a_one_kernel_command_takes_a_targets_schedule_only_for_that_target(tilec):
    status, out, err = tilec("compile", EXAMPLES / "gemm.ta", "--emit", "cuda", "--target", "sm_90a",
                             "--schedule", "sm_90a:" + WARP_SPECIALISED.replace(" ", ","))
    assert status == 0 and "wgmma" in out, err
    status, _, err = tilec("compile", EXAMPLES / "gemm.ta", "--emit", "cuda",
                           "--schedule", "sm_90a:" + WARP_SPECIALISED.replace(" ", ","))
    assert status == 1 and "this command builds one kernel: name its target with --target sm_90a" in err


def test_every_registered_target_has_an_instruction_table_and_a_runtime_entry():
    """The emitter's tables (codegen/targets.py) and the runtime's map from a GPU to the target it
    is built for (runtime/targets.py, which imports no compiler) hold the registry's targets."""
    from tilec.codegen.targets import TARGETS as TABLES
    from tilec.runtime.targets import BUILT_FOR, capability_of

    assert sorted(TABLES) == names()
    assert BUILT_FOR == {get(n).capability[0]: n for n in names()}
    assert all(capability_of(n)[:2] == get(n).capability for n in names())


def test_the_target_is_no_schedule_option(tilec):
    """The target is named with --target (a pass option of ta-to-tile), never inside a schedule,
    where it would become a schedule knob again (and a package's schedule field could change it)."""
    status, _, err = tilec("compile", EXAMPLES / "gemm.ta", "--emit", "cuda", "--schedule", "bm=64,target=sm_90a")
    assert status == 1 and "--schedule: the target is not a schedule option; name it with --target" in err
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match="the target is not a schedule option"):
            build_tile(load_spec(str(EXAMPLES / "gemm.ta")), {}, "bm=64 target=sm_90a")
