"""Symbolic execution of a pipelined tile program: index arithmetic on Z3 integers.

The function body is walked once; each scf.for body once, with its induction variable a
fresh symbol bounded by the loop's range. What the properties need is recorded as events
in program order: copies (source, offsets, destination buffer, stage), commits, waits,
barriers, shared reads, the mma, the epilogue and the store; in a warp-specialised kernel
also the mbarrier waits, expects and arrives of each role, the producer's loop "producer",
and the waits for asynchronous wgmma groups ("mma_wait"): the rules of those ops are the
target's (tilec/targets/sm_90a/verify/symbolic_ops.py), found through the op
(dialects/op_rules.py). An event inside an scf.if carries its condition as "guard".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3
from torch_mlir import ir

from tilec.dialects import PERSISTENT_ATTR, PROLOGUE_ATTR, STAGES_ATTR, param_ranges
from tilec.dialects.dims import parse_dim
from tilec.dialects.index_ops import INDEX, z3_domain
from tilec.dialects.op_rules import no_rule, rule
from tilec.dialects.tile import store_parts
from tilec.diagnostics import TilecError
from tilec.dialects.ta import tensor_dims
from tilec.dialects.scalar_ops import PYTHON, evaluate

Z3 = z3_domain()  # index values as Z3 integers: the meaning of each index op (dialects/index_ops.py)


TILE_ID = "tile"  # the symbol of a persistent kernel's tile loop index, in every walker and role
WARPGROUP_ID = "wg"  # the symbol of tile.warpgroup_id: any consumer warpgroup running on its own


@dataclass
class Event:
    kind: str            # copy | commit | wait | barrier | read | mma | store | load
    loop: str            # "" (straight line), "prologue" or "main"
    op: object
    data: dict = field(default_factory=dict)


@dataclass
class Program:
    fn: object
    params: dict                          # name -> z3 Int
    args: dict                            # block argument -> (role, name, dims)
    assumptions: list
    events: list = field(default_factory=list)
    loops: dict = field(default_factory=dict)   # "prologue"/"main"/"producer" -> (iv, lb, ub, op);
    # a persistent kernel's tile loops, the producer's "tiles" and the consumers' "tiles'" -> (iv, lb, ub, op, step)
    values: dict = field(default_factory=dict)
    pids: list = field(default_factory=list)
    grid: list = field(default_factory=list)
    role: str = ""                        # the warp role being walked (tile.warp_specialize)
    ctas: object = None                   # a persistent kernel's CTAs (tile.num_programs), else None
    warpgroups: int = 1                   # consumer warpgroups running the consumer region on their own
    wg: object = None                     # their index (tile.warpgroup_id), a symbol below warpgroups


def size_facts(fn, params: dict) -> list:
    """What each shape parameter of ``fn`` (a ta, loop or tile function) satisfies: at least 1,
    and inside the range the function states for it (``ta.ranges``: a length that slices a
    buffer of 64 rows is at most 64).

        facts = size_facts(fn, {"T": z3.Int("T")})   # [T >= 1, T <= 64]
    """
    ranges = param_ranges(fn)
    facts = []
    for name, p in params.items():
        low, high = ranges.get(name, (1, None))
        facts += [p >= low] + ([p <= high] if high is not None else [])
    return facts


def dim(expr: str, params: dict):
    def walk(e):
        if e.op == "const":
            return z3.IntVal(e.value)
        if e.op == "sym":
            return params[e.value]
        a, b = walk(e.args[0]), walk(e.args[1])
        return {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[e.op]
    return walk(parse_dim(expr))


def static_dims(ta_fn) -> dict:
    """{dim expression: size} of each symbolic dim a ta function's argument or result types make
    static: the sizes it was bound to (--shape, or a kernel of a spec split at those sizes). A
    check quantifying over the parameters must assume them, or it speaks of another function.

        static_dims(fn) == {"N": 2, "L+1": 3}   # for tensor<2x?xf32, ["N", "M"]>, tensor<3xf32, ["L+1"]>
    """
    ftype = ir.FunctionType(ir.TypeAttr(ta_fn.attributes["function_type"]).value)
    found = {}
    for t in map(ir.RankedTensorType, list(ftype.inputs) + list(ftype.results)):
        found.update((str(d), t.shape[k]) for k, d in enumerate(tensor_dims(t))
                     if not t.is_dynamic_dim(k) and d.symbols)
    return found


def execute(fn) -> Program:
    params, args = {}, {}
    for attrs, arg in zip(ir.ArrayAttr(fn.attributes["arg_attrs"]), fn.arguments):
        d = ir.DictAttr(attrs)
        if "ta.param" in d:
            name = ir.StringAttr(d["ta.param"]).value
            params[name] = z3.Int(name)
        else:
            args[arg] = ("output" if "ta.output" in d else "input", ir.StringAttr(d["ta.name"]).value,
                         [ir.StringAttr(x).value for x in ir.ArrayAttr(d["ta.dims"])])
    program = Program(fn, params, args, size_facts(fn, params))
    for attrs, arg in zip(ir.ArrayAttr(fn.attributes["arg_attrs"]), fn.arguments):
        if arg in args:
            program.values[arg] = [dim(d, params) for d in args[arg][2]]
        else:
            program.values[arg] = params[ir.StringAttr(ir.DictAttr(attrs)["ta.param"]).value]
    grid = [dim(ir.StringAttr(g).value, params) for g in ir.ArrayAttr(fn.attributes["tile.grid"])]
    program.grid = grid
    if PERSISTENT_ATTR in fn.attributes:  # any number of CTAs from 1 to the tiles: program id 0 below it
        program.ctas = z3.Int("ctas")
        program.assumptions += [program.ctas >= 1, program.ctas <= grid[0]]
    walk_block(program, fn.entry_block, "", grid)

    if "main" not in program.loops:
        raise TilecError("the kernel has no main loop to verify: its shapes fit one k (or key) block, so the "
                         "loop was folded away; verify at a schedule with smaller bk (or bn)")
    if "prologue" not in program.loops:
        _unfold_prologue(program)
    return program


def _unfold_prologue(p: Program) -> None:
    """With two stages the prologue is one iteration and canonicalization inlines it: its
    copies and commit, still marked tile.prologue, stand in straight-line code before the
    main loop. Read them back as the prologue's iteration s = 0 of 1."""
    marked = [e for e in p.events if e.loop == "" and PROLOGUE_ATTR in e.op.operation.attributes]
    if not marked:
        return
    for e in marked:
        e.loop = "prologue"
    s = z3.Int("s")
    p.loops["prologue"] = (s, z3.IntVal(0), z3.IntVal(1), None)


