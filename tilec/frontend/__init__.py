"""Frontends: the math-spec language (``*.ta``) to ta IR; ta IR itself (``*.mlir``, e.g. a
PyTorch graph's ``CompiledGraph.ta`` written to a file) is read as it is."""

from torch_mlir import ir

from ..diagnostics import MAX_SPEC_BYTES, TilecError, check_nesting, from_mlir_error, read_input
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


def source_to_ta(text: str, file: str) -> ir.Module:
    """A spec (``*.ta``) lowered, or ta IR (``*.mlir``) parsed and verified, as a ta module
    (inside an active context): what ``tilec tune`` takes."""
    if not file.endswith(".mlir"):
        return spec_to_ta(text, file)
    check_nesting(text, file)  # MLIR's parser recurses on each bracket: deep IR overflows its stack
    try:
        module = ir.Module.parse(text)
        module.operation.verify()
    except ir.MLIRError as err:
        raise from_mlir_error(err, file, text) from None
    ops = list(module.body.operations)
    if len(ops) != 1 or ops[0].operation.name != "func.func" or not any(
            op.operation.name.startswith("ta.") for op in ops[0].regions[0].blocks[0].operations):
        raise TilecError(f"'{file}' holds no ta function (one func.func of ta ops, as CompiledGraph.ta prints)")
    return module


def load_source(path: str) -> ir.Module:
    """Read a spec or ta IR file (source_to_ta) inside an active context."""
    return source_to_ta(read_spec(path), path)
