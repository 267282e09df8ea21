"""``tilec tune``: rank a spec's schedules with the cost model, compile the best ones, measure
them on a GPU and keep the fastest proved one in the tuning database.

    tilec tune SPEC.ta --shape M=4096,N=4096,K=4096 [--budget 30|60s]   # on a machine with a GPU
    tilec tune SPEC.ta --shape ... --rank-only                           # the model's ranking
    tilec tune SPEC.ta --shape ... --ray [ADDRESS]                       # compile and measure on Ray
    tilec tune SPEC.ta --shape ... --emit-candidates DIR [--top 30]      # packages + candidates.json
    python -m tilec.runtime.measure DIR                                  # ... on the GPU host
    tilec tune --import DIR/results.json                                 # ... into the database

Candidates compile side by side (jobs.py: local processes; fanout.py: Ray tasks). The
measured candidates are verified, fastest first, until one is proved (prove.py); ``tilec
compile`` then builds the fastest proved schedule for that spec, those shapes and that
target when no --schedule is given.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from torch_mlir import ir

from tilec import dialects
from tilec.diagnostics import TilecError
from tilec.runtime.progress import Progress, parse_budget

from . import fanout
from .db import TuningDB, add_results
from .gpus import gpu_named
from .jobs import Job, compile_here
from .prove import prove_and_report
from .results import read_results
from .space import rank, with_ptxas_facts
from tilec.cli.commands import _merged
from tilec.frontend import load_source, read_spec



def tune_command(args) -> int:
    shapes = _merged(args.shape)
    if not args.import_ and not args.spec:
        raise TilecError("tilec tune needs SPEC.ta (or --import RESULTS.json)")
    if args.top < 1:
        raise TilecError(f"--top must be at least 1, got {args.top}")
    try:
        count, _ = parse_budget(args.budget)
    except ValueError as err:
        raise TilecError(str(err)) from None
    if args.import_:
        data = read_results(args.import_)  # checked before the database is opened (or created)
        db = TuningDB(args.db)
        added, key, claimed = add_results(data, db)
        print(f"{added} measured candidates imported into {db.path}")
        prove_and_report(db, key, claimed)
        return 0
    text = read_spec(args.spec)
    try:
        gpu = gpu_named(args.gpu)
    except ValueError as err:
        raise TilecError(f"--gpu: {err}") from None
    with dialects.context(), ir.Location.unknown():
        module = load_source(args.spec)
        _sizes_given(module, shapes)
        # the cluster and a GPU to measure on are checked before anything is ranked or compiled
        ray = fanout.connect(args.ray) if args.ray and not args.rank_only else None
        if not (args.rank_only or args.emit_candidates):
            _something_to_measure_on(ray)
        legal, illegal = rank(module, shapes, args.target, gpu)
        if not legal:
            raise TilecError(f"no schedule of the search space builds this kernel ({len(illegal)} refused)")
        top = legal[:min(args.top, count or args.top)]
        print(f"{args.spec}: {len(legal)} legal schedules, {len(illegal)} pruned before compiling; the model's "
              f"top {len(top)} on {gpu.name}:")
        for n, c in enumerate(top):
            print(f"  {n + 1:3d}. {c.estimate.seconds * 1e3:8.4f} ms  {c.estimate.rate()}  {c.estimate.bound:7s} "
                  f"{c.schedule}")
        env = dict(shapes, **top[0].build.fixed)  # every size, for the inputs the GPU measures on
    if not args.rank_only:
        _compile_and_measure(args, ray, text, shapes, env, top)  # says the fastest proved when it measures
    if not (args.rank_only or args.emit_candidates):
        return 0
    db = TuningDB.existing(args.db)  # listing and emitting create no database
    measured = db and db.best(text, shapes, args.target)
    if measured:
        print(f"measured best in {db.path}: {measured['schedule']} ({measured['median_ms']:.4f} ms on "
              f"{measured['gpu']})")
    return 0


def _compile_and_measure(args, ray, text: str, shapes: dict, env: dict, top: list) -> None:
    """Compile the candidates (here, or on the Ray cluster ``ray``); unless they are only to be
    written out (--emit-candidates), measure them on a GPU (this machine's, or the cluster's) and
    record the results, proving the winner."""
    key = {"spec_text": text, "shapes": shapes, "target": args.target, "spec_name": Path(args.spec).name}
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.emit_candidates or scratch)
        jobs = [Job(text, key["spec_name"], shapes, c.schedule, args.target) for c in top]
        bar = Progress("compile", len(jobs))

        def done(n: int, _result: dict) -> None:
            bar.update(n, left=(time.perf_counter() - bar.start) / n * (len(jobs) - n))

        built = fanout.compile_on_ray(ray, jobs, done) if ray else compile_here(jobs, args.jobs, done)
        bar.close()
        write_candidates(folder, key, env, top, built)
        if args.emit_candidates:
            print(f"measure them on the GPU host with 'python -m tilec.runtime.measure {folder}', then "
                  f"'tilec tune --import {folder}/results.json'")
            return
        if ray is not None:
            data = fanout.measure_on_ray(ray, folder, args.reps, args.rounds, args.budget)
        else:
            from tilec.runtime.measure import measure

            data = measure(str(folder), args.reps, args.rounds, args.budget, progress=True)
    timed = [r for r in data["results"] if r["median_ms"] is not None]
    print(f"measured {len(timed)} of {len(data['results'])} candidates on {data['gpu']} in "
          f"{data['gpu_seconds']:.0f} s of GPU time")
    db = TuningDB(args.db)
    added, key, claimed = add_results(data, db)
    print(f"{added} measured candidates recorded in {db.path}")
    prove_and_report(db, key, claimed)


def _sizes_given(module, shapes: dict) -> None:
    """Every size parameter has a value: given with --shape, or its default (the model needs them all)."""
    fn = module.body.operations[0]
    params = ir.DictAttr(fn.attributes["ta.params"]) if "ta.params" in fn.attributes else []
    missing = sorted(n.name for n in params if not isinstance(n.attr, ir.IntegerAttr) and n.name not in shapes)
    if missing:
        raise TilecError(f"sizes {', '.join(missing)} of the kernel are not given: give every size with --shape")


def _something_to_measure_on(ray) -> None:
    """Fail before ranking and compiling when there is no GPU to measure on."""
    if ray is not None:
        fanout.require_gpu(ray)
        return
    import torch

    if not torch.cuda.is_available():
        raise TilecError("no CUDA GPU on this machine to measure on: add --emit-candidates DIR and measure DIR on "
                         "a GPU host, use --ray ADDRESS for a Ray cluster with GPUs, or --rank-only for the "
                         "model's ranking")


def write_candidates(folder: Path, key: dict, env: dict, top: list, built: list) -> None:
    """FOLDER/cNNN.tkp for each candidate that compiled (NNN: its place in the model's ranking),
    and FOLDER/candidates.json: the order to measure them in (the model's, those that spill
    much last: space.with_ptxas_facts), each with its prediction, the tile module's hash,
    ptxas's registers and spills and its compile time."""
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for n, (c, result) in enumerate(zip(top, built)):
        if "error" in result:
            print(f"  {c.schedule}: does not compile: {result['error']}")
            continue
        name = f"c{n:03d}.tkp"
        (folder / name).write_bytes(result["package_bytes"])
        entries.append({"package": name, "schedule": c.schedule, "predicted_ms": c.estimate.seconds * 1e3,
                        "tile_sha256": result["tile_sha256"], "registers": result["registers"],
                        "spill_bytes": result["spill_bytes"], "compile_seconds": round(result["seconds"], 3)})
        print(f"  {name}: {c.schedule}: {result['registers']} registers, {result['spill_bytes']} bytes spilled")
    if not entries:
        raise TilecError("no candidate compiled")
    entries = with_ptxas_facts(entries)  # the order to measure in
    (folder / "candidates.json").write_text(json.dumps({"key": key, "env": env, "candidates": entries}, indent=2))
    seconds = sorted(e["compile_seconds"] for e in entries)
    print(f"{len(entries)} candidates -> {folder} (median {seconds[len(seconds) // 2]:.2f} s each to compile)")