def walk_block(p: Program, block, loop: str, grid) -> None:
    for op in block.operations:
        name = op.operation.name
        operands = list(op.operation.operands)
        get = lambda v: p.values.get(v)
        if name in INDEX:
            p.values[op.result] = INDEX[name](get(operands[0]), get(operands[1]), Z3)
        elif name == "arith.cmpi":
            p.values[op.result] = evaluate(op, [get(v) for v in operands], PYTHON)
        elif name == "scf.if":  # events of the then-block happen where the condition holds
            if op.operation.results or len(op.regions[1].blocks):
                raise ValueError("an scf.if with results or an else block")
            first = len(p.events)
            walk_block(p, op.regions[0].blocks[0], loop, grid)
            for event in p.events[first:]:
                event.data["guard"] = z3.And(get(operands[0]), event.data.get("guard", True))
        elif name == "arith.constant":
            attr = op.attributes["value"]
            p.values[op.result] = z3.IntVal(ir.IntegerAttr(attr).value) if isinstance(attr, ir.IntegerAttr) \
                else ("float", ir.FloatAttr(attr).value)
        elif name == "tile.program_id":
            axis = ir.IntegerAttr(op.attributes["axis"]).value
            pid = z3.Int(f"pid{axis}")
            p.assumptions += [pid >= 0, pid < (p.ctas if axis == 0 and p.ctas is not None else grid[axis])]
            p.pids.append(pid)
            p.values[op.result] = pid
        elif name == "tile.num_programs":
            if p.ctas is None or ir.IntegerAttr(op.attributes["axis"]).value != 0:
                raise ValueError("tile.num_programs outside a persistent kernel's axis 0")
            p.values[op.result] = p.ctas
        elif name == "scf.for" and PERSISTENT_ATTR in op.operation.attributes:
            _tiles_loop(p, op, [get(v) for v in operands[:3]], grid)
        elif name == "scf.for":
            lb, ub, step = (get(v) for v in operands[:3])
            attrs = op.operation.attributes
            kind = "main" if STAGES_ATTR in attrs else "prologue" if PROLOGUE_ATTR in attrs else \
                "producer" if p.role == "producer" else None
            if kind is None or kind in p.loops:
                raise ValueError("a loop that is neither a pipelined loop (tile.stages), its prologue, nor "
                                 "the producer's loop of a warp-specialised kernel")
            iv = z3.Int({"main": "kt", "prologue": "s", "producer": "pt"}[kind])
            body = op.regions[0].blocks[0]
            p.values[body.arguments[0]] = iv
            for arg, init in zip(list(body.arguments)[1:], operands[3:]):
                p.values[arg] = ("carried", init)
            p.loops[kind] = (iv, lb, ub, op)
            walk_block(p, body, kind, grid)
            for result, init in zip(op.operation.results, operands[3:]):
                p.values[result] = ("loop-result", init)
        elif name == "tile.async_copy":
            src, *offs, dst, stage = operands
            p.events.append(Event("copy", loop, op, {"src": p.args[src][1], "offsets": [get(o) for o in offs],
                                                     "dst": dst, "stage": get(stage)}))
        elif name == "tile.smem_load":
            p.values[op.result] = ("smem", operands[0], get(operands[1]), "transpose" in op.attributes)
            p.events.append(Event("read", loop, op, {"buffer": operands[0], "stage": get(operands[1])}))
        elif name in ("tile.commit_group", "tile.barrier"):
            p.events.append(Event(name.removeprefix("tile.").removesuffix("_group"), loop, op))
        elif name == "tile.wait_group":
            p.events.append(Event("wait", loop, op, {"pending": ir.IntegerAttr(op.attributes["pending"]).value}))
        elif name == "tile.mma":
            p.events.append(Event("mma", loop, op, {"a": get(operands[0]), "b": get(operands[1]),
                                                    "acc": get(operands[2])}))
            p.values[op.result] = ("mma", op)
            if loop == "main" and "mma" in [e.kind for e in p.events[:-1] if e.loop == "main"]:
                p.events[-1].data["second"] = True
        elif name == "tile.store":
            value, dst, offs = store_parts(op)
            p.events.append(Event("store", loop, op, {"value": value, "dst": p.args[dst][1],
                                                      "offsets": [get(o) for o in offs]}))
        elif name == "tile.load":
            p.values[op.result] = ("gload", p.args[operands[0]][1], [get(o) for o in operands[1:]])
        elif name == "tile.split_sum":  # its value: the sum of the parts (split_k.py proves what it adds)
            p.events.append(Event("split_sum", loop, op, {"slot": get(operands[1]), "part": get(operands[2]),
                                                          "k_begin": get(operands[3]),
                                                          "splits": ir.IntegerAttr(op.attributes["splits"]).value}))
            p.values[op.result] = get(operands[0])
        elif name in ("tile.alloc", "tile.map", "tile.reduce"):
            p.values[op.result] = ("op", op)
        elif name in ("scf.yield", "func.return"):
            pass
        elif rule("symbolic", name) is not None:  # a target's own op: its rule from the target's folder
            rule("symbolic", name)(p, op, operands, loop, grid)
        else:
            raise ValueError(no_rule("the verifier has no rule for", name))


