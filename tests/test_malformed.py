"""Bad input is data: every case of the malformed-input corpus (tests/malformed/, written by
its generate.py) gives one error, located where the input has a location, exit status 1 (2
for command-line misuse), no traceback and no internal error, within a time limit.

Cases run in-process through ``tilec.cli.main``; those that once crashed the process (IR
nested deep enough to overflow MLIR's parser) run in a subprocess with a hard time limit."""

import functools
import json
import os
import re
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from torch_mlir import ir

from conftest import EXAMPLES, ROOT
from tilec import dialects
from tilec.cli import main
from tilec.diagnostics import MAX_INPUT_BYTES, MAX_SPEC_BYTES, TilecError
from tilec.frontend import load_spec

CORPUS = ROOT / "tests" / "malformed"
CASES = json.loads((CORPUS / "cases.json").read_text())
SECONDS = 10  # for any one case


@functools.lru_cache(maxsize=1)
def _gemm_ta() -> str:
    with dialects.context(), ir.Location.unknown():
        return str(load_spec(str(EXAMPLES / "gemm.ta")))


@pytest.fixture
def fixtures(tmp_path, request) -> Path:
    """The files the command-line cases name through {tmp}."""
    case = request.node.callspec.params.get("case", {}) if hasattr(request.node, "callspec") else {}
    if any("bomb.tkp" in a for a in case.get("argv", ())):  # 65 MiB of zeros, packed small
        with zipfile.ZipFile(tmp_path / "bomb.tkp", "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("manifest.json", "{}")
            archive.writestr("zeros", bytes(65 * 2**20))
    os.mkfifo(tmp_path / "fifo")
    os.mkfifo(tmp_path / "fifo.tkp")
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir.tkp").mkdir()
    (tmp_path / "afile").write_text("a file\n")
    (tmp_path / "ok.mlir").write_text("func.func @f() {\n  return\n}\n")
    (tmp_path / "gemm.ta.mlir").write_text(_gemm_ta())
    (tmp_path / "empty.tkp").write_bytes(b"")
    (tmp_path / "notzip.tkp").write_text("not a zip archive\n")
    for name, size in (("big.ta", MAX_SPEC_BYTES + 1), ("big.mlir", MAX_INPUT_BYTES + 1)):
        if any(name in a for a in case.get("argv", ())):
            with open(tmp_path / name, "wb") as handle:  # sparse: refused by its size before a byte is read
                handle.truncate(size)
    return tmp_path


def _fill(text: str, case: dict, tmp: Path) -> str:
    return (text.replace("{file}", str(CORPUS / case["file"]) if "file" in case else "{file}")
            .replace("{examples}", str(EXAMPLES)).replace("{tmp}", str(tmp)))


def run_case(case: dict, tmp: Path, capfd) -> tuple[int, str, float]:
    """(exit status, stderr, seconds) of one case."""
    argv = [_fill(a, case, tmp) for a in case["argv"]]
    start = time.monotonic()
    if case.get("subprocess"):
        done = subprocess.run([sys.executable, "-m", "tilec", *argv], capture_output=True, text=True,
                              timeout=SECONDS * 3, cwd=tmp)
        return done.returncode, done.stderr, time.monotonic() - start
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse: command-line misuse
        status = exit_.code
    _, err = capfd.readouterr()
    return status, err, time.monotonic() - start


def check(case: dict, status: int, err: str, tmp: Path) -> None:
    """The rule for bad input, as assertions on one case's outcome."""
    assert status == case["exit"], f"exit {status}, expected {case['exit']}:\n{err}"
    assert "Traceback" not in err, err
    assert "internal error" not in err, err
    errors = [line for line in err.splitlines() if "error:" in line]
    if case["exit"] == 0:
        assert not errors, err
        return
    assert len(errors) == 1, f"{len(errors)} error lines:\n{err}"
    assert case["message"] in err, f"expected {case['message']!r} in:\n{err}"
    if status == 2:
        return  # argparse's usage message
    where = re.match(r"(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): error: ", err)
    if case["loc"] is None:
        assert err.startswith("error: "), f"expected an error without a location:\n{err}"
    else:
        located = _fill(case.get("loc_file", "{file}"), case, tmp)
        assert where and where["file"] == located, f"expected an error located in {located}:\n{err}"
        for want, got in zip(case["loc"], (int(where["line"]), int(where["col"]))):
            assert want is None or want == got, f"expected {case['loc']}, got {[where['line'], where['col']]}:\n{err}"
    if case.get("absent"):
        assert not Path(_fill(case["absent"], case, tmp)).exists(), "an output was written"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_malformed_input(case, fixtures, capfd):
    status, err, seconds = run_case(case, fixtures, capfd)
    check(case, status, err, fixtures)
    assert seconds < SECONDS, f"took {seconds:.1f} s"


def test_corpus_is_large_and_up_to_date():
    sys.path.insert(0, str(CORPUS))
    try:
        import generate
    finally:
        sys.path.remove(str(CORPUS))
    assert generate.main(["--check"]) == 0
    files = [c for c in CASES if "file" in c]
    assert len(files) >= 300 and len(CASES) >= 400
    assert {c["file"].rsplit(".", 1)[1] for c in files} == {"ta", "mlir", "tkp"}


def _located_case(name: str) -> dict:
    return next(c for c in CASES if c["name"] == name)


def test_check_flags_an_error_that_lost_its_location(fixtures, capfd, monkeypatch):
    """The checker is not vacuous: a handler that drops the location fails it."""
    case = _located_case("spec/const-div-zero")
    status, err, _ = run_case(case, fixtures, capfd)
    check(case, status, err, fixtures)
    monkeypatch.setattr(TilecError, "format", lambda self: f"error: {self.message}")
    status, err, _ = run_case(case, fixtures, capfd)
    with pytest.raises(AssertionError, match="expected an error located"):
        check(case, status, err, fixtures)


def test_check_flags_an_internal_error(fixtures, capfd, monkeypatch):
    """... and so does a handler that lets an exception escape as an internal error."""
    import tilec.frontend.values as values

    case = _located_case("spec/const-exp-1000")

    def broken(fn, args):
        raise OverflowError("math range error")

    monkeypatch.setattr(values, "fold", broken)
    monkeypatch.setattr("tilec.frontend.elaborate.fold", broken)
    status, err, _ = run_case(case, fixtures, capfd)
    with pytest.raises(AssertionError, match="exit 3"):
        check(case, status, err, fixtures)


def test_check_flags_a_second_error_line(fixtures, capfd):
    case = _located_case("spec/const-div-zero")
    status, err, _ = run_case(case, fixtures, capfd)
    with pytest.raises(AssertionError, match="2 error lines"):
        check(case, status, err + "error: again\n", fixtures)
