"""Verification reports: JSON (schema ``tilec.verify/1``), JUnit XML and Markdown."""

from __future__ import annotations

import json
import platform
from dataclasses import asdict, dataclass, field
from xml.sax.saxutils import escape, quoteattr

from tilec import __version__
from tilec.dialects.schedule import Schedule

SCHEMA = "tilec.verify/1"
# "tested": a check by running (the shipped CUDA on the CPU model of the GPU), at the sizes its
# domain names; never a proof, never a failure
VERDICTS = ("proved", "tested", "counterexample", "unknown", "error")


@dataclass
class Result:
    """One property of one kernel."""

    kernel: str
    stage: str                     # tile | loop | cuda | package
    property: str                  # equivalence | in-bounds | swizzle | races | coverage | pipeline
    check: str                     # what exactly was checked, e.g. "A tile: bijection"
    verdict: str                   # proved | tested | counterexample | unknown | error
    seconds: float
    domain: str                    # for what the verdict holds
    counterexample: dict = field(default_factory=dict)
    detail: str = ""
    replay: str = ""
    schedule: str = ""             # the schedule of the kernel checked, when a report covers several
    target: str = ""               # the target whose kernel a tile or CUDA row checks (a package holds one per target)


@dataclass
class Report:
    spec: str
    spec_sha256: str
    schedule: str
    results: list = field(default_factory=list)
    space: dict = field(default_factory=dict)  # --schedules all: the form, and each point left out with why

    def counts(self) -> dict:
        out = dict.fromkeys(VERDICTS, 0)
        for r in self.results:
            out[r.verdict] += 1
        return out

    def summary(self) -> str:
        c = self.counts()
        return (f"{c['proved']} proved" + (f" / {c['tested']} tested" if c["tested"] else "")
                + f" / {c['counterexample']} counterexample / {c['unknown']} unknown"
                + (f" / {c['error']} error" if c["error"] else ""))

    def status(self, strict: bool = False) -> int:
        c = self.counts()
        return 1 if c["counterexample"] or c["error"] or (strict and c["unknown"]) else 0

    def as_text(self, proved: bool = True) -> str:
        """The report as ``tilec verify`` prints it: one line per check, details under the
        ones that did not prove, the summary last (without the proved lines: ``proved=False``)."""
        lines = []
        for r in self.results:
            if r.verdict == "proved" and not proved:
                continue
            at = f" @ {r.schedule}" if r.schedule else ""
            stage = f"{r.stage} {r.target}" if r.target else r.stage
            lines.append(f"{r.verdict:>14}  {r.kernel}{at} [{stage}] {r.property}: {r.check}  ({r.seconds:.3f} s)")
            if r.verdict in ("counterexample", "error", "unknown"):
                lines.append(f"                {r.detail} {r.counterexample or ''}".rstrip())
                if r.replay:
                    lines.append(f"                replay: {r.replay}")
        if self.space:
            lines.append(f"schedules: {len(self.space['checked'])} legal points of the {self.space['form']} space "
                         f"checked, {len(self.space['illegal'])} illegal left out (reasons in --json)")
        lines.append(self.summary())
        return "\n".join(lines)

    def as_table(self) -> str:
        """What ``tilec verify --schedules all`` prints by default: the verdicts counted per
        schedule (the rows every schedule shares, the rewrites and the loop IR, first), every
        check that did not prove in full, and the summary (``as_text()`` lists every check)."""
        counts: dict = {}
        for r in self.results:
            key = _short(r.schedule) if r.schedule else "(every schedule: rewrites, loop IR)"
            row = counts.setdefault(key, dict.fromkeys(VERDICTS, 0))
            row[r.verdict] += 1
        width = max([len(k) for k in counts] + [8])
        lines = [f"{'schedule':<{width}}  " + "  ".join(f"{v:>14}" for v in VERDICTS)]
        lines += [f"{k:<{width}}  " + "  ".join(f"{n[v]:>14}" for v in VERDICTS) for k, n in counts.items()]
        failed = self.as_text(proved=False).splitlines()
        return "\n".join(lines + failed)

    def __str__(self) -> str:
        return self.as_text()

    def as_json(self) -> str:
        import z3

        data = {"schema": SCHEMA, "tools": {"tilec": __version__, "z3": z3.get_version_string(),
                                            "python": platform.python_version()},
                "spec": self.spec, "spec_sha256": self.spec_sha256, "schedule": self.schedule,
                "summary": self.counts(), "results": [asdict(r) for r in self.results]}
        if self.space:
            data["space"] = self.space
        return json.dumps(data, indent=2)

    @staticmethod
    def from_json(text: str) -> "Report":
        """The report ``as_json`` wrote (ValueError, KeyError or TypeError for anything else)."""
        data = json.loads(text)
        if data.get("schema") != SCHEMA:
            raise ValueError(f"not a {SCHEMA} report")
        results = [Result(**row) for row in data["results"]]
        return Report(data["spec"], data["spec_sha256"], data["schedule"], results, data.get("space", {}))

    def as_junit(self) -> str:
        c = self.counts()
        cases = []
        for r in self.results:
            name = quoteattr(f"{r.property}: {r.check}")
            body = ""
            if r.verdict in ("counterexample", "error"):
                body = f"<failure message={quoteattr(r.verdict)}>{escape(json.dumps(r.counterexample) + ' ' + r.detail)}</failure>"
            elif r.verdict == "unknown":
                body = f"<skipped message={quoteattr(r.detail or 'unknown')}/>"
            at = f"@{r.schedule}" if r.schedule else ""
            stage = f"{r.target}.{r.stage}" if r.target else r.stage
            cases.append(f'  <testcase classname={quoteattr(r.kernel + at + "." + stage)} name={name} '
                         f'time="{r.seconds:.3f}">{body}</testcase>')
        return (f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name={quoteattr("tilec verify " + self.spec)} '
                f'tests="{len(self.results)}" failures="{c["counterexample"]}" errors="{c["error"]}" '
                f'skipped="{c["unknown"]}">\n' + "\n".join(cases) + "\n</testsuite>\n")

    def as_markdown(self) -> str:
        lines = [f"# tilec verify: {self.spec}", "", f"**{self.summary()}** (schedule `{self.schedule}`)", "",
                 "| kernel | stage | property | check | verdict | time (s) | domain |",
                 "| --- | --- | --- | --- | --- | --- | --- |"]
        for r in self.results:
            lines.append(f"| {r.kernel} | {r.stage}{' ' + r.target if r.target else ''} | {r.property} | {r.check} | {r.verdict} | {r.seconds:.3f} | "
                         f"{r.domain} |")
        for r in self.results:
            if r.verdict == "counterexample":
                lines += ["", f"**Counterexample — {r.property}: {r.check}**: `{json.dumps(r.counterexample)}`",
                          r.detail, f"Replay: `{r.replay}`" if r.replay else ""]
        return "\n".join(lines) + "\n"


def _short(schedule: str) -> str:
    """A schedule as the table shows it: bm, bn and warps, and the options that are not the default."""
    default = {k.replace("_", "-"): str(v).lower() for k, v in Schedule().items().items()}
    parts = [p.strip() for p in schedule.replace(" ", ",").split(",") if p.strip()]
    return ",".join(p for p in parts if p.split("=")[0] in ("bm", "bn", "warps")
                    or default.get(p.split("=")[0]) != p.partition("=")[2])
