"""The online-softmax step of a rotated attention loop (softmax_overlap), proved termwise.

Iteration t multiplies the block before's P (carried in registers) by its V and runs block
t's softmax. The state it carries from the keys [0, t bn) is (m, l, acc, P) with

    l exp(m) = sum_{j < t bn} exp(x_j)
    (acc + sum_{j in block t-1} P_j v_j) exp(m) = sum_{j < t bn} exp(x_j) v_j
    P_j exp(m) = exp(x_j) for j in block t - 1

One iteration keeps it, for every block size: m' = max(m, rowmax x); P'_j exp(m') = exp(x_j);
l' exp(m') = l exp(m) + rowsum P' exp(m'); acc' exp(m') = (acc + sum P_j v_j) exp(m), the
carried P·V landing before the rescale. The block before the loop starts it from (-inf, 0, 0):
its P and l are a step's, and acc = 0. The P·V after the loop adds the last block's terms onto
the loop's acc, so what the epilogue reads is the unrotated loop's acc (values modulo P's
rounding to V's type, as attention_step.py).
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.tile import is_mma

from .attention_step import _Scalars, _exp_of_masked, _unround, step_rows
from .solver import Outcome, prove


def is_rotated(loop) -> bool:
    """Does the key loop carry P beside (m, l, acc): rotated, block 0 before it (softmax_overlap)?"""
    return len(list(loop.regions[0].blocks[0].arguments)) == 5


def rotated_step(p, loop) -> list:
    """(check, Outcome) rows of the rotated loop's step, its first block and its last P·V."""
    body = loop.regions[0].blocks[0]
    acc_in, p_in = list(body.arguments)[3:]
    ops = list(body.operations)
    yielded = list(ops[-1].operation.operands)
    mmas = [op for op in ops if is_mma(op)]
    pv = [op for op in mmas if op.operation.operands[0] == p_in and op.operation.operands[-1] == acc_in]
    reduces = {kind: [op for op in ops if op.operation.name == "tile.reduce" and
                      ir.StringAttr(op.attributes["kind"]).value == kind] for kind in ("max", "sum")}
    p_tile = reduces["sum"][0].operation.operands[0] if len(reduces["sum"]) == 1 else None
    after = _after_loop(loop)
    problems = []
    if len(mmas) != 2 or len(pv) != 1:
        problems.append("the loop's P·V does not multiply the carried P onto the carried acc")
    if len(reduces["max"]) != 1 or p_tile is None or _unround(yielded[3]) != p_tile:
        problems.append("the P carried to the next iteration is not the exponentials the row sum adds up")
    if after is None:
        problems.append("no P·V after the loop multiplies the loop's last P onto its acc")
    if problems:  # no solver call can say anything about a form it does not read
        return [("one key block keeps the rotated loop's online-softmax invariants", Outcome("error", 0.0, {},
                                                                                           "; ".join(problems)))]
    s = _Scalars(p, loop)
    m_new, l_new, acc_new = (s.tile(v) for v in yielded[:3])
    x, rowmax, rowsum = s.tile(reduces["max"][0].operation.operands[0]), s.tile(reduces["max"][0].result), \
        s.tile(reduces["sum"][0].result)
    p_x = s.tile(p_tile)
    pv_prev = s.tile(pv[0].result) - s.acc  # sum_j P_j v_j of the block before (P carried)
    rows = step_rows(s, x, p_x, rowmax, rowsum, m_new, l_new,
                     ("the accumulator takes the carried P·V, then is rescaled: acc' exp(m') = "
                      "(acc + sum_j P_j v_j) exp(m)", acc_new * s.exp(m_new) == (s.acc + pv_prev) * s.exp(s.m)),
                     ("a fully masked row keeps acc = 0 through a fully masked block (its carried P is 0)",
                      acc_new == 0, pv_prev == 0), p_note=" (carried as P to the next P·V)")
    return rows + _first_block(p, loop)


