"""What each layer does with a target's own ops, found through the op's name.

The generic walks (the CUDA emitter, the tile interpreter, the verifier's symbolic executor)
hold rules for the tile ops every target has. A target's own ops (sm_90a: the copy engine,
mbarriers, wgmma, warp roles) bring their rules from the target's folder: the modules its
registry entry names per layer (``Target.rules``; ``Target.ops`` define the ops and register
what the dialect layer knows of them) register them here when a walk of that layer first
asks, so a walk names no target, imports no layer above its own, and a new target's ops need
no edit of it.

    register("cuda", {"tile.wgmma": op_tile_wgmma})     # in tilec/targets/sm_90a/codegen/...
    rule("cuda", "tile.wgmma")                           # the emitter, meeting the op

The layers: "features" (op name -> the target features it needs), "store-parts" (``rule(op)``
-> the value, destination and offsets a storing op writes), "mma-depth" (``rule(op)`` -> the k
an mma op sums over), "roles" (``rule(op)`` -> the threads of control running an op's region
on their own), "cuda" (the emitter's ``rule(emitter, op)``), "cuda-prelude" (target name -> C
text its ops' rules call), "interpret" (``rule(cta, op, operands)``), "symbolic"
(``rule(program, op, operands, loop, grid)``), "obligations" (``rule(program, fn)`` -> the
proof rows an op brings) and "cuda-obligations" (``rule(fn, source, kernel, digest)`` -> the
report rows of the CUDA text it brings). "resolved-by" (op name -> the target pass that replaces
it) names an op that only passes read: the walks have no rule for it and say which pass to run.
"""

from __future__ import annotations

import importlib

from torch_mlir import ir

from ._verify import Invalid
from .target import FEATURES, generation, get, names

_RULES: dict[str, dict] = {}
_LOADED: set = set()
_LOADED_LAYERS: dict[str, int] = {}  # layer -> the registry's generation when its modules were imported


def register(layer: str, rules: dict) -> None:
    """Add ``rules`` (op name -> rule) to ``layer``; an op has one rule per layer."""
    table = _RULES.setdefault(layer, {})
    taken = [name for name in rules if name in table and table[name] is not rules[name]]
    if taken:
        raise ValueError(f"{layer}: '{taken[0]}' has a rule already")
    table.update(rules)


def rule(layer: str, name: str):
    """The rule ``layer`` keeps for op ``name`` (a target's own op), or None."""
    _load(layer)
    return _RULES.get(layer, {}).get(name)


def obligations(fn, layer: str) -> list:
    """The rules of ``layer`` ("obligations": the tile proofs, "cuda-obligations": the CUDA
    text's) that the ops of tile function ``fn`` bring, each once, in the order the ops come:
    a proof obligation is attached to the op that needs it (sm_90a's warp_specialize brings
    its mbarrier ring's, its tiles' and its register split's)."""
    _load(layer)
    table, found = _RULES.get(layer, {}), []

    def visit(op):
        own = table.get(op.name)
        if own is not None and own not in found:
            found.append(own)
        return ir.WalkResult.ADVANCE

    fn.operation.walk(visit)
    return found


def no_rule(walk: str, name: str) -> str:
    """What ``walk`` (``"the CUDA emitter has no rule for"``, say) says of op ``name`` it has no
    rule for; of an op a target's pass replaces, that pass's name."""
    _load("resolved-by")
    by = _RULES.get("resolved-by", {}).get(name)
    if by is None:
        return f"{walk} '{name}'"
    return f"{walk} '{name}', which {by} replaces (the target's pipeline runs it after ta-to-tile)"


def features_used(fn) -> tuple:
    """The target features the ops of tile function ``fn`` need, in dialects.target.FEATURES
    order; () for a kernel of the instructions every target has (cp.async, ldmatrix, mma.sync)."""
    _load("features")
    needs = _RULES.get("features", {})
    used = set()

    def visit(op):
        used.update(needs.get(op.name, ()))
        return ir.WalkResult.ADVANCE

    fn.operation.walk(visit)
    return tuple(f for f in FEATURES if f in used)


def check_target(fn, target) -> None:
    """Invalid when tile function ``fn`` uses an op whose feature ``target`` (a dialects.target
    Target) lacks: a warp-specialised kernel in a module lowered for sm_80, say."""
    lacking = target.lacks(*features_used(fn))
    if lacking:
        raise Invalid(f"the tile module is for {target.name}, which has no {', '.join(lacking)}; its ops "
                      f"need them (lower it with ta-to-tile{{target=...}} for a target that has them)")


def _load(layer: str) -> None:
    """Import every registered target's op modules and its rule modules of ``layer`` (once each).
    Asked once per op a walk meets, so a layer already loaded for the targets registered now
    returns at once (registering a target, which the registry allows only once per name, asks again)."""
    now = generation()
    if _LOADED_LAYERS.get(layer) == now:
        return
    for target in names():
        entry = get(target)
        for module in (*entry.ops, *(m for at, m in entry.rules if at == layer)):
            if module not in _LOADED:
                _LOADED.add(module)
                importlib.import_module(module)
    _LOADED_LAYERS[layer] = now
