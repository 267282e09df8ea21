"""The ``tilec`` command line: compile, run, opt, passes.

Exit status: 0 success, 1 an error in the input (one located message on
stderr, no traceback unless --debug), 2 command-line misuse.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import traceback

from .. import __version__
from ..diagnostics import TilecError
from ..runtime.options import integer  # noqa: F401 - the commands' integer options


MAX_FUZZ_CASES = 10**6  # about a fortnight of cases at one a second: a longer run is a mistake
MAX_SECONDS = 7 * 24 * 3600.0  # any time limit (a week)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= MAX_SECONDS:  # NaN too
        raise argparse.ArgumentTypeError(f"'{text[:60]}' is not a number of seconds from 0 to {MAX_SECONDS:.0f}")
    return value


def _target(text: str) -> str:
    """--target NAME: a registered target (dialects/target.py; ``tilec targets`` lists them)."""
    from tilec.dialects.target import get

    try:
        return get(text).name
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _shapes(text: str) -> dict[str, int]:
    """--shape M=64,N=32: parsed as ta-specialize-shapes parses its option (one parser)."""
    from tilec.passes.ta_specialize_shapes import parse_shapes

    try:
        return parse_shapes(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


class _AppendShapes(argparse.Action):
    """--shape, repeatable: a parameter given in two --shape options is an error, as in one."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = list(getattr(namespace, self.dest) or [])
        for name, size in values.items():
            before = next((d[name] for d in given if name in d), None)
            if before is not None:
                parser.error(f"argument {option_string}: '{name}' is given twice ({name}={before} and {name}={size})")
        setattr(namespace, self.dest, given + [values])