def _first_block(p, loop) -> list:
    """The state the loop starts from is block 0's step from (-inf, 0, 0): m the block's row
    max, l its row sum, acc 0, P its exponentials."""
    init = list(loop.operation.operands)[3:]
    s = _Scalars(p, loop)
    m1, l1, acc1 = (s.tile(v) for v in init[:3])
    p_tile = _unround(init[3])
    owner = p_tile.owner
    sums = [u.owner for u in p_tile.uses if u.owner.name == "tile.reduce"]
    if isinstance(owner, ir.Block) or owner.operation.name != "tile.map" or len(sums) != 1:
        return [("the loop starts from block 0's step", Outcome("error", 0.0, {}, "the P the loop starts from is not "
                                                                                   "a block's exponentials"))]
    rowsum = s.tile(sums[0].results[0])
    maxes = [op for op in _ops_before(loop) if op.operation.name == "tile.reduce" and
             ir.StringAttr(op.attributes["kind"]).value == "max"]
    if len(maxes) != 1:
        return [("the loop starts from block 0's step", Outcome("error", 0.0, {}, "block 0 has no single row max"))]
    x, rowmax = s.tile(maxes[0].operation.operands[0]), s.tile(maxes[0].result)
    p_x = s.tile(p_tile)
    exp = s.exp
    axioms = [exp(z3.RealVal(0)) == 1, exp(x - m1) * exp(m1) == exp(x)] + _exp_of_masked(p_x, s.neg_inf)
    facts = [rowmax >= x, s.neg_inf < 0] + [z3.Implies(t != s.neg_inf, t > s.neg_inf) for t in (x, m1, rowmax)]
    claim = z3.And(m1 == z3.If(s.neg_inf >= rowmax, s.neg_inf, rowmax), l1 == rowsum, acc1 == 0,
                   z3.Implies(z3.And(x != s.neg_inf, m1 >= x), p_x * exp(m1) == exp(x)))
    return [("the loop starts from block 0's step from (-inf, 0, 0): m its row max, l its row sum, acc 0, P its "
             "exponentials", prove(claim, axioms + facts, watch={"x": x, "m": m1}))]


def _ops_before(loop) -> list:
    ops = [op.operation for op in loop.operation.block.operations]
    return ops[:ops.index(loop.operation)]


def _after_loop(loop):
    """The P·V after the loop: the loop's P onto its acc (None where there is none)."""
    results = list(loop.operation.results)
    ops = [op.operation for op in loop.operation.block.operations]
    for op in ops[ops.index(loop.operation) + 1:]:
        if is_mma(op) and op.operands[0] == results[3] and op.operands[-1] == results[2]:
            return op
    return None


def completed_slots(loop) -> dict:
    """{carried slot: the value that completes it}: a rotated loop's acc (slot 2) is complete
    after the P·V that follows it (rotated_step proves that P·V adds the last block); {} for
    any other loop."""
    if not is_rotated(loop):
        return {}
    after = _after_loop(loop)
    return {2: after.result} if after is not None else {}


def rotated_ends(p, loop, x_at, loop_x, bounds) -> list:
    """(check, Outcome) rows: block 0 before the loop is the loop body at kt = 0 (the same Q and
    K tiles at stage s(0), the same stabiliser), and the P·V after it is the loop's at kt = n
    (the same V tile, at the stage of block n - 1). ``x_at(map)``: a stabiliser map's x at
    (pos0, pos1), the scores a symbol; ``loop_x``: the loop's."""
    kt, _, n_blocks, _ = p.loops["main"]
    body = loop.regions[0].blocks[0]
    loop_mmas = [op.operation for op in body.operations if is_mma(op)]
    before = _ops_before(loop)
    first = [op for op in before if is_mma(op)]
    maxes = [op for op in before if op.name == "tile.reduce" and ir.StringAttr(op.attributes["kind"]).value == "max"]
    after = _after_loop(loop)
    check0 = "block 0 before the loop is the loop body at kt = 0: Q·Kᵀ of the same tiles at stage s(0), the same x"
    check_n = "the P·V after the loop is the loop's at kt = n: the same V tile, at the stage of block n - 1"
    if len(first) != 1 or len(maxes) != 1 or len(loop_mmas) != 2 or after is None:
        why = "the rotated loop's first block or last P·V is not one wgmma (and one row max) the check reads"
        return [(check0, Outcome("error", 0.0, {}, why)), (check_n, Outcome("error", 0.0, {}, why))]
    qk, pv, qk0 = loop_mmas[0], loop_mmas[1], first[0]
    stage = lambda op: p.values[op.operands[2]]
    same0 = list(qk0.operands[:2]) == list(qk.operands[:2]) and \
        set(qk0.attributes) - {"async"} == set(qk.attributes) - {"async"}
    claim0 = z3.And(z3.BoolVal(same0), stage(qk0) == z3.substitute(stage(qk), (kt, z3.IntVal(0))),
                    x_at(maxes[0].operands[0].owner) == z3.substitute(loop_x, (kt, z3.IntVal(0))))
    claim_n = z3.And(z3.BoolVal(after.operands[1] == pv.operands[1]),
                     stage(after) == z3.substitute(stage(pv), (kt, n_blocks)))
    return [(check0, prove(claim0, bounds)), (check_n, prove(claim_n, p.assumptions))]
