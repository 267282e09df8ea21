"""Runs each FileCheck test under tests/filecheck with lit."""

import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "filecheck"
CASES = sorted(p for p in HERE.rglob("*") if p.suffix in (".mlir", ".ta"))


def test_there_are_filecheck_tests():
    assert len(CASES) >= 8


@pytest.mark.parametrize("case", CASES, ids=[str(c.relative_to(HERE)) for c in CASES])
def test_filecheck(case):
    result = subprocess.run([sys.executable, "-c", "from lit.main import main; main()", "-v", str(case)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
