"""What a tile program computes, element by element, as Z3 terms: one semantics per tile op.

``TileValues(fn)`` reads the function's index arithmetic (shape parameters and program ids
are Z3 integers, each scf.for's induction variable a fresh symbol within the loop's
bounds) and gives the value of any register tile at symbolic in-tile coordinates:

    tile.load      the input at offsets + coords inside the tensor, ``padding`` outside
    tile.map       its body, tile.elem reading the source at the mapped coords,
                   tile.index the coordinate itself, tile.gather the input at its map of
                   the indices inside the tensor, ``padding`` outside
    tile.reduce    an uninterpreted function of the row: the block's reduction, whose terms
                   the caller relates to its reference separately
    a loop's iter arg / result: an uninterpreted function of the row ("the state before
                   this block", "the state after the loop"), unless the caller substitutes

Inputs are the same uninterpreted functions the reference side reads (``Values.tensor``),
so a kernel value and a ta value can be compared directly.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects import PERSISTENT_ATTR, access, arg_attrs
from tilec.dialects.affine import z3_results
from tilec.dialects.index_ops import DIVISIONS, INDEX
from tilec.dialects.op_rules import rule
from tilec.dialects import scalar_ops
from tilec.dialects.tile import body_ops

from .scalars import Values, evaluate
from .symbolic import TILE_ID, WARPGROUP_ID, Z3, dim, size_facts



class TileValues:
    """Z3 semantics of one tile function (see the module docstring)."""

    def __init__(self, fn):
        self.fn = fn
        self.params, self.args = {}, {}
        for attrs, arg in zip(ir.ArrayAttr(fn.attributes["arg_attrs"]), fn.arguments):
            d = ir.DictAttr(attrs)
            if "ta.param" in d:
                name = ir.StringAttr(d["ta.param"]).value
                self.params[name] = z3.Int(name)
                continue
            self.args[arg] = ("output" if "ta.output" in d else "input", ir.StringAttr(d["ta.name"]).value,
                              [ir.StringAttr(x).value for x in ir.ArrayAttr(d["ta.dims"])])
        self.vals = Values(self.params)
        self.assumptions = size_facts(fn, self.params)
        self.fixed = self._fixed_sizes()  # what the argument types fix: the kernel takes no other size
        self.assumptions += self.fixed_facts()
        self.index = {}                 # index SSA value -> Z3 Int
        for attrs, arg in zip(ir.ArrayAttr(fn.attributes["arg_attrs"]), fn.arguments):
            if arg not in self.args:
                self.index[arg] = self.params[ir.StringAttr(ir.DictAttr(attrs)["ta.param"]).value]
        self.grid = [dim(ir.StringAttr(g).value, self.params) for g in ir.ArrayAttr(fn.attributes["tile.grid"])]
        # a persistent kernel: C CTAs (1 <= C <= grid x), looping over tiles (TILE_ID: the tile id)
        self.ctas = z3.Int("ctas") if PERSISTENT_ATTR in fn.attributes else None
        if self.ctas is not None:
            self.assumptions += [self.ctas >= 1, self.ctas <= self.grid[0]]
        self.tile_loops: list = []      # (lb, ub, step) of each persistent tile loop
        self.warpgroups = 1             # consumer warpgroups running on their own (tile.warpgroup_id)
        self.tile = None                # their index (one symbol), None when there are none
        self.pids: list = []
        self.loops: list = []           # (scf.for op, iv, lb, ub)
        self.substitute: dict = {}      # value -> fn(coords) replacing its default meaning
        self.divisions: list = []       # (condition, dividend, divisor) of each index division
        self.loop_facts: list = []      # the assumptions that a loop index is in its range
        self._walk(fn.entry_block, z3.BoolVal(True))

    def _fixed_sizes(self) -> dict:
        """{dim expression: size} of each symbolic dim a tensor argument's type makes static."""
        fixed = {}
        for arg, (_, _, dims) in self.args.items():
            t = ir.ShapedType(arg.type)
            for k, d in enumerate(dims):
                if not t.is_dynamic_dim(k) and not d.isdigit():
                    fixed[d] = t.shape[k]
        return fixed

    def _loop_facts(self, *facts) -> list:
        """``facts`` (a loop index in its range), kept apart too: they hold inside the loop alone,
        so a check of what runs outside it (a loop of no iterations at some sizes) leaves them out."""
        self.loop_facts += facts
        return list(facts)

    def fixed_text(self) -> str:
        """"; sizes the kernel's types fix: C = 200" (a report row's domain says what it assumes),
        or "" when the types fix none."""
        return "; sizes the kernel's types fix: " + ", ".join(
            f"{d} = {n}" for d, n in sorted(self.fixed.items())) if self.fixed else ""

    def fixed_facts(self) -> list:
        """The sizes the argument types fix, as Z3 facts (``N == 1`` for a ``memref<1x?xf32>`` of
        dims [N, M]): a check quantifying over a domain of its own must assume them too."""
        return [dim(d, self.params) == size for d, size in self.fixed.items()]

    @classmethod
    def over(cls, p, vals: Values) -> "TileValues":
        """The semantics of ``p``'s function (a symbolic.Program) on its own symbols: its index
        values, program ids and loop indices, its inputs read through ``vals``."""
        tv = cls.__new__(cls)
        tv.fn, tv.params, tv.vals = p.fn, p.params, vals
        tv.args = dict(p.args)
        tv.assumptions = list(p.assumptions)
        tv.fixed = {}  # the program's own assumptions hold what it fixes
        tv.index = {v: x for v, x in p.values.items() if isinstance(x, z3.ArithRef)}
        tv.grid, tv.pids, tv.loops, tv.substitute = p.grid, p.pids, [], {}
        tv.ctas, tv.tile_loops = p.ctas, [p.loops[k][1:3] + p.loops[k][4:] for k in ("tiles", "tiles'") if k in p.loops]
        tv.tile = p.loops["tiles"][0] if "tiles" in p.loops else None
        tv.warpgroups = p.warpgroups
        tv.divisions, tv.loop_facts = [], []  # the program's walk records none: TileValues(fn) does
        return tv

    @property
    def tile_id(self):
        """The symbol of the output tile a CTA works on: program id 0, or a persistent kernel's
        tile loop index."""
        return self.tile if self.tile is not None else next(x for x in self.pids if str(x) == "pid0")

    def dims(self, arg) -> list:
        """The Z3 extents of a tensor argument."""
        return [dim(d, self.params) for d in self.args[arg][2]]

    def _walk(self, block, condition) -> None:
        """The index values of ``block``, reached where ``condition`` holds (the scf.if ops around it)."""
        for op in block.operations:
            name = op.operation.name
            operands = list(op.operation.operands)
            if name in INDEX:
                a, b = (self.index[v] for v in operands)
                self.index[op.result] = INDEX[name](a, b, Z3)
                if name in DIVISIONS:  # its meaning is given for a >= 0, b > 0 (index_divisions.py)
                    self.divisions.append((condition, a, b))
            elif name == "arith.cmpi" and isinstance(operands[0].type, ir.IndexType):
                self.index[op.result] = scalar_ops.evaluate(op, [self.index[v] for v in operands], scalar_ops.PYTHON)
            elif name == "scf.if":  # a condition it has no rule for may be either
                held = self.index[operands[0]] if operands[0] in self.index else z3.FreshBool("held")
                self._walk(op.regions[0].blocks[0], z3.And(condition, held))
                if len(op.regions[1].blocks):
                    self._walk(op.regions[1].blocks[0], z3.And(condition, z3.Not(held)))
            elif name == "arith.constant" and isinstance(op.result.type, ir.IndexType):
                self.index[op.result] = z3.IntVal(ir.IntegerAttr(op.attributes["value"]).value)
            elif name == "tile.program_id":
                axis = ir.IntegerAttr(op.attributes["axis"]).value
                pid = z3.Int(f"pid{axis}")
                self.assumptions += [pid >= 0, pid < (self.ctas if axis == 0 and self.ctas is not None
                                                      else self.grid[axis])]
                self.pids.append(pid)
                self.index[op.result] = pid
            elif name == "tile.num_programs":
                self.index[op.result] = self.ctas
            elif name == "tile.warpgroup_id":  # any one consumer warpgroup (symbolic.WARPGROUP_ID)
                wg = self.index[op.result] = z3.Int(WARPGROUP_ID)
                self.assumptions += [wg >= 0, wg < self.warpgroups]
            elif name == "scf.for" and PERSISTENT_ATTR in op.operation.attributes:
                lb, ub, step = (self.index[v] for v in operands[:3])
                tile = self.tile = z3.Int(TILE_ID)  # one symbol in both roles (hopper.check_tile_loops)
                if not self.tile_loops:
                    self.assumptions += self._loop_facts(tile >= lb, tile < ub)
                self.tile_loops.append((lb, ub, step))
                self.index[op.regions[0].blocks[0].arguments[0]] = tile
                self._walk(op.regions[0].blocks[0], z3.And(condition, tile >= lb, tile < ub))
            elif name == "scf.for":
                lb, ub, step = (self.index[v] for v in operands[:3])
                iv = z3.Int(f"jt{len(self.loops)}")
                self.assumptions += self._loop_facts(iv >= lb, iv < ub)
                self.loops.append((op, iv, lb, ub, step))
                self.index[op.regions[0].blocks[0].arguments[0]] = iv
                self._walk(op.regions[0].blocks[0], z3.And(condition, iv >= lb, iv < ub))
            elif rule("roles", name) is not None:  # regions run by roles (sm_90a's warp_specialize)
                self.warpgroups = rule("roles", name)(op)
                for region in op.operation.regions:
                    self._walk(region.blocks[0], condition)

    # -- element values --------------------------------------------------------------------------
    def value(self, v, coords: list):
        """The Z3 value of register tile ``v`` at in-tile ``coords``."""
        if v in self.substitute:
            return self.substitute[v](coords)
        owner = v.owner
        if isinstance(owner, ir.Block):  # a loop's iter arg: the state before this iteration
            return self.vals.function(f"state_{_key(v)}", 1, z3.IntSort())(coords[0])
        name = owner.name
        if name == "tile.load":
            return self._load(owner, coords)
        if name == "tile.map":
            return self._map(owner, coords)
        if name == "tile.reduce":
            return self.vals.function(f"reduce_{_key(v)}", 1, z3.IntSort())(coords[0])
        if name == "scf.for":
            return self.vals.function(f"final_{_key(v)}", 1, z3.IntSort())(coords[0])
        if name == "tile.split_sum":  # the parts of the CTAs of its slot summed: the whole K (split_k.py)
            return self.value(owner.operands[0], coords)
        raise ValueError(f"the verifier has no value rule for a tile made by '{name}'")

    def _load(self, op, coords):
        src, *offs = op.operands
        at = access.element(self.vals.domain, [self.index[o] for o in offs], coords)
        return self._read(op, src, at)

    def _read(self, op, src, at: list):
        """Tensor ``src``'s element at ``at`` as a load or gather ``op`` reads it: its padding
        outside the tensor (dialects/access.py)."""
        pad = z3.RealVal(ir.FloatAttr(op.attributes["padding"]).value)
        return access.read(self.vals.domain, at, self.dims(src), lambda at: self.vals.tensor(self.args[src][1], at), pad)

    def _map(self, op, coords, seen=None):
        """tile.map ``op``'s element at ``coords`` (``seen(gather, indices)``: each tile.gather's indices)."""
        def read(inner, local):
            name = inner.operation.name
            if name == "tile.elem":
                amap = ir.AffineMapAttr(inner.attributes["map"]).value
                at = [coords[ir.AffineDimExpr(e).position] for e in amap.results]
                return self.value(inner.operation.operands[0], at)
            if name == "tile.index":
                return coords[ir.IntegerAttr(inner.attributes["dim"]).value]
            if name == "tile.gather":
                src, *indices = inner.operation.operands
                at = self._gathered(inner, [local[v] if v in local else self._outer(v) for v in indices])
                if seen is not None:
                    seen(inner.operation, at)
                return self._read(inner, src, at)
            return None
        return evaluate(op.regions[0].blocks[0], self.vals, read, self._outer)

    @staticmethod
    def _gathered(op, indices: list) -> list:
        return z3_results(ir.AffineMapAttr(op.attributes["map"]).value, indices)

    def gather_indices(self, op, coords: list) -> list:
        """The source indices tile.gather ``op`` reads in its tile.map's element at ``coords``."""
        found = {}
        self._map(op.parent.opview if hasattr(op.parent, "opview") else op.parent, coords,
                  lambda g, at: found.setdefault(g, at))
        return found[op]

    def _outer(self, v):
        if v in self.index:
            return self.index[v]
        return self.vals.scalar(v.owner, [])  # a constant defined outside the body


def ta_input_names(ta_fn) -> dict:
    """{argument: its ta.name} of a ta function: the names the tile side's inputs read."""
    return {arg: ir.StringAttr(a["ta.name"]).value for a, arg in zip(arg_attrs(ta_fn), ta_fn.arguments)}


def _key(value) -> str:
    """A stable name of an SSA value (Python wrappers of one value are distinct objects)."""
    return value.get_name().lstrip("%").replace("#", "_")


def walk(fn) -> list:
    """Every op of ``fn``'s body, the bodies of its loops and warp roles included (not tile.map
    bodies): dialects.tile.body_ops."""
    return body_ops(fn)


def own_slots(loop) -> dict:
    """{carried slot: ta op} for a loop's ``tile.computes`` provenance: an op may carry several
    values (a running max and its sum); its own value is the last of them."""
    slots = [ir.IntegerAttr(x).value for x in ir.ArrayAttr(loop.attributes["tile.computes"])]
    return {k: n for k, n in enumerate(slots) if k + 1 == len(slots) or slots[k + 1] != n}
