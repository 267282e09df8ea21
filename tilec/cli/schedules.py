"""The targets and schedules a command builds with, read from ``--target`` and ``--schedule``.

``--schedule`` may be given more than once: ``bm=128,bn=128`` is the schedule of every target,
``sm_90a:consumers=2,bm=128,bn=256`` that of one target (a package holds a kernel per target,
each from its own pipeline at its own schedule). A target given no schedule gets the one
tilec picks for it (tune/pick.py: the tuning database, else the cost model, else the form's
default), said on stdout:

    tilec compile gemm.ta -o gemm.tkp --target sm_80 --target sm_90a \\
        --schedule sm_90a:consumers=2,bm=128,bn=256,bk=64,warps=8,stages=4
"""

from __future__ import annotations

from ..dialects.target import names as target_names
from ..diagnostics import TilecError

EVERY = "*"  # the key of the schedule given for every target


def merged(shapes: list[dict[str, int]]) -> dict[str, int]:
    """--shape N=64,... given several times, as one dict (a later size wins)."""
    out = {}
    for item in shapes:
        out.update(item)
    return out


def given_schedules(args) -> dict[str, str]:
    """--schedule as {target or "*": ta-to-tile options "bm=128 bn=64 ..."}, each checked here
    so that errors name the flag: an item that is not KEY=VALUE, a key given twice, an unknown
    target, a target given two schedules."""
    from tilec import passes

    given = {}
    for option in args.schedule or []:
        target, colon, text = option.partition(":")
        target, text = (target.strip(), text) if colon else (EVERY, option)
        if target != EVERY and target not in target_names():
            raise TilecError(f"--schedule {option}: '{target}' is not a target ({', '.join(target_names())})")
        if target in given:
            raise TilecError(f"--schedule: {'every target' if target == EVERY else target} is given two schedules "
                             f"({given[target] or 'default'} and {text or 'default'})")
        raw = _items(text)
        if "target" in raw:
            raise TilecError("--schedule: the target is not a schedule option; name it with --target")
        try:
            passes.parse_options(passes.get("ta-to-tile"), raw)
        except ValueError as err:
            raise TilecError(f"--schedule: {err}") from None
        given[target] = " ".join(f"{k}={v}" for k, v in raw.items())
    return given


def _items(text: str) -> dict[str, str]:
    """bm=128,bn=64,... as {key: value}: an item that is not KEY=VALUE, or a key given twice
    (bm=64,bm=128), is an error."""
    raw = {}
    for item in [part.strip() for part in text.split(",") if part.strip()]:
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq:
            raise TilecError(f"--schedule: '{item}' is not KEY=VALUE")
        if key in raw:
            raise TilecError(f"--schedule: '{key}' is given twice ({key}={raw[key]} and {key}={value})")
        raw[key] = value
    return raw


def chosen_targets(args) -> tuple:
    """--target, else every registered target that has the features the schedule given for every
    target uses (Schedule.targets: a warp-specialised one needs the copy engine and wgmma); a
    target given a schedule of its own must be among them."""
    from ..lowering.driver import schedule_targets

    given = given_schedules(args)
    targets = tuple(dict.fromkeys(args.target)) if args.target else schedule_targets(given.get(EVERY, ""))
    unused = [t for t in given if t != EVERY and t not in targets]
    if unused:
        raise TilecError(f"--schedule names {', '.join(unused)}, which is not among the targets built "
                         f"({', '.join(targets)}): add --target {unused[0]}")
    return targets


def resolve_each(args, spec: str, targets: tuple, said: list | None = None) -> dict[str, str]:
    """target -> the schedule ``spec`` is built with for it: the one --schedule gives it (or gives
    every target), else tilec's pick for that target alone (tune/pick.py); a choice tilec made
    is said on stdout (or added to ``said``)."""
    given = given_schedules(args)
    return {t: _pick(args, spec, (t,), given.get(t, given.get(EVERY, "")), said, f" ({t})" if len(targets) > 1 else "")
            for t in targets}


def resolve_one(args, spec: str, targets: tuple, said: list | None = None) -> tuple[str, str]:
    """(schedule, target) of a command that builds one kernel (``--emit tile|cuda``, ``run --stage
    tile``, ``layout``): the schedule --schedule gives (for the one target named, or for every
    target), else tilec's pick for ``targets``; lowered for the target whose kernel every one of
    ``targets`` runs (driver.lowering_target)."""
    from ..lowering.driver import lowering_target

    given = given_schedules(args)
    own = [t for t in given if t != EVERY]
    if own and len(targets) > 1:
        raise TilecError(f"--schedule {own[0]}:... is the schedule of {own[0]}'s kernel in a package or a "
                         f"verification; this command builds one kernel: name its target with --target {own[0]}")
    wanted = given.get(targets[0], given.get(EVERY, "")) if len(targets) == 1 else given.get(EVERY, "")
    schedule = _pick(args, spec, targets, wanted, said)
    return schedule, lowering_target(schedule, targets)


def _pick(args, spec: str, targets: tuple, wanted: str, said: list | None, who: str = "") -> str:
    """``wanted``, else tilec's pick for ``targets`` (said on stdout, or added to ``said``)."""
    from ..frontend import read_spec
    from ..tune.pick import resolve_schedule

    pick = resolve_schedule(spec, read_spec(spec), merged(args.shape), targets, wanted, args.compiler,
                            not args.no_cache)
    if not wanted:  # a schedule the user gave needs no saying
        if said is not None:
            said.append(pick.line(spec + who))
        else:
            print(pick.line(spec + who))
    return pick.schedule
