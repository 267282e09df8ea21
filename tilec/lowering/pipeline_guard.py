"""Which upstream passes of a pipeline touch files: a pipeline is data, so a pass that writes
files, or reads files or runs a program at a path its options name, runs only when the caller
opts in (``tilec opt --allow-file-writes``, ``--allow-file-reads``).

The check reads the pass as MLIR prints it once parsed (``str`` of a PassManager holding it),
not the text given: every option is there in one spelling, quoted values and pipelines nested
in options (``inline{op-pipelines=func.func(view-op-graph)}``) included.

    refusal(element, reads=False, writes=False)
    # ("'gpu-module-to-binary' option 'toolkit' names files to read or a program to run
    #   (toolkit=/opt/cuda); pass --allow-file-reads to run it", 16)
"""

from __future__ import annotations

import re
from functools import lru_cache

from torch_mlir import passmanager

# upstream passes that write files (or start a viewer) of their own
WRITES_FILES = ("snapshot-op-locations", "view-op-graph", "print-op-graph", "mlir-print-ir-tree")
# options, of any pass, that name a file to write
WRITE_OPTIONS = ("filename", "file", "path", "dir", "output", "output-file", "dump-dir")
# options, of any pass, that name files to read or a program to run (this torch-mlir build):
# gpu-module-to-binary runs <toolkit>/bin/ptxas (or the ROCm and SPIR-V tools) with <opts>
# and links the bitcode files of l; nvvm-, rocdl- and xevm-attach-target carry l and the
# compiler's command-line options (ptxas-cmd-options, cmd-options: -o FILE, --options-file) to
# it; transform-preload-library parses the files of transform-library-paths
READ_OPTIONS = ("toolkit", "l", "opts", "cmd-options", "ptxas-cmd-options", "transform-library-paths")

_NAMES = lambda names: "|".join(re.escape(n) for n in names)  # noqa: E731
_WRITER = re.compile(rf"(?<![\w.-])({_NAMES(WRITES_FILES)})(?![\w.-])")
# an option printed with a value: key=value, key={a,b}, not key= (empty: the default)
_GIVEN = r"(?<![\w.-])({})=(\{{[^{{}}]*\}}|[^\s{{}}()]+)"
_WRITE_OPTION = re.compile(_GIVEN.format(_NAMES(WRITE_OPTIONS)))
_READ_OPTION = re.compile(_GIVEN.format(_NAMES(READ_OPTIONS)))
_PASS = re.compile(r"([A-Za-z_][\w.-]*)\{")


def canonical(pipeline: str) -> str:
    """``pipeline`` (one element of a module-level pipeline) as MLIR prints it after parsing."""
    pm = passmanager.PassManager("builtin.module")
    pm.add(pipeline)
    return str(pm)


def refusal(element, reads: bool, writes: bool) -> tuple[str, int] | None:
    """(why, column) when the upstream pipeline element writes files and ``writes`` is not
    given, or names files to read or a program to run and neither ``reads`` nor ``writes`` is;
    the column is the pass's (in an anchor, the innermost element that holds it). None if allowed."""
    found = _access_of(element.text, reads, writes)
    if found is None:
        return None
    return found, _innermost(element, lambda t: t, reads, writes).col


def _innermost(element, wrap, reads: bool, writes: bool):
    """The deepest element under ``element`` whose pipeline touches files (``wrap`` puts a
    pipeline in ``element``'s enclosing anchors)."""
    for child in element.children or ():
        inside = lambda t, name=element.name: wrap(f"{name}({t})")  # noqa: E731
        if _access_of(inside(child.text), reads, writes) is not None:
            return _innermost(child, inside, reads, writes)
    return element


@lru_cache(maxsize=512)  # the compiler's own pipelines are built thousands of times
def _access_of(pipeline: str, reads: bool, writes: bool) -> str | None:
    return _access(canonical(pipeline), reads, writes)


def _access(printed: str, reads: bool, writes: bool) -> str | None:
    """What ``printed`` (a canonical pipeline) may not do, as an error message; None if nothing."""
    if writes:
        return None
    writer = _WRITER.search(printed) or _WRITE_OPTION.search(printed)
    if writer is not None:
        name = writer[1] if writer.re is _WRITER else _pass_of(printed, writer.start())
        return f"'{name}' writes files of its own; pass --allow-file-writes to run it"
    option = None if reads else _READ_OPTION.search(printed)
    if option is not None:
        key, value = option[1], option[2].strip("{}")
        return (f"'{_pass_of(printed, option.start())}' option '{key}' names files to read or a program to run "
                f"({key}={value[:80]}); pass --allow-file-reads to run it")
    return None


def _pass_of(printed: str, at: int) -> str:
    """The pass whose options hold position ``at`` of a canonical pipeline."""
    names = _PASS.findall(printed[:at])
    return names[-1] if names else "?"
