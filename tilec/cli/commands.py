"""The work behind each ``tilec`` subcommand (the options: tilec/cli/__init__.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..dialects.target import DEFAULT, names as target_names
from ..diagnostics import (MAX_PACKAGE_BYTES, TilecError, check_name_lengths, check_output, read_input,
                          read_input_bytes)
from .schedules import chosen_targets, merged as _merged, resolve_each, resolve_one


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers never see a partial file (a character
    device such as /dev/null is written through, never replaced)."""
    from ..fileio import replace_atomically

    path = Path(path)
    try:
        if path.exists() and not path.is_file() and not path.is_dir():
            with open(path, "w") as handle:
                handle.write(text)
            return
        replace_atomically(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
    except OSError as err:
        raise TilecError(f"cannot write '{path}': {err.strerror}") from None


def _check_specs(specs) -> None:
    """Refuse, before any work, a spec that cannot be read: missing, not a regular file
    (a FIFO, /dev/urandom), too large, not UTF-8."""
    from ..frontend import read_spec

    for spec in specs:
        read_spec(spec)


def _lower(spec: str, shapes: dict[str, int]):
    """The ta module of a spec, with shapes bound when given (inside a context)."""
    from ..lowering.driver import specialize
    from ..frontend import load_spec

    module = load_spec(spec)
    specialize(module, shapes)
    return module


def compile_command(args) -> int:
    from torch_mlir import ir

    from tilec import dialects

    if args.output and len(args.specs) > 1:
        raise TilecError("-o names one output file; use --out-dir for several specs")
    _check_specs(args.specs)
    if args.output is not None:
        check_output(args.output, "-o")
    if args.out_dir is not None:
        check_output(args.out_dir, "--out-dir", directory=True)
        for spec in args.specs:  # the longest name written for each (a name the system refuses, refused now)
            check_name_lengths(str(_stage_path(args.out_dir, spec, "tile")), "--out-dir")
    if args.output and args.output.endswith(".tkg"):
        return _graph_package(args)
    if args.output and args.output.endswith(".tkp"):
        from ..build.package import build

        targets = chosen_targets(args)
        schedules = resolve_each(args, args.specs[0], targets)
        manifest = build(args.specs[0], args.output, schedules, targets, args.compiler,
                         not args.no_cache, verify=not args.no_verify, shapes=_merged(args.shape),
                         on_report=_print_verdicts)
        where = f" (from the cache: {manifest['cached']})" if "cached" in manifest else ""
        print(f"{args.specs[0]}: package -> {args.output}{where}")
        for target, kernel in manifest["kernels"].items():
            facts = kernel["ptxas"]
            print(f"  {target}: {facts['registers']} registers, {facts['spill_stores']} bytes spilled, "
                  f"{kernel['smem_bytes']} bytes shared memory, {kernel['threads']} threads, "
                  f"{kernel['schedule'] or 'default'}"
                  + (" (ptxas serialised the wgmmas: C7514)" if facts.get("wgmma_serialized") else ""))
        return 0
    shapes = _merged(args.shape)
    tiled = args.out_dir or args.emit in ("tile", "cuda")
    if tiled and not args.out_dir and len(dict.fromkeys(args.target or ())) > 1:
        return _emit_each(args, shapes)
    for spec in args.specs:
        said = []  # the schedule's line, said once the stages are built (an error stands alone)
        targets = chosen_targets(args)
        schedule, target = resolve_one(args, spec, targets, said) if tiled else ("", DEFAULT)
        with dialects.context(), ir.Location.unknown():
            wanted = STAGES if args.out_dir else (args.emit,)
            stages = _stages(_lower(spec, shapes), wanted, schedule, every=bool(args.out_dir), target=target)
        for line in said:  # what --emit prints goes to stdout: the schedule's line to stderr then
            print(line, file=sys.stdout if args.out_dir or args.output else sys.stderr)
        if args.out_dir:
            skipped = stages.pop("skipped", None)
            for stage, text in stages.items():
                path = _stage_path(args.out_dir, spec, stage)
                write_atomically(path, text)
                print(f"{spec}: {stage} -> {path}")
            if skipped:
                print(f"{spec}: tile, cuda -> not written: {skipped}")
        elif args.output:
            write_atomically(args.output, stages[args.emit])
        else:
            sys.stdout.write(stages[args.emit])
    return 0


def _stage_path(out_dir: str, spec: str, stage: str) -> Path:
    """Where --out-dir writes a stage of a spec: DIR/gemm.loop.mlir, DIR/gemm.cuda.cu."""
    return Path(out_dir) / f"{Path(spec).stem}.{stage}.{'cu' if stage == 'cuda' else 'mlir'}"


def _graph_package(args) -> int:
    """``-o NAME.tkg``: the spec's kernels (one, or the sequence tilec.graph.split cuts it into) in a
    graph package; with --verify, the report (the split and every kernel) must pass first."""
    import hashlib

    from torch_mlir import ir

    from tilec import dialects

    from ..build.plan import Kernels, per_target, schedule_text
    from ..verify.report import Report

    spec, targets = args.specs[0], chosen_targets(args)
    schedules = per_target(resolve_each(args, spec, targets))
    with dialects.context(), ir.Location.unknown():
        module = _lower(spec, _merged(args.shape))
        kernels = Kernels.of(module, schedules, None if args.between == "f32" else args.between)
        report = None
        if not args.no_verify:
            report = Report(spec, hashlib.sha256(Path(spec).read_bytes()).hexdigest(), schedule_text(schedules))
            report.results += kernels.verify(spec, targets, shapes=_merged(args.shape))
            _print_verdicts(report)
            if report.status():
                raise TilecError(f"{spec}: verification failed ({report.summary()}); no package written")
        manifest = kernels.package(args.output, Path(spec).stem, targets, args.compiler, report)
    print(f"{spec}: graph package of {len(manifest.get('packages', [manifest]))} kernel(s) -> {args.output}")
    for package in manifest.get("packages", [manifest]):
        for target, kernel in package["kernels"].items():
            facts = kernel["ptxas"]
            print(f"  {kernel['kernel']} {target}: {facts['registers']} registers, "
                  f"{facts['spill_stores']} bytes spilled, {kernel['schedule'] or 'default'}")
    return 0


STAGES = ("ta", "loop", "tile", "cuda")


def _emit_each(args, shapes: dict) -> int:
    """``--emit tile|cuda`` with several ``--target``s: each target's kernel, by its own pipeline
    and schedule (as a package for them holds it), one after another, split as MLIR's tools split
    input (``// -----``: ``tilec translate --split-input-file``, ``tilec opt --split-input-file``)."""
    from torch_mlir import ir

    from tilec import dialects

    targets = chosen_targets(args)
    out = []
    for spec in args.specs:
        said: list = []
        schedules = resolve_each(args, spec, targets, said)
        for target in targets:
            with dialects.context(), ir.Location.unknown():
                text = _stages(_lower(spec, shapes), (args.emit,), schedules[target], target=target)[args.emit]
            out.append(f"// {spec}: the {target} kernel\n{text}")
        for line in said:
            print(line, file=sys.stdout if args.output else sys.stderr)
    text = "\n// -----\n".join(out)
    if args.output:
        write_atomically(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _stages(module, wanted: tuple[str, ...], schedule: str = "", every: bool = False,
            target: str = DEFAULT) -> dict[str, str]:
    """The printed IR of each wanted stage, from the ta module down, the tile module lowered for
    ``target``. With ``every``, a stage that has no lowering for this spec yet is left out, its
    reason under "skipped"."""
    from ..build.plan import Kernels
    from ..codegen.cuda import emit_cuda
    from ..lowering.driver import to_loops

    stages = {"ta": str(module)}
    if "loop" in wanted:
        stages["loop"] = str(to_loops(module))
    if "tile" in wanted or "cuda" in wanted:
        try:  # the plan's one kernel (tilec.build.plan), as a package of the spec holds it
            kernels = Kernels.of(module, {"*": schedule} if schedule else {}, target=target)
            if kernels.count > 1:  # not one kernel: why no form takes it whole; a graph package holds them
                raise TilecError(f"{kernels.whole.message}; '{_name(module)}' is {kernels.count} kernels: a graph "
                                 f"package holds them (tilec compile SPEC -o NAME.tkg; tilec run --stage tile runs "
                                 f"them in turn)", kernels.whole.loc, kernels.whole.source)
            tiled = kernels.lower(module, None).tile
            stages["tile"] = str(tiled)
            if "cuda" in wanted:
                stages["cuda"] = emit_cuda(tiled).source
        except TilecError as err:
            if not every:
                raise
            stages["skipped"] = err.message
    return stages


def _name(module) -> str:
    from torch_mlir import ir

    return ir.StringAttr(module.body.operations[0].attributes["sym_name"]).value


def run_command(args) -> int:
    from torch_mlir import ir

    from tilec import dialects

    from ..executors.compare import checksums, compare
    from ..executors.oracle import evaluate
    from ..signature import bind, check_allocation, random_inputs, signature

    with dialects.context(), ir.Location.unknown():
        module = _lower(args.spec, {})
        sig = signature(module.body.operations[0])
        env = bind(sig, _merged(args.shape))
        if args.stage in ("tile", "cuda"):  # tile programs are compiled for the shapes they run at
            from ..lowering.driver import specialize
            specialize(module, env)
        fn = module.body.operations[0]
        check_allocation(sig, env, stage=args.stage if args.stage != "ta" else None)
        inputs = random_inputs(sig, env, args.seed)
        outputs = evaluate(fn, inputs, env)
        from ..build.stages import run_stage

        targets = chosen_targets(args)
        kernels = args.stage in ("tile", "cuda")
        if kernels and len(dict.fromkeys(args.target or ())) > 1:  # each named target's kernel, by its pipeline
            schedules = resolve_each(args, args.spec, targets)
            staged = {f"{args.stage} {t}": run_stage(args.stage, module, sig, inputs, env, schedules[t], t, args.thread_order)
                      for t in targets}
        else:
            schedule, target = resolve_one(args, args.spec, targets) if kernels else ("", DEFAULT)
            ran = run_stage(args.stage, module, sig, inputs, env, schedule, target, args.thread_order)
            staged = {args.stage: ran} if ran is not None else {}
    print(f"{sig.name}: stage {args.stage}, seed {args.seed}, "
          + ", ".join(f"{k}={v}" for k, v in env.items()))
    ok = True
    for spec in sig.outputs:
        value = outputs[spec.name]
        dtype = str(spec.dtype).removeprefix("torch.")
        total, absolute = checksums(value)
        line = f"  {spec.name}: shape {list(value.shape)} {dtype}  sum {total:.6e}  abs-sum {absolute:.6e}"
        for which, got in staged.items():
            result = compare(got[spec.name], outputs[spec.name])
            ok &= result.ok
            line += f"  | {which} vs oracle: {result}"
        print(line)
    return 0 if ok else 1


def opt_command(args) -> int:
    from .opt import OptConfig, opt

    if args.output is not None:
        check_output(args.output, "-o")
    if args.dump_dir is not None:
        check_output(args.dump_dir, "--dump-dir", directory=True)
    text, file = _source(args.input)
    config = OptConfig(args.pass_pipeline, args.print_ir_after_all, set(args.print_ir_before),
                       set(args.print_ir_after), args.print_ir_after_change, args.dump_dir, args.timing,
                       args.split_input_file, args.verify_diagnostics, args.generic, args.allow_file_writes,
                       args.allow_file_reads)
    result = opt(text, file, config)
    if args.verify_diagnostics:
        return 0
    if args.output:
        write_atomically(args.output, result)
    else:
        sys.stdout.write(result)
    return 0


def translate_command(args) -> int:
    from .translate import translate

    if args.output is not None:
        check_output(args.output, "-o")
    text, file = _source(args.input)
    result = translate(text, file, args.split_input_file)
    if args.output:
        write_atomically(args.output, result)
    else:
        sys.stdout.write(result)
    return 0


def _source(path: str) -> tuple[str, str]:
    """(text, file name) of the IR at ``path``, or of the standard input for '-'."""
    from ..diagnostics import MAX_INPUT_BYTES, decode_source

    if path != "-":
        return read_input(path), path
    data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise TilecError(f"the standard input is larger than {MAX_INPUT_BYTES >> 20} MiB, the limit for an input")
    return decode_source(data, "<stdin>"), "<stdin>"


def targets_command(args) -> int:
    from ..dialects.target import FEATURES, get

    for name in target_names():
        t = get(name)
        print(f"{name}: compute capability {t.capability[0]}.{t.capability[1]}, {t.smem // 1024} KiB shared memory "
              f"a CTA, {t.threads} threads, {t.registers} registers a thread")
        print(f"    features: {', '.join(f for f in FEATURES if f in t.features)}")
        print(f"    passes after ta-to-tile: {', '.join(t.passes) or 'none'}")
    return 0


def passes_command(args) -> int:
    from tilec import passes

    for name in passes.names():
        info = passes.get(name)
        print(f"{name}: {info.summary}")
        for field in info.option_fields():
            print(f"    {field.name.replace('_', '-')}={field.default!r}  ({getattr(field.type, '__name__', field.type)})")
    print("\nUpstream MLIR passes (canonicalize, cse, symbol-dce, ...) can be mixed in the same pipeline.")
    return 0


def verify_command(args) -> int:
    from ..build.verification import verify_schedules
    from ..build.verification_spec import verify_spec
    from ..build.verification_package import verify_package

    for path, flag in ((args.json, "--json"), (args.junit, "--junit"), (args.markdown, "--markdown")):
        if path is not None:
            check_output(path, flag)
    if args.spec.endswith(".tkp"):
        read_input_bytes(args.spec, MAX_PACKAGE_BYTES)
        if args.schedule or args.schedules or args.shape or args.target or args.stage != "tile":
            raise TilecError("a package is verified with the schedule, sizes and targets it was built with "
                             "(--schedule, --shape, --target and --stage do not apply)")
        report = verify_package(args.spec)
    elif args.schedules == "all":
        _check_specs([args.spec])
        if args.schedule or args.stage != "tile":
            raise TilecError("--schedules all checks every legal schedule of the tile kernel "
                             "(--schedule and --stage do not apply)")
        report = verify_schedules(args.spec, _merged(args.shape), tuple(args.target or target_names()),
                                  progress=_verify_progress())
    elif args.stage in ("grad", "grad-loop"):
        _check_specs([args.spec])
        if args.schedule or (args.target and args.stage == "grad-loop"):
            raise TilecError("--stage grad checks the backward's kernels at their default schedules, --stage "
                             "grad-loop its ta and loop levels (--schedule, and --target with grad-loop, do not apply)")
        from ..build.verification_grad import verify_gradient
        report = verify_gradient(args.spec, _merged(args.shape), args.stage, tuple(args.target or ()))
    else:
        _check_specs([args.spec])
        targets = chosen_targets(args)
        schedules = resolve_each(args, args.spec, targets) if args.stage == "tile" else ""
        report = verify_spec(args.spec, schedules, _merged(args.shape), args.stage, targets)
    print(report.as_table() if args.schedules == "all" and not args.full else report.as_text())
    for path, text in ((args.json, report.as_json), (args.junit, report.as_junit), (args.markdown, report.as_markdown)):
        if path:
            write_atomically(path, text())
    return report.status(args.strict)


def _verify_progress():
    """A progress line on stderr for ``verify --schedules all``: points checked, time, verdicts so far."""
    from ..runtime.progress import Progress

    bar = None

    def update(done: int, total: int, report) -> None:
        nonlocal bar
        bar = bar or Progress("verify", total)
        bar.update(done, note=report.summary())
        if done == total:
            bar.close()

    return update


def _print_report(report) -> None:
    print(report.as_text())


def _print_verdicts(report) -> None:
    """What a build says of the report it verified: every check that did not prove, and the summary."""
    print(report.as_text(proved=False))
