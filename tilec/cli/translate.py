"""``tilec translate``: tile IR -> CUDA C++, as mlir-translate turns a module into another language.

    tilec translate kernel.mlir                            # the CUDA of its tile function
    tilec compile gemm.ta --emit tile | tilec translate -  # a spec's kernel, stage by stage

The input is a tile module as ``tilec compile --emit tile`` or ``tilec opt`` prints it: one tile
function, lowered for the target the module names (``tile.target``). The emitter runs on it as
it runs on a build's module, so a test of an emitter rule starts from the tile IR the rule takes
(tests/filecheck/codegen/). ``--split-input-file`` translates each ``// -----`` chunk on its own;
their CUDA is printed in order, separated by the same marker.
"""

from __future__ import annotations

from torch_mlir import ir

from tilec import dialects

from ..codegen.cuda import emit_cuda
from ..diagnostics import TilecError, check_nesting, from_mlir_error, mlir_loc
from .opt import SPLIT_MARKER, refuse_spec, split_chunks, whole


def translate(text: str, file: str, split: bool = False) -> str:
    """The CUDA of the tile module ``text`` (each chunk's, with ``split``); TilecError, located,
    for text that is not one tile function the emitter takes."""
    refuse_spec(text, file, "tile IR", "tilec compile {file} --emit tile | tilec translate -")
    check_nesting(text, file)  # before MLIR's recursive parser sees it (IR nested too deep would crash it)
    return f"\n{SPLIT_MARKER}\n".join(_chunk(chunk, offset, file) for chunk, offset in split_chunks(text, split))


def _chunk(chunk: str, offset: int, file: str) -> str:
    with dialects.context(), ir.Location.unknown():
        try:
            module = ir.Module.parse(chunk)
        except ir.MLIRError as err:
            raise from_mlir_error(err, file, whole(chunk, offset), offset) from None
        functions = [op for op in module.body.operations if op.operation.name == "func.func"]
        if len(functions) != 1:
            raise TilecError(f"{file}: tilec translate takes a module of one tile function; this one has "
                             f"{len(functions)}")
        where = mlir_loc(functions[0].location, file, offset)
        try:
            return emit_cuda(module).source
        except TilecError as err:
            raise TilecError(err.message, err.loc or where, whole(chunk, offset)) from None
        except (ValueError, KeyError, IndexError, TypeError) as err:  # IR the emitter does not read
            raise TilecError(f"the CUDA emitter does not take this tile function ({type(err).__name__}: {err}); "
                             f"tile IR as tilec compile --emit tile prints it does", where,
                             whole(chunk, offset)) from None
