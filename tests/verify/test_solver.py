"""tilec/verify/solver.py: every solver query is bounded by Z3's deterministic resource limit
(rlimit), never by the wall clock, so what a report calls proved does not depend on the load of
the machine; a query past its budget is ``unknown``, the same on every run."""

import z3

from conftest import EXAMPLES
from tilec.build.verification_spec import verify_spec
from tilec.verify.solver import BUDGET, prove


def test_every_query_is_bounded_by_steps_and_none_by_time(monkeypatch):
    """A causal kernel with the heavy-first raster (the costliest query of the examples, an
    unbounded proof that once had a 10 s wall-clock limit and fell back to a bounded domain
    under load) and a GEMM: no solver sets a timeout, and every check runs under an rlimit."""
    settings, checks = [], []
    real_set, real_check = z3.Solver.set, z3.Solver.check

    def record_set(self, *args, **kwargs):
        settings.append((id(self), args[0] if args else next(iter(kwargs))))
        return real_set(self, *args, **kwargs)

    def record_check(self, *args):
        checks.append(id(self))
        return real_check(self, *args)

    monkeypatch.setattr(z3.Solver, "set", record_set)
    monkeypatch.setattr(z3.Solver, "check", record_check)
    report = verify_spec(str(EXAMPLES / "causal_attention.ta"), "bm=64 bn=64 stages=2 consumers=1 heavy-first=true",
                         shapes={"B": 2, "H": 3, "S": 200, "D": 64}, targets=())
    report.results += verify_spec(str(EXAMPLES / "gemm.ta"), "bm=64 bn=64 bk=32", targets=()).results
    assert report.status() == 0, report.as_text(proved=False)
    assert any("launch raster" in r.check and r.domain == "all grid sizes" for r in report.results)
    assert checks and not [key for _, key in settings if key != "rlimit"]
    bounded = {solver for solver, key in settings if key == "rlimit"}
    assert set(checks) <= bounded, "a solver checked without a resource limit"


def test_a_query_past_its_budget_is_unknown_the_same_way_every_time():
    x, y, z = z3.Ints("x y z")
    fermat = z3.Implies(z3.And(x > 0, y > 0, z > 0), x ** 3 + y ** 3 != z ** 3)
    first, second = prove(fermat, budget=200_000), prove(fermat, budget=200_000)
    assert first.verdict == second.verdict == "unknown"
    assert first.detail == second.detail and "resource limit of 200,000 steps" in first.detail
    assert prove(x + y == y + x, budget=BUDGET).verdict == "proved"
