"""One affine evaluator (dialects/affine.py) in every domain: Python ints, torch tensors, Z3
integers, C text (the emitter's) and intervals (the emitter's bound analysis) agree."""

import itertools

import torch
import z3
from torch_mlir import ir

from tilec.codegen.cuda_address import _affine_c
from tilec.codegen.cuda_bounds import affine_interval
from tilec.dialects.affine import affine, z3_results

EXPRS = ["(d0 * 4 + d1) mod 8", "(d0 + d1 * 3) floordiv 5", "(d0 * 2 + 7) ceildiv 4", "d0 * 3 + d1 - 2"]


def _exprs():
    return [ir.AffineMapAttr(ir.Attribute.parse(f"affine_map<(d0, d1) -> ({e})>")).value.results[0] for e in EXPRS]


def _floor_c(text: str, d0: int, d1: int) -> int:
    """The C text evaluated with the emitter's floor_div / floor_mod semantics."""
    env = {"floor_div": lambda a, b: a // b, "floor_mod": lambda a, b: a % b, "i": d0, "j": d1}
    return eval(text.replace("LL", ""), env)  # the test's own C text of small integer expressions


def test_every_domain_agrees_with_python_ints():
    with ir.Context():
        for expr in _exprs():
            grid = list(itertools.product(range(-3, 9), range(0, 6)))
            ints = [affine(expr, [a, b]) for a, b in grid]
            tensor = affine(expr, [torch.tensor([a for a, _ in grid]), torch.tensor([b for _, b in grid])])
            assert tensor.tolist() == ints, expr
            text = _affine_c(expr, ["i", "j"])
            assert [_floor_c(text, a, b) for a, b in grid] == ints, text
            x, y = z3.Ints("x y")
            (term,) = z3_results(ir.AffineMap.get(2, 0, [expr]), [x, y])
            solver = z3.Solver()
            for (a, b), value in zip(grid, ints):
                solver.push()
                solver.add(x == a, y == b, term != value)
                assert solver.check() == z3.unsat, (expr, a, b)
                solver.pop()
            lo, hi = affine_interval(expr, [(0, 8), (0, 5)])
            inside = [v for (a, _), v in zip(grid, ints) if a >= 0]
            assert lo <= min(inside) and max(inside) <= hi, (expr, lo, hi)


def test_the_c_text_is_the_emitters():
    with ir.Context():
        assert [_affine_c(e, ["i", "j"]) for e in _exprs()] == [
            "floor_mod(((i * 4LL) + j), 8LL)", "floor_div((i + (j * 3LL)), 5LL)",
            "floor_div(((i * 2LL) + 7LL) + 4LL - 1LL, 4LL)", "(((i * 3LL) + j) + -2LL)"]


def test_an_interval_is_unknown_past_a_division_by_a_variable():
    with ir.Context():
        expr = ir.AffineMapAttr(ir.Attribute.parse("affine_map<(d0, d1) -> (d0 floordiv 2 + d1)>")).value.results[0]
        assert affine_interval(expr, [(0, 8), None]) is None  # a dim of unknown range
        assert affine_interval(expr, [(0, 8), (1, 2)]) == (1, 6)