def _seed(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > 20 or int(text) >= 2**64:
        raise argparse.ArgumentTypeError(f"'{text[:60]}' is not a seed (an integer from 0 to 2^64 - 1)")
    return int(text)


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", help="show Python tracebacks for errors")
    parser = argparse.ArgumentParser(prog="tilec", parents=[common],
                                     description="tilec: tensor-algebra specs in, verified tile kernels out")
    parser.add_argument("--version", action="version", version=f"tilec {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    compile_ = sub.add_parser("compile", parents=[common], help="lower specs and write or print each stage")
    compile_.add_argument("specs", nargs="+", metavar="SPEC.ta")
    compile_.add_argument("--emit", choices=["ta", "loop", "tile", "cuda"], default="ta",
                          help="the stage to print or write with -o (default: ta)")
    out = compile_.add_mutually_exclusive_group()
    out.add_argument("-o", "--output", metavar="FILE",
                     help="write the result here (one spec only); a .tkp file is a kernel package, a .tkg "
                          "file a graph package (the spec's kernels, launched in order)")
    out.add_argument("--out-dir", metavar="DIR", help="write every stage of every spec into DIR")
    compile_.add_argument("--shape", type=_shapes, action=_AppendShapes, default=[], metavar="N=64,...",
                          help="bind shape parameters (the IR gets static sizes)")
    compile_.add_argument("--schedule", action="append", metavar="[TARGET:]bm=128,bn=128,...",
                          help="tile schedule: bm, bn, bk, warps, stages, swizzle, group-m (see 'tilec passes'); "
                               "TARGET: gives one target's kernel its own (repeatable)")
    compile_.add_argument("--target", action="append", type=_target, metavar="TARGET",
                          help="GPU architecture of the package's cubins (repeatable; default: every target that runs "
                               "the schedule; tilec targets lists them)")
    compile_.add_argument("--compiler", choices=["nvrtc", "nvcc"], default="nvrtc")
    compile_.add_argument("--no-cache", action="store_true", help="build the package even if it is cached")
    compile_.add_argument("--no-verify", action="store_true",
                          help="build a package without verifying it (by default its kernels are verified "
                               "first, as tilec verify does, and a package that fails is not written)")
    compile_.add_argument("--verify", action="store_true", help=argparse.SUPPRESS)  # the default since 0.1
    compile_.add_argument("--between", choices=["f32", "bf16", "f16"], default="f32",
                          help="with -o NAME.tkg: the type of the tensors stored between kernels (default: f32, "
                               "exactly the spec; bf16/f16 round them, as torch eager stores them)")
    compile_.set_defaults(func="tilec.cli.commands:compile_command")

    run = sub.add_parser("run", parents=[common], help="run a spec on random inputs and print checksums")
    run.add_argument("spec", metavar="SPEC.ta")
    run.add_argument("--shape", type=_shapes, action=_AppendShapes, default=[], metavar="N=64,...")
    run.add_argument("--seed", type=_seed, default=0)
    run.add_argument("--schedule", action="append", metavar="[TARGET:]bm=128,bn=128,...",
                     help="tile schedule for --stage tile or cuda")
    run.add_argument("--stage", choices=["ta", "loop", "tile", "cuda"], default="ta",
                     help="the stage to execute and compare with the oracle (default: ta, the oracle alone; "
                          "cuda: the kernel's emitted CUDA on the CPU, under tilec's model of the GPU)")
    run.add_argument("--target", action="append", type=_target, metavar="TARGET",
                     help="with --stage tile or cuda: the targets whose kernel to run (as a package for them is built)")
    run.add_argument("--thread-order", choices=["lowest-first", "highest-first"], default="lowest-first",
                     help="with --stage cuda: which ready thread the model of the GPU runs first (verify runs both)")
    run.set_defaults(func="tilec.cli.commands:run_command", compiler="nvrtc", no_cache=False)

    opt = sub.add_parser("opt", parents=[common], help="parse, transform and print IR (mlir-opt style)")
    opt.add_argument("input", nargs="?", default="-", help="an .mlir file, or - for stdin (default)")
    opt.add_argument("-o", "--output", metavar="FILE", help="write the result here instead of stdout")
    opt.add_argument("--pass-pipeline", default="", metavar="PIPELINE",
                     help="e.g. 'builtin.module(ta-decompose-softmax, canonicalize)'")
    opt.add_argument("--print-ir-after-all", action="store_true")
    opt.add_argument("--print-ir-before", action="append", default=[], metavar="PASS")
    opt.add_argument("--print-ir-after", action="append", default=[], metavar="PASS")
    opt.add_argument("--print-ir-after-change", action="store_true")
    opt.add_argument("--dump-dir", metavar="DIR", help="write the IR after each pass to a file in DIR")
    opt.add_argument("--timing", action="store_true", help="print the time each pass took")
    opt.add_argument("--split-input-file", action="store_true", help="handle each '// -----' chunk on its own")
    opt.add_argument("--verify-diagnostics", action="store_true",
                     help="check errors against '// expected-error {{...}}' comments")
    opt.add_argument("--mlir-print-op-generic", dest="generic", action="store_true")
    opt.add_argument("--allow-file-writes", action="store_true",
                     help="let passes that write files of their own run (e.g. snapshot-op-locations{filename=...}); "
                          "implies --allow-file-reads")
    opt.add_argument("--allow-file-reads", action="store_true",
                     help="let pass options that name files to read or a program to run take effect "
                          "(gpu-module-to-binary{toolkit=,l=,opts=}, *-attach-target{l=,...}, "
                          "transform-preload-library{transform-library-paths=})")
    opt.set_defaults(func="tilec.cli.commands:opt_command")

    translate = sub.add_parser("translate", parents=[common],
                               help="print the CUDA of a tile module (mlir-translate style)")
    translate.add_argument("input", nargs="?", default="-", help="a tile .mlir file, or - for stdin (default)")
    translate.add_argument("-o", "--output", metavar="FILE", help="write the CUDA here instead of stdout")
    translate.add_argument("--split-input-file", action="store_true", help="translate each '// -----' chunk on its own")
    translate.set_defaults(func="tilec.cli.commands:translate_command")

    verify = sub.add_parser("verify", parents=[common], help="prove each kernel of a spec correct (Z3), or refute it")
    verify.add_argument("spec", metavar="SPEC.ta|PKG.tkp")
    verify.add_argument("--schedule", action="append", metavar="[TARGET:]bm=128,bn=128,...",
                        help="the kernels' schedule; TARGET: gives one target's kernel its own (repeatable)")
    verify.add_argument("--schedules", choices=["all"],
                        help="check the kernel at every legal point of its form's schedule space instead")
    verify.add_argument("--shape", type=_shapes, action=_AppendShapes, default=[], metavar="N=64,...",
                        help="sizes fixed at compile time, as for tilec compile (the kernel verified is the one built)")
    verify.add_argument("--target", action="append", type=_target, metavar="TARGET",
                        help="architectures the kernel is lowered and its CUDA compiled for (repeatable; default: every "
                             "target that runs the schedule)")
    verify.add_argument("--stage", choices=["tile", "loop", "grad", "grad-loop"], default="tile",
                        help="tile (default): the tile kernel, its CUDA and the loop IR; "
                             "loop: the loop IR only, for specs with no tile kernel; "
                             "grad: the training pair ta-grad{saved=true} derives, proved equal to the "
                             "plain gradient, and the backward's kernels as tilec compile builds them; "
                             "grad-loop: the pair, and the backward's loop IR only")
    verify.add_argument("--json", metavar="FILE", help="write the report as JSON (schema tilec.verify/1)")
    verify.add_argument("--junit", metavar="FILE", help="write the report as JUnit XML")
    verify.add_argument("--markdown", metavar="FILE", help="write the report as Markdown")
    verify.add_argument("--strict", action="store_true", help="exit 1 on an unknown verdict too")
    verify.add_argument("--full", action="store_true",
                        help="with --schedules all: list every check (default: a table of verdicts per schedule "
                             "and the checks that did not prove)")
    verify.set_defaults(func="tilec.cli.commands:verify_command", compiler="nvrtc", no_cache=False)

    layout = sub.add_parser("layout", parents=[common], help="show where a shared-memory tile's elements land")
    layout.add_argument("spec", metavar="SPEC.ta")
    layout.add_argument("--operand", required=True, help="the input whose shared-memory tile to show, e.g. A")
    layout.add_argument("--schedule", action="append", metavar="[TARGET:]bm=128,bn=128,...")
    layout.add_argument("--png", metavar="FILE", help="also draw every element coloured by its bank")
    layout.add_argument("--shape", type=_shapes, action=_AppendShapes, default=[], metavar="N=64,...")
    layout.add_argument("--target", action="append", type=_target, metavar="TARGET",
                        help="the targets whose kernel to show (as a package for them is built)")
    layout.set_defaults(func="tilec.cli.layout:layout_command", compiler="nvrtc", no_cache=False)

    tune = sub.add_parser("tune", parents=[common],
                          help="rank a spec's schedules (cost model), compile and measure the best, keep the "
                               "fastest proved one")
    tune.add_argument("spec", metavar="SPEC.ta", nargs="?")
    tune.add_argument("--shape", type=_shapes, action=_AppendShapes, default=[], metavar="N=64,...",
                      help="the sizes to tune for (every size parameter)")
    tune.add_argument("--target", type=_target, metavar="TARGET", default="sm_90a",
                      help="the target to tune for (default: sm_90a, the GPU the cost model's rates are of)")
    tune.add_argument("--gpu", default="h200", help="the GPU whose rates the cost model uses (default: h200)")
    tune.add_argument("--top", type=int, default=30, help="how many of the model's best to compile (default: 30)")
    tune.add_argument("--budget", metavar="N|Ns", help="measure at most N candidates, or for N seconds of GPU time")
    tune.add_argument("--rank-only", action="store_true", help="only print the model's ranking")
    tune.add_argument("--emit-candidates", metavar="DIR",
                      help="compile the top candidates into DIR (packages and candidates.json) for a GPU host")
    tune.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                      help="compile on a Ray cluster's CPU workers and measure on one of its GPUs (no ADDRESS: "
                           "start one on this machine; 'auto': the cluster this machine belongs to)")
    tune.add_argument("--jobs", type=integer(1, 1024, "a count"), metavar="N",
                      help="compile N candidates at once (default: one per CPU)")
    tune.add_argument("--reps", type=integer(1, 10**5, "a count"), default=20,
                      help="timed launches per round (default: 20)")
    tune.add_argument("--rounds", type=integer(1, 1000, "a count"), default=5,
                      help="rounds for the best candidates (default: 5)")
    tune.add_argument("--import", dest="import_", metavar="RESULTS.json",
                      help="record the measurements of 'python -m tilec.runtime.measure' in the tuning database")
    tune.add_argument("--db", metavar="FILE", help="the tuning database (default: $TILEC_TUNING_DB or "
                                                   "~/.cache/tilec/tuning.sqlite)")
    tune.set_defaults(func="tilec.tune.command:tune_command")

    fuzz = sub.add_parser("fuzz", parents=[common],
                          help="run random valid specs through the stages against an independent reference")
    fuzz.add_argument("--count", type=integer(1, MAX_FUZZ_CASES, "a count"), default=100, metavar="N",
                      help=f"how many cases (default: 100, at most {MAX_FUZZ_CASES:,})")
    fuzz.add_argument("--seed", type=_seed, default=0, help="the stream of cases (default: 0)")
    fuzz.add_argument("--case", type=integer(0, MAX_FUZZ_CASES - 1, "a case number"), metavar="I",
                      help="run only case I of the stream, and show it")
    fuzz.add_argument("--stages", default="ta,loop,tile,verify", metavar="ta,loop,tile,verify",
                      help="the stages to run and check (default: all four)")
    fuzz.add_argument("--out", default="fuzz-out", metavar="DIR",
                      help="where reproducers of findings go (default: fuzz-out, created on the first finding)")
    fuzz.add_argument("--timeout", type=_seconds, default=60.0, metavar="SECONDS",
                      help="time limit per case; a case past it is a hang (default: 60; 0: no limit, in-process)")
    fuzz.add_argument("--skip-known", action="store_true",
                      help="generate none of the constructs of known bugs (see docs/reliability.md)")
    fuzz.add_argument("--no-shrink", action="store_true", help="save findings as generated, unshrunk")
    fuzz.set_defaults(func="tilec.fuzz:fuzz_command")

    passes = sub.add_parser("passes", parents=[common], help="list the registered passes and their options")
    passes.set_defaults(func="tilec.cli.commands:passes_command")
    targets = sub.add_parser("targets", parents=[common], help="list the registered GPU targets: limits and features")
    targets.set_defaults(func="tilec.cli.commands:targets_command")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    module_name, _, func_name = args.func.partition(":")
    try:
        import importlib

        return getattr(importlib.import_module(module_name), func_name)(args)
    except TilecError as err:
        if args.debug:
            traceback.print_exc()
        print(err.format(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (tilec ... | head): not an error of ours
        sys.stderr = open(os.devnull, "w")
        return 0
    except Exception as err:  # a bug in tilec, not in the input
        if args.debug:
            raise
        print(f"tilec: internal error: {type(err).__name__}: {err}\n"
              f"(rerun with --debug for the traceback, and please report it)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
