"""tilec translate (tilec/cli/translate.py): a tile module in, its CUDA out, as the build emits it;
every input it cannot take is one located error. The emitter's rules per target are FileCheck
tests from tile IR in tests/filecheck/codegen/."""

import pytest

from conftest import EXAMPLES

SCHEDULE = "bm=64,bn=64,bk=32,warps=4,stages=3"


def _tile(tilec, tmp_path, target="sm_80", example="gemm", schedule=SCHEDULE):
    path = tmp_path / f"{example}.{target}.mlir"
    status, _, err = tilec("compile", EXAMPLES / f"{example}.ta", "--emit", "tile", "--target", target,
                           "--schedule", schedule, "-o", path)
    assert status == 0, err
    return path


@pytest.mark.parametrize("target", ["sm_80", "sm_90a"])
def test_the_cuda_of_a_tile_module_is_what_compile_emits(tilec, tmp_path, target):
    status, emitted, err = tilec("compile", EXAMPLES / "gemm.ta", "--emit", "cuda", "--target", target,
                                 "--schedule", SCHEDULE)
    assert status == 0, err
    status, out, err = tilec("translate", _tile(tilec, tmp_path, target))
    assert status == 0, err
    assert out == emitted and "mma.sync" in out


def test_output_file_and_split_input(tilec, tmp_path):
    first, second = _tile(tilec, tmp_path, "sm_80"), _tile(tilec, tmp_path, "sm_90a")
    both = tmp_path / "both.mlir"
    both.write_text(first.read_text() + "\n// -----\n" + second.read_text())
    status, out, err = tilec("translate", both, "--split-input-file", "-o", tmp_path / "both.cu")
    assert status == 0 and out == "", err
    halves = (tmp_path / "both.cu").read_text().split("\n// -----\n")
    assert halves == [tilec("translate", first)[1], tilec("translate", second)[1]]


def test_a_spec_is_sent_to_compile_first(tilec):
    status, _, err = tilec("translate", EXAMPLES / "gemm.ta")
    assert status == 1 and "lower it to tile IR first: tilec compile" in err and "Traceback" not in err


def test_ta_ir_is_not_tile_ir(tilec, tmp_path):
    path = tmp_path / "gemm.ta.mlir"
    assert tilec("compile", EXAMPLES / "gemm.ta", "--emit", "ta", "-o", path)[0] == 0
    status, _, err = tilec("translate", path)
    assert status == 1 and "the CUDA emitter takes tile IR (run ta-to-tile first)" in err
    assert f"{path}:" in err  # located at the function


def test_a_module_of_no_function_and_bad_text(tilec, tmp_path):
    empty = tmp_path / "empty.mlir"
    empty.write_text("module {}\n")
    status, _, err = tilec("translate", empty)
    assert status == 1 and "takes a module of one tile function; this one has 0" in err
    bad = tmp_path / "bad.mlir"
    bad.write_text("module {\n  func.func @f( {\n}\n")
    status, _, err = tilec("translate", bad)
    assert status == 1 and f"{bad}:2:" in err and "Traceback" not in err


def test_a_target_that_lacks_the_ops_features_is_refused(tilec, tmp_path):
    path = _tile(tilec, tmp_path, "sm_90a", schedule="bm=128,bn=128,bk=64,warps=8,stages=3,consumers=2")
    path.write_text(path.read_text().replace('tile.target = "sm_90a"', 'tile.target = "sm_80"'))
    status, _, err = tilec("translate", path)
    assert status == 1 and "is for sm_80, which has no tma, wgmma, setmaxnreg" in err
    path.write_text(path.read_text().replace('tile.target = "sm_80"', 'tile.target = "sm_70"'))
    status, _, err = tilec("translate", path)
    assert status == 1 and "unknown target 'sm_70' (targets: sm_80, sm_90a)" in err
