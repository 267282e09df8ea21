"""The fuzzer's summary table and the reproducers it writes.

    tally = Tally(("ta", "loop")); tally.add(case, result); print(tally.summary(seed=1, seconds=3.2))
    save(Path("fuzz-out"), case, shrunk, finding, stages, args, tries)   # -> "case-0007-loop-mismatch"
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from .model import render

ORDER = ["pass", "mismatch", "crash", "error", "rejected", "n/a", "timeout", "counterexample", "missed", "cuda-build",
         "skipped"]


class Tally:
    """Per-stage outcome counts, verify verdicts and findings of a run.

        tally = Tally(("ta", "loop")); tally.add(case, run_case(case, ("ta", "loop")))
    """

    def __init__(self, stages: tuple):
        self.stages = stages
        self.cases = 0
        self.status = {s: Counter() for s in stages}
        self.verdicts = Counter()
        self.errors = Counter()   # why verify gave an error verdict
        self.findings: list[tuple[int, dict]] = []

    def add(self, case, result: dict) -> None:
        """Count one case's outcomes and keep its findings: tally.add(case, run_case(case))."""
        self.cases += 1
        for stage, outcome in result["outcomes"].items():
            self.status.setdefault(stage, Counter())[outcome["status"]] += 1
            self.verdicts.update(outcome.get("verdicts", {}))
            self.errors.update(re.sub(r"\d+", "#", e) for e in outcome.get("errors", []))
        self.findings += [(case.index, f) for f in result["findings"]]

    def summary(self, seed: int, seconds: float, out: str | None = None) -> str:
        """The table printed at the end of ``tilec fuzz``: print(tally.summary(1, 42.0, "fuzz-out"))."""
        seen = [s for s in ORDER if any(c[s] for c in self.status.values())]
        lines = [f"tilec fuzz: seed {seed}, {self.cases} cases, stages {','.join(self.stages)}, {seconds:.1f} s",
                 "  " + f"{'stage':8}" + "".join(f"{s:>15}" for s in seen)]
        for stage, counts in self.status.items():
            lines.append("  " + f"{stage:8}" + "".join(f"{counts[s]:>15}" for s in seen))
        if self.verdicts:
            lines.append("  verify verdicts: " + ", ".join(f"{n} {v}" for v, n in sorted(self.verdicts.items())))
        for why, n in self.errors.most_common(8):
            lines.append(f"    error x{n}: {why}")
        known = sum(1 for _, f in self.findings if f["known"])
        cases = len({i for i, _ in self.findings})
        lines.append(f"findings: {len(self.findings)} in {cases} cases ({known} of a known bug)")
        classes = Counter((f["kind"], f["known"]) for _, f in self.findings)
        for (kind, known), n in classes.most_common():
            first = min(i for i, f in self.findings if (f["kind"], f["known"]) == (kind, known))
            lines.append(f"  {kind:44} {n:5}  first in case {first}" + (f"  [known: {known}]" if known else ""))
        if out:
            lines.append(f"reproducers in {out}/")
        return "\n".join(lines)


def _shape_flag(env: dict) -> str:
    return f" --shape {','.join(f'{k}={v}' for k, v in env.items())}" if env else ""


def replay_command(path: Path, case, finding: dict, stages: tuple, args, oracle_ok: bool = True) -> tuple[str, str]:
    """(the command that shows the failure of the saved spec, the command that regenerates the case).

    `tilec run` compares a stage with tilec's oracle: where the oracle is wrong too (a ta-stage
    finding), only the fuzzer, with its own reference, shows the failure.

        replay_command(Path("out/c.ta"), case, {"stage": "loop"}, ("ta", "loop"), args)[0]
        == "tilec run out/c.ta --stage loop --shape N=3 --seed 7"
    """
    regenerate = (f"tilec fuzz --seed {case.seed} --case {case.index} --stages {','.join(stages)}"
                  + (" --skip-known" if getattr(args, "skip_known", False) else ""))
    stage = finding["stage"]
    if stage in ("loop", "tile") and oracle_ok:
        return f"tilec run {path} --stage {stage}{_shape_flag(case.env())} --seed {case.data_seed}", regenerate
    if stage == "verify":
        return f"tilec verify {path}{_shape_flag(case.env())}", regenerate
    return regenerate, regenerate


def save(out: Path, case, small, finding: dict, stages: tuple, args, tries: int, shrunk_as: str | None = None,
         oracle_ok: bool = True) -> str:
    """Write ``{stem}.ta`` (the shrunk spec), ``{stem}.json`` and ``{stem}.cmd`` (one replay line)
    under ``out`` (created here, and only here); returns the stem.

        save(Path("fuzz-out"), case, small, finding, ("ta", "loop"), args, 12) == "case-0007-loop-mismatch"
    """
    kind = re.sub(r"[^A-Za-z0-9_.-]+", "-", finding["kind"])
    stem = f"case-{case.index:04d}-{kind}"
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{stem}.ta"
    path.write_text(render(small.spec))
    replay, regenerate = replay_command(path, small, finding, stages, args, oracle_ok)
    record = {
        "seed": case.seed, "case": case.index, "stage": finding["stage"], "class": finding["kind"],
        "message": finding["message"], "known": finding["known"],
        "shapes": small.env(), "data_seed": case.data_seed, "form": case.form,
        "shrink_tries": tries, "shrunk": small is not case,
        "not_shrunk_because": f"its class was shrunk in {shrunk_as}" if shrunk_as else "",
        "replay": replay, "regenerate": regenerate,
        "original_spec": render(case.spec), "original_shapes": case.env(),
    }
    (out / f"{stem}.json").write_text(json.dumps(record, indent=2) + "\n")
    (out / f"{stem}.cmd").write_text(replay + "\n")
    return stem
