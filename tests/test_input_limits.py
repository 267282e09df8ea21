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
