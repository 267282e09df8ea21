"""The online-softmax step of an attention tile program, proved termwise for one key block.

One iteration of the key loop is executed on Z3 terms (_Scalars): the running max m, the
row sum l and the accumulator acc as symbols, the block's scores x as an uninterpreted tile,
exp uninterpreted with exp(a - m') * exp(m') = exp(a), exp(0) = 1 and exp(-inf) = 0. The
invariants l * exp(m) = sum_j exp(x_j) and acc * exp(m) = sum_j exp(x_j) v_j are carried from
the keys before the block to the keys up to its end; a block sum is a fold of such terms, so
the proof holds for every block size and, by induction, every sequence length. The P·V mmas
are read as a chain: P (rounded to the mma's type), then at most its rounding residual.
"""

from __future__ import annotations

import math

import z3
from torch_mlir import ir

from tilec.dialects.tile import is_mma, mma_accumulator

from .scalars import Values, evaluate
from .solver import prove



class _Scalars:
    """Per-element symbolic values of the loop's tiles (one row i, one key j, one column d)."""

    def __init__(self, p, loop):
        self.p, self.vals = p, Values(p.params)
        self.exp = self.vals.function("math.exp", 1)  # the body's math.exp: one function on both sides
        self.sym = {}
        body = loop.regions[0].blocks[0]
        m, l, acc = list(body.arguments)[1:4]  # a rotated loop carries P after them
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
        elif is_mma(owner):  # an accumulating op (sm_80 registers, sm_90a shared tiles)
            result = self.tile(mma_accumulator(owner)) + z3.Real(f"sum_j_{len(self.sym)}")
        else:
            result = z3.Real(f"t{len(self.sym)}")
        self.sym[value] = result
        return result

    def _map(self, op):
        def read(inner, local):
            name = inner.operation.name
            if name == "tile.elem":
                return self.tile(inner.operation.operands[0])
            return _position(inner) if name == "tile.index" else None

        return evaluate(op.regions[0].blocks[0], self.vals, read, self._outer)

    def _outer(self, value):
        known = self.p.values.get(value)
        if isinstance(known, tuple) and known[0] == "float":
            return self.neg_inf if math.isinf(known[1]) else z3.RealVal(known[1])
        if known is not None and not isinstance(known, tuple):
            return known
        return self.tile(value)


def _online_step(p, fn):
    """The step lemma's rows of the kernel's key loop (a rotated loop: attention_rotated's)."""
    _, _, _, loop = p.loops["main"]
    body = loop.regions[0].blocks[0]
    yielded = list(list(body.operations)[-1].operation.operands)
    s = _Scalars(p, loop)
    m_new, l_new, acc_new = (s.tile(v) for v in yielded)
    pv = [op for op in body.operations if is_mma(op)][-1]
    chain, base = _pv_chain(pv)
    p_tile = _unround(chain[0].operation.operands[0])
    sums = [op for op in body.operations if op.operation.name == "tile.reduce" and
            ir.StringAttr(op.attributes["kind"]).value == "sum"]
    maxes = [op for op in body.operations if op.operation.name == "tile.reduce" and
             ir.StringAttr(op.attributes["kind"]).value == "max"]
    structure = len(sums) == 1 and len(maxes) == 1 and sums[0].operation.operands[0] == p_tile and \
        all(_is_residual(op.operation.operands[0], p_tile, chain[0].operation.operands[0]) for op in chain[1:])
    if not structure:  # no solver call can say anything about a form it does not read
        from .solver import Outcome
        return [("one key block keeps the online-softmax invariants",
                 Outcome("error", 0.0, {}, "the block's P·V mmas do not read the exponentials the row sum adds "
                                           "up (P, then at most its rounding residual)"))]
    x_tile = maxes[0].operation.operands[0]
    x, rowmax, rowsum = s.tile(x_tile), s.sym[maxes[0].result], s.sym[sums[0].result]
    p_x = s.tile(p_tile)
    # the mmas' sum_j p_j v_j (P's rounding, and the residual mma that restores it for an f32
    # result, read as exact: the value facts here are modulo dtype rounding)
    pv_sum = acc_new - s.tile(base)
    return step_rows(s, x, p_x, rowmax, rowsum, m_new, l_new,
                     ("the accumulator is rescaled to the new max: acc' exp(m') = acc exp(m) + sum_j p_j v_j exp(m')",
                      acc_new * s.exp(m_new) == s.acc * s.exp(s.m) + pv_sum * s.exp(m_new)),
                     ("a fully masked row keeps acc = 0 through a fully masked block", acc_new == 0, pv_sum == 0))


