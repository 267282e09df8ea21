"""Properties of attention tile programs (lowered from a ta.online group).

swizzle    the Q, K and V shared tiles: bijections, conflict-free ldmatrix and cp.async
pipeline   the resident Q tile and each K/V block have landed before they are read; no
races      copy overwrites a stage that may still be read (as for GEMM, gemm.pipeline)
equivalence one key block carries the online-softmax invariants
              l * exp(m) = sum_j exp(x_j)    acc * exp(m) = sum_j exp(x_j) v_j
            from the keys before it to the keys up to its end: the new max is the max, each
            p_j satisfies p_j * exp(m') = exp(x_j) (termwise: a block sum is a fold of such
            terms), l' = l * exp(m - m') + sum_j p_j and acc' = acc * exp(m - m') + sum_j p_j v_j
            (exp uninterpreted; exp(a - m') * exp(m') = exp(a), exp(0) = 1)
coverage   key blocks the loop skips are masked (-inf) for every row of the CTA
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.layout import WarpTiling
from tilec.dialects.tile import layout_of

from . import gemm, layouts
from .gemm_values import _Values
from .report import Result
from .solver import prove
from .symbolic import execute


def check_attention(tiled, path: str) -> list[Result]:
    fn = tiled.body.operations[0]
    kernel = ir.StringAttr(fn.attributes["sym_name"]).value
    sched = dict(x.split("=") for x in ir.StringAttr(fn.attributes["tile.schedule"]).value.split(","))
    bm, bn, warps = int(sched["bm"]), int(sched["bn"]), int(sched["warps"])
    p = execute(fn)
    rows = []
    add = lambda prop, check, outcome, domain: rows.append(Result(
        kernel, "tile", prop, check, outcome.verdict, round(outcome.seconds, 4), domain, outcome.model, outcome.detail,
        f"tilec run {path} --stage tile" if outcome.verdict == "counterexample" else ""))
    mmas = [e for e in p.events if e.kind == "mma"]
    for event in mmas:
        n = ir.RankedTensorType(event.op.result.type).shape[1]
        k = ir.RankedTensorType(event.op.operation.operands[0].type).shape[1]
        tiling = WarpTiling(bm, n, warps, rows_only=True)
        for which, operand in (("a", event.data["a"]), ("b", event.data["b"])):
            if not (isinstance(operand, tuple) and operand[0] == "smem"):
                continue
            _, buf, _, transposed = operand
            layout = layout_of(buf.owner.attributes["layout"])
            name = f"{_source(p, buf)} tile {layout.shape[0]}x{layout.shape[1]}"
            add("swizzle", f"{name}: the layout is a bijection onto shared memory", layouts.bijection(layout),
                "every element of the tile")
            add("swizzle", f"{name}: ldmatrix phases are free of bank conflicts",
                layouts.ldmatrix_conflict_free(layout, tiling, which, transposed, k, 2),
                "every warp, lane pair, fragment and k step")
            add("swizzle", f"{name}: cp.async phases are free of bank conflicts",
                layouts.cp_async_conflict_free(layout, 32 * warps, 2), "every warp, lane pair and copy iteration")
    for prop, check, outcome in gemm.pipeline(p, None):
        add(prop, check, outcome, "all shapes, all key blocks")
    for check, outcome in _online_step(p, fn):
        add("equivalence", check, outcome, "every row and key; every sequence length by induction over key blocks")
    add("coverage", *_skipped_blocks_masked(p, fn, bm, bn), "all shapes, program ids, rows and skipped keys")
    return rows


def _source(p, buf) -> str:
    copy = next((e for e in p.events if e.kind == "copy" and e.data["dst"] == buf), None)
    return copy.data["src"] if copy else "?"


class _Scalars:
    """Per-element symbolic values of the loop's tiles (one row i, one key j, one column d)."""

    def __init__(self, p, loop):
        self.p, self.vals, self.exp = p, _Values(p.params), z3.Function("exp", z3.RealSort(), z3.RealSort())
        self.sym = {}
        body = loop.regions[0].blocks[0]
        m, l, acc = list(body.arguments)[1:]
        self.m, self.l, self.acc = (z3.Real(n) for n in ("m", "l", "acc"))
        self.sym.update({m: self.m, l: self.l, acc: self.acc})
        self.neg_inf = self.vals.function("ninf", 0)()

    def tile(self, value):
        if value in self.sym:
            return self.sym[value]
        owner = value.owner
        name = owner.operation.name
        if name == "tile.map":
            result = self._map(owner)
        elif name == "tile.reduce":
            kind = ir.StringAttr(owner.attributes["kind"]).value
            result = z3.Real(f"row{kind}")  # max_j or sum_j of its operand's row
        elif name == "tile.mma":
            a, b, acc = owner.operation.operands
            result = self.tile(acc) + z3.Real(f"sum_j_{len(self.sym)}")
        else:
            result = z3.Real(f"t{len(self.sym)}")
        self.sym[value] = result
        return result

    def _map(self, op):
        local = {}
        for inner in op.regions[0].blocks[0].operations:
            name = inner.operation.name
            args = [local[v] if v in local else self._outer(v) for v in inner.operation.operands] \
                if name not in ("tile.elem",) else []
            if name == "tile.yield":
                return args[0]
            if name == "tile.elem":
                local[inner.result] = self.tile(inner.operation.operands[0])
            elif name == "math.exp":
                local[inner.result] = self.exp(args[0])
            elif name == "arith.constant" and _infinite(inner):
                local[inner.result] = self.neg_inf
            elif name == "tile.index":
                local[inner.result] = z3.Int(f"pos{ir.IntegerAttr(inner.attributes['dim']).value}")
            else:
                local[inner.result] = self.vals.scalar(inner, args)
        raise ValueError("tile.map without tile.yield")

    def _outer(self, value):
        known = self.p.values.get(value)
        if isinstance(known, tuple) and known[0] == "float":
            import math
            return self.neg_inf if math.isinf(known[1]) else z3.RealVal(known[1])
        if known is not None and not isinstance(known, tuple):
            return known
        return self.tile(value)


