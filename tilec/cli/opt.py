"""``tilec opt``: mlir-opt for tilec's dialects and passes.

    tilec opt in.mlir --pass-pipeline='builtin.module(ta-decompose-softmax, cse)' -o out.mlir

Follows mlir-opt's conventions: the input is a file or '-' (stdin); IR dumps
(--print-ir-*) and --timing go to stderr; --split-input-file cuts the input at
'// -----' lines and handles each chunk on its own; --verify-diagnostics checks
the errors against ``// expected-error {{...}}`` comments instead of failing.
"""

from __future__ import annotations

import gc
import re
from dataclasses import dataclass, field

from torch_mlir import ir

from tilec import dialects

from ..lowering import pipeline
from ..diagnostics import TilecError, check_nesting, from_mlir_error, mlir_loc
from .expected import check_expected

SPLIT_MARKER = "// -----"
MAX_PIPELINE_NESTING = 32  # anchors such as builtin.module(func.func(...)) within one another


@dataclass
class OptConfig:
    pipeline: str = ""
    print_after_all: bool = False
    print_before: set = field(default_factory=set)
    print_after: set = field(default_factory=set)
    print_after_change: bool = False
    dump_dir: str | None = None
    timing: bool = False
    split_input_file: bool = False
    verify_diagnostics: bool = False
    generic: bool = False
    allow_file_writes: bool = False  # passes that write files of their own (snapshot-op-locations, ...)
    allow_file_reads: bool = False   # options that name files to read or programs to run (toolkit=, l=, ...)


def split_chunks(text: str, split: bool) -> list[tuple[str, int]]:
    """(chunk, line offset of the chunk in the file)."""
    if not split:
        return [(text, 0)]
    chunks, current, start = [], [], 0
    for number, line in enumerate(text.splitlines(keepends=True)):
        if line.strip() == SPLIT_MARKER:
            chunks.append(("".join(current), start))
            current, start = [], number + 1
        else:
            current.append(line)
    chunks.append(("".join(current), start))
    return chunks


def run_chunk(chunk: str, offset: int, file: str, config: OptConfig) -> str:
    """Parse, verify and transform one chunk; returns the printed result."""
    with dialects.context() as ctx, ir.Location.unknown():
        try:
            module = ir.Module.parse(chunk)
        except ir.MLIRError as err:
            raise from_mlir_error(err, file, whole(chunk, offset), offset) from None
        if config.pipeline:
            _run_pipeline(module, config, file, chunk, offset)
        text = module.operation.get_asm(print_generic_op_form=config.generic)
        del module
    del ctx
    return text


def whole(chunk: str, offset: int) -> str:
    # pad so that line numbers of the chunk are line numbers of the file
    return "\n" * offset + chunk


def _run_pipeline(module, config: OptConfig, file: str, chunk: str, offset: int) -> None:
    pm, failures = pipeline.build(config.pipeline, config.print_before, config.print_after,
                                  config.allow_file_writes, config.allow_file_reads)
    if config.print_after_all or config.print_after_change or config.dump_dir:
        pm.enable_ir_printing(print_after_all=True, print_after_change=config.print_after_change,
                              tree_printing_dir_path=config.dump_dir)
    if config.timing:
        pm.enable_timing()
    try:
        pm.run(module.operation)
    except ir.MLIRError as err:
        if failures and isinstance(failures[0], TilecError):
            raise failures[0] from None
        if failures:  # a Python error inside an MLIR callback carries its traceback as text: keep its last line
            said = [line for line in str(failures[0]).splitlines() if line.strip()]
            detail = said[-1].strip() if said and "Traceback" in str(failures[0]) else str(failures[0])
            where = getattr(failures[0], "location", None)  # a pass may name the op at fault
            raise TilecError(f"a pass failed: {type(failures[0]).__name__}: {detail}",
                             mlir_loc(where, file, offset) if where is not None else None) from failures[0]
        raise from_mlir_error(err, file, whole(chunk, offset), offset) from None
    finally:
        del pm  # the timing report is printed when the pass manager goes away
        gc.collect()


def diagnostics_of(chunk: str, offset: int, file: str, config: OptConfig) -> list:
    """Every error (location, message) that parsing and the pipeline report for a chunk."""
    with dialects.context(), ir.Location.unknown():
        try:
            module = ir.Module.parse(chunk)
            if config.pipeline:
                _run_pipeline(module, config, file, chunk, offset)
        except ir.MLIRError as err:
            return [(mlir_loc(d.location, file, offset), d.message) for d in err.error_diagnostics]
        except TilecError as err:
            return [(err.loc, err.message)]
    return []


_SPEC_START = re.compile(r"(param|const|input|output|let)\s+[A-Za-z_]|[A-Za-z_]\w*\s*(\[[^\]]*\])?\s*=[^=]")


def refuse_spec(text: str, file: str, wanted: str = "ta IR",
                how: str = "tilec compile {file} --emit ta | tilec opt -") -> None:
    """A spec given where IR is read: say how to get the IR (``wanted``, by the command ``how``)
    instead of an MLIR parse error."""
    lines = (line.strip() for line in text.split("\n"))
    first = next((line for line in lines if line and not line.startswith(("#", "//"))), "")
    if file.endswith(".ta") or _SPEC_START.match(first):
        raise TilecError(f"'{file}' is a tilec spec, not MLIR; lower it to {wanted} first: "
                         + how.format(file=file))


def opt(text: str, file: str, config: OptConfig) -> str:
    """Run ``tilec opt`` over ``text``; raises TilecError on the first error."""
    refuse_spec(text, file)
    check_nesting(text, file)
    check_nesting(config.pipeline, pipeline.PIPELINE_FILE, MAX_PIPELINE_NESTING, "a pass pipeline")
    outputs = []
    for chunk, offset in split_chunks(text, config.split_input_file):
        if config.verify_diagnostics:
            check_expected(chunk, offset, file, diagnostics_of(chunk, offset, file, config))
            continue
        outputs.append(run_chunk(chunk, offset, file, config))
    return f"\n{SPLIT_MARKER}\n".join(outputs)
