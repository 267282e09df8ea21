"""Writing what tilec outputs: to a temporary file renamed into place, so that readers never
see half a file, with the mode a plain ``open()`` would give (0666 less the user's umask;
``mkstemp`` alone would leave 0600).

    replace_atomically("out.mlir", lambda tmp: Path(tmp).write_text(text))

The temporary file's name is short and fixed in length (``.tilec-XXXXXXXX.tmp``), not the
target's name lengthened: a target of 250 characters is a valid name, and so is its
temporary file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


TEMPORARY_PREFIX = ".tilec-"  # and 8 random characters, ".tmp": 19 in all, within any NAME_MAX


def umask_mode() -> int:
    """0666 & ~umask: the mode of a new file the user's umask asks for, e.g. 0644 under 022."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def replace_atomically(path: str | Path, write) -> None:
    """Call ``write(tmp)`` on a fresh temporary file beside ``path``, then rename it to ``path``;
    on any failure the temporary file is removed and ``path`` is left as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=TEMPORARY_PREFIX, suffix=".tmp")
    try:
        os.fchmod(fd, umask_mode())
        os.close(fd)
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
