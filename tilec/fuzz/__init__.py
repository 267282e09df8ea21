"""``tilec fuzz``: random valid specs, each run through the stages and checked against an
independent torch reference; failures are shrunk and saved as reproducers.

    tilec fuzz --count 200 --seed 1 --stages ta,loop,tile     # exit 1 if anything was found
    tilec fuzz --seed 1 --case 17                             # replay one case, verbosely

Modules: model (specs as data, rendered to text), generator + exprs + masks + forms (the random
specs), reference + arith (the torch reference and the language's number rule), runner (one case
through the stages), watchdog (time limit, worker process), shrinker, known (open known bugs),
report (summary and reproducers).
"""

from __future__ import annotations

import time
from pathlib import Path

from .generator import generate
from .known import KNOWN_FEATURES, known_bug
from .model import render
from .report import Tally, save
from .runner import STAGES
from .shrinker import shrink
from .watchdog import Watchdog
from tilec.diagnostics import TilecError

SHRINK_PER_CLASS = 2   # later findings of a class (and known bug) are saved as generated


def parse_stages(text: str) -> tuple[str, ...]:
    """The stages named in ``text``, in pipeline order.  parse_stages("loop,ta") == ("ta", "loop")"""
    names = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in names if s not in STAGES]
    if unknown or not names:
        raise TilecError(f"--stages: '{(unknown or [text])[0]}' is not a stage; choose from {', '.join(STAGES)}")
    return tuple(s for s in STAGES if s in names)


def fuzz_command(args) -> int:
    """Run the fuzzer as ``tilec fuzz`` asks; 1 if there is any finding, else 0.

        fuzz_command(argparse.Namespace(count=20, seed=1, case=None, stages="ta,loop", out="fuzz-out",
                                        timeout=60.0, skip_known=False, no_shrink=False))
    """
    stages = parse_stages(args.stages)
    avoid = KNOWN_FEATURES if args.skip_known else frozenset()
    indices = [args.case] if args.case is not None else range(args.count)
    tally = Tally(stages)
    shrunk: dict[tuple, list] = {}   # (class, known bug) -> stems of the shrunk reproducers
    start = time.monotonic()
    with Watchdog(args.timeout) as dog:
        for index in indices:
            case = generate(args.seed, index, avoid)
            result = dog.run(case, stages)
            if args.case is not None:
                _show(case, result)
            elif index and index % 50 == 0:
                print(f"  ... {index} cases, {len(tally.findings)} findings ({time.monotonic() - start:.0f} s)",
                      flush=True)
            for finding in result["findings"]:
                stem = _keep(finding, case, result, dog, args, stages, shrunk)
                mark = f" [known: {finding['known']}]" if finding["known"] else ""
                print(f"case {index}: {finding['kind']}{mark} -> {Path(args.out) / stem}.ta", flush=True)
            tally.add(case, result)
    print(tally.summary(args.seed, time.monotonic() - start, args.out if tally.findings else None))
    return 1 if tally.findings else 0


def _keep(finding: dict, case, result: dict, dog, args, stages: tuple, shrunk: dict) -> str:
    """Shrink a finding (the first SHRINK_PER_CLASS of its class and known bug) and save it;
    returns the stem of its files. The shrunk spec decides the known-bug mark: it keeps only
    what the failure needs."""
    done = shrunk.setdefault((finding["kind"], finding["known"]), [])
    later = None if args.no_shrink or len(done) < SHRINK_PER_CLASS else done[0]
    small, tries, shown = case, 0, result
    if not args.no_shrink and later is None:
        small, tries, smaller = shrink(case, finding, dog.run)
        shown = smaller or result
        finding["known"] = known_bug(small, finding["stage"])
    oracle_ok = shown["outcomes"].get("ta", {}).get("status") == "pass"
    stem = save(Path(args.out), case, small, finding, stages, args, tries, later, oracle_ok)
    done.append(stem)
    return stem


def _show(case, result) -> None:
    """One case in full: its spec, sizes and every stage's outcome."""
    print(f"case {case.index} of seed {case.seed} ({case.form}), shapes "
          f"{', '.join(f'{k}={v}' for k, v in case.env().items()) or 'none'}:")
    print("  " + render(case.spec).rstrip().replace("\n", "\n  "))
    for stage, outcome in result["outcomes"].items():
        extra = f" {outcome['verdicts']}" if outcome.get("verdicts") else ""
        message = f": {outcome['message'].splitlines()[0]}" if outcome["message"] else ""
        print(f"  {stage}: {outcome['status']}{extra}{message}")


__all__ = ["fuzz_command", "generate", "parse_stages"]
