"""What tilec says when a graph, or a region of one, stays in torch.

    warnings.warn(f"tilec leaves this graph to torch: {failure_reason(err)}", TilecFallbackWarning)
"""

from __future__ import annotations

from tilec.diagnostics import TilecError


class TilecFallbackWarning(UserWarning):
    """A graph (or part of one) stays in torch."""


def failure_reason(err: Exception) -> str:
    """What a TilecFallbackWarning says of a failure: a TilecError's message, else the
    exception's type and text (``RuntimeError: ...``)."""
    return err.message if isinstance(err, TilecError) else f"{type(err).__name__}: {err}"