def step_rows(s, x, p_x, rowmax, rowsum, m_new, l_new, acc_claim: tuple, acc_masked: tuple,
              p_note: str = "") -> list:
    """(check, Outcome) rows of one key block's step on the scalars ``s`` (m, l, acc before
    it): the max, the exponentials p (``p_note`` says where they go), the row sum, the form's
    own accumulator claim (check, claim), and the fully-masked-row rows, the accumulator's as
    (check, claim, what the block's P·V adds is 0)."""
    exp = s.exp
    axioms = [exp(z3.RealVal(0)) == 1] + [exp(a - m_new) * exp(m_new) == exp(a) for a in (s.m, x)] + \
        _exp_of_masked(p_x, s.neg_inf)
    # -inf is below every other value (a stabiliser, a running max)
    facts = [rowmax >= x, s.neg_inf < 0] + [z3.Implies(t != s.neg_inf, t > s.neg_inf) for t in (x, m_new, s.m, rowmax)]
    watch = {"m": s.m, "x": x, "m'": m_new}
    claims = {
        "the new running max is max(m, rowmax x)": m_new == z3.If(s.m >= rowmax, s.m, rowmax),
        f"each exponential of the block is exp(x - m'): p * exp(m') = exp(x){p_note}": z3.Implies(
            z3.And(x != s.neg_inf, m_new >= x), p_x * exp(m_new) == exp(x)),
        "the row sum is rescaled to the new max: l' exp(m') = l exp(m) + sum_j p_j exp(m')":
            l_new * exp(m_new) == s.l * exp(s.m) + rowsum * exp(m_new),
        acc_claim[0]: acc_claim[1],
    }
    rows = [(check, prove(claim, axioms + facts + [s.m != s.neg_inf], watch=watch)) for check, claim in claims.items()]
    # fully masked rows (every x = -inf): the documented result is 0 / 0 = NaN, as in the oracle;
    # it holds because a masked key adds nothing and such a row's state stays l = 0, acc = 0
    # (a block sum of zero terms is 0: the termwise fact below, folded)
    masked_row = [s.m == s.neg_inf, rowmax == s.neg_inf]
    masked = {
        "a masked key adds nothing: p = 0 where x = -inf": (z3.Implies(x == s.neg_inf, p_x == 0), []),
        "a fully masked row keeps l = 0 through a fully masked block":
            (l_new == 0, masked_row + [s.l == 0, rowsum == 0]),
        acc_masked[0]: (acc_masked[1], masked_row + [s.acc == 0, acc_masked[2]]),
    }
    return rows + [(check, prove(claim, axioms + facts + premises, watch=watch))
                   for check, (claim, premises) in masked.items()]


def _exp_of_masked(term, neg_inf) -> list:
    """exp(-inf - w) = 0 for every exp(u - w) in ``term`` with w not -inf (IEEE: exp(-inf) = 0),
    one instance per such application: what makes a masked key's exponential vanish."""
    return [z3.Implies(z3.And(u == neg_inf, w != neg_inf), t == 0) for t, u, w in exp_differences(term)]


def exp_differences(term) -> list:
    """(exp(u - w), u, w) for every exponential of a difference in ``term``, once each."""
    out, stack, seen = [], [term], set()
    while stack:
        t = stack.pop()
        if t.get_id() in seen or not z3.is_app(t):
            continue
        seen.add(t.get_id())
        if t.decl().name() == "math.exp" and t.num_args() == 1 and z3.is_sub(t.arg(0)):
            out.append((t, t.arg(0).arg(0), t.arg(0).arg(1)))
        stack += [t.arg(k) for k in range(t.num_args())]
    return out


def _pv_chain(last):
    """The mmas that accumulate P·V onto one base, in order, and that base (the rescaled acc)."""
    chain, base = [last], mma_accumulator(last)
    while not isinstance(base.owner, ir.Block) and is_mma(base.owner):
        chain.insert(0, base.owner.opview)
        base = mma_accumulator(base.owner)
    return chain, base


def _is_residual(value, p_tile, rounded) -> bool:
    """``value`` is round(p - ext(rounded)) elementwise: what rounding P to the mma's type lost."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.name != "tile.map":
        return False
    ops = list(owner.regions[0].blocks[0].operations)
    names = [op.operation.name for op in ops]
    if names != ["tile.elem", "tile.elem", "arith.extf", "arith.subf", "arith.truncf", "tile.yield"]:
        return False
    p_elem, r_elem, ext, sub = ops[:4]
    return p_elem.operation.operands[0] == p_tile and r_elem.operation.operands[0] == rounded and \
        ext.operation.operands[0] == r_elem.result and list(sub.operation.operands) == [p_elem.result, ext.result]


def _unround(value):
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.name != "tile.map":
        return value
    ops = list(owner.regions[0].blocks[0].operations)
    if len(ops) == 3 and ops[0].operation.name == "tile.elem" and ops[1].operation.name == "arith.truncf":
        return ops[0].operation.operands[0]
    if len(ops) == 2 and ops[0].operation.name == "tile.elem":  # a copy (f32 operands: no rounding)
        return ops[0].operation.operands[0]
    return value


def _position(op):
    return z3.Int(f"pos{ir.IntegerAttr(op.attributes['dim']).value}")
