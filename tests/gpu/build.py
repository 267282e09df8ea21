"""Build the GPU suite's packages and expected outputs (on a machine with tilec's compiler).

    python tests/gpu/build.py --out build/gpu-cases [--target sm_90a] [--only NAME]

For each case of tests/gpu/cases.py: the kernel package, built by tilec.build.package.build as
`tilec compile -o` builds it (not from the cache: each case is built by the tree as it
stands); for each run size, seeded random inputs and the oracle's outputs in
NAME/RUN.pt; and manifest.json, which test_gpu_kernels.py reads on the GPU machine.
A case that does not build, and an example that lowers to tile but is no case, make the
exit status 1, with the case named.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(Path(__file__).resolve().parent)]

import torch  # noqa: E402
from torch_mlir import ir  # noqa: E402

from cases import CASES, TOLERANCE, Case  # noqa: E402
from tilec import dialects  # noqa: E402
from tilec.diagnostics import TilecError  # noqa: E402
from tilec.lowering.driver import build_tile  # noqa: E402
from tilec.frontend import load_spec  # noqa: E402
from tilec.executors.oracle import evaluate  # noqa: E402
from tilec.build.package import build  # noqa: E402
from tilec.runtime.launch import _aligned  # noqa: E402  the runtime's own choice of kernel variant
from tilec.signature import bind, random_inputs, signature  # noqa: E402

FORMAT = "tilec.gpu-cases/1"


def run_id(shapes: dict) -> str:
    """B2_H3_S97_T130: a run's name, in its files and test ids."""
    return "_".join(f"{k}{v}" for k, v in shapes.items())


def spec_file(name: str, case: Case, out: Path) -> Path:
    """The case's spec as a file: an examples/ path as it is, spec text written beside the packages."""
    if case.spec.endswith(".ta") and "\n" not in case.spec:
        return ROOT / case.spec
    path = out / f"{name}.ta"
    path.write_text(case.spec)
    return path


def build_case(name: str, case: Case, out: Path, target: str) -> dict:
    """Package, inputs and oracle outputs of one case; its manifest entry."""
    spec = spec_file(name, case, out)
    package = build_graph(spec, out / f"{name}.tkg", case, target) if case.graph else \
        build(str(spec), str(out / f"{name}.tkp"), case.schedule, (target,), use_cache=False, shapes=case.fixed,
              verify=not case.conflicts)["kernels"][target]
    (out / name).mkdir(exist_ok=True)
    runs = []
    with dialects.context(), ir.Location.unknown():
        module = ir.Module.parse(package["oracle_ir"]) if package.get("oracle_ir") else \
            load_spec(str(spec))  # held: the function dies with its module
        fn = module.body.operations[0]
        sig = signature(fn)
        for seed, given in enumerate(case.runs):
            env = bind(sig, {**given, **package["fixed"]})
            inputs = random_inputs(sig, env, seed)
            outputs = evaluate(fn, inputs, env)
            data = f"{name}/{run_id(given)}.pt"
            torch.save({"inputs": inputs, "outputs": outputs}, out / data)
            runs.append({"id": run_id(given), "shapes": env, "data": data,
                         "variant": "aligned" if _aligned(list(inputs.values())) else "unaligned"})
    return {"spec": spec.name if spec.parent == out else str(spec.relative_to(ROOT)), "schedule": case.schedule,
            "fixed": package["fixed"], "package": f"{name}.tk{'g' if case.graph else 'p'}",
            "kernel": package["kernel"], "runs": runs}


def build_graph(spec: Path, path: Path, case: Case, target: str) -> dict:
    """A graph package of the spec's kernels, as ``tilec compile -o NAME.tkg --between`` builds it."""
    from tilec.lowering.driver import specialize
    from tilec.build.plan import Kernels

    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(spec))
        specialize(module, case.fixed)
        kernels = Kernels.of(module, {"*": case.schedule} if case.schedule else {},
                             None if case.graph == "f32" else case.graph)
        kernels.package(str(path), path.stem, (target,))
        # stored in 16 bits between kernels: the oracle runs the function the kernels were split from
        rounded = str(kernels.fused) if kernels.rounded else ""
    return {"fixed": dict(case.fixed), "kernel": path.stem, "oracle_ir": rounded}


def build_cases(names: list[str], out: Path, target: str) -> tuple[dict, list[str]]:
    """Build the cases ``names`` into ``out``: (their manifest, the names that failed to build).

    A case that fails is recorded with its error and the others still build; ``uncovered`` is
    left empty (main fills it)."""
    out.mkdir(parents=True, exist_ok=True)
    manifest = {"format": FORMAT, "target": target, "source": source_revision(), "tolerance": TOLERANCE,
                "cases": {}, "uncovered": []}
    failed = []
    for name in names:
        try:
            manifest["cases"][name] = build_case(name, CASES[name], out, target)
        except Exception as err:  # every other case still builds; this one fails the build, and its test
            traceback.print_exc()
            manifest["cases"][name] = {"error": f"{type(err).__name__}: {err}"}
            failed.append(name)
        entry = manifest["cases"][name]
        print(f"{name}: " + (f"FAILED to build: {entry['error']}" if "error" in entry else
                             f"{len(entry['runs'])} runs ({', '.join(r['variant'] for r in entry['runs'])})"),
              flush=True)
    return manifest, failed


