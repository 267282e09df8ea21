"""User-facing errors: one located message, ``file:line:col: error: ...``.

Every mistake a user can make (spec syntax, unknown name, shape mismatch,
invalid IR, bad pass pipeline) becomes a ``TilecError``; the CLI prints it with
the offending source line and a caret, and exits 1, with no traceback.
Users' files are read and written through the guards at the end of this module
(regular files only, size limits, UTF-8 errors located, outputs checked first).
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path


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
        col = self.loc.col - 1
        if len(line) > _SHOWN:  # a window of a long line around the column
            start = max(0, min(col - _SHOWN // 2, len(line) - _SHOWN))
            shown = line[start:start + _SHOWN]
            line = ("..." if start else "") + shown + ("..." if start + _SHOWN < len(line) else "")
            col += (3 if start else 0) - start
        caret = " " * col + "^"
        return f"{head}\n  {line}\n  {caret}"

    def __str__(self) -> str:
        return self.format()


_SHOWN = 100  # characters of the source line shown under a message


def _source_line(source: str | None, loc: SourceLoc | None) -> str | None:
    if source is None or loc is None or loc.line < 1:
        return None
    lines = source.split("\n")  # as the parsers count lines (splitlines() would split at \f too)
    if loc.line > len(lines):
        return None
    # control characters (a stray escape sequence) are shown as one replacement character each
    line = lines[loc.line - 1].removesuffix("\r").expandtabs(1)
    return "".join(c if c.isprintable() else "\ufffd" for c in line)


_MLIR_FRAME = re.compile(r'"(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)')
_OWN_DIR = os.path.dirname(os.path.abspath(__file__))


def _library(path: str) -> bool:
    """Is ``path`` installed code (torch's modules) or tilec's own, not a user's file?"""
    parts = path.replace("\\", "/").split("/")
    return "site-packages" in parts or "dist-packages" in parts or \
        os.path.abspath(path).startswith(_OWN_DIR + os.sep)


def mlir_loc(location, file: str, line_offset: int = 0) -> SourceLoc | None:
    """The SourceLoc of an MLIR location printed as loc("file":L:C); of a call stack
    (loc(callsite("a":L:C at "b":L:C)), an op traced from PyTorch) its innermost frame in the
    user's own code, not in torch's modules or tilec's wrapper (else the innermost).

    Text parsed from a buffer reports the file "-"; ``file`` names it, and
    ``line_offset`` maps a split-input chunk back to its line in the file.
    """
    frames = list(_MLIR_FRAME.finditer(str(location)))
    if not frames:
        return None
    match = next((m for m in frames if not _library(m["file"])), frames[0])
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


# Reading and writing users' files. Inputs are data: a path that is not a regular file (a
# directory, a FIFO, /dev/urandom) is refused before it is read, and so is a file larger than
# the limit, so that no input can hang tilec or exhaust its memory.

MAX_INPUT_BYTES = 16 * 1024 * 1024   # IR files (tilec opt)
MAX_SPEC_BYTES = 64 * 1024           # specs: the largest example is 1 KiB; parsing is ~60 KB/s
MAX_PACKAGE_BYTES = 256 * 1024 * 1024
MAX_NESTING = 256  # brackets open at once in IR; MLIR's recursive parser overflows the stack near 10,000


def _size_text(n: int) -> str:
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def read_input_bytes(path: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them, else a TilecError.

    Opened without blocking (a FIFO does not wait for a writer) and checked before any read.
    Example: ``read_input_bytes("/dev/urandom")`` -> error: cannot read '/dev/urandom': ...
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as err:  # ValueError: a NUL byte in the path
        raise TilecError(f"cannot read '{path}': {getattr(err, 'strerror', None) or err}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise TilecError(f"cannot read '{path}': it is {_file_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise TilecError(f"'{path}' is {info.st_size} bytes; this input is limited to {_size_text(limit)}")
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # it grew while we read it
            raise TilecError(f"'{path}' is larger than this input's limit of {_size_text(limit)}")
        return b"".join(chunks)
    except OSError as err:
        raise TilecError(f"cannot read '{path}': {err.strerror}") from None
    finally:
        os.close(fd)


def decode_source(data: bytes, file: str) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped); a byte that is not UTF-8
    is an error at its line and column."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        start = data.rfind(b"\n", 0, err.start) + 1
        line = data.count(b"\n", 0, err.start) + 1
        col = len(data[start:err.start].decode("utf-8", errors="replace")) + 1
        shown = data.decode("utf-8", errors="replace").removeprefix("\ufeff")
        raise TilecError(f"byte 0x{data[err.start]:02x} is not valid UTF-8; input files must be UTF-8 text",
                         SourceLoc(file, line, col), shown) from None


def read_input(path: str, limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of the regular file ``path`` (see read_input_bytes and decode_source)."""
    return decode_source(read_input_bytes(path, limit), path)


def check_output(path: str, flag: str, directory: bool = False) -> None:
    """Refuse, before any work is done, an output path that cannot be written: a directory
    where a file is wanted (or the reverse), a missing parent directory, a read-only place.

    Example: ``check_output("/proc/x.mlir", "-o")`` -> error: -o: cannot write '/proc/x.mlir': ...
    """
    if not path or "\0" in path:
        raise TilecError(f"{flag}: {path!r} is not a path")
    check_name_lengths(path, flag)
    where = Path(path)
    if directory:
        if where.exists() and not where.is_dir():
            raise TilecError(f"{flag}: '{path}' is not a directory")
        existing = next((p for p in (where, *where.parents) if p.exists()), Path("."))
        if not existing.is_dir():
            raise TilecError(f"{flag}: cannot create '{path}': '{existing}' is not a directory")
        _probe(existing, path, flag)
        return
    if where.is_dir():
        raise TilecError(f"{flag}: '{path}' is a directory; give a file name")
    if where.exists() and not where.is_file():
        if stat.S_ISCHR(where.stat().st_mode):  # /dev/null: written through, not replaced
            return
        raise TilecError(f"{flag}: cannot write '{path}': it is {_file_kind(where.stat().st_mode)}")
    parent = where.parent
    if not parent.exists():
        raise TilecError(f"{flag}: cannot write '{path}': directory '{parent}' does not exist")
    if not parent.is_dir():
        raise TilecError(f"{flag}: cannot write '{path}': '{parent}' is not a directory")
    _probe(parent, path, flag)


def check_name_lengths(path: str, flag: str) -> None:
    """Refuse a path with a name longer than its file system takes (NAME_MAX, 255 bytes on
    most), or longer in all than PATH_MAX: the system would refuse it only once the work is
    done, and some of its questions (does it exist?) fail on it with an error of their own.

    Example: ``check_name_lengths("a" * 300 + ".tkp", "-o")`` -> error: -o: the name 'aaa...' is 304 bytes; ..."""
    encoded = os.fsencode(path)
    path_max = _pathconf(".", "PC_PATH_MAX", 4096)
    if len(encoded) >= path_max:
        raise TilecError(f"{flag}: the path '{_shortened(path)}' is {len(encoded)} bytes; paths here are at most "
                         f"{path_max - 1} bytes")
    where = Path("/") if os.path.isabs(path) else Path(".")
    name_max = _pathconf(where, "PC_NAME_MAX", 255)
    for part in Path(path).parts[1 if os.path.isabs(path) else 0:]:
        size = len(os.fsencode(part))
        if size > name_max:
            raise TilecError(f"{flag}: the name '{_shortened(part)}' is {size} bytes; file names in "
                             f"'{where}' are at most {name_max} bytes")
        where = where / part
        name_max = _pathconf(where, "PC_NAME_MAX", name_max)  # a mount below may differ; kept where none is yet


def _pathconf(where, name: str, default: int) -> int:
    try:
        return os.pathconf(where, name)
    except (OSError, ValueError):  # not there yet, or no such limit
        return default


def _shortened(text: str, keep: int = 40) -> str:
    return text if len(text) <= keep else f"{text[:keep]}..."


def _probe(directory: Path, path: str, flag: str) -> None:
    """Create and remove a file in ``directory``: the one test of writability that holds for root too."""
    try:
        fd, name = tempfile.mkstemp(dir=directory, prefix=".tilec-probe.")
    except OSError as err:
        raise TilecError(f"{flag}: cannot write '{path}': no file can be created in '{directory}' "
                         f"({err.strerror})") from None
    os.close(fd)
    os.unlink(name)


def check_nesting(text: str, file: str, limit: int = MAX_NESTING, what: str = "IR") -> None:
    """Refuse text with more than ``limit`` brackets open at once, before MLIR parses it (its
    parser recurses on every nested attribute, type, region and op), and NUL characters (its
    lexer takes one for the end of the buffer). Strings and comments are skipped; '>' closes
    only outside '->' and '>='. An estimate that errs on the deep side."""
    depth, line, line_start, i, n = 0, 1, 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line, line_start = line + 1, i + 1
        elif c == "\0":
            raise TilecError(f"a NUL character; {what} is text", SourceLoc(file, line, i - line_start + 1), text)
        elif c == '"':  # a string, to its closing quote (or the end of the line)
            i += 1
            while i < n and text[i] not in '"\n':
                i += 2 if text[i] == "\\" else 1
            if i < n and text[i] == "\n":
                continue
        elif c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif c in "([{<":
            depth += 1
            if depth > limit:
                raise TilecError(f"more than {limit} brackets are open here; {what} nested this deep is refused",
                                 SourceLoc(file, line, i - line_start + 1), text)
        elif c in ")]}" or (c == ">" and text[i - 1:i] != "-" and text[i + 1:i + 2] != "="):
            depth = max(depth - 1, 0)
        i += 1
