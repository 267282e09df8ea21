"""Wall time of tilec's commands on this machine, cold (tilec's caches empty) and cached, for one or
more trees of tilec side by side, and where a cold compile's time goes.

    python bench/compile_time.py --out bench/results/compile-time-DATE.json \\
        --tree after=. --tree before=/tmp/before --runs 2

Each command runs as a user runs it (``python -m tilec ...``, a fresh process) with
``TILEC_CACHE_DIR`` a fresh folder holding only the CPU compiler's own cache (``cpu/``, built once
per machine: its first build is its own row), so "cold" is tilec's caches empty. A tree is a
checkout put first on ``PYTHONPATH`` (one made with ``git worktree add`` needs its ``dialects``
and ``passes`` linked into ``tilec/`` as an installed tilec has them). Trees alternate within a
run. Each case's ``seconds`` lists every run; the docs state the lower (bench/tables.py).

``--phases`` adds, per tree, one cold compile of each spec under timers around the parts of a
compile (``PHASES``), run in-process (``--inner``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GEMM, ATTENTION = str(ROOT / "examples" / "gemm.ta"), str(ROOT / "examples" / "attention.ta")
SIZED = "M=4096,N=4096,K=4096"
# (name, command after `tilec`, whether tilec's caches are filled by the same command first)
CASES = [
    ("gemm, no verification", ["compile", GEMM, "-o", "{out}", "--target", "sm_90a", "--no-verify"], False),
    ("gemm", ["compile", GEMM, "-o", "{out}", "--target", "sm_90a"], False),
    ("gemm, cached", ["compile", GEMM, "-o", "{out}", "--target", "sm_90a"], True),
    ("gemm at 4096³, no verification", ["compile", GEMM, "-o", "{out}", "--target", "sm_90a", "--shape", SIZED,
                                        "--no-verify"], False),
    ("attention, no verification", ["compile", ATTENTION, "-o", "{out}", "--target", "sm_90a", "--no-verify"], False),
    ("attention", ["compile", ATTENTION, "-o", "{out}", "--target", "sm_90a"], False),
    ("attention, cached", ["compile", ATTENTION, "-o", "{out}", "--target", "sm_90a"], True),
    ("verify gemm", ["verify", GEMM, "--target", "sm_90a"], False),
    ("verify attention", ["verify", ATTENTION, "--target", "sm_90a"], False),
]
# the parts of a compile timed by --phases: (label, module, function), leaves first so that a
# module importing a function by name gets the timed one
PHASES = [("NVRTC", "tilec.codegen.compile", "compile_nvrtc"),
          ("the CPU run of the CUDA", "tilec.build.verification_run", "check_run"),
          ("ranking", "tilec.tune.space", "rank"),
          ("verification", "tilec.build.package", "verify_build"),
          ("the schedule pick", "tilec.tune.pick", "_rank_and_compile")]


def run(tree: Path, argv: list[str], cache_root: Path, out: Path) -> float:
    """Seconds of one ``python -m tilec ARGV`` of ``tree`` with its caches in ``cache_root``."""
    env = dict(os.environ, TILEC_CACHE_DIR=str(cache_root), PYTHONPATH=str(tree))
    command = [sys.executable, "-m", "tilec"] + [a.replace("{out}", str(out)) for a in argv]
    start = time.perf_counter()
    proc = subprocess.run(command, env=env, capture_output=True, text=True, cwd=tree)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} (tree {tree}) failed:\n{proc.stdout}{proc.stderr}")
    return seconds


def fresh_cache(base: Path, cpu: Path) -> Path:
    """A cache root holding only a copy of the CPU compiler's cache ``cpu``."""
    root = Path(tempfile.mkdtemp(dir=base))
    os.chmod(root, 0o700)
    if cpu.exists():
        shutil.copytree(cpu, root / "cpu", symlinks=True)
    return root


def inner(out: str, argv: list[str]) -> int:
    """Run tilec's CLI on ``argv`` in this process with PHASES timed; their seconds to ``out``."""
    import functools
    import importlib

    spent = {label: 0.0 for label, _, _ in PHASES}
    for label, module, name in PHASES:
        mod = importlib.import_module(module)
        original = getattr(mod, name)

        def timed(*args, _f=original, _label=label, **kwargs):
            start = time.perf_counter()
            try:
                return _f(*args, **kwargs)
            finally:
                spent[_label] += time.perf_counter() - start
        setattr(mod, name, functools.wraps(original)(timed))
    from tilec.cli import main

    start = time.perf_counter()
    code = main(argv)
    spent["the command (in process)"] = time.perf_counter() - start
    Path(out).write_text(json.dumps(spent))
    return code or 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="the results file (JSON) to write")
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=DIR",
                        help="a tilec checkout to time (repeatable; default: this one, as 'after')")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--phases", action="store_true", help="also time the parts of a cold compile")
    parser.add_argument("--inner", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner is not None:
        return inner(args.out, args.inner)
    trees = dict(t.split("=", 1) for t in args.tree) if args.tree else {"after": "."}
    trees = {name: Path(d).resolve() for name, d in trees.items()}
    work = Path(tempfile.mkdtemp(prefix="tilec-compile-time-"))
    try:
        cpu = work / "first" / "cpu"
        first = {}
        for name, tree in trees.items():  # the CPU compiler's first build on the machine, then kept
            root = work / "first"
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir(mode=0o700)
            first[name] = run(tree, CASES[1][1], root, work / "x.tkp")
        results = {case: {name: [] for name in trees} for case, _, _ in CASES}
        for _ in range(args.runs):
            for case, command, cached in CASES:
                for name, tree in trees.items():
                    root = fresh_cache(work, cpu)
                    if cached:
                        run(tree, command, root, work / "x.tkp")
                    results[case][name].append(round(run(tree, command, root, work / "x.tkp"), 3))
                    shutil.rmtree(root)
        phases = {}
        if args.phases:
            for name, tree in trees.items():
                for spec, command in (("gemm", CASES[1][1]), ("attention", CASES[5][1])):
                    root = fresh_cache(work, cpu)
                    spent = work / "phases.json"
                    env = dict(os.environ, TILEC_CACHE_DIR=str(root), PYTHONPATH=str(tree))
                    subprocess.run([sys.executable, str(Path(__file__).resolve()), "--out", str(spent), "--inner"]
                                   + [a.replace("{out}", str(work / "x.tkp")) for a in command],
                                   env=env, cwd=tree, check=True, capture_output=True)
                    phases.setdefault(name, {})[spec] = {k: round(v, 3) for k, v in json.loads(spent.read_text()).items()}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    commits = {name: subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True,
                                    text=True).stdout.strip() for name, tree in trees.items()}
    data = {"date": time.strftime("%Y-%m-%d"), "machine": f"{os.cpu_count()} cores, {platform.machine()}, "
            f"Python {platform.python_version()}", "trees": commits, "first_compile_on_machine": first,
            "seconds": results, "phases": phases,
            "command": "python bench/compile_time.py " + " ".join(sys.argv[1:] if argv is None else argv)}
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n")
    for case, by_tree in results.items():
        print(f"{case:36s} " + "  ".join(f"{n} {min(s):6.2f} s" for n, s in by_tree.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