def _infinite(op) -> bool:
    import math
    attr = op.attributes["value"]
    return isinstance(attr, ir.FloatAttr) and math.isinf(ir.FloatAttr(attr).value)


def _online_step(p, fn):
    _, _, _, loop = p.loops["main"]
    body = loop.regions[0].blocks[0]
    yielded = list(list(body.operations)[-1].operation.operands)
    s = _Scalars(p, loop)
    m_new, l_new, acc_new = (s.tile(v) for v in yielded)
    pv = next(op for op in body.operations if op.operation.name == "tile.mma" and
              list(body.operations).index(op) == max(k for k, o in enumerate(body.operations)
                                                      if o.operation.name == "tile.mma"))
    p_tile = _unround(pv.operation.operands[0])
    sums = [op for op in body.operations if op.operation.name == "tile.reduce" and
            ir.StringAttr(op.attributes["kind"]).value == "sum"]
    maxes = [op for op in body.operations if op.operation.name == "tile.reduce" and
             ir.StringAttr(op.attributes["kind"]).value == "max"]
    results = []
    structure = len(sums) == 1 and len(maxes) == 1 and sums[0].operation.operands[0] == p_tile
    if not structure:
        from .solver import Outcome
        return [("one key block keeps the online-softmax invariants",
                 Outcome("counterexample", 0.0, {}, "the row sum does not add up the exponentials the mma uses"))]
    x_tile = maxes[0].operation.operands[0]
    x, rowmax, rowsum = s.tile(x_tile), s.sym[maxes[0].result], s.sym[sums[0].result]
    p_x = s.tile(p_tile)
    pv_sum = acc_new - s.tile(pv.operation.operands[2])  # the mma's sum_j p_j v_j
    exp = s.exp
    axioms = [exp(z3.RealVal(0)) == 1] + [exp(a - m_new) * exp(m_new) == exp(a) for a in (s.m, x)]
    facts = [rowmax >= x]
    claims = {
        "the new running max is max(m, rowmax x)": m_new == z3.If(s.m >= rowmax, s.m, rowmax),
        "each exponential of the block is exp(x - m'): p * exp(m') = exp(x)": z3.Implies(
            z3.And(x != s.neg_inf, m_new >= x), p_x * exp(m_new) == exp(x)),
        "the row sum is rescaled to the new max: l' exp(m') = l exp(m) + sum_j p_j exp(m')":
            l_new * exp(m_new) == s.l * exp(s.m) + rowsum * exp(m_new),
        "the accumulator is rescaled to the new max: acc' exp(m') = acc exp(m) + sum_j p_j v_j exp(m')":
            acc_new * exp(m_new) == s.acc * exp(s.m) + pv_sum * exp(m_new),
    }
    for check, claim in claims.items():
        results.append((check, prove(claim, axioms + facts + [s.m != s.neg_inf], watch={"m": s.m, "x": x, "m'": m_new})))
    return results


def _unround(value):
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.name != "tile.map":
        return value
    ops = list(owner.regions[0].blocks[0].operations)
    if len(ops) == 3 and ops[0].operation.name == "tile.elem" and ops[1].operation.name == "arith.truncf":
        return ops[0].operation.operands[0]
    return value


def _skipped_blocks_masked(p, fn, bm: int, bn: int):
    kt, _, n_blocks, loop = p.loops["main"]
    body = loop.regions[0].blocks[0]
    maxes = [op for op in body.operations if op.operation.name == "tile.reduce" and
             ir.StringAttr(op.attributes["kind"]).value == "max"]
    x_map = maxes[0].operation.operands[0].owner
    s = _Scalars(p, loop)
    r, c = z3.Ints("pos0 pos1")
    block = z3.Int("skipped_block")
    # evaluate the stabiliser with the loop index standing for a skipped block
    p.values[body.arguments[0]] = block
    for op in body.operations:
        if op.operation.name in ("arith.muli", "arith.addi") and op.operation.results:
            a, b = (p.values.get(v) for v in op.operation.operands)
            if a is not None and b is not None and not isinstance(a, tuple) and not isinstance(b, tuple):
                p.values[op.result] = a * b if op.operation.name == "arith.muli" else a + b
    x = s._map(x_map)
    keys = dim_of_keys(p, fn)
    j = block * bn + c
    claim = x == s.neg_inf
    assumptions = p.assumptions + [block >= n_blocks, r >= 0, r < bm, c >= 0, c < bn, j < keys]
    outcome = prove(claim, assumptions, watch={"block": block, "row": r, "col": c, "blocks visited": n_blocks,
                                              **p.params})
    return "key blocks the loop skips are masked (-inf) for every row of the CTA", outcome


def dim_of_keys(p, fn):
    from .symbolic import dim
    dims = [ir.StringAttr(x).value for x in ir.ArrayAttr(ir.DictAttr(ir.ArrayAttr(fn.attributes["arg_attrs"])[1])["ta.dims"])]
    return dim(dims[-2], p.params)
