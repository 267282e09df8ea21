"""Packages of attention variants for bench/check_attention.py (build machine).

    python bench/build_attention_variants.py --out bench/out/variants
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tilec.build.package import build  # noqa: E402

VARIANTS = [("attention", 96), ("causal_attention", 64), ("gqa_attention", 64), ("attention_bias", 128)]


def main() -> None:
    out = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else "bench/out/variants"
    os.makedirs(out, exist_ok=True)
    for name, d in VARIANTS:
        path = os.path.join(out, f"{name}_d{d}.tkp")
        build(f"examples/{name}.ta", path, "bm=64 bn=64 warps=4 stages=2", ("sm_90a",), use_cache=False,
              shapes={"D": d})
        print(path)


if __name__ == "__main__":
    main()
