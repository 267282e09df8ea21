"""A ta function as its kernels: one when a kernel form takes it whole, else the sequence
``tilec.graph.split`` cuts it into. Run on the CPU (the tile interpreter, kernel after kernel),
verified (the split read back against the function, each kernel against its piece), and
packaged (one .tkp, or a graph package of one .tkp per kernel: tilec/runtime/graph.py).

    kernels = Kernels.of(module)                   # in the active context
    outs = kernels.run(inputs)                     # CPU, tile stage
    kernels.package("block.tkg", "block", ("sm_80", "sm_90a"))  # a kernel per target
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from torch_mlir import ir

from ..graph.boundaries import round_boundaries
from ..diagnostics import TilecError, mlir_loc
from ..lowering.driver import (UNFUSED_REWRITES, build_tile, copy_module, located, lowering_target, rewrite,
                               schedule_targets, specialize)
from ..fileio import replace_atomically
from .packaging import dim_tree, package_build, write_atomically
from ..runtime.graph import strided_copy, write_graph
from ..runtime.package import write_package
from ..signature import signature
from ..graph.split import FunctionView, Piece, result_sources, split_kernels
from ..graph.strided import strided_form
from tilec.passes.ta_to_tile import match_form, TILED
from tilec.passes.ta_to_tile.common import NoTileLowering


def _remap(fn):
    """The ops of a strided piece: copies (strided.copy_of), each reading the one before."""
    return [op for op in fn.entry_block.operations if op.operation.name in ("ta.remap", "ta.map")]


def _strided(fn) -> dict:
    """The strided copy of a piece that is one copying op (as graph.json holds it)."""
    form = strided_form(_remap(fn))
    return {k: form[k] for k in ("size", "stride", "offset", "shape", "dtype")}


_ROUNDING_PASSES = 3  # splits of the rounded function at most: each rounds what the one before stored in f32


def _wide(module: ir.Module, names: list) -> bool:
    """Whether any value ``names`` names (split.FunctionView's names) is f32."""
    view = FunctionView(module.body.operations[0])
    return any(str(ir.RankedTensorType(v.type).element_type) == "f32" for v, n in view.names.items() if n in names)


def _split(module: ir.Module, fused: ir.Module, steps: list):
    """(fused, steps, fuse_each, pieces) of the split of ``module`` (``fused``: its ta after every
    rewrite, ``steps`` theirs); TilecError, located at the group no kernel takes, when it does
    not split."""
    try:
        return fused, steps, False, split_kernels(fused)
    except TilecError:  # fusion made a group no kernel takes (a norm's statistic in a GEMM's
        pass  # reduction): split the unfused function, and let each kernel fuse its own ops
    fused, steps = rewrite(module, UNFUSED_REWRITES)
    return fused, steps, True, split_kernels(fused, fuse_each=True)


def per_target(schedule: str | dict) -> dict:
    """Schedules as Kernels.schedules keys them: one for every target ("bm=128 bn=64") as "*",
    or a dict target -> schedule ("*" for every target) as "sm_90a:*", ..."""
    if isinstance(schedule, str):
        return {"*": schedule} if schedule else {}
    return {(t if t == "*" else f"{t}:*"): s for t, s in schedule.items() if s}


def schedule_text(schedules: dict) -> str:
    """How a report names the schedules it was built with: one (or "default"), or each per target."""
    if set(schedules) <= {"*"}:
        return schedules.get("*", "") or "default"
    return "; ".join(f"{k.removesuffix(':*')}: {v}" for k, v in sorted(schedules.items()))


@dataclass
class Kernels:
    """``module`` (ta) and, when no one kernel takes it, its ``pieces`` (else empty), cut from
    ``fused`` (the ta ``steps`` made of it: all rewrites, or all but reduction fusion; then
    with the tensors between kernels ``rounded``, when asked);
    ``schedules``: the schedules the user gave, per kernel ("k0", ...), per kernel form
    ("contraction", "online", "rows") or for all ("*")."""

    module: ir.Module
    fused: ir.Module
    steps: list
    pieces: list = field(default_factory=list)
    schedules: dict = field(default_factory=dict)
    rounded: tuple = ()  # (dtype, names): the tensors between kernels stored in dtype (tilec.graph.boundaries)
    form: str = ""  # the kernel form of a single kernel ("contraction", "online", "rows", ...)
    target: str | None = None  # what run() and build_all() lower each kernel for (None: build_tile's default)
    whole: TilecError | None = None  # of a split function: why no one kernel form takes it whole
    shapes: dict = field(default_factory=dict)  # of one kernel: the sizes its build fixes (build_tile's)
    builds: dict = field(default_factory=dict, repr=False)  # (piece, schedule, target) -> TileBuild, built once

    @staticmethod
    def of(module: ir.Module, schedules: dict | None = None, boundary: str | None = None,
           target: str | None = None, shapes: dict | None = None) -> "Kernels":
        """The kernels of ``module``, lowered for ``target`` where they run on the CPU; with
        ``boundary`` ("bf16", "f16") the f32 tensors stored between kernels are stored in that
        type (tilec.graph.boundaries), else they stay f32. ``shapes``: sizes to fix (a split is
        cut from the function bound to them; one kernel is built from ``module`` fixing them, so
        its package records them as the sizes it was built for)."""
        if not shapes:
            return Kernels._of(module, schedules, boundary, target)
        bound = copy_module(module)
        specialize(bound, dict(shapes))
        kernels = Kernels._of(bound, schedules, boundary, target)
        if kernels.single:
            kernels.module, kernels.shapes = module, dict(shapes)
        return kernels

    @staticmethod
    def _of(module: ir.Module, schedules: dict | None, boundary: str | None, target: str | None) -> "Kernels":
        fused, steps = rewrite(module)
        schedules = dict(schedules or {})
        try:  # one kernel of a tiled form; else the split (strided copies, merged rows, then pointwise)
            form = match_form(fused.body.operations[0], TILED)[0]
            return Kernels(module, fused, steps, [], schedules, form=form, target=target)
        except NoTileLowering as err:
            whole = located(err)
        try:
            fused, steps, fuse_each, pieces = _split(module, fused, steps)
        except TilecError as refusal:  # no split: one kernel when some form takes the function
            # whole (a pointwise function of more ops than a split takes), else the group no kernel takes
            try:
                form = match_form(fused.body.operations[0])[0]
            except NoTileLowering as err:  # the function's own refusal when its split is itself
                raise (located(err) if getattr(refusal, "whole", False) else refusal) from None
            return Kernels(module, fused, steps, [], schedules, form=form, target=target)
        stored = [n for p in pieces for n in p.outputs if n not in result_sources(fused).values()]
        if boundary is None or not stored:
            return Kernels(module, fused, steps, pieces, schedules, target=target, whole=whole)
        rounded = fused
        for _ in range(_ROUNDING_PASSES):
            rounded = round_boundaries(rounded, stored, boundary)
            # the copies the rounding put around views fold into the index maps that read them
            rounded, more = rewrite(rounded, ["ta-canonicalize", "canonicalize", "cse"])
            steps = steps + more
            # a 16-bit operand can change the split (contractions sharing A take no prologue map
            # on one): a tensor the new split stores in f32 is rounded in turn
            pieces = split_kernels(rounded, fuse_each)
            stored = [n for p in pieces for n in p.outputs if n not in result_sources(rounded).values()]
            if not _wide(rounded, stored):
                break
        return Kernels(module, rounded, steps, pieces, schedules, rounded=(boundary, tuple(stored)), target=target,
                       whole=whole)

    @property
    def single(self) -> bool:
        """Whether the function is one kernel: a tiled form takes it whole, or it does not split."""
        return not self.pieces

    @property
    def count(self) -> int:
        """How many kernels the function is built as (a strided copy between two counts as one)."""
        return len(self.pieces) or 1

    def schedule_of(self, piece: Piece | None, tuned=None, target: str | None = None) -> str:
        """The schedule of a kernel: the user's for it ("k0", "k1", ...), else for its form, else
        for every kernel ("*"), each first as given for ``target`` alone ("sm_90a:k0",
        "sm_90a:*"), else ``tuned(ta text)``'s, else '' (the default). A single kernel
        (``piece`` None) is "k0" of its own form."""
        keys = [f"k{self.pieces.index(piece)}", piece.form] if piece is not None else ["k0", self.form]
        keys = ([f"{target}:{k}" for k in keys + ["*"]] if target else []) + keys + ["*"]
        given = next((self.schedules[k] for k in keys if self.schedules.get(k)), "")
        if given or tuned is None:
            return given
        return tuned(piece.text if piece is not None else str(self.module)) or ""

    def lower(self, module: ir.Module, piece: Piece | None, tuned=None, target: str | None = None):
        """The TileBuild of a kernel (``module``: the function's, or ``piece``'s) at its schedule
        for ``target``, by that target's pipeline (a TilecError when the schedule needs features
        it lacks); ``target`` None: ``self.target`` (None: build_tile's default)."""
        schedule = self.schedule_of(piece, tuned, target)
        target = self.target if target is None else lowering_target(schedule, (target,))
        key = (piece, schedule, target)  # one TileBuild per kernel and target: what is proved is what ships
        if key not in self.builds:
            self.builds[key] = build_tile(module, self.shapes if piece is None else {}, schedule, target)
        return self.builds[key]

    def lower_each(self, module: ir.Module, piece: Piece | None, tuned=None, targets: tuple = ()) -> dict:
        """target -> the TileBuild of a kernel for each of ``targets`` (every target that runs
        its schedule when none are named), each by its own pipeline at its own schedule."""
        return {t: self.lower(module, piece, tuned, t) for t in self._targets(piece, tuned, targets)}

    def _targets(self, piece: Piece | None, tuned, targets: tuple) -> tuple:
        """``targets``, or when none are named every target that runs the kernel's schedule."""
        return tuple(targets) or schedule_targets(self.schedule_of(piece, tuned))

    def run(self, inputs: dict, tuned=None, env: dict | None = None, cuda: bool = False,
            order: str = "lowest-first") -> dict:
        """Every result of the function on CPU tensors, each kernel run by the tile interpreter
        or, ``cuda``, as its emitted CUDA under the CPU model of the GPU (build/cuda_cpu.py), its
        threads in ``order`` (``env``: the sizes of the function's shape parameters)."""
        from ..executors.tile_interpreter import run_tile  # torch: imported by what runs or checks
        from .cuda_cpu import run_cuda

        execute = (lambda build, sig, given, sizes: run_cuda(build, sig, given, sizes, order=order)) if cuda else \
            (lambda build, sig, given, sizes: run_tile(build.tile, sig, given, sizes))
        if self.single:
            build = self.lower(self.module, None, tuned)
            return execute(build, signature(self.module.body.operations[0]), inputs, env or {})
        values = dict(inputs)
        for piece in self.pieces:
            module = piece.kernel_module()
            fn = module.body.operations[0]
            if piece.form == "strided":  # a copy in torch, as the runtime makes it
                src = values[piece.inputs[0]]
                values[piece.outputs[0]] = strided_copy(src, _strided(fn))
                continue
            sig = signature(fn)  # a merged kernel reads and writes row-major views (free reshapes)
            given = {s.name: values[s.name].reshape(s.shape(env or {})) for s in sig.inputs}
            outs = execute(self.lower(module, piece, tuned), sig, given, env or {})
            values.update(outs)
        sig = signature(self.module.body.operations[0])  # a merged kernel's output, back in its own shape
        shapes = {o.name: o.shape(env or {}) for o in sig.outputs}
        return {name: values[source].reshape(shapes[name]) for name, source in result_sources(self.fused).items()}

    def build_all(self, tuned=None) -> None:
        """Lower every kernel (at its schedule) now, so that one no form lowers after all is an
        error here, located at its first op, before anything runs."""
        for piece in self.pieces:
            if piece.form == "strided":
                continue
            try:
                self.lower(piece.kernel_module(), piece, tuned)
            except TilecError as err:
                if err.loc is None:
                    module = ir.Module.parse(piece.text)
                    first = next(op for op in module.body.operations[0].entry_block.operations
                                 if op.operation.name.startswith("ta."))
                    raise TilecError(err.message, mlir_loc(first.location, "<ir>")) from None
                raise

    def verify(self, path: str, targets: tuple = (), tuned=None, shapes: dict | None = None) -> list:
        """The verification rows of every kernel: for a split function, the rewrites of the whole,
        the split read back against it, then each kernel against its piece. Replay commands name
        ``path`` (the spec) and ``shapes`` (the sizes the function was bound to). Each kernel is
        checked on the plan's own build of it (the one ``package`` ships)."""
        from ..verify.kernels import check_rewrites
        from ..verify.split import check_merge, check_split
        from ..verify.strided import check_strided

        if self.single:
            return self._checked(self.module, None, tuned, targets, path, shapes)
        rows = check_rewrites(self.steps) + [check_split(self.fused, self.pieces, self.rounded)]
        for piece in self.pieces:
            module = ir.Module.parse(piece.text)
            if piece.form == "strided":
                rows += check_strided(_remap(module.body.operations[0]), ir.StringAttr(
                    module.body.operations[0].attributes["sym_name"]).value)
                continue
            if piece.merged:
                merged = piece.kernel_module()  # held: its function dies with it
                rows.append(check_merge(module.body.operations[0], merged.body.operations[0]))
                module = merged
            rows += self._checked(module, piece, tuned, targets, path, shapes)
        return rows

    def _checked(self, module: ir.Module, piece: Piece | None, tuned, targets: tuple, path: str, shapes) -> list:
        """check_spec's rows of one kernel (``module``: the function's, or ``piece``'s) on its
        build for each of ``targets`` (every target that runs its schedule when none are named),
        the rows of each build naming its target; a kernel that does not build is the error row,
        and its loop IR is still checked."""
        from .verification import check_builds, check_spec, refused

        try:
            builds = self.lower_each(module, piece, tuned, targets)
        except TilecError as err:
            return [refused(module, self.schedule_of(piece, tuned), None, err)] + \
                check_spec(module, self.schedule_of(piece, tuned), path, stage="loop", given=shapes)
        return check_builds(module, builds, path, given=shapes)

    def package(self, path: str, name: str, targets: tuple = (), compiler: str = "nvrtc", report=None,
                tuned=None, source: tuple | None = None, kernels: dict | None = None) -> dict:
        """Write the package of the function's kernel(s) to ``path``: a .tkp for one kernel, a
        graph package for several; each kernel built for each of ``targets`` (every target that
        runs its schedule when none are named) by that target's pipeline. ``report`` (a passing
        Report) ships inside each kernel's package. One kernel's package names ``source`` (file
        name, text: a spec's; by default its ta IR) and holds ``kernels`` (target -> its emitted
        CUDA, when the caller has it). Returns the manifest (of the one kernel, or the graph's)."""
        if self.single:
            builds = self.lower_each(self.module, None, tuned, targets)
            file, text = source or (f"{name}.ta.mlir", str(self.module))
            manifest, files = package_build(builds, file, text, compiler, kernels)
            if report is not None:
                files["verify.json"] = report.as_json().encode()
            write_atomically(Path(path), manifest, files)
            return manifest
        steps, manifests = [], []
        for k, piece in enumerate(self.pieces):
            if piece.form == "strided":  # no kernel: the runtime copies in torch
                module = ir.Module.parse(piece.text)
                steps.append((_strided(module.body.operations[0]), piece.inputs, piece.outputs))
                continue
            builds = self.lower_each(piece.kernel_module(), piece, tuned, targets)
            manifest, files = package_build(builds, f"{name}_k{k}.ta.mlir", piece.text, compiler)
            if report is not None:
                files["verify.json"] = report.as_json().encode()
            data = io.BytesIO()
            write_package(data, manifest, files)
            steps.append((data.getvalue(), piece.inputs, piece.outputs))
            manifests.append(manifest)
        sig = signature(self.module.body.operations[0])
        inputs = [s.name for s in sig.inputs]
        results = list(result_sources(self.fused).items())
        shapes = [[dim_tree(d) for d in s.dims] for s in sig.outputs]  # symbolic dims evaluated at the call
        dims = [[dim_tree(d) for d in s.dims] for s in sig.inputs]
        replace_atomically(Path(path), lambda tmp: write_graph(tmp, name, inputs, steps, results, shapes, dims))
        return {"packages": manifests, "results": results}
