"""Run one generated case through tilec's stages and judge each against the independent reference.

    result = run_case(generate(1, 7), ("ta", "loop", "tile", "verify"))
    result["outcomes"]["loop"]["status"]   # pass | mismatch | crash | error | rejected | n/a | skipped
    result["findings"]                     # [{"stage", "kind", "message", "known"}]

Stages: ``ta`` is tilec's oracle (tilec.executors.oracle.evaluate); ``loop`` the JIT-run loop IR
(stages.run_stage); ``tile`` the tile interpreter on what driver.to_tile builds at the case's
sizes (a TilecError from the lowering means ta-to-tile does not take this form: "n/a");
``verify`` is tilec.verify.verify_spec on the spec written to a file. A located TilecError
is a rejection, not a finding; any other exception, an unlocated TilecError and a mismatch are
findings, and so are verdicts that contradict the runs (a counterexample for a stage that
matched, a proof of equivalence for one that did not) and CUDA that the emitter writes but
NVRTC rejects (verify compiles for sm_80 and sm_90a, as `tilec verify` does). An ``error``
verdict (the verifier cannot check that kernel) is counted and its reason kept, but is not a
finding.
"""

from __future__ import annotations

import tempfile
import traceback
from pathlib import Path

from .known import known_bug
from .model import Case, render
from .reference import DTYPES, check, reference
from tilec import dialects
from tilec.build.plan import Kernels
from tilec.build.stages import run_stage
from tilec.build.verification_spec import verify_spec
from tilec.diagnostics import TilecError
from tilec.executors.oracle import evaluate
from tilec.executors.tile_interpreter import run_tile
from tilec.frontend import spec_to_ta
from tilec.lowering import driver
from tilec.signature import signature

STAGES = ("ta", "loop", "tile", "verify")
SPEC_FILE = "fuzz_case.ta"   # its stem names the kernel (in CUDA too: not "case", a C++ keyword)


def _finding(case: Case, stage: str, kind: str, message: str) -> dict:
    return {"stage": stage, "kind": kind, "message": message[:2000], "known": known_bug(case, stage)}


def _where(err: BaseException) -> str:
    """"@module.function" of the innermost frame, so that two crashes of one type stay apart."""
    frames = traceback.extract_tb(err.__traceback__)
    return f"@{Path(frames[-1].filename).stem}.{frames[-1].name}" if frames else ""


def _crash(err: BaseException) -> str:
    frames = traceback.extract_tb(err.__traceback__)
    where = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    return f"{type(err).__name__}: {err}{where}"


class _Run:
    """Outcomes and findings of one case, filled stage by stage."""

    def __init__(self, case: Case, expected: dict):
        self.case, self.expected = case, expected
        self.outcomes: dict = {}
        self.findings: list = []

    def record(self, stage: str, status: str, message: str = "", kind: str | None = None) -> None:
        self.outcomes[stage] = {"status": status, "message": message[:2000]}
        if kind:
            self.findings.append(_finding(self.case, stage, kind, message))

    def failed(self, stage: str, err: BaseException) -> None:
        """An exception in ``stage``: a located TilecError rejects the spec, the rest are findings."""
        if isinstance(err, TilecError):
            located = err.loc is not None
            self.record(stage, "rejected" if located else "error", err.format(),
                        None if located else f"{stage}-unlocated-error")
        else:
            self.record(stage, "crash", _crash(err), f"{stage}-crash:{type(err).__name__}{_where(err)}")

    def judge(self, stage: str, actual: dict) -> None:
        """Compare every output of a stage with the reference."""
        for out in self.case.spec.outputs:
            if out.name not in actual:
                self.record(stage, "crash", f"no output '{out.name}'", f"{stage}-crash:missing-output")
                return
            result = check(actual[out.name], self.expected[out.name], DTYPES[out.dtype])
            if not result.ok:
                self.record(stage, "mismatch", f"{out.name}: {result}", f"{stage}-mismatch")
                return
        self.record(stage, "pass")

    def stage(self, stage: str, thunk) -> None:
        try:
            actual = thunk()
        except Exception as err:  # a stage may fail any way: that is what is being looked for
            self.failed(stage, err)
            return
        self.judge(stage, actual)


def warm() -> None:
    """Import what the stages use (torch, MLIR, the passes), so that a first case is not slower:
    the watchdog's worker calls warm() before it takes its first case."""
    from tilec import dialects, passes, verify  # noqa: F401
    from tilec.executors import loop_runner, oracle, tile_interpreter  # noqa: F401
    from tilec.lowering import driver  # noqa: F401


