"""The reduction kinds (dialects/reduce_kinds.py), written once and folded by every layer: the
combine agrees across domains (Python, torch, Z3) and the neutral element is neutral."""

import math

import pytest
import torch
import z3

from tilec.dialects.reduce_kinds import KINDS, NAMES


def test_the_kinds_are_the_dialects_kinds():
    from tilec.dialects.ta import REDUCE_KINDS
    from tilec.dialects.ta_online import KINDS as ONLINE_KINDS

    assert NAMES == REDUCE_KINDS == ONLINE_KINDS == ("sum", "max", "min")


@pytest.mark.parametrize("kind", NAMES)
def test_the_neutral_element_is_neutral_and_torch_agrees_with_python(kind):
    k = KINDS[kind]
    for x in (-2.5, 0.0, 3.0):
        assert k.combine(k.neutral, x) == x == k.combine(x, k.neutral)
    a, b = torch.tensor([1.0, -3.0, 2.0]), torch.tensor([0.5, 4.0, 2.0])
    folded = k.combine(a, b, torch.where)
    assert folded.tolist() == [k.combine(x, y) for x, y in zip(a.tolist(), b.tolist())]
    assert k.reduce(torch.stack([a, b]), 0).tolist() == folded.tolist()
    assert k.neutral == 0.0 if kind == "sum" else math.isinf(k.neutral) and k.combine(k.neutral, -1e308) == -1e308


@pytest.mark.parametrize("kind", NAMES)
def test_the_z3_combine_is_commutative_and_associative(kind):
    """The verifier's fold of a block may take its elements in any order (real arithmetic)."""
    k = KINDS[kind]
    a, b, c = z3.Reals("a b c")
    solver = z3.Solver()
    solver.add(z3.Or(k.combine(a, b, z3.If) != k.combine(b, a, z3.If),
                     k.combine(k.combine(a, b, z3.If), c, z3.If) != k.combine(a, k.combine(b, c, z3.If), z3.If)))
    assert solver.check() == z3.unsat


def test_the_c_text_and_the_arith_op_are_the_kinds():
    assert [KINDS[k].c.format("x", "y") for k in NAMES] == ["x + y", "fmaxf(x, y)", "fminf(x, y)"]
    assert [KINDS[k].arith for k in NAMES] == ["AddFOp", "MaximumFOp", "MinimumFOp"]
