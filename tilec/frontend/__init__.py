"""Frontends: the math-spec language (``*.ta``) to ta IR."""

from torch_mlir import ir

from ..diagnostics import MAX_SPEC_BYTES, TilecError, from_mlir_error, read_input
from .ast import parse
from .sema import Lowering


def spec_to_ta(text: str, file: str) -> ir.Module:
    """Parse and lower a spec to a verified ta module (inside an active context)."""
    size = len(text.encode("utf-8", errors="replace"))
    if size > MAX_SPEC_BYTES:  # text from a package or an API, held to the limit of a spec file
        raise TilecError(f"'{file}' is {size} bytes; a spec is limited to {MAX_SPEC_BYTES >> 10} KiB")
    statements = parse(text, file)
    with ir.Location.file(file, 1, 1):
        module = Lowering(text, file).run(statements)
    try:
        module.operation.verify()
    except ir.MLIRError as err:
        raise from_mlir_error(err, file, text) from None
    return module


def read_spec(path: str) -> str:
    """The text of a spec file: a regular UTF-8 file of at most MAX_SPEC_BYTES, else a TilecError."""
    return read_input(path, MAX_SPEC_BYTES)


def load_spec(path: str) -> ir.Module:
    """Read a spec file and lower it (inside an active context)."""
    return spec_to_ta(read_spec(path), path)
