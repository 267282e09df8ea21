"""The one schedule every command builds a spec with, and the cost model's untuned pick.

``resolve_schedule`` is asked by ``tilec compile`` (packages, ``--emit``, ``--out-dir``),
``tilec run --stage tile``, ``tilec verify`` and ``tilec layout`` alike, so the kernel a
command prints, runs or proves is the one a package of the same spec, sizes and targets
ships. In order: the user's ``--schedule``; else, for one target, the fastest proved record
of the tuning database (tilec tune); else ``pick_schedule``; else the kernel form's own default.

``pick_schedule``: for a spec with a size left free (its kernel runs at every value of it),
the first of the target's "any-size" schedules (``Schedule.any_size``: sm_90a's
warp-specialised kernels that measured best) that lowers and compiles for every target with
no spilled register; else, or with every size given, the first of the model's ranked
candidates (space.py, at the sizes given, a parameter's default for the others) that does,
trying at most ``ATTEMPTS``. The choice is cached by the spec's text, the sizes, the targets,
the compiler and the tilec build id (the ``picks/`` cache, tilec/cache.py), so a second
command does not choose again; an entry that fails its seal or is not the JSON
written is discarded with a warning and chosen again.

    pick = resolve_schedule("gemm.ta", text, {"M": 4096, "N": 4096, "K": 4096}, ("sm_90a",))
    pick.schedule, pick.how     # 'bm=128,bn=256,...', "the cost model's best that ..."
    resolve_schedule("gemm.ta", text, {}, ("sm_90a",)).how   # "the target's best form, ..."
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from torch_mlir import ir

from tilec import cache, dialects
from tilec.build_id import build_id
from tilec.diagnostics import TilecError
from tilec.codegen.compile import compile_cuda
from tilec.codegen.cuda import emit_cuda
from tilec.dialects.schedule import GRIDS, Schedule
from tilec.dialects.target import common
from tilec.frontend import load_spec
from tilec.lowering.driver import build_tiles, kernel_form, parse_schedule
from .db import tuned
from .gpus import gpu_named
from .space import copy_engine_refusal, default_sizes, parameters, rank

ATTEMPTS = 6


@dataclass(frozen=True)
class Pick:
    """A resolved schedule: ``schedule`` (Schedule.as_text, or '' for the form's default) and
    ``how`` it was chosen, as a command says it."""

    schedule: str
    how: str

    def line(self, spec: str) -> str:
        return f"{spec}: schedule {self.schedule or 'default'}: {self.how}"


def resolve_schedule(spec: str, text: str, shapes: dict, targets: tuple, given: str = "",
                     compiler: str = "nvrtc", use_cache: bool = True) -> Pick:
    """The schedule to build ``spec`` (source ``text``) at ``shapes`` for ``targets`` with:
    ``given`` (the user's --schedule), else the tuning database's record for a single target,
    else the cost model's pick, else the form's default."""
    if given:
        return Pick(given, "given with --schedule")
    if len(targets) == 1:
        best = tuned(text, shapes, targets[0])
        if best is not None:
            return Pick(best["schedule"], f"from the tuning database ({best['median_ms']:.4f} ms on {best['gpu']})")
    chosen, why = _choice(spec, text, shapes, targets, compiler, use_cache)
    if chosen:
        return Pick(chosen, why)
    return Pick("", f"the kernel form's default ({why})")


def pick_schedule(spec: str, text: str, shapes: dict, targets: tuple, compiler: str = "nvrtc",
                  use_cache: bool = True) -> str | None:
    """The schedule (Schedule.as_text) to build ``spec`` with, or None for the default."""
    return _choice(spec, text, shapes, targets, compiler, use_cache)[0]


def _choice(spec: str, text: str, shapes: dict, targets: tuple, compiler: str, use_cache: bool) -> tuple:
    """(the pick or None, how it was chosen or why there is none), from the cache when it holds them."""
    key = hashlib.sha256("\0".join([text, json.dumps(shapes, sort_keys=True), ",".join(targets), compiler,
                                    build_id()]).encode()).hexdigest()
    if use_cache:
        found = _read_pick(key)
        if found is not None:
            return found
    chosen, why = _rank_and_compile(spec, shapes, targets, compiler)
    # a cache that cannot be written costs a re-ranking next time, nothing more
    cache.write("picks", f"{key}.json", key, json.dumps({"schedule": chosen, "why": why}).encode())
    return chosen, why


def _read_pick(key: str) -> tuple | None:
    """The cached (pick, why) of ``key``, or None when there is no usable entry: none, one
    that fails its seal, or not the JSON written (discarded)."""
    name = f"{key}.json"
    data = cache.read("picks", name, key, "choosing again")
    if data is None:
        return None
    try:
        entry = json.loads(data)
    except ValueError:
        entry = None
    schedule, why = (entry.get("schedule", False), entry.get("why")) if isinstance(entry, dict) else (False, None)
    if not (schedule is None or isinstance(schedule, str)) or not isinstance(why, str):
        return cache.discard("picks", name, "is not a schedule choice", "choosing again")
    return schedule, why


RANKED = "the cost model's best that compiles without spilling (tilec tune measures; --schedule chooses)"
ANY_SIZE = ("the target's best form, a size left free (--shape with every size ranks the schedules at yours; "
            "--schedule chooses)")
# a row program is memory-bound: its own default reads each row once where the types fix the
# row's width (passes/ta_to_tile/rows.py default_schedule); the model's picks measured slower
ROW_DEFAULT = ("a row program's default: the row in one block, read once, where its width is fixed "
               "(--shape), else column blocks (tilec tune measures; --schedule chooses)")
# said with ANY_SIZE when the kernel reads its operands with the copy engine: a call whose rows are
# not whole 16-byte chunks is refused at launch (runtime/launch.py check_maps), naming the same way out
COPY_ENGINE_ROWS = "; its copy engine reads rows of whole 16-byte chunks, --schedule consumers=0 any row"


def _rank_and_compile(spec: str, shapes: dict, targets: tuple, compiler: str) -> tuple:
    """(the schedule, or None; how it was chosen, or why there is none). The schedule: for a spec
    with a size left free (its kernel runs at every value of it) the first of the target's
    any-size schedules that lowers and compiles for every target without spilling, else the
    first of the model's candidates that compiles so."""
    # a package for several targets needs a kernel every one runs: the space of their common target
    target = common(targets).name
    with dialects.context(), ir.Location.unknown():
        module = load_spec(spec)
        try:
            form = kernel_form(module)
        except TilecError:
            return None, "no one kernel takes the spec: each of its kernels takes its own"
        try:
            if set(parameters(module)) - set(shapes):  # a size left free: the kernel runs at every value of it
                points = [p.as_text() for p in Schedule.any_size(form, target)]
                sizes = dict(default_sizes(module), **shapes)  # one the spec's own defaults cannot take is skipped
                chosen = _first_unspilled([(text, b) for text, b in build_tiles(module, shapes, points, target)
                                           if not isinstance(b, TilecError)
                                           and not copy_engine_refusal(b, dict(sizes, **b.fixed), target)],
                                          targets, compiler)
                if chosen is not None:
                    return chosen, ANY_SIZE + (COPY_ENGINE_ROWS if "tma" in parse_schedule(chosen).features() else "")
        except TilecError as err:  # no compiler: no pick
            return None, f"the pick compiles its candidates, and {err.message}"
        if form == "rows":
            return None, ROW_DEFAULT
        if form not in GRIDS["search"]:
            return None, f"the cost model ranks no {form} kernels"
        try:
            legal, _ = rank(module, shapes, target, gpu_named("h200"))
        except TilecError as err:  # the model needs a size no one gave
            return None, f"the cost model cannot rank it: {err.message}"
        if not legal:
            return None, "no point of the cost model's space lowers for it"
        try:
            chosen = _first_unspilled([(c.schedule, c.build) for c in legal[:ATTEMPTS]], targets, compiler)
        except TilecError as err:  # no compiler: no pick
            return None, f"the pick compiles its candidates, and {err.message}"
        if chosen is not None:
            return chosen, RANKED
    return None, f"no legal candidate of the first {ATTEMPTS} compiles for {', '.join(targets)} without spilling"


def _first_unspilled(builds: list, targets: tuple, compiler: str) -> str | None:
    """The schedule of the first of ``builds`` ((schedule, TileBuild) pairs) whose CUDA compiles
    for every one of ``targets`` with no spilled register, or None; a TilecError when the
    compiler is missing."""
    for schedule, build in builds:
        kernel = emit_cuda(build.tile)
        try:
            facts = [compile_cuda(kernel.source, kernel.name, t, compiler)[1] for t in targets]
        except TilecError as err:
            if "not installed" in err.message or "not on the PATH" in err.message:
                raise
            continue
        if all(f.spill_stores == 0 for f in facts):
            return schedule
    return None
