"""Build the packages of bench/trust_cases.py, each verified first (build machine).

    python bench/build_trust.py --out bench/out/trust
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.trust_cases import CASES  # noqa: E402
from tilec.build.package import build  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="bench/out/trust")
    parser.add_argument("--target", default="sm_90a")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, (text, shapes, _) in CASES.items():
        spec = os.path.join(args.out, f"{name}.ta")
        with open(spec, "w") as handle:
            handle.write(text)
        path = os.path.join(args.out, f"{name}.tkp")
        manifest = build(spec, path, "bm=64 bn=64 bk=32 warps=4 stages=2", (args.target,), use_cache=False,
                         verify=True, shapes=shapes,
                         on_report=lambda report, name=name: print(f"{name}: {report.summary()}"))
        print(f"{path}: fixed {manifest['kernels'][args.target]['fixed']}")


if __name__ == "__main__":
    main()
