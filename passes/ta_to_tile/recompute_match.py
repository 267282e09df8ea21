"""What ta-to-tile reads of a group of recomputed sums (recompute.py): the sums, their contractions, the maps after."""

from __future__ import annotations

from dataclasses import dataclass, field

from torch_mlir import ir

from tilec.dialects.dims import parse_dim

from .common import NoTileLowering
from .online_body import _def_tree
from .._loops import positions


@dataclass
class Operand:
    """A tensor the kernel stages: ``value`` (a kernel input) read at online dims ``dims`` (None: the
    head dim it is read along, its last), ``row`` its tile's row index (r or t)."""

    value: object
    dims: tuple
    row: int

    @property
    def width(self) -> int:
        return ir.RankedTensorType(self.value.type).shape[-1]


@dataclass
class Sum:
    """One online sum of the group: ``W[r, t] * X[t, d]`` kept at ``kept``."""

    op: object
    w: object            # the factor W, a value of the sum's body
    w_ops: list          # the body's ops W depends on
    x: Operand           # X, staged with the t blocks
    kept: list


@dataclass
class Found:
    sums: list
    t: int
    r: int
    batch: list
    dims: list                                      # DimExpr per online dim
    contracts: dict = field(default_factory=dict)   # contract value -> (R operand, T operand)
    read_at: dict = field(default_factory=dict)     # contract value -> the online dims W reads it at
    epilogue: list = field(default_factory=list)    # the maps after the group, in order
    returned: list = field(default_factory=list)


def _is_input(value) -> bool:
    return isinstance(value.owner, ir.Block)


def _split_product(body):
    """(W, the ta.at of X) of a sum's yielded ``W * X``, X an element of a kernel input."""
    (y,) = list(list(body.operations)[-1].operation.operands)
    if _is_input(y) or y.owner.operation.name != "arith.mulf":
        raise NoTileLowering("a recomputed sum must add W * X, X an element of a kernel input")
    a, b = y.owner.operation.operands
    for w, x in ((a, b), (b, a)):
        read = None if _is_input(x) else x.owner
        if read is not None and read.operation.name == "arith.extf" and not _is_input(read.operation.operands[0]):
            read = read.operation.operands[0].owner
        if read is not None and read.operation.name == "ta.at" and _is_input(read.operation.operands[0]):
            return w, read
    raise NoTileLowering("a recomputed sum must add W * X, X an element of a kernel input")


def _sum(op, t: int) -> tuple[Sum, int]:
    """The Sum of online op ``op`` and its row index r."""
    body = op.regions[0].blocks[0]
    w, read = _split_product(body)
    kept = positions(ir.AffineMapAttr(op.attributes["map"]).value)
    x_dims = positions(ir.AffineMapAttr(read.attributes["map"]).value)
    d = kept[-1]
    rows = [k for k in kept if k not in x_dims]
    if t not in x_dims or x_dims[-1] != d or len(rows) != 1 or any(k not in kept and k != t for k in x_dims):
        raise NoTileLowering("a recomputed sum W[r, t] * X[t, d] must keep r and d (last), X read at t and d (its "
                             "last dim) and batch dims the sum keeps")
    x = Operand(read.operation.operands[0], tuple(None if k == d else k for k in x_dims), t)
    return Sum(op, w, _def_tree(w, body), x, kept), rows[0]


def analyse(fn) -> Found:
    """The group of recomputed sums of ``fn``, its contractions and the maps after it."""
    ops = list(fn.entry_block.operations)
    online = [op for op in ops if op.operation.name == "ta.online"]
    if not online or len({ir.StringAttr(op.attributes["group"]).value for op in online}) != 1:
        raise NoTileLowering("a recomputed-sums kernel computes one online group")
    if any(ir.StringAttr(op.attributes["kind"]).value != "sum" or "moment" in op.attributes for op in online):
        raise NoTileLowering("a recomputed-sums kernel takes plain sums (no running max, none centred)")
    t = ir.IntegerAttr(online[0].attributes["dim"]).value
    extents = [ir.StringAttr(e).value for e in ir.ArrayAttr(online[0].attributes["extents"])]
    sums, rows = zip(*(_sum(op, t) for op in online))
    batch = [k for k in sums[0].kept if k not in (rows[0], sums[0].kept[-1])]
    if len(set(rows)) != 1 or any([k for k in s.kept if k not in (rows[0], s.kept[-1])] != batch for s in sums):
        raise NoTileLowering("the sums of a recomputed group must keep one row index and the same batch dims")
    found = Found(list(sums), t, rows[0], batch, [parse_dim(e) for e in extents])
    for s in sums:
        for op in s.w_ops:
            if op.operation.name == "ta.at" and not _is_input(op.operation.operands[0]):
                _contraction(found, op)
    _rest(found, ops, online)
    return found


def _contraction(found: Found, read) -> None:
    """Record the contraction ``read`` reads (Σ_e R[.., r, .., e] · T[.., t, .., e]) in ``found``."""
    c = read.operation.operands[0].owner
    if c.operation.name != "ta.contract":
        raise NoTileLowering(f"W reads a {c.operation.name} of the function: only contractions are recomputed "
                             "(another value is another kernel's output, read as an input)")
    at = positions(ir.AffineMapAttr(read.attributes["map"]).value)
    if c.result in found.contracts:  # its tile holds it at one map: a read at another is another tile
        if found.read_at[c.result] != at:
            raise NoTileLowering("W reads a recomputed contraction at two index maps; its tile holds one")
        return
    found.read_at[c.result] = at
    cmaps = [positions(ir.AffineMapAttr(m).value) for m in ir.ArrayAttr(c.attributes["maps"])]
    c_to_o = dict(zip(cmaps[2], at))
    operands = []
    for value, cdims in zip(c.operation.operands, cmaps[:2]):
        dims = tuple(c_to_o.get(x) for x in cdims)
        rows = [x for x in dims if x in (found.r, found.t)]
        if not _is_input(value) or dims.count(None) != 1 or dims[-1] is not None or len(rows) != 1 or \
                any(x not in found.batch for x in dims if x not in (None, found.r, found.t)):
            raise NoTileLowering("a recomputed contraction must be Σ_e R[.., r, .., e] · T[.., t, .., e] of kernel "
                                 "inputs over one head dim e, their last")
        operands.append(Operand(value, dims, rows[0]))
    if {o.row for o in operands} != {found.r, found.t}:
        raise NoTileLowering("a recomputed contraction must read one operand at r and the other at t")
    found.contracts[c.result] = tuple(sorted(operands, key=lambda o: o.row != found.r))


def _rest(found: Found, ops: list, online: list) -> None:
    """The maps after the group (the epilogue) and the returned values; any other op is another kernel's."""
    after = {op.result for op in online}
    for op in ops[:-1]:
        name = op.operation.name
        if name in ("arith.constant", "ta.online") or op.result in found.contracts:
            continue
        reads = {inner.operation.operands[0] for inner in op.regions[0].blocks[0].operations
                 if inner.operation.name == "ta.at"} if name == "ta.map" else set()
        if name != "ta.map" or not reads or not reads <= after:
            raise NoTileLowering(f"a recomputed-sums kernel computes its group and the maps of its sums; a {name} "
                                 "of something else is another kernel's")
        after.add(op.result)
        found.epilogue.append(op)
    found.returned = list(ops[-1].operation.operands)