def _tiles_loop(p: Program, op, bounds: list, grid) -> None:
    """A persistent kernel's loop over output tiles, in each role: its index is one symbol,
    ``tile``, in both (hopper.check_ring proves both loops run the same tiles); its body is
    walked as the kernel's straight-line code, as it is in a CTA of one tile."""
    lb, ub, step = bounds
    tile = z3.Int(TILE_ID)
    if "tiles" not in p.loops:
        p.assumptions += [tile >= lb, tile < ub]
    p.loops["tiles" if "tiles" not in p.loops else "tiles'"] = (tile, lb, ub, op, step)
    body = op.regions[0].blocks[0]
    if len(list(body.arguments)) != 1:
        raise ValueError("a persistent tile loop carries no values")
    p.values[body.arguments[0]] = tile
    walk_block(p, body, "", grid)


def as_int(value):
    return z3.IntVal(value) if isinstance(value, int) else value


def staged_copy(p: Program, buf) -> tuple[str, list] | None:
    """(source tensor, offsets) of the copy that filled what the main loop's iteration kt reads
    from shared buffer ``buf``: the one copy before the loop (a resident tile), or, for a loop
    from lb, the pipeline's prologue copy s = kt - lb while kt - lb < P, else the main loop's
    copy of iteration kt - P. None when
    the buffer is filled from several tensors or not by the prologue and the loop."""
    fill = [e for e in p.events if e.kind == "copy" and e.data["dst"] == buf]
    if not fill or any(e.data["src"] != fill[0].data["src"] for e in fill):
        return None
    src = fill[0].data["src"]
    if all(e.loop == "producer" for e in fill) and len(fill) == 1:
        # a warp-specialised ring: consumer iteration kt reads what producer iteration kt copied
        # (hopper.check_ring proves it for every iteration)
        return src, [z3.substitute(o, (p.loops["producer"][0], p.loops["main"][0])) for o in fill[0].data["offsets"]]
    if all(e.loop == "" for e in fill):
        return src, fill[0].data["offsets"]
    pro = [e for e in fill if e.loop == "prologue"]
    main = [e for e in fill if e.loop == "main"]
    if not pro or not main:
        return None
    kt, lb = p.loops["main"][:2]
    s_iv, _, stages_ahead, _ = p.loops["prologue"]
    # iteration kt is the loop's (kt - lb)-th: the prologue filled the first stages_ahead of them
    return src, [z3.If(kt - lb < stages_ahead, z3.substitute(a, (s_iv, kt - lb)),
                       z3.substitute(b, (kt, kt - stages_ahead)))
                 for a, b in zip(pro[0].data["offsets"], main[0].data["offsets"])]
