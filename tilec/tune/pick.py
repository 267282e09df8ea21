"""The schedule an untuned ``tilec compile`` takes: the cost model's best that compiles
without spilling.

With no --schedule and no proved tuning record, a package is built at the first of the
model's ranked candidates (space.py, at the sizes given, a parameter's default for the
others) whose CUDA ptxas compiles for every target with no spilled register, trying at most
``ATTEMPTS``. A spec whose candidates all spill keeps the default schedule. The choice is
cached beside the package cache, by the spec's text, the sizes, the targets, the compiler and
the tilec version, so a second compile does not rank again.
"""

from __future__ import annotations

import hashlib
import json

from torch_mlir import ir

from tilec import dialects
from tilec.build_id import build_id
from tilec.diagnostics import TilecError

ATTEMPTS = 6


def pick_schedule(spec: str, text: str, shapes: dict, targets: tuple, compiler: str = "nvrtc",
                  use_cache: bool = True) -> str | None:
    """The schedule (Schedule.as_text) to build ``spec`` with, or None for the default."""
    from tilec.codegen.compile import compile_cuda
    from tilec.codegen.cuda import emit_cuda
    from tilec.driver import kernel_form
    from tilec.frontend import load_spec
    from tilec.package import cache_dir

    from .gpus import gpu_named
    from .space import TUNE_SPACE, rank

    key = hashlib.sha256("\0".join([text, json.dumps(shapes, sort_keys=True), ",".join(targets), compiler,
                                    build_id()]).encode()).hexdigest()
    cached = cache_dir().parent / "picks" / f"{key}.json"
    if use_cache and cached.is_file():
        return json.loads(cached.read_text())["schedule"]
    # a package for sm_80 too needs a kernel every target runs: the sm_80 form
    target = "sm_90a" if tuple(targets) == ("sm_90a",) else "sm_80"
    chosen = None
    with dialects.context(), ir.Location.unknown():
        module = load_spec(spec)
        if kernel_form(module) in TUNE_SPACE:
            legal, _ = rank(module, shapes, target, gpu_named("h200"))
            for candidate in legal[:ATTEMPTS]:
                kernel = emit_cuda(candidate.build.tile)
                try:
                    facts = [compile_cuda(kernel.source, kernel.name, t, compiler)[1] for t in targets]
                except TilecError:
                    continue
                if all(f.spill_stores == 0 for f in facts):
                    chosen = candidate.schedule
                    break
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps({"schedule": chosen}))
    return chosen
