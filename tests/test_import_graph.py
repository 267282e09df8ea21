"""The import graph of tilec (dialects and passes included), read from the source: no cycle
between its modules (the package faces ``tilec`` and ``tilec.runtime`` import lazily what they
hand on), and the runtime imports nothing of the compiler."""

import ast
from pathlib import Path

from conftest import ROOT

# the packages' folders and the module names they have once installed (pyproject's package-dir)
PACKAGES = {"tilec": ROOT / "tilec", "tilec.dialects": ROOT / "dialects", "tilec.passes": ROOT / "passes"}
KNOWN: set = set()  # every cycle untangled; a new one fails the first test


def _modules() -> dict[str, Path]:
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            name = ".".join((package,) + (parts[:-1] if parts[-1] == "__init__" else parts))
            found[name] = path
    return found


FACES = {"tilec", "tilec.runtime"}  # package faces that import lazily what they hand on


def _resolve(name: str, modules: dict) -> str | None:
    """The module a dotted name lands on: its longest prefix that is a module."""
    parts = name.split(".")
    return next((".".join(parts[:i]) for i in range(len(parts), 0, -1) if ".".join(parts[:i]) in modules), None)


def _imports(name: str, path: Path, modules: dict) -> set[str]:
    """The tilec modules ``name`` imports, at its top or inside functions (a face: none)."""
    if name in FACES:
        return set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = ".".join(base[:len(base) - (node.level - 1)] + ([node.module] if node.module else [])) \
                if node.level else node.module or ""
            # `from pkg import sub` names the submodule when there is one, else the package
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        out |= {r for r in (_resolve(t, modules) for t in targets) if r and r != name}
    return out


def _cycles(graph: dict) -> set[frozenset]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on, found = {}, {}, [], set(), set()

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def _graph() -> dict:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def test_no_import_cycle_but_the_known_ones_and_those_only_shrink():
    cycles = _cycles(_graph())
    assert cycles - KNOWN == set(), f"new import cycles: {[sorted(c) for c in cycles - KNOWN]}"
    assert KNOWN - cycles == set(), f"untangled (remove from KNOWN): {[sorted(c) for c in KNOWN - cycles]}"


def test_the_runtime_imports_nothing_of_the_compiler():
    graph = _graph()
    outside = {(m, t) for m, targets in graph.items() if m.startswith("tilec.runtime")
               for t in targets if not t.startswith("tilec.runtime")}
    assert outside == set(), outside


def test_the_checker_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == {frozenset({"a", "b"})}


# the layers, top down (docs/architecture.md): a module imports its own layer or those below it.
# ``tilec.tune.command`` is ``tilec tune``'s command line.
LAYERS = [("tilec.cli", "tilec.tune.command"), ("tilec.tune", "tilec.pytorch", "tilec.fuzz"), ("tilec.build",),
          ("tilec.verify",), ("tilec.graph",), ("tilec.codegen",), ("tilec.lowering",), ("tilec.executors",),
          ("tilec.passes", "tilec.targets", "tilec.frontend"), ("tilec.dialects",)]


# a target's folder (tilec/targets/<target>/) holds its part of some layers, each in a subpackage
# named after that layer; its tile -> tile passes sit at the folder's top, at the passes' layer
TARGET_LAYERS = ("dialects", "executors", "codegen", "verify")


def _home(module: str) -> str:
    """The layer package ``module`` belongs to: its own, or for a module of a target's folder the
    layer its subpackage is named after (``tilec.targets.sm_90a.verify.hopper`` -> ``tilec.verify.hopper``)."""
    parts = module.split(".")
    if parts[:2] == ["tilec", "targets"] and len(parts) > 3 and parts[3] in TARGET_LAYERS:
        return ".".join(["tilec"] + parts[3:])
    return module


def _layer(module: str) -> int | None:
    """The rank of ``module``'s layer (0 the top), or None for the modules beside them all (the
    faces, the runtime and the ground: diagnostics, files, cache, build id, signature)."""
    module = _home(module)
    found = [(len(p), rank) for rank, packages in enumerate(LAYERS) for p in packages
             if module == p or module.startswith(p + ".")]
    return max(found)[1] if found else None  # the longest prefix that names it


def _upward(graph: dict) -> set:
    """The imports of a module from a layer above its own; a module that imports nothing of tilec
    (verify/solver.py's Z3 plumbing) is ground for every layer."""
    return {(m, t) for m, targets in graph.items() for t in targets
            if _layer(m) is not None and _layer(t) is not None and _layer(t) < _layer(m) and graph[t]}


def test_no_module_imports_a_layer_above_its_own():
    assert _upward(_graph()) == set()


def test_the_ground_imports_no_layer_but_the_dialects():
    graph = _graph()
    ground = [m for m in graph if _layer(m) is None and m not in FACES and not m.startswith("tilec.runtime")
              and m != "tilec.__main__"]
    assert {"tilec.diagnostics", "tilec.signature", "tilec.cache"} <= set(ground)
    up = {(m, t) for m in ground for t in graph[m] if _layer(t) is not None and _layer(t) < len(LAYERS) - 1}
    assert up == set(), up


def test_passes_prove_nothing_and_the_checker_neither_lowers_nor_emits():
    graph = _graph()
    passes = lambda m: m.startswith("tilec.passes") or m.startswith("tilec.targets") and _layer(m) == _layer(
        "tilec.passes")
    arrows = {(m, t) for m, targets in graph.items() for t in targets
              if passes(m) and _home(t).startswith("tilec.verify")
              or _home(m).startswith("tilec.verify") and (_home(t).startswith("tilec.codegen") or passes(t))}
    assert arrows == set(), arrows


def test_the_layer_check_finds_an_upward_import():
    graph = {"tilec.graph.split": {"tilec.build.plan"}, "tilec.build.plan": {"tilec.graph.split"}}
    assert _upward(graph) == {("tilec.graph.split", "tilec.build.plan")}


def test_a_target_folder_is_layered_by_its_subpackages():
    assert _layer("tilec.targets.sm_90a.verify.hopper") == _layer("tilec.verify.kernels")
    assert _layer("tilec.targets.sm_90a.codegen.cuda_hopper") == _layer("tilec.codegen.cuda")
    assert _layer("tilec.targets.sm_90a.dialects.tile_hopper") == _layer("tilec.dialects.tile")
    assert _layer("tilec.targets.sm_90a.tile_warp_specialize.attention") == _layer("tilec.passes.ta_to_tile")
    # a target's ops may not reach up into the emitter, nor its checks into its passes
    graph = {"tilec.targets.sm_90a.dialects.tile_hopper": {"tilec.targets.sm_90a.codegen.cuda_hopper"},
             "tilec.targets.sm_90a.codegen.cuda_hopper": {"tilec.diagnostics"}}
    assert _upward(graph) == {("tilec.targets.sm_90a.dialects.tile_hopper", "tilec.targets.sm_90a.codegen.cuda_hopper")}
