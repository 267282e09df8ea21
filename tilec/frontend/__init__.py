"""Frontends: the math-spec language (``*.ta``) to ta IR."""

from pathlib import Path

from torch_mlir import ir

from ..diagnostics import TilecError, from_mlir_error
from .ast import parse
from .sema import Lowering


def spec_to_ta(text: str, file: str) -> ir.Module:
    """Parse and lower a spec to a verified ta module (inside an active context)."""
    statements = parse(text, file)
    with ir.Location.file(file, 1, 1):
        module = Lowering(text, file).run(statements)
    try:
        module.operation.verify()
    except ir.MLIRError as err:
        raise from_mlir_error(err, file, text) from None
    return module


def load_spec(path: str) -> ir.Module:
    """Read a spec file and lower it (inside an active context)."""
    try:
        text = Path(path).read_text()
    except OSError as err:
        raise TilecError(f"cannot read '{path}': {err.strerror}") from None
    return spec_to_ta(text, path)