def run_case(case: Case, stages=STAGES, progress=lambda stage, done: None) -> dict:
    """Run ``case`` through ``stages``; ``progress(stage, outcomes so far)`` is called as each one
    starts (the watchdog names the stage that hung). The result is plain data (it crosses processes)."""
    from torch_mlir import ir

    progress("reference", {})
    inputs, expected = reference(case)
    run = _Run(case, expected)
    env = case.env()
    text = render(case.spec)
    with dialects.context(), ir.Location.unknown():
        progress("ta", run.outcomes)
        try:
            module = spec_to_ta(text, SPEC_FILE)
            fn = module.body.operations[0]
            sig = signature(fn)
        except Exception as err:
            run.failed("ta", err)
            for stage in stages:
                run.outcomes.setdefault(stage, {"status": "skipped", "message": "the spec did not lower to ta"})
            return {"outcomes": run.outcomes, "findings": run.findings}
        if "ta" in stages:
            run.stage("ta", lambda: evaluate(fn, inputs, env))
        if "loop" in stages:
            progress("loop", run.outcomes)
            run.stage("loop", lambda: run_stage("loop", module, sig, inputs, env))
        if "tile" in stages:
            progress("tile", run.outcomes)
            _tile(run, module, sig, inputs, env)
    if "verify" in stages:
        progress("verify", run.outcomes)
        _verify(run, text, env)
    return {"outcomes": run.outcomes, "findings": run.findings}


def _tile(run: _Run, module, sig, inputs: dict, env: dict) -> None:
    """The tile stage at the case's sizes; a form ta-to-tile does not lower is "n/a"."""
    from torch_mlir import ir

    try:
        fixed = ir.Module.parse(str(module))
        driver.specialize(fixed, env)
        kernels = Kernels.of(fixed)  # one kernel, or the sequence a spec no one kernel takes is split into
        tiled = driver.to_tile(fixed) if kernels.single else None
        if tiled is None:
            kernels.build_all()  # a kernel that does not lower after all makes the spec n/a, like one kernel
    except TilecError as err:
        run.record("tile", "n/a", err.message)
        return
    except Exception as err:
        run.failed("tile", err)
        return
    if tiled is None:
        run.stage("tile", lambda: kernels.run(inputs, env=env))
        return
    run.stage("tile", lambda: run_tile(tiled, sig, inputs, env))


def _cuda_build_failure(r) -> str:
    """The finding class of a ``cuda build`` error row that shows a compiler bug ("" if none):
    emitted CUDA that NVRTC rejects, or an emitter that fails other than with a TilecError (a
    declared limit, such as f32 attention's P·V, is an error row like any other)."""
    if r.stage != "cuda" or r.property != "build" or r.verdict != "error":
        return ""
    if r.detail.startswith("NVRTC failed"):
        return "verify-cuda-build:nvrtc"
    emitter = "the CUDA emitter failed: "
    return "verify-cuda-build:emitter" if r.detail.startswith(emitter) and \
        not r.detail.startswith(emitter + "error:") else ""


def _verify(run: _Run, text: str, env: dict) -> None:
    """tilec verify at the case's sizes (its CUDA emitted and compiled, as `tilec verify` does), and
    its verdicts held against the tile and loop runs."""
    with tempfile.TemporaryDirectory(prefix="tilec-fuzz-") as tmp:
        path = Path(tmp) / SPEC_FILE
        path.write_text(text)
        try:
            # a spec ta-to-tile does not lower has its loop IR checked alone
            checked = "loop" if run.outcomes.get("tile", {}).get("status") == "n/a" else "tile"
            report = verify_spec(str(path), "", dict(env), checked)
        except Exception as err:
            run.failed("verify", err)
            return
    rows = [r for r in report.results if not (r.property == "build" and r.stage == "tile")]
    verdicts = {}
    for r in rows:
        verdicts[r.verdict] = verdicts.get(r.verdict, 0) + 1
    run.outcomes["verify"] = {"status": "pass", "message": "", "verdicts": verdicts}
    for r in rows:
        if _cuda_build_failure(r):
            run.record("verify", "cuda-build", f"{r.check}: {r.detail}", _cuda_build_failure(r))
            break
    for stage in ("tile", "loop"):
        ran = run.outcomes.get(stage, {}).get("status")
        mine = [r for r in rows if r.stage == stage or (stage == "tile" and r.stage == "cuda")]
        refuted = [r for r in mine if r.verdict == "counterexample"]
        if refuted and ran == "pass":   # refuted, yet it ran right: a false alarm or a property the run cannot see
            run.record("verify", "counterexample", f"{refuted[0].check}: {refuted[0].detail}",
                       f"verify-counterexample:{refuted[0].property}")
        proved = [r for r in mine if r.property == "equivalence" and r.verdict == "proved"]
        # verify proves a stage equal to tilec's ta: that is a miss only where the ta itself is right
        oracle_ok = run.outcomes.get("ta", {}).get("status") == "pass"
        if ran == "mismatch" and oracle_ok and proved and not refuted:
            run.record("verify", "missed", f"{stage} mismatches but '{proved[0].check}' is proved",
                       "verify-missed-mismatch")
    # an error row is the verifier saying it cannot check a kernel: recorded, not a finding
    run.outcomes["verify"]["verdicts"] = verdicts
    run.outcomes["verify"]["errors"] = [f"[{r.stage}] {r.check}: {r.detail}"[:300] for r in rows
                                        if r.verdict == "error"]
