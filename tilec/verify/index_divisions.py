"""Every index division of a tile kernel divides a value >= 0 by one > 0.

The meaning of arith's index divisions (divsi, remsi, floordivsi, ceildivsi) is written once
(dialects/index_ops.py) for a dividend >= 0 and a divisor > 0: there C's truncating ``/`` and
``%`` (what the CUDA emitter prints) and the floor division of the interpreter and of Z3 (what
the proofs reason with) are one function. This is the obligation that makes them so, for the
index arithmetic of any tile function (a pipelined kernel's, a row program's, a pointwise
one's): each division is found with the conditions of the scf.if ops around it, and proved
under the function's size facts, for any program id below the grid, any CTA count of a
persistent kernel, any consumer warpgroup and every loop index in its range:

    conditions  =>  dividend >= 0  and  divisor > 0

An index value the walk has no rule for (a loop's carried index, say) is any integer, so a
division that depends on one is proved for every value it may take. The bodies of tile.map
and the ops like it compute on elements, not indices (the emitter writes their divisions
with floor semantics for either sign), and are not walked. A kernel that divides a negative
index (a ring slot of iteration kt - 1 taken at kt = 0, say) comes back as a counterexample
naming the values.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects import CMPI, PERSISTENT_ATTR, arg_attrs
from tilec.dialects.index_ops import DIVISIONS, INDEX
from tilec.dialects.op_rules import rule

from .solver import Outcome, prove
from .symbolic import Z3, dim, size_facts

CHECK = "every index division and remainder divides a value >= 0 by one > 0 (C's / and % are then the proofs' floor division)"


class _Walk:
    """The index values of one tile function on Z3 integers, and the divisions among them."""

    def __init__(self, fn):
        self.params, self.values = {}, {}
        for attrs, arg in zip(arg_attrs(fn), fn.arguments):
            if "ta.param" in attrs:
                name = ir.StringAttr(attrs["ta.param"]).value
                self.values[arg] = self.params[name] = z3.Int(name)
        self.assumptions = size_facts(fn, self.params)
        self.grid = [dim(ir.StringAttr(g).value, self.params) for g in ir.ArrayAttr(fn.attributes["tile.grid"])]
        self.ctas = None
        if PERSISTENT_ATTR in fn.attributes:  # any number of CTAs from 1 to the tiles
            self.ctas = z3.Int("ctas")
            self.assumptions += [self.ctas >= 1, self.ctas <= self.grid[0]]
        self.divisions: list = []  # (condition, dividend, divisor)
        self.fresh = 0

    def get(self, value):
        if value not in self.values:  # an index the walk has no rule for: any integer
            self.fresh += 1
            self.values[value] = z3.Int(f"index{self.fresh}")
        return self.values[value]

    def block(self, block, condition, roles: int = 1) -> None:
        for op in block.operations:
            self.op(op, op.operation.name, condition, roles)

    def op(self, op, name: str, condition, roles: int) -> None:
        operands = list(op.operation.operands)
        if name in INDEX:
            a, b = self.get(operands[0]), self.get(operands[1])
            self.values[op.result] = INDEX[name](a, b, Z3)
            if name in DIVISIONS:
                self.divisions.append((condition, a, b))
        elif name == "arith.constant" and isinstance(op.result.type, ir.IndexType):
            self.values[op.result] = z3.IntVal(ir.IntegerAttr(op.attributes["value"]).value)
        elif name == "arith.cmpi":
            self.values[op.result] = CMPI[ir.IntegerAttr(op.attributes["predicate"]).value](
                self.get(operands[0]), self.get(operands[1]))
        elif name == "tile.program_id":
            axis = ir.IntegerAttr(op.attributes["axis"]).value
            pid = self.values[op.result] = z3.Int(f"pid{axis}")
            bound = self.ctas if axis == 0 and self.ctas is not None else self.grid[axis]
            self.assumptions += [pid >= 0, pid < bound]
        elif name == "tile.num_programs":
            axis = ir.IntegerAttr(op.attributes["axis"]).value
            self.values[op.result] = self.ctas if axis == 0 and self.ctas is not None else self.grid[axis]
        elif name == "tile.warpgroup_id":
            wg = self.values[op.result] = z3.Int("wg")
            self.assumptions += [wg >= 0, wg < roles]
        elif name == "scf.for":
            body = op.regions[0].blocks[0]
            iv = self.values[body.arguments[0]] = z3.Int(f"i{len(self.assumptions)}")
            self.assumptions += [iv >= self.get(operands[0]), iv < self.get(operands[1])]
            self.block(body, condition, roles)
        elif name == "scf.if":
            held = self.get(operands[0])
            held = held if z3.is_bool(held) else held != 0
            self.block(op.regions[0].blocks[0], z3.And(condition, held), roles)
            if len(op.regions[1].blocks):
                self.block(op.regions[1].blocks[0], z3.And(condition, z3.Not(held)), roles)
        elif rule("roles", name) is not None:  # regions run by roles (sm_90a's warp_specialize)
            for region in op.operation.regions:
                self.block(region.blocks[0], condition, rule("roles", name)(op))


def check_index_divisions(fn) -> tuple[str, str, Outcome, str]:
    """(property, check, outcome, domain) of the index divisions of tile function ``fn``."""
    walk = _Walk(fn)
    walk.block(fn.regions[0].blocks[0], z3.BoolVal(True))
    claims = [z3.Implies(held, z3.And(a >= 0, b > 0)) for held, a, b in walk.divisions]
    watch = {**walk.params, **{f"dividend {n}": a for n, (_, a, _) in enumerate(walk.divisions)}}
    domain = f"all shapes, program ids, loop iterations and warpgroups ({len(walk.divisions)} divisions)"
    return "in-bounds", CHECK, prove(z3.And(*claims), walk.assumptions, watch=watch), domain
