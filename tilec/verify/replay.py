"""Replay commands for counterexamples: everything needed to see the failure again.

A tile counterexample names concrete sizes (from the Z3 model); the command gives the
spec, the schedule the kernel was built with (read from the tile function, not assumed)
and every size: the model's, then those fixed when the kernel was built. A wrong value
replays on the tile interpreter against the oracle; a bank conflict, race or pipeline-order
bug does not show in a serial run, so it replays as the proof at those sizes.

    tilec run a.ta --stage tile --schedule bm=64,bn=64,bk=32,warps=4,stages=2,... --shape S=65,T=1,D=64
    tilec verify a.ta --schedule bm=64,... --shape D=96
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from torch_mlir import ir

from tilec.dialects.tile import schedule_of


# properties whose failure shows in the numbers of a serial run of the tile program
OBSERVABLE = {"equivalence", "coverage", "in-bounds"}


@dataclass
class Replay:
    """Builds the replay command of a tile kernel's counterexample."""

    path: str
    schedule: str                      # "bm=64,bn=64,..." as --schedule takes it ("" for the loop stage)
    fixed: dict = field(default_factory=dict)   # sizes bound when the kernel was built
    params: tuple = ()                 # the kernel's symbolic sizes (a model may give them)
    stage: str = "tile"                # "loop": a loop-IR counterexample replays on the loop stage

    @classmethod
    def of(cls, path: str, tiled_fn, fixed: dict | None = None) -> "Replay":
        """The replay of the tile function ``tiled_fn`` built from ``path`` with ``fixed`` sizes."""
        schedule = schedule_of(tiled_fn).as_text()
        params = []
        for attrs in ir.ArrayAttr(tiled_fn.attributes["arg_attrs"]):
            d = ir.DictAttr(attrs)
            if "ta.param" in d:
                params.append(ir.StringAttr(d["ta.param"]).value)
        return cls(path, schedule, dict(fixed or {}), tuple(params))

    @classmethod
    def loop(cls, path: str, ta_fn, fixed: dict | None = None) -> "Replay":
        """The replay of a loop-IR counterexample of ta function ``ta_fn`` (its parameters are
        what a model may size), built from ``path`` with ``fixed`` sizes.

            Replay.loop("a.ta", fn, {"N": 1})(model)  # 'tilec run a.ta --stage loop --shape N=1,M=3'
        """
        params = tuple(n.name for n in ir.DictAttr(ta_fn.attributes["ta.params"])) \
            if "ta.params" in ta_fn.attributes else ()
        return cls(path, "", dict(fixed or {}), params, "loop")

    def __call__(self, model: dict | None = None, prop: str = "equivalence") -> str:
        """The command that shows the failure: the tile interpreter against the oracle for a
        wrong value (equivalence, coverage, in-bounds), the proof again for what a serial
        interpreter cannot show (bank conflicts, races, pipeline order)."""
        shapes = {k: v for k, v in self.fixed.items()}
        for name in self.params:
            value = (model or {}).get(name)
            # a size the kernel was built for is the one it replays at, whatever a model says
            if isinstance(value, int) and value >= 1 and name not in shapes:
                shapes[name] = value
        if self.stage == "loop":
            command = ["tilec", "run", self.path, "--stage", "loop"]
        elif prop in OBSERVABLE:
            command = ["tilec", "run", self.path, "--stage", "tile", "--schedule", self.schedule]
        else:
            command = ["tilec", "verify", self.path, "--schedule", self.schedule]
        if shapes:
            command += ["--shape", ",".join(f"{k}={v}" for k, v in shapes.items())]
        return shlex.join(command)
