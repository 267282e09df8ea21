"""Which cubin a GPU runs, by its exact compute capability.

A cubin holds machine code (SASS) for one architecture. One built for ``sm_XY`` runs on GPUs of
compute capability X.Z with Z >= Y (the same major version); one built for an arch-specific
target ``sm_XYa`` (wgmma, setmaxnreg, the copy engine's multicast) runs on X.Y alone. Nothing
runs across major versions: an sm_80 cubin does not load on an sm_90 or sm_100 GPU.

    runs_on("sm_80", (8, 9))       # True: Ada runs Ampere's SASS
    runs_on("sm_90a", (10, 0))     # False
    cubin_target(["sm_80", "sm_90a"], (9, 0))   # "sm_90a"

Like the rest of tilec.runtime this imports no compiler.
"""

from __future__ import annotations

from .package import TARGET_NAME, PackageError

# what tilec builds for a GPU, by major version (docs/codegen.md: the targets)
BUILT_FOR = {8: "sm_80", 9: "sm_90a"}


def capability_of(target: str) -> tuple[int, int, bool]:
    """(major, minor, arch-specific) of a target name: "sm_90a" -> (9, 0, True)."""
    match = TARGET_NAME.fullmatch(target)
    if match is None:
        raise PackageError(f"'{target}' is not a target name (sm_80, sm_90a, ...)")
    return int(match[1]), int(match[2]), bool(match[3])


def runs_on(target: str, capability: tuple[int, int]) -> bool:
    """Whether a cubin built for ``target`` runs on a GPU of ``capability`` (major, minor)."""
    major, minor, specific = capability_of(target)
    if specific:
        return (major, minor) == tuple(capability)
    return major == capability[0] and minor <= capability[1]


def cubin_target(targets, capability: tuple[int, int]) -> str:
    """The target among ``targets`` (a package's) whose cubin runs on ``capability``: the
    arch-specific one first, then the newest generic one; PackageError naming both sides when
    none does."""
    fitting = [t for t in targets if runs_on(t, capability)]
    if fitting:
        return max(fitting, key=lambda t: (capability_of(t)[2], capability_of(t)[:2]))
    major, minor = capability
    wanted = BUILT_FOR.get(major)
    hint = (f"rebuild it with --target {wanted}" if wanted else
            f"tilec builds for {', '.join(BUILT_FOR.values())} (compute capability "
            f"{', '.join(f'{m}.x' for m in BUILT_FOR)}) only")
    raise PackageError(f"this package holds kernels for {', '.join(sorted(targets)) or 'no target'}; none runs "
                       f"on a GPU of compute capability {major}.{minor}: {hint}")


def build_target(capability: tuple[int, int]) -> str:
    """The target tilec compiles for a GPU of ``capability`` (a kernel compiled on first use)."""
    target = BUILT_FOR.get(capability[0])
    if target is None or not runs_on(target, capability):
        raise PackageError(f"tilec builds for {', '.join(BUILT_FOR.values())} (compute capability "
                           f"{', '.join(f'{m}.x' for m in BUILT_FOR)}); this GPU is "
                           f"{capability[0]}.{capability[1]}")
    return target
