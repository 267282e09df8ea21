"""``--verify-diagnostics``: compare reported errors with ``expected-error`` comments.

    // expected-error @+1 {{requires attribute 'kind'}}
    %0 = "ta.reduce"(%x) {dims = [1]} : ...

``@+N`` / ``@-N`` point N lines below / above the comment; without one, the
comment's own line. Each expected error must be reported on its line with a
message containing the text, and every reported error must be expected.
"""

from __future__ import annotations

import re

from ..diagnostics import SourceLoc, TilecError

_EXPECTED = re.compile(r"expected-error\s*(?:@([+-]\d+))?\s*\{\{(.*?)\}\}")


def expectations(chunk: str, offset: int) -> list[tuple[int, str, int]]:
    """(line the error is expected on, text, line of the comment), lines 1-based in the file."""
    found = []
    for number, line in enumerate(chunk.splitlines(), start=offset + 1):
        for match in _EXPECTED.finditer(line):
            found.append((number + int(match[1] or 0), match[2], number))
    return found


def check_expected(chunk: str, offset: int, file: str, reported: list) -> None:
    """Raise TilecError on the first mismatch between ``reported`` and the comments."""
    wanted = expectations(chunk, offset)
    unmatched = list(reported)
    for line, text, comment_line in wanted:
        hit = next((r for r in unmatched if r[0] is not None and r[0].line == line and text in r[1]), None)
        if hit is None:
            near = [m for loc, m in unmatched if loc is not None and loc.line == line]
            got = f"; on that line: \"{near[0]}\"" if near else ""
            raise TilecError(f"expected error \"{text}\" was not produced{got}", SourceLoc(file, comment_line, 1))
        unmatched.remove(hit)
    if unmatched:
        loc, message = unmatched[0]
        raise TilecError(f"unexpected error: {message}", loc)
