"""User-facing errors: one located message, ``file:line:col: error: ...``.

Every mistake a user can make (spec syntax, unknown name, shape mismatch,
invalid IR, bad pass pipeline) becomes a ``TilecError``; the CLI prints it with
the offending source line and a caret, and exits 1, with no traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class SourceLoc:
    """A position in a user's file (1-based line and column)."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class TilecError(Exception):
    """An error in the user's input, reported at ``loc`` when one is known."""

    def __init__(self, message: str, loc: SourceLoc | None = None, source: str | None = None):
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.source = source  # the whole text of loc.file, for the caret line

    def format(self) -> str:
        head = f"{self.loc}: error: {self.message}" if self.loc else f"error: {self.message}"
        line = _source_line(self.source, self.loc)
        if line is None:
            return head
        caret = " " * (self.loc.col - 1) + "^"
        return f"{head}\n  {line}\n  {caret}"

    def __str__(self) -> str:
        return self.format()


def _source_line(source: str | None, loc: SourceLoc | None) -> str | None:
    if source is None or loc is None or loc.line < 1:
        return None
    lines = source.splitlines()
    if loc.line > len(lines):
        return None
    return lines[loc.line - 1].expandtabs(1)


_MLIR_LOC = re.compile(r'loc\("(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)\)')


def mlir_loc(location, file: str, line_offset: int = 0) -> SourceLoc | None:
    """The SourceLoc of an MLIR location printed as loc("file":L:C).

    Text parsed from a buffer reports the file "-"; ``file`` names it, and
    ``line_offset`` maps a split-input chunk back to its line in the file.
    """
    match = _MLIR_LOC.search(str(location))
    if not match:
        return None
    name = match["file"]
    if name == "-":
        return SourceLoc(file, int(match["line"]) + line_offset, int(match["col"]))
    return SourceLoc(name, int(match["line"]), int(match["col"]))


def from_mlir_error(err, file: str, source: str | None = None, line_offset: int = 0) -> TilecError:
    """The first diagnostic of an ``ir.MLIRError`` as a TilecError."""
    diags = list(getattr(err, "error_diagnostics", []) or [])
    if not diags:
        return TilecError(str(err).splitlines()[0] if str(err) else "MLIR error")
    first = diags[0]
    loc = mlir_loc(first.location, file, line_offset)
    same_file = loc is not None and loc.file == file
    return TilecError(first.message, loc, source if same_file else None)
