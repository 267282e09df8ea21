"""Bad input on the command line is one error naming the option, in bounded time and memory:
output names as long as the file system allows are written (and longer ones refused before any
work), a size or count is given once, in plain decimal and within its range, and tilec run
refuses sizes whose tensors pass its memory budget, with the stage it runs counted."""

import json
import os
import subprocess
import sys

import pytest

from conftest import EXAMPLES
from tilec.cli import _parser
from tilec.fileio import replace_atomically

GEMM = EXAMPLES / "gemm.ta"


def _one_error(status, err, expected=1):
    assert status == expected, err
    assert "Traceback" not in err and "internal error" not in err
    assert err.count("error:") == 1, err


# ------------------------------------------------------------------ output names


def test_an_output_name_of_255_bytes_is_written(tilec, tmp_path):
    """The temporary file beside it was '.NAME.XXXXXXXX.tmp', 15 bytes longer than NAME."""
    target = tmp_path / ("a" * 250 + ".mlir")
    status, out, err = tilec("compile", GEMM, "--emit", "ta", "-o", target)
    assert status == 0, err
    assert "ta.contract" in target.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]  # no temporary left


def test_replace_atomically_takes_the_longest_name(tmp_path):
    target = tmp_path / ("b" * os.pathconf(tmp_path, "PC_NAME_MAX"))
    replace_atomically(target, lambda tmp: open(tmp, "w").write("whole\n"))
    assert target.read_text() == "whole\n" and len(list(tmp_path.iterdir())) == 1


@pytest.mark.parametrize("args,flag", [
    (["compile", GEMM, "--emit", "ta", "-o", "{tmp}/" + "a" * 256 + ".mlir"], "-o"),
    (["compile", GEMM, "-o", "{tmp}/" + "a" * 260 + ".tkp"], "-o"),
    (["compile", GEMM, "--out-dir", "{tmp}/" + "d" * 300 + "/x"], "--out-dir"),
    (["verify", GEMM, "--json", "{tmp}/" + "r" * 300 + ".json"], "--json"),
])
def test_an_output_name_too_long_is_refused_before_any_work(tilec, tmp_path, args, flag):
    status, out, err = tilec(*[str(a).replace("{tmp}", str(tmp_path)) for a in args])
    _one_error(status, err)
    assert f"error: {flag}: the name '" in err and "bytes; file names in" in err and "at most 255 bytes" in err
    assert out == "" and list(tmp_path.iterdir()) == []


def test_out_dir_refuses_a_spec_whose_stage_files_would_be_too_long(tilec, tmp_path):
    spec = tmp_path / ("s" * 246 + ".ta")  # a valid name; its stem.loop.mlir is 256 bytes
    spec.write_text(GEMM.read_text())
    status, out, err = tilec("compile", spec, "--out-dir", tmp_path / "out")
    _one_error(status, err)
    assert "--out-dir: the name 'sss" in err and "256 bytes" in err and not (tmp_path / "out").exists()


# ------------------------------------------------------------------ integers and repeated keys


@pytest.mark.parametrize("args,message", [
    (["run", GEMM, "--shape", "M=4,M=5"], "argument --shape: 'M' is given twice (M=4 and M=5)"),
    (["run", GEMM, "--shape", "M=4", "--shape", "K=8,M=5"], "argument --shape: 'M' is given twice (M=4 and M=5)"),
    (["compile", GEMM, "--shape", "M=04"], "argument --shape: 'M=04': a size has no leading zero (write M=4)"),
    (["fuzz", "--count", "-3"], "argument --count: '-3' is negative; give a count from 1 to 1000000"),
    (["fuzz", "--count", "0"], "argument --count: '0' is out of range"),
    (["fuzz", "--count", str(10**20)], "argument --count: '100000000000000000000' is out of range"),
    (["fuzz", "--count", "1e3"], "argument --count: '1e3' is not a count"),
    (["fuzz", "--count", "010"], "argument --count: '010' has a leading zero; write 10"),
    (["fuzz", "--case", "-1"], "argument --case: '-1' is negative"),
    (["fuzz", "--seed", "-1"], "argument --seed: '-1' is not a seed"),
    (["fuzz", "--timeout", "nan"], "argument --timeout: 'nan' is not a number of seconds"),
    (["fuzz", "--timeout", "-5"], "argument --timeout: '-5' is not a number of seconds"),
    (["tune", GEMM, "--jobs", "-2"], "argument --jobs: '-2' is negative"),
    (["tune", GEMM, "--reps", "-1"], "argument --reps: '-1' is negative"),
    (["tune", GEMM, "--rounds", "99999999999"], "argument --rounds: '99999999999' is out of range"),
])
def test_command_line_integers_are_checked_where_they_are_parsed(capfd, args, message):
    """Parsed only (a count that passed would start the fuzzer): refused by argparse, exit 2."""
    with pytest.raises(SystemExit) as exit_info:
        _parser().parse_args([str(a) for a in args])
    err = capfd.readouterr().err
    assert exit_info.value.code == 2 and message in err, err


