"""Ops of a tile function cloned elsewhere in it, in program order, with some values replaced.

A tile -> tile pass that moves a computation into a new region (a role of a warp-specialised
kernel, a loop over tiles) brings the ops a value needs along with it:

    clones = Clones(fn, keep=lambda op: op in scalars_before)   # ops every role may share
    clones.map(old_pid, t)                                       # the role's tile for the CTA's
    m0, n0 = clones.bring([m0, n0])                              # at the insertion point

``bring`` clones every op the values depend on that is neither kept nor mapped already, in
the order the function holds them (so the clones read as the original did), remapping their
operands and those of the ops nested in their regions.
"""

from __future__ import annotations

from torch_mlir import ir


def _walk(op, visit) -> None:
    op.walk(lambda o: (visit(o), ir.WalkResult.ADVANCE)[1])


class Clones:
    """Clones of ``fn``'s ops at the insertion point; ``keep(op)``: whether an op's results are
    used where they are (values every clone may read) rather than cloned."""

    def __init__(self, fn, keep, order: dict | None = None):
        self.keep = keep
        self.values: dict = {}  # old value -> the value that stands for it here
        self.order: dict = order if order is not None else {}  # op -> its place in the function's walk
        if order is None:
            _walk(fn.operation, lambda o: self.order.setdefault(o, len(self.order)))
        self.fn = fn

    def fresh(self) -> "Clones":
        """Clones of the same function for another region: nothing mapped or cloned yet."""
        return Clones(self.fn, self.keep, self.order)

    def map(self, old, new) -> None:
        """From now on ``new`` stands for ``old``."""
        self.values[old] = new

    def bring(self, values) -> list:
        """The values standing for ``values`` at the insertion point, cloning what they need."""
        needed: set = set()
        for value in values:
            self._need(value, needed)
        for op in sorted(needed, key=self.order.__getitem__):
            self._clone(op)
        return [self._here(v) for v in values]

    def copy(self, op) -> None:
        """Clone ``op`` itself at the insertion point (and what it needs that is not here yet)."""
        needed: set = set()
        for outer in self.outer(op.operation):
            self._need(outer, needed)
        for dep in sorted(needed, key=self.order.__getitem__):
            self._clone(dep)
        self._clone(op.operation)

    def _here(self, value):
        if value in self.values:
            return self.values[value]
        return value

    def _need(self, value, needed: set) -> None:
        """Add to ``needed`` the op defining ``value`` and those it needs, unless kept or mapped."""
        if value in self.values or isinstance(value.owner, ir.Block):
            if value not in self.values and value.owner.owner.operation.name != "func.func":
                raise ValueError(f"{value.get_name()} is a block argument of a region the clone leaves: "
                                 f"map it first")
            return
        op = value.owner.operation
        if op in needed or self.keep(op):
            return
        needed.add(op)
        for outer in self.outer(op):
            self._need(outer, needed)

    def outer(self, op) -> list:
        """The values ``op`` and the ops nested in it read from outside it."""
        inside: set = set()
        _walk(op, inside.add)
        found = []

        def visit(inner):
            for value in inner.operands:
                owner = value.owner
                if (owner.owner if isinstance(owner, ir.Block) else owner).operation not in inside:
                    found.append(value)
        _walk(op, visit)
        return found

    def _clone(self, op) -> None:
        copy = op.clone()
        old_ops: list = []
        new_ops: list = []
        _walk(op, old_ops.append)
        _walk(copy, new_ops.append)
        for old, new in zip(old_ops, new_ops):
            for index, value in enumerate(old.operands):
                if value in self.values:
                    new.operands[index] = self.values[value]
        for old, new in zip(op.results, copy.results):
            self.values[old] = new