def build_fixture(name: str, out: Path, target: str) -> str:
    """The cubin of a hand-written CUDA fixture beside this file (tests of the runtime's own
    parts, such as its TMA tensor maps); its file name under ``out``."""
    from tilec.codegen.compile import compile_cuda

    here = Path(__file__).parent
    source = (here / f"{name}.cu").read_text().replace('#include "hopper_fixture.cuh"',
                                                        (here / "hopper_fixture.cuh").read_text())
    cubin, _ = compile_cuda(source, name, target)
    (out / f"{name}.{target}.cubin").write_bytes(cubin)
    return f"{name}.{target}.cubin"


def uncovered_examples() -> list[str]:
    """Examples that lower to a tile kernel but no case runs: a form the suite would miss."""
    covered = {case.spec for case in CASES.values()}
    found = []
    for path in sorted((ROOT / "examples").glob("*.ta")):
        if str(path.relative_to(ROOT)) in covered:
            continue
        with dialects.context(), ir.Location.unknown():
            try:
                build_tile(load_spec(str(path)))
            except TilecError:  # no tile lowering takes it: nothing to run on the GPU
                continue
        found.append(str(path.relative_to(ROOT)))
    return found


def source_revision() -> str:
    """The commit the compiler was built from, "+dirty" when the tree differs from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def build_candidates(folder: Path) -> str:
    """The model's top 3 GEMM schedules at 300x520x200 as tilec tune writes them (packages and
    candidates.json), for test_gpu_measure.py."""
    from tilec.cli import main as tilec_main

    spec = str(Path(__file__).resolve().parents[2] / "examples" / "gemm.ta")
    if tilec_main(["tune", spec, "--shape", "M=300,N=520,K=200", "--top", "3", "--emit-candidates", str(folder)]):
        raise SystemExit("tilec tune could not write the tune fixture")
    return folder.name


def build_two_targets(out: Path) -> str:
    """A GEMM package with a kernel for sm_80 (mma.sync) and one for sm_90a (warp-specialised,
    wgmma and the copy engine), each from its own pipeline, for test_gpu_launch.py."""
    from tilec.cli import main as tilec_main

    spec = str(Path(__file__).resolve().parents[2] / "examples" / "gemm.ta")
    path = out / "two_targets.tkp"
    if tilec_main(["compile", spec, "-o", str(path), "--target", "sm_80", "--target", "sm_90a", "--no-cache",
                   "--schedule", "bm=64,bn=64,bk=32,warps=4,stages=3",
                   "--schedule", "sm_90a:bm=128,bn=128,bk=64,warps=8,stages=3,consumers=2"]):
        raise SystemExit("tilec compile could not write the two-target fixture")
    return path.name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="build/gpu-cases", help="folder of packages, data and manifest.json")
    parser.add_argument("--target", default="sm_90a", help="cubin target (sm_80, sm_90a)")
    parser.add_argument("--only", action="append", metavar="NAME", help="build this case only (repeatable)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.only or ()) - set(CASES))
    if unknown:
        parser.error(f"no case named {', '.join(unknown)} (cases: {', '.join(CASES)})")
    out = Path(args.out)
    names = args.only or [name for name, case in CASES.items() if args.target in case.targets]
    manifest, failed = build_cases(names, out, args.target)
    if args.target == "sm_90a":  # the Hopper fixtures: TMA and wgmma need sm_90a
        from tilec.dialects.layout import wgmma_descriptor

        manifest["fixtures"] = {name: build_fixture(name, out, args.target) for name in ("tma_copy", "wgmma_tile")}
        # K-major tiles of 128-byte rows in the 128-byte mode: 8-row groups 1024 bytes apart
        manifest["fixtures"]["wgmma_descriptor"] = wgmma_descriptor(128, 16, 1024)
        manifest["fixtures"]["tune"] = build_candidates(out / "tune")
        manifest["fixtures"]["two_targets"] = build_two_targets(out)
    if not args.only:
        manifest["uncovered"] = uncovered_examples()
        for path in manifest["uncovered"]:
            print(f"error: {path} lowers to a tile kernel but no case in tests/gpu/cases.py runs it")
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    if failed:
        print(f"error: {len(failed)} case(s) failed to build: {', '.join(failed)}", file=sys.stderr)
    print(f"{out / 'manifest.json'}: {len(manifest['cases']) - len(failed)} cases built, source {manifest['source']}")
    return 1 if failed or manifest["uncovered"] else 0


if __name__ == "__main__":
    sys.exit(main())
