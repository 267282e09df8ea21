"""Units of the split: ops that lower only together, placed as one (tilec.graph.split).

The split places one op at a time and keeps a group only while it still lowers as one kernel.
An attention lowers as one kernel and as nothing smaller: its scores contraction alone is a
GEMM, but the scores with a row max, or a sum of exponentials without the P·V contraction,
are no kernel. So its ops are first gathered into a unit:

- the reductions one fusion group holds (in a fused function, the ta.online ops of one
  group; in an unfused one, the reductions ta-fuse-reductions would group);
- the maps between them (each reads a value of the unit and is read by one);
- back from them, every ta.map and ta.contract whose readers are all in the unit (the
  scores, and the maps that make the stabiliser of them), but not one that only contractions
  of the unit read, as an operand: an attention reads Q, K and V as stored, so a map that
  computes one of them (RoPE's rotation of Q and K) is a kernel of its own.

A unit is kept when it lowers as one kernel, and when no op outside it between its first
and last op reads one of its values: it is then placed at its last op, in either direction
of the split, and every read still follows its write. A unit that does not lower (a norm's
statistics fused into a GEMM's reduction) is no unit: its ops are placed one by one.
"""

from __future__ import annotations

from torch_mlir import ir

from tilec.passes.ta_fuse_reductions import fusion_groups

_GROWS = ("ta.map", "ta.contract")  # what a unit takes in from around its reductions


def units(s, ops: list, keep_out=lambda op: False) -> dict:
    """{op (ir.Operation): the unit it is in (its ops, program order)} for each unit kept;
    ``keep_out(op)``: ops no unit takes in (a tensor narrowed to 16 bits stays with its producer)."""
    readers = {op.operation: [] for op in ops}
    made = {op.result: op.operation for op in ops}
    for op in ops:
        for v in s.reads[op.operation]:
            if v in made:
                readers[made[v]].append(op.operation)
    unit_of = {}
    for seed in _seeds(s, ops):
        unit = _grown(seed, [op for op in ops if not keep_out(op)], readers, made, s)
        if not _placeable(unit, ops, s, made):
            continue
        ordered = sorted(unit, key=lambda op: s.position[op.operation])
        reason, _, form = s.piece(ordered, s.outputs(ordered), "fits")
        if form is None:  # its ops are placed one by one; the reason explains a piece that then fails
            s.refused.append(({op.operation for op in ordered}, reason))
            continue
        for op in ordered:
            unit_of[op.operation] = ordered
    return unit_of


def items(ops: list, unit_of: dict) -> list[list]:
    """``ops`` in program order as lists to place: one op, or a unit at its last op."""
    out = []
    for op in ops:
        unit = unit_of.get(op.operation)
        if unit is None:
            out.append([op])
        elif unit[-1].operation == op.operation:
            out.append(unit)
    return out


def _seeds(s, ops: list) -> list[list]:
    """The reductions of each fusion group (ta.online ops by group, or the fusion's own groups)."""
    if not s.fuse_each:
        groups: dict = {}
        for op in ops:
            if op.operation.name == "ta.online":
                groups.setdefault(ir.StringAttr(op.attributes["group"]).value, []).append(op)
        return list(groups.values())

    by_operation = {op.operation: op for op in ops}
    return [[by_operation[r.operation] for r in group if r.operation in by_operation]
            for group in fusion_groups(s.fn)]


def _grown(seed: list, ops: list, readers: dict, made: dict, s) -> list:
    """``seed`` with the maps between its ops and the producers only it reads."""
    unit = {op.operation: op for op in seed}
    changed = True
    while changed:
        changed = False
        for op in ops:
            o = op.operation
            if o in unit or o.name not in _GROWS or op.result in s.returned:
                continue
            reads_unit = any(made.get(v) in unit for v in s.reads[o])
            read_by_unit = [r for r in readers[o] if r in unit]
            between = o.name == "ta.map" and reads_unit and read_by_unit
            operand = all(r.name == "ta.contract" for r in read_by_unit)
            exclusive = readers[o] and len(read_by_unit) == len(readers[o]) and not operand
            if between or exclusive:
                unit[o] = op
                changed = True
    return list(unit.values())


def _placeable(unit: list, ops: list, s, made: dict) -> bool:
    """No op outside ``unit`` between its first and last op reads a value of it."""
    inside = {op.operation for op in unit}
    first, last = (f(s.position[o] for o in inside) for f in (min, max))
    for op in ops:
        o = op.operation
        if o in inside or not first < s.position[o] < last:
            continue
        if any(made.get(v) in inside for v in s.reads[o]):
            return False
    return True
