"""File modes for what tilec writes.

Outputs are written to a temporary file and renamed into place (readers never see half a
file); ``mkstemp`` creates that file 0600, so it is given the mode a plain ``open()``
would: 0666 less the user's umask.
"""

from __future__ import annotations

import os


def umask_mode() -> int:
    """0666 & ~umask: the mode of a new file the user's umask asks for, e.g. 0644 under 022."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask
