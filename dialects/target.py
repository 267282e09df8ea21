"""GPU targets as data: a registry of ``Target`` objects, and the target a tile module is for.

A target states what one GPU architecture gives a CTA (limits: shared memory, threads,
registers) and which instruction families it has (capabilities: cp.async, ldmatrix,
mma.sync, the copy engine with mbarriers, wgmma, setmaxnreg, clusters, tcgen05). ``ta-to-tile``
records the target it lowered for on the tile module, as the ``tile.target`` attribute
(``module attributes {tile.target = "sm_90a"}``); every later layer (legality, the
emitter, the verifier, the cost model, packaging) asks that attribute and this registry,
never a literal target name and never a schedule field.

    >>> get("sm_90a").has("wgmma", "tma")
    True
    >>> get("sm_80").lacks("wgmma", "tma")
    ['wgmma', 'tma']

A new target is one ``register(Target(...))`` here and the folders that give its features
(docs/targets.md walks through one).
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir

TARGET_ATTR = "tile.target"  # on the tile module: the name of the registered target it was lowered for

# the instruction families a target may have; a schedule or an op that needs one names it
FEATURES = {
    "cp_async": "cp.async copies from global to shared memory with commit/wait groups",
    "ldmatrix": "ldmatrix loads of 8x8 b16 matrices from shared memory",
    "mma_sync": "mma.sync m16n8k16 on warp register fragments",
    "tma": "the copy engine (cp.async.bulk.tensor) with tensor maps and mbarrier completion",
    "wgmma": "warpgroup wgmma.mma_async reading operands from shared memory",
    "setmaxnreg": "setmaxnreg: moving registers between warpgroups",
    "clusters": "thread-block clusters and distributed shared memory",
    "tcgen05": "tcgen05 MMA into tensor memory",
}


@dataclass(frozen=True)
class Target:
    """What one GPU architecture allows a CTA, and the instruction families it has."""

    name: str
    smem: int                 # bytes of shared memory per CTA (opt-in maximum)
    capability: tuple = (8, 0)  # (major, minor) compute capability the cubin is built for
    threads: int = 1024       # threads per CTA
    registers: int = 255      # 32-bit registers per thread
    sm_registers: int = 65536  # 32-bit registers per SM, shared by its resident CTAs
    sm_smem: int = 0          # bytes of shared memory per SM, shared by its resident CTAs
    smem_reserved: int = 1024  # bytes the hardware keeps per resident CTA
    copy_stride_bytes: int = 0  # a tensor map's row strides are multiples of this (0: no copy engine)
    features: frozenset = frozenset()  # names from FEATURES
    passes: tuple = ()        # the tile -> tile passes its pipeline runs after ta-to-tile, in order
    ops: tuple = ()           # modules adding its own tile ops to the dialect (imported by dialects.context)
    space: str = ""           # a module whose points(form, use) are its own schedules (Schedule.space)
    rules: tuple = ()         # (layer, module): the modules registering its ops' rules (dialects/op_rules.py)

    def has(self, *features: str) -> bool:
        """Whether the target has every one of ``features``."""
        return not self.lacks(*features)

    def lacks(self, *features: str) -> list[str]:
        """Those of ``features`` the target does not have, in the order given."""
        unknown = [f for f in features if f not in FEATURES]
        if unknown:
            raise ValueError(f"unknown target feature {unknown[0]!r} (features: {', '.join(FEATURES)})")
        return [f for f in features if f not in self.features]


_AMPERE = frozenset({"cp_async", "ldmatrix", "mma_sync"})
_REGISTRY: dict[str, Target] = {}
_GENERATION = [0]  # registrations so far
DEFAULT = "sm_80"  # what a tile module is lowered for when no target is named: every tilec GPU runs it


def register(target: Target) -> Target:
    """Add ``target`` to the registry (a name registered once)."""
    if target.name in _REGISTRY:
        raise ValueError(f"target '{target.name}' is registered already")
    target.lacks(*target.features)  # every feature is a known one
    _REGISTRY[target.name] = target
    _GENERATION[0] += 1
    return target


def generation() -> int:
    """How many targets have been registered: it changes when one is (what op_rules keys its
    loaded layers by)."""
    return _GENERATION[0]


register(Target("sm_80", 163 * 1024, (8, 0), features=_AMPERE))
register(Target("sm_90a", 227 * 1024, (9, 0), sm_smem=228 * 1024, copy_stride_bytes=16,
                features=_AMPERE | {"tma", "wgmma", "setmaxnreg", "clusters"},
                passes=("tile-warp-specialize", "tile-persistent", "tile-pingpong", "tile-softmax-overlap",
                        "tile-tma-store"),  # tilec/targets/sm_90a
                ops=("tilec.targets.sm_90a.dialects.tile_hopper",), space="tilec.targets.sm_90a.space",
                rules=(("cuda", "tilec.targets.sm_90a.codegen.cuda_hopper"),
                       ("cuda-prelude", "tilec.targets.sm_90a.codegen.cuda_hopper"),
                       ("cuda", "tilec.targets.sm_90a.codegen.cuda_store"),
                       ("interpret", "tilec.targets.sm_90a.executors.cta_ops"),
                       ("symbolic", "tilec.targets.sm_90a.verify.symbolic_ops"),
                       ("obligations", "tilec.targets.sm_90a.verify.obligations"),
                       ("cuda-obligations", "tilec.targets.sm_90a.verify.obligations"))))


def names() -> list[str]:
    """The registered targets' names, oldest architecture first."""
    return sorted(_REGISTRY, key=lambda n: _REGISTRY[n].capability)


def get(name: str) -> Target:
    """The registered target ``name``; ValueError naming the registered ones otherwise."""
    target = _REGISTRY.get(name)
    if target is None:
        raise ValueError(f"unknown target '{name}' (targets: {', '.join(names())})")
    return target


def common(targets) -> Target:
    """The target whose kernel every one of ``targets`` runs as its own: the one with the fewest
    features (a package for sm_80 and sm_90a is lowered once for sm_80's instructions)."""
    chosen = [get(t) for t in targets] or [get(DEFAULT)]
    least = min(chosen, key=lambda t: (len(t.features), t.capability))
    if any(not least.features <= t.features for t in chosen):
        raise ValueError(f"targets {', '.join(t.name for t in chosen)} share no instruction set")
    return least


def set_target(module, name: str) -> None:
    """Record on ``module`` (an ir.Module or its operation) that it is lowered for target ``name``."""
    get(name)
    op = module.operation if hasattr(module, "operation") else module
    op.attributes[TARGET_ATTR] = ir.StringAttr.get(name)


def target_of(op) -> Target:
    """The target of the tile module holding ``op`` (an ir.Module, a function, any op in it):
    the ``tile.target`` of the nearest enclosing op that carries one; ValueError when none does
    or it names no registered target."""
    current = op.operation if hasattr(op, "operation") else op
    while current is not None:
        if TARGET_ATTR in current.attributes:
            attr = current.attributes[TARGET_ATTR]
            if not isinstance(attr, ir.StringAttr):
                raise ValueError(f"{TARGET_ATTR} names a target as a string (\"sm_90a\"), not {attr}")
            return get(ir.StringAttr(attr).value)
        current = current.parent if hasattr(current, "parent") else None
    raise ValueError(f"the tile module names no target (a '{TARGET_ATTR}' attribute on the module: "
                     f"ta-to-tile{{target=...}} records it)")
