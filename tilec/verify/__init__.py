"""``tilec verify``'s checks: Z3 proofs (or counterexamples) about modules it is given.

Nothing here builds, emits or compiles a kernel: tilec.build.verification runs the driver and the
emitter and hands the very modules that are packaged to these checks (kernels.py says which
rows each kernel gets). See docs/verification.md.
"""

from __future__ import annotations

from .report import Report, Result

__all__ = ["Report", "Result"]
