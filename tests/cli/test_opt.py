"""tilec opt behaves like mlir-opt: pipelines, IR dumps, timing, dump dirs, stdin, -o."""

import subprocess
import sys

import pytest

from conftest import EXAMPLES

PIPELINE = "--pass-pipeline=builtin.module(ta-decompose-softmax, canonicalize, cse)"


def _ta(tilec, tmp_path, example="attention"):
    path = tmp_path / f"{example}.mlir"
    status, out, err = tilec("compile", EXAMPLES / f"{example}.ta", "-o", path)
    assert status == 0, err
    return path


def test_print_ir_after_all_dumps_once_per_pass(tilec, tmp_path):
    status, out, err = tilec("opt", _ta(tilec, tmp_path), PIPELINE, "--print-ir-after-all")
    assert status == 0, err
    dumps = [line for line in err.splitlines() if "IR Dump After" in line]
    assert len(dumps) == 3
    assert "ta-decompose-softmax" in dumps[0] and "Canonicalizer" in dumps[1] and "CSE" in dumps[2]
    assert "ta.softmax" not in out and '"ta.reduce"' in out


def test_print_ir_before_and_after_one_pass(tilec, tmp_path):
    status, out, err = tilec("opt", _ta(tilec, tmp_path), PIPELINE,
                             "--print-ir-before=ta-decompose-softmax", "--print-ir-after=cse")
    assert status == 0, err
    before = err.index("IR Dump Before ta-decompose-softmax")
    after = err.index("IR Dump After cse")
    assert before < after
    assert "ta.softmax" in err[before:after] and "ta.softmax" not in err[after:]
    assert err.count("IR Dump") == 2


def test_print_ir_after_change_skips_unchanged(tilec, tmp_path):
    status, out, err = tilec("opt", _ta(tilec, tmp_path, "gemm"), PIPELINE, "--print-ir-after-change")
    assert status == 0, err
    # gemm has no softmax: the decomposition changes nothing and is not dumped
    assert "ta-decompose-softmax" not in err


def test_dump_dir_has_one_file_per_pass(tilec, tmp_path):
    dump = tmp_path / "dumps"
    status, out, err = tilec("opt", _ta(tilec, tmp_path), PIPELINE, "--dump-dir", dump)
    assert status == 0, err
    names = sorted(p.name for p in dump.rglob("*.mlir"))
    assert names == ["0_ta-decompose-softmax.mlir", "1_canonicalize.mlir", "2_cse.mlir"]


def test_timing_report(tilec, tmp_path):
    status, out, err = tilec("opt", _ta(tilec, tmp_path), PIPELINE, "--timing")
    assert status == 0, err
    assert "Execution time report" in err and "ta-decompose-softmax" in err