@pytest.mark.parametrize("args,message", [
    (["run", GEMM, "--shape", "M=4,M=5"], "argument --shape: 'M' is given twice (M=4 and M=5)"),
    (["fuzz", "--count", "-3"], "argument --count: '-3' is negative; give a count from 1 to 1000000"),
    (["tune", GEMM, "--jobs", "0"], "argument --jobs: '0' is out of range: a count from 1 to 1024"),
])
def test_the_message_names_the_option(args, message):
    done = subprocess.run([sys.executable, "-m", "tilec", *map(str, args)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_measure_reads_its_counts_as_tilec_does(tmp_path):
    from tilec.runtime.measure import main as measure_main

    with pytest.raises(SystemExit) as exit_info:
        measure_main([str(tmp_path), "--reps", "-1"])
    assert exit_info.value.code == 2


@pytest.mark.parametrize("args,message", [
    (["compile", GEMM, "--emit", "tile", "--schedule", "bm=64,bm=128"], "--schedule: 'bm' is given twice"),
    (["verify", GEMM, "--schedule", "warps=4,bn=64,warps=8"], "--schedule: 'warps' is given twice"),
])
def test_a_schedule_key_given_twice_is_an_error(tilec, args, message):
    status, out, err = tilec(*args)
    _one_error(status, err)
    assert message in err


@pytest.mark.parametrize("pipeline,message", [
    ("builtin.module(ta-to-tile{bm=64 bm=128})", "option 'bm' is given twice (bm=64 and bm=128)"),
    ("builtin.module(ta-specialize-shapes{shapes=M=4,M=5})", "'M' is given twice (M=4 and M=5)"),
    ("builtin.module(ta-specialize-shapes{shapes=M=007})", "a size has no leading zero (write M=7)"),
])
def test_pass_options_are_read_as_the_command_line_reads_them(tilec, tmp_path, pipeline, message):
    source = tmp_path / "ok.mlir"
    source.write_text("func.func @f() {\n  return\n}\n")
    status, out, err = tilec("opt", source, f"--pass-pipeline={pipeline}")
    _one_error(status, err)
    assert err.startswith("<pass-pipeline>:1:16: error: ") and message in err, err


# ------------------------------------------------------------------ tilec run's memory budget


def test_a_stage_counts_its_outputs_beside_the_oracles(tilec, monkeypatch):
    """3.6 GiB for the oracle alone, within the budget; the loop stage's copy of C passes it.
    The oracle is never reached (were it, the test would stop there, not allocate 4 GiB)."""
    from tilec.executors import oracle

    def no_oracle(*args):
        raise AssertionError("the oracle ran: the sizes were not refused")

    monkeypatch.setattr(oracle, "evaluate", no_oracle)
    status, out, err = tilec("run", GEMM, "--shape", "M=22000,N=22000,K=16", "--stage", "loop")
    _one_error(status, err)
    assert "(the loop stage's outputs beside the oracle's) need 4,841,408,000 bytes (4.5 GiB)" in err
    assert "tilec run allocates at most 4,294,967,296 bytes (4 GiB) for a function" in err
    assert err.startswith(f"{GEMM}:8:11: error:")  # the statement that makes the temporary


_PEAK = """
import json, resource, sys, torch
from torch_mlir import ir
from tilec import dialects
from tilec.executors.compare import checksums, compare
from tilec.frontend import spec_to_ta
from tilec.executors.oracle import evaluate
from tilec.signature import bind, random_inputs, signature
rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
with dialects.context(), ir.Location.unknown():
    module = spec_to_ta(sys.argv[1], "body.ta")
    fn = module.body.operations[0]
    sig = signature(fn)
    env = bind(sig, {"N": 4096, "C": 4096})
    inputs = random_inputs(sig, env, 0)
    before = rss()
    y = evaluate(fn, inputs, env)["Y"]
    oracle = rss() - before
    other = y + 1e-7
    before = rss()
    result, sums = compare(other, y), checksums(y)
    print(json.dumps({"oracle": oracle, "compare": rss() - before, "ok": result.ok}))
"""


def test_the_oracle_and_the_comparison_hold_a_few_tensors_at_once(tmp_path):
    """A ta.map of ten ops held every op's value over the index space (ten 64 MiB tensors here);
    the comparison six float64 copies of the output. Now a few tensors, and the comparison's
    temporaries of one chunk (about 80 MiB, whatever the size)."""
    body = ("param N, C\ninput X[N, C] : f32\noutput Y[N, C] : f32\nY[i, j] = exp(X[i, j]) * 2 + X[i, j] * 3"
            " - tanh(X[i, j]) + sqrt(abs(X[i, j])) * 0.5 - X[i, j] / 7\n")
    done = subprocess.run([sys.executable, "-c", _PEAK, body], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    grown = json.loads(done.stdout)
    tensor = 4096 * 4096 * 4  # 64 MiB; before: the oracle 10 of them more, the comparison 12
    assert grown["ok"] and grown["oracle"] < 4 * tensor and grown["compare"] < 2 * tensor, grown


def test_the_python_api_refuses_a_package_name_too_long_first(tmp_path, monkeypatch):
    """CompiledGraph.package checks its path as the command line does, before it verifies."""
    import torch

    import tilec
    from tilec.diagnostics import TilecError
    from tilec.pytorch.api import CompiledGraph

    monkeypatch.setattr(CompiledGraph, "verify", lambda *a: pytest.fail("verified before the path was checked"))
    graph = tilec.compile(torch.nn.Linear(16, 16).eval(), (torch.randn(4, 16),))
    with pytest.raises(TilecError, match="package: the name 'ppp.* is 300 bytes; file names in .* at most 255"):
        graph.package(str(tmp_path / ("p" * 296 + ".tkp")))
