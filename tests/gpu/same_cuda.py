"""Whether the CUDA in a GPU build's packages is what a tree emits now, case by case.

    python tests/gpu/same_cuda.py build/gpu-cases [--target sm_90a]

For each single-kernel case of the build's manifest.json, its spec is lowered again at the case's
schedule and fixed sizes for ``--target`` and emitted, and the text is compared with the package's
``KERNEL.cu``. Run from the root of a checkout of another commit, with that checkout on
PYTHONPATH (``cd OLD && PYTHONPATH=OLD python NEW/tests/gpu/same_cuda.py NEW/build/gpu-cases``),
it says whether that tree emits the same kernels: a change meant to keep behaviour keeps every
line. Exit status 1 when any case differs.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from torch_mlir import ir  # noqa: E402

from cases import CASES  # noqa: E402
from tilec import dialects  # noqa: E402
from tilec.codegen.cuda import emit_cuda  # noqa: E402
from tilec.lowering.driver import build_tile  # noqa: E402
from tilec.frontend import spec_to_ta  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", help="a folder tests/gpu/build.py wrote")
    parser.add_argument("--target", default="sm_90a")
    args = parser.parse_args(argv)
    root = Path(args.build)
    manifest = json.loads((root / "manifest.json").read_text())
    targeted = "target" in inspect.signature(build_tile).parameters  # a tree from before targets were IR data
    same, differ, skipped = 0, [], 0
    with dialects.context(), ir.Location.unknown():
        for name, entry in manifest["cases"].items():
            if not entry.get("package", "").endswith(".tkp"):
                skipped += 1
                continue
            case = CASES[name]
            inline = "\n" in case.spec
            text = case.spec if inline else Path(case.spec).read_text()
            module = spec_to_ta(text, f"{name}.ta" if inline else Path(case.spec).name)
            extra = (args.target,) if targeted else ()
            source = emit_cuda(build_tile(module, dict(case.fixed), case.schedule, *extra).tile).source
            archive = zipfile.ZipFile(root / entry["package"])
            shipped_manifest = json.loads(archive.read("manifest.json"))
            # a package of one kernel per target names each source; an older one holds KERNEL.cu
            member = shipped_manifest["kernels"][args.target]["source"] if "kernels" in shipped_manifest \
                else f"{entry['kernel']}.cu"
            shipped = archive.read(member).decode()
            if source == shipped:
                same += 1
            else:
                differ.append(name)
    for name in differ:
        print(f"differs: {name}")
    print(f"{same} the same, {len(differ)} differ, {skipped} graph packages not compared")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
