"""The runtime picks a package's cubin by the GPU's exact compute capability (SASS runs within
one major version; an arch-specific target on its own capability alone) and refuses, naming
both sides, a GPU none of its cubins runs on."""

import pytest

from tilec.runtime import PackageError
from tilec.runtime.targets import build_target, cubin_target, runs_on


@pytest.mark.parametrize("target, capability, runs", [
    ("sm_80", (8, 0), True), ("sm_80", (8, 6), True), ("sm_80", (8, 9), True), ("sm_86", (8, 0), False),
    ("sm_80", (9, 0), False), ("sm_80", (10, 0), False), ("sm_80", (12, 0), False),
    ("sm_90a", (9, 0), True), ("sm_90a", (10, 0), False), ("sm_90", (9, 0), True),
])
def test_which_cubin_runs_where(target, capability, runs):
    assert runs_on(target, capability) is runs


def test_the_package_cubin_is_the_one_the_gpu_runs():
    both = ["sm_80", "sm_90a"]
    assert cubin_target(both, (9, 0)) == "sm_90a"
    assert cubin_target(both, (8, 9)) == "sm_80"
    assert cubin_target(["sm_80"], (8, 6)) == "sm_80"


@pytest.mark.parametrize("targets, capability, hint", [
    (["sm_80", "sm_90a"], (10, 0), "tilec builds for sm_80, sm_90a"),  # Blackwell: no Ampere SASS runs there
    (["sm_80"], (9, 0), "rebuild it with --target sm_90a"),
    (["sm_90a"], (8, 0), "rebuild it with --target sm_80"),
])
def test_a_gpu_no_cubin_runs_on_is_refused_by_name(targets, capability, hint):
    with pytest.raises(PackageError, match=f"compute capability {capability[0]}.{capability[1]}: {hint}"):
        cubin_target(targets, capability)


def test_the_target_built_for_a_gpu():
    assert build_target((9, 0)) == "sm_90a" and build_target((8, 6)) == "sm_80"
    with pytest.raises(PackageError, match="this GPU is 10.0"):
        build_target((10, 0))
    with pytest.raises(PackageError, match="not a target name"):
        runs_on("gfx942", (9, 0))
