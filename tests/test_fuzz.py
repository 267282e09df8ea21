"""tilec fuzz: the generator is reproducible and valid, its reference agrees with the oracle,
fixed-seed cases pass ta and loop, and a deliberately broken stage is found, shrunk and saved."""

import json
import time

import pytest
import torch
from torch_mlir import ir

from tilec import dialects
from tilec.cli import main
from tilec.frontend import spec_to_ta
from tilec.fuzz import generate, known, parse_stages
from tilec.fuzz.known import KNOWN_FEATURES, Known, features
from tilec.fuzz.model import Case, Spec, Stmt, Tensor, free, render, walk
from tilec.fuzz.reference import DTYPES, check, reference
from tilec.fuzz.runner import run_case
from tilec.fuzz.shrinker import shrink, size
from tilec.fuzz.watchdog import Watchdog
from tilec.executors.oracle import evaluate
from tilec.signature import bind, signature

SEED = 11


def _module(case):
    return spec_to_ta(render(case.spec), "case.ta")


def test_generator_is_deterministic_per_seed():
    first = [render(generate(SEED, i).spec) for i in range(25)]
    again = [render(generate(SEED, i).spec) for i in range(25)]
    other = [render(generate(SEED + 1, i).spec) for i in range(25)]
    assert first == again
    assert generate(SEED, 3) == generate(SEED, 3)
    assert sum(a != b for a, b in zip(first, other)) > 20


def _factors(e) -> list:
    return _factors(e[2]) + _factors(e[3]) if e[0] == "bin" and e[1] == "*" else [e]


def _constructs(spec) -> set:
    """The constructs of the fixed bugs that a spec holds (the number rule, rank 0 by name, masks,
    batch dims, scales inside sums, f32 attention outputs of narrow inputs)."""
    from tilec.fuzz.arith import integer_consts, integer_form

    ints, seen = integer_consts(spec.consts), set()
    narrow_q = any(t.name.startswith("Q") and t.dtype != "f32" for t in spec.inputs)
    if narrow_q and any(t.dtype == "f32" and len(t.dims) >= 2 for t in spec.outputs):
        seen.add("f32 output, narrow inputs")
    for stmt in spec.stmts:
        for e in walk(stmt.expr):
            seen |= {"rank-0 by name"} if e[0] == "bare" else set()
            if e[0] == "bin" and e[1] == "/" and e[2][0] in ("num", "const") and e[3][0] == "ix":
                floor = integer_form(e, ints) is not None
                seen.add("floor division of an integer" if floor else "f32 division of a number")
                seen |= {"exponent over an index"} if len(e[2]) == 3 else set()
            if e[0] == "where":
                for c in walk(e[2]):
                    seen |= {"logic in a mask"} if c[0] == "logic" else set()
                    seen |= {"integer const in a mask"} if c[0] == "const" and c[1] in ints else set()
            if e[0] == "red" and e[1] == "sum" and len(_factors(e[3])) > 2:
                if any(not free(f) & set(e[2]) for f in _factors(e[3])):
                    seen.add("scale inside a sum")
                if len(free(e)) >= 4:
                    seen.add("two batch dims")
    return seen


def test_generated_specs_parse_and_cover_the_language():
    seen = set()
    with dialects.context(), ir.Location.unknown():
        for i in range(200):
            case = generate(SEED, i, KNOWN_FEATURES)
            module = _module(case)   # a TilecError here is a generator bug
            assert bind(signature(module.body.operations[0]), dict(case.shapes)) == case.env()
            spec = case.spec
            seen |= _constructs(spec)
            seen |= {f"dtype {t.dtype}" for t in (*spec.inputs, *spec.outputs)}
            seen |= {f"rank {len(t.dims)}" for t in spec.inputs}
            seen |= {"param without default" for _, d in spec.params if d is None}
            seen |= {"const" for _ in spec.consts} | {"let" for s in spec.stmts if s.let}
            seen |= {"size 1" for v in case.env().values() if v == 1}
            seen |= {"size 1" for t in spec.inputs for d in t.dims if d == ("int", 1)}
            for stmt in spec.stmts:
                for e in walk(stmt.expr):
                    seen.add(e[0] if e[0] not in ("call", "red", "bin", "cmp", "logic") else f"{e[0]} {e[1]}")
                    if e[0] == "read" and any(s[0] != "var" for s in e[2]):
                        seen.add("index expression")
                    if e[0] == "read" and any(s[0] == "/" and s[2][0] == "const" for s in e[2]):
                        seen.add("grouped heads")
    wanted = {"dtype f32", "dtype f16", "dtype bf16", "rank 0", "rank 1", "rank 2", "rank 3", "rank 4",
              "param without default", "const", "let", "size 1", "index expression", "grouped heads",
              "where", "neg", "ix", "num", "inf", "const", "bare", "bin +", "bin -", "bin *", "bin /",
              "cmp <", "cmp <=", "cmp >", "cmp >=", "cmp ==", "cmp !=", "logic and", "logic or",
              *(f"call {f}" for f in ("exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "abs", "erf",
                                      "max", "min", "select")),
              *(f"red {r}" for r in ("sum", "max", "min", "softmax", "logsumexp")),
              "rank-0 by name", "floor division of an integer", "f32 division of a number",
              "exponent over an index", "logic in a mask", "integer const in a mask", "scale inside a sum",
              "two batch dims", "f32 output, narrow inputs"}
    assert wanted - seen == set()


def test_fully_masked_rows_are_generated_and_nan_in_every_stage():
    """Specs whose softmax empties a row are kept (NaN in float64 and float32 alike), and every
    stage gives NaN there, as the reference does."""
    nan_cases = [c for c in (generate(SEED, i) for i in range(120)) if any(
        v.isnan().any() for v in reference(c)[1].values())]
    assert len(nan_cases) >= 2
    x = Tensor("X", (("param", "N"), ("param", "N")), "f32")
    strict = ("cmp", "<", ("ix", ("var", "j")), ("ix", ("var", "i")))   # row 0 keeps no column
    body = ("red", "softmax", ("j",), ("where", ("read", "X", (("var", "i"), ("var", "j"))), strict, ("inf", -1)))
    spec = Spec((("N", 5),), (), (x,), (Tensor("Y", x.dims, "bf16"),), (Stmt("Y", ("i", "j"), body),))
    case = Case(0, 0, spec)
    assert reference(case)[1]["Y"][0].isnan().all() and not reference(case)[1]["Y"][1:].isnan().any()
    for c in [case, *nan_cases[:2]]:
        result = run_case(c, ("ta", "loop", "tile"))
        assert result["findings"] == [], render(c.spec)


def test_reference_agrees_with_the_oracle():
    with dialects.context(), ir.Location.unknown():
        for i in range(30):
            case = generate(SEED, i, KNOWN_FEATURES)
            inputs, expected = reference(case)
            module = _module(case)   # keep the module alive while its function is used
            outputs = evaluate(module.body.operations[0], inputs, case.env())
            for out in case.spec.outputs:
                result = check(outputs[out.name], expected[out.name], DTYPES[out.dtype])
                assert result.ok, f"case {i} {out.name}: {result}\n{render(case.spec)}"


def test_reference_is_its_own_computation():
    """A hand-written case against numbers worked out here, bf16 rounding included."""
    x = Tensor("X", (("param", "N"),), "f32")
    spec = Spec((("N", 4),), (), (x,), (Tensor("Y", (("int", 1),), "bf16"),),
                (Stmt("Y", ("i",), ("red", "sum", ("k",), ("bin", "*", ("read", "X", (("var", "k"),)),
                                                           ("ix", ("var", "k"))))),))
    case = Case(0, 0, spec)
    inputs, expected = reference(case)
    want = (inputs["X"].double() * torch.arange(4)).sum()
    assert torch.allclose(expected["Y"], want.reshape(1))
    assert check(want.reshape(1).to(torch.bfloat16), expected["Y"], torch.bfloat16).ok
    assert not check((want + 0.5).reshape(1).to(torch.bfloat16), expected["Y"], torch.bfloat16).ok


def test_fixed_seed_cases_pass_ta_and_loop():
    unknown = []
    for i in range(36):
        case = generate(SEED, i)
        result = run_case(case, ("ta", "loop"))
        assert set(result["outcomes"]) == {"ta", "loop"}
        unknown += [(i, f["kind"], f["message"]) for f in result["findings"] if not f["known"]]
    assert unknown == []


def test_reference_follows_the_number_rule():
    """An integer literal or const over a parameter or index is floor division; a number with a
    point or an exponent divides in f32. Numbers worked out here, and tilec's oracle agrees."""
    n, i = ("param", "N"), ("var", "i")
    x = ("read", "X", ((i),))
    over_n = lambda number: ("bin", "*", x, ("bin", "/", number, ("ix", n)))
    bodies = {"Y1": over_n(("num", 1)), "Y2": over_n(("num", 1.0)), "Y3": over_n(("num", 2.0, "2e0")),
              "Y4": over_n(("const", "C")), "Y5": over_n(("const", "F")),
              "Y6": ("bin", "+", x, ("bin", "/", ("ix", ("-", i, ("int", 3))), ("num", 2))),
              "Y7": ("bin", "+", x, ("bin", "/", ("ix", ("-", i, ("int", 3))), ("num", 2.0)))}
    out = lambda name: Tensor(name, (n,), "f32")
    spec = Spec((("N", 4),), (("C", ("num", 6)), ("F", ("num", 6.0))), (Tensor("X", (n,), "f32"),),
                tuple(out(k) for k in bodies), tuple(Stmt(k, ("i",), e) for k, e in bodies.items()))
    text = render(spec)
    assert "X[i] * (1 / N)" in text and "X[i] * (2e0 / N)" in text and "const C = 6\nconst F = 6.0" in text
    case = Case(0, 0, spec)
    inputs, got = reference(case)
    xs, ix = inputs["X"].double(), torch.arange(4, dtype=torch.float64)
    want = {"Y1": xs * 0, "Y2": xs / 4, "Y3": xs / 2, "Y4": xs * 1, "Y5": xs * 1.5,
            "Y6": xs + torch.floor((ix - 3) / 2), "Y7": xs + (ix - 3) / 2}
    for name, value in want.items():
        assert torch.allclose(got[name], value), name
    with dialects.context(), ir.Location.unknown():
        module = _module(case)
        oracle = evaluate(module.body.operations[0], inputs, case.env())
    for name in want:
        assert check(oracle[name], got[name], torch.float32).ok, name


def test_skip_known_draws_specs_without_a_known_feature(monkeypatch):
    """A known bug's feature keeps cases out under --skip-known (a stand-in bug: rank 0 by name);
    the table holds no fixed bug."""
    assert not {"int-over-index", "rank0-bare", "two-batch-dims", "mixed-dtypes", "mask-int-const",
                "mask-logic"} & KNOWN_FEATURES
    bare = lambda case: any(e[0] == "bare" for s in case.spec.stmts for e in walk(s.expr))
    monkeypatch.setattr(known, "KNOWN", [Known("bare", bare, frozenset({"ta"}), "a stand-in")])
    plain = [generate(SEED, i) for i in range(80)]
    assert any(bare(c) for c in plain)
    assert known.known_bug(next(c for c in plain if bare(c)), "ta") == "a stand-in"
    assert not any(bare(generate(SEED, i, frozenset({"bare"}))) for i in range(80))


def _attention(extra: bool, head_dim: int, out: str = "f32", seq: int = 16, data_seed: int = 0) -> Case:
    dims = lambda *names: tuple(("param", n) for n in names)
    q, k, v = (Tensor(n, dims("S", "D"), "bf16") for n in "QKV")
    scores = ("red", "sum", ("e",), ("bin", "*", ("read", "Q", (("var", "i"), ("var", "e"))),
                                      ("read", "K", (("var", "j"), ("var", "e")))))
    attention = Stmt("O", ("i", "d"), ("red", "sum", ("j",), ("bin", "*", ("red", "softmax", ("j",), scores),
                                                                ("read", "V", (("var", "j"), ("var", "d"))))))
    outputs, stmts = (Tensor("O", dims("S", "D"), out),), (attention,)
    if extra:
        outputs, stmts = (*outputs, Tensor("Y", (("int", 1),), "f32")), (*stmts, Stmt("Y", ("i",), ("num", 0.5)))
    return Case(0, 0, Spec((("S", seq), ("D", 64)), (), (q, k, v), outputs, stmts), (("D", head_dim),), data_seed)


def test_fixed_attention_bugs_are_plain_cases():
    """Attention beside a second output (once left unwritten by the tile kernel) and a head dim of 8
    (once CUDA that did not compile): no finding, nothing marked known (ta-to-tile declines both
    now; a kernel that took them would have to compute them right)."""
    for case in (_attention(True, 16), _attention(False, 8)):
        assert features(case) == set()
        result = run_case(case, ("ta", "loop", "tile"))
        assert result["findings"] == [] and result["outcomes"]["tile"]["status"] in ("n/a", "pass"), result


def test_bf16_attention_into_f16_matches():
    """Once a known bug (P's bf16 rounding reached an f16 output): now a plain passing case."""
    assert features(_attention(False, 16, "f16")) == set()
    result = run_case(_attention(False, 16, "f16", seq=64, data_seed=1), ("ta", "tile"))
    assert result["findings"] == [] and result["outcomes"]["tile"]["status"] == "pass", result

def test_cuda_that_nvrtc_rejects_is_a_finding():
    from tilec.fuzz.runner import _cuda_build_failure
    from tilec.verify.report import Result

    row = lambda detail: Result("k", "cuda", "build", "the CUDA source compiles for sm_80 (nvrtc)", "error", 0.0,
                                "", detail=detail)
    assert _cuda_build_failure(row("NVRTC failed to compile k for sm_80: | error: ...")) == "verify-cuda-build:nvrtc"
    assert _cuda_build_failure(row("the CUDA emitter failed: 'Frag' object has no attribute 'transpose'"))
    assert _cuda_build_failure(row("the CUDA emitter failed: error: tile.mma: f32 operands ... no CUDA lowering")) == ""


def test_a_bank_conflict_of_rows_that_are_no_power_of_two_is_a_finding(monkeypatch):
    """Tiles of 96-element rows are swizzled conflict-free (dialects/layout.py): a counterexample
    for one, on a kernel that ran right, is no longer excused but a finding."""
    from types import SimpleNamespace

    import tilec.fuzz.runner
    from tilec.fuzz import runner
    from tilec.verify.report import Result

    row = Result("k", "tile", "swizzle", "K tile 64x96: ldmatrix phases are free of bank conflicts",
                 "counterexample", 0.0, "")
    monkeypatch.setattr(tilec.fuzz.runner, "verify_spec", lambda *args: SimpleNamespace(results=[row]))
    run = runner._Run(_attention(False, 16), {})
    run.record("tile", "pass")
    runner._verify(run, "", {})
    assert [f["kind"] for f in run.findings] == ["verify-counterexample:swizzle"], run.findings


def _broken_loop(run_loops):
    """The loop runner with every output perturbed by one."""
    def broken(*args, **kwargs):
        return {name: (t.double() + 1.0).to(t.dtype) for name, t in run_loops(*args, **kwargs).items()}
    return broken