def test_stdin_and_output_file(tmp_path):
    source = '"ta.fill"() {value = 1.0 : f32} : () -> tensor<4xf32, ["4"]>\n'
    out = tmp_path / "out.mlir"
    result = subprocess.run([sys.executable, "-m", "tilec", "opt", "-", "-o", str(out)], input=source,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert '"ta.fill"() {value = 1.000000e+00 : f32}' in out.read_text()


def test_split_input_file_keeps_chunks_apart(tilec, tmp_path):
    path = tmp_path / "two.mlir"
    path.write_text("func.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  return\n}\n")
    status, out, err = tilec("opt", path, "--split-input-file")
    assert status == 0, err
    assert out.count("module {") == 2 and "// -----" in out


def test_split_input_file_reports_lines_of_the_whole_file(tilec, tmp_path):
    path = tmp_path / "two.mlir"
    path.write_text("func.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  %x = arith.constant : f32\n}\n")
    status, out, err = tilec("opt", path, "--split-input-file")
    assert status == 1 and err.startswith(f"{path}:6:"), err


def test_verify_diagnostics_fails_when_an_expected_error_is_missing(tilec, tmp_path):
    path = tmp_path / "wrong.mlir"
    path.write_text("func.func @a() {\n  // expected-error @+1 {{nothing is wrong here}}\n  return\n}\n")
    status, out, err = tilec("opt", path, "--verify-diagnostics")
    assert status == 1 and 'expected error "nothing is wrong here" was not produced' in err


def test_verify_diagnostics_fails_on_an_unexpected_error(tilec, tmp_path):
    path = tmp_path / "wrong.mlir"
    path.write_text("func.func @a() {\n  %x = arith.constant : f32\n}\n")
    status, out, err = tilec("opt", path, "--verify-diagnostics")
    assert status == 1 and "unexpected error" in err


def test_passes_lists_every_pass_with_options(tilec):
    from tilec import passes

    status, out, err = tilec("passes")
    assert status == 0
    for name in passes.names():
        assert out.count(f"{name}: ") == 1
    assert "shapes=''" in out


def test_console_script_runs_an_example():
    result = subprocess.run([sys.executable, "-m", "tilec", "run", str(EXAMPLES / "softmax.ta"), "--shape", "C=5"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "Y: shape [64, 5] float32  sum 6.400000e+01" in result.stdout


@pytest.mark.parametrize("pipeline", [
    "builtin.module(snapshot-op-locations{filename=OUT})",
    "builtin.module(canonicalize, snapshot-op-locations)",
    "builtin.module(func.func(view-op-graph))",
])
def test_passes_that_write_files_need_an_explicit_flag(tilec, tmp_path, pipeline):
    """A pipeline is data: it may not write files the user did not name."""
    source = tmp_path / "in.mlir"
    source.write_text("module {}\n")
    target = tmp_path / "written.txt"
    status, out, err = tilec("opt", source, "--pass-pipeline", pipeline.replace("OUT", str(target)))
    assert status == 1 and "writes files of its own; pass --allow-file-writes" in err
    assert err.startswith("<pass-pipeline>:1:") and not target.exists()


def test_allow_file_writes_runs_them(tilec, tmp_path):
    source = tmp_path / "in.mlir"
    source.write_text("module {}\n")
    target = tmp_path / "written.txt"
    status, out, err = tilec("opt", source, "--allow-file-writes",
                             "--pass-pipeline", f"builtin.module(snapshot-op-locations{{filename={target}}})")
    assert status == 0, err
    assert target.exists()


@pytest.mark.parametrize("pipeline,at", [
    ("builtin.module(inline{default-pipeline=view-op-graph})", 16),
    ("builtin.module(cse, inline{op-pipelines=func.func(view-op-graph)})", 21),
    ("builtin.module(func.func(cse, view-op-graph))", 31),
])
def test_a_pass_that_writes_files_is_found_where_it_is_nested(tilec, tmp_path, pipeline, at):
    """The guard reads the pipeline as MLIR parsed it: a pass in an option's pipeline counts."""
    source = tmp_path / "in.mlir"
    source.write_text("module {}\n")
    target = tmp_path / "written.txt"
    status, out, err = tilec("opt", source, "--pass-pipeline", pipeline.replace("OUT", str(target)))
    assert status == 1 and "writes files of its own; pass --allow-file-writes" in err, err
    assert err.startswith(f"<pass-pipeline>:1:{at}: error: ") and not target.exists()


@pytest.mark.parametrize("element,option", [
    ("gpu-module-to-binary{toolkit=TMP}", "toolkit"),
    ("gpu-module-to-binary{l=TMP/a.bc,TMP/b.bc}", "l"),
    ('gpu-module-to-binary{opts="-v -o TMP/x"}', "opts"),
    ("gpu-module-to-binary{format=isa toolkit=TMP}", "toolkit"),
    ("nvvm-attach-target{l=TMP/a.bc}", "l"),
    ("nvvm-attach-target{ptxas-cmd-options=--options-file=TMP/o}", "ptxas-cmd-options"),
    ("rocdl-attach-target{l=TMP/a.bc}", "l"),
    ("xevm-attach-target{cmd-options=TMP/o}", "cmd-options"),
    ("transform-preload-library{transform-library-paths=TMP/lib.mlir}", "transform-library-paths"),
    ("inline{default-pipeline=gpu-module-to-binary{toolkit=TMP}}", None),  # nested braces: not our syntax
])
def test_pass_options_that_name_files_to_read_need_an_explicit_flag(tilec, tmp_path, element, option):
    """gpu-module-to-binary reads TOOLKIT/nvvm/libdevice and runs TOOLKIT/bin/ptxas with OPTS,
    links the files of l; the attach-target passes hand l and compiler options to it."""
    source = tmp_path / "in.mlir"
    source.write_text("module {}\n")
    pipeline = f"builtin.module(cse, {element.replace('TMP', str(tmp_path))})"
    status, out, err = tilec("opt", source, "--pass-pipeline", pipeline)
    assert status == 1 and err.startswith("<pass-pipeline>:1:"), err
    if option is None:
        assert "malformed pass pipeline" in err
        return
    name = element.split("{")[0]
    assert err.startswith("<pass-pipeline>:1:21: error: ") and \
        f"'{name}' option '{option}' names files to read or a program to run" in err and \
        "pass --allow-file-reads to run it" in err, err


GPU_MODULE = """module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
    llvm.func @k() attributes {nvvm.kernel} {
      llvm.return
    }
  }
}
"""


@pytest.mark.parametrize("flag", ["--allow-file-reads", "--allow-file-writes"])
def test_allow_file_reads_lets_the_toolkit_option_through(tilec, tmp_path, flag):
    """With the flag the pass looks for libdevice under the toolkit it was given (this build has
    no NVPTX target to go further: its ptxas never runs here)."""
    source = tmp_path / "gpu.mlir"
    source.write_text(GPU_MODULE)
    (tmp_path / "cuda").mkdir()
    pipeline = f"builtin.module(gpu-module-to-binary{{toolkit={tmp_path}/cuda format=bin}})"
    status, out, err = tilec("opt", source, "--pass-pipeline", pipeline)
    assert status == 1 and "option 'toolkit' names files" in err and "libdevice" not in err, err
    status, out, err = tilec("opt", source, flag, "--pass-pipeline", pipeline)
    assert status == 1 and f"{tmp_path}/cuda/nvvm/libdevice" in err, err


def test_an_option_with_no_path_needs_no_flag(tilec, tmp_path):
    source = tmp_path / "in.mlir"
    source.write_text("module {}\n")
    status, out, err = tilec("opt", source, "--pass-pipeline",
                             "builtin.module(nvvm-attach-target{chip=sm_90 O=3}, gpu-module-to-binary{format=isa})")
    assert status == 0, err