def test_a_broken_stage_is_found_shrunk_and_saved(monkeypatch, tmp_path, capsys):
    import tilec.build.stages

    monkeypatch.setattr(tilec.build.stages, "run_loops", _broken_loop(tilec.build.stages.run_loops))
    status = main(["fuzz", "--count", "2", "--seed", str(SEED), "--stages", "ta,loop", "--timeout", "0",
                   "--out", str(tmp_path / "found")])
    out = capsys.readouterr().out
    assert status == 1
    assert "loop-mismatch" in out and "findings: 2 in 2 cases" in out
    records = sorted((tmp_path / "found").glob("*.json"))
    assert [r.name for r in records] == ["case-0000-loop-mismatch.json", "case-0001-loop-mismatch.json"]
    record = json.loads(records[0].read_text())
    assert record["stage"] == "loop" and record["class"] == "loop-mismatch" and record["seed"] == SEED
    assert record["shrunk"] and record["shrink_tries"] > 0
    assert record["replay"].startswith("tilec run ") and "--stage loop" in record["replay"]
    assert (tmp_path / "found" / "case-0000-loop-mismatch.cmd").read_text().strip() == record["replay"]
    small = (tmp_path / "found" / "case-0000-loop-mismatch.ta").read_text()
    assert len(small) < len(record["original_spec"])
    # the saved spec still fails through the CLI's own comparison, and passes once the stage is mended
    replay = record["replay"].split()[1:]
    assert main(replay) == 1
    monkeypatch.undo()
    assert main(replay) == 0


def test_the_shrinker_keeps_the_failure(monkeypatch):
    import tilec.build.stages

    monkeypatch.setattr(tilec.build.stages, "run_loops", _broken_loop(tilec.build.stages.run_loops))
    case = next(c for c in (generate(SEED, i, KNOWN_FEATURES) for i in range(40)) if len(c.spec.stmts) > 1)
    finding = next(f for f in run_case(case, ("loop",))["findings"] if f["kind"] == "loop-mismatch")
    small, tries, result = shrink(case, finding, run_case, budget_s=40)
    assert size(small) < size(case) and tries > 0
    assert len(small.spec.stmts) == 1 and all(v <= 2 for v in small.env().values())
    assert any(f["kind"] == "loop-mismatch" for f in run_case(small, ("loop",))["findings"])


def sleepy_case(case, stages, progress):
    """A stage that never finishes (for the watchdog test; runs in the worker process)."""
    progress("loop", {"ta": {"status": "pass", "message": ""}})
    time.sleep(120)


def busy_case(case, stages, progress):
    """A stage that computes for ever (runs in the worker process)."""
    progress("loop", {"ta": {"status": "pass", "message": ""}})
    while True:
        sum(range(10000))


def slow_case(case, stages, progress):
    """A stage that waits 4 s of wall time, using no CPU, then passes: a loaded machine's slow case."""
    progress("loop", {"ta": {"status": "pass", "message": ""}})
    time.sleep(4)
    return {"outcomes": {s: {"status": "pass", "message": ""} for s in stages}, "findings": []}


def test_a_hang_is_a_finding():
    """A case that waits without computing is a hang after the wall-clock guard."""
    with Watchdog(timeout=1.5, execute=sleepy_case, wall=3) as dog:
        start = time.monotonic()
        result = dog.run(generate(SEED, 0), ("ta", "loop"))
        assert time.monotonic() - start < 30
    assert [f["kind"] for f in result["findings"]] == ["loop-hang"]
    assert result["outcomes"]["ta"]["status"] == "pass" and result["outcomes"]["loop"]["status"] == "timeout"
    assert "waiting, not computing" in result["findings"][0]["message"]


def test_the_limit_is_cpu_time_so_a_slow_case_on_a_loaded_machine_is_not_a_hang():
    """The limit is the worker's CPU time: a case that takes longer than the limit in wall time
    while using little CPU (other jobs on the cores) passes; one that computes past it is a hang."""
    with Watchdog(timeout=1.5, execute=slow_case) as dog:
        result = dog.run(generate(SEED, 0), ("ta", "loop"))
    assert result["findings"] == [] and result["outcomes"]["loop"]["status"] == "pass"
    with Watchdog(timeout=1.5, execute=busy_case) as dog:
        result = dog.run(generate(SEED, 0), ("ta", "loop"))
    assert [f["kind"] for f in result["findings"]] == ["loop-hang"]
    assert "s of CPU time (the limit is 1.5 s)" in result["findings"][0]["message"]


def test_stages_are_checked():
    from tilec.diagnostics import TilecError

    assert parse_stages("verify,ta") == ("ta", "verify")
    with pytest.raises(TilecError, match="'tiles' is not a stage"):
        parse_stages("ta,tiles")
