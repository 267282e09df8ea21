"""dialects/op_rules.py: a target's own ops bring their rules to the generic walks (the emitter,
the interpreter, the symbolic executor) and their proof obligations, found through the op, so
that no generic module imports a target's folder."""

from __future__ import annotations

import ast

import pytest
from torch_mlir import ir

from tilec import dialects
from tilec.dialects import op_rules
from tilec.dialects.target import get, names

from conftest import ROOT

WALKS = ("cuda", "interpret", "symbolic")


def _own_ops(target: str) -> list[str]:
    """The op names a target's features table lists: every op its folder adds to the dialect."""
    with dialects.context():
        op_rules.rule("features", "")
    return sorted(name for name, _ in op_rules._RULES["features"].items()
                  if any(module.startswith(f"tilec.targets.{target}.") for module in get(target).ops))


@pytest.mark.parametrize("walk", WALKS)
def test_every_op_of_a_target_has_a_rule_in_every_walk(walk):
    ops = _own_ops("sm_90a")
    assert len(ops) == 13
    passes_only = [name for name in ops if op_rules.rule("resolved-by", name) is not None]
    assert passes_only == ["tile.ring_start"]
    assert [name for name in ops if op_rules.rule(walk, name) is None and name not in passes_only] == []


def test_no_generic_module_imports_a_targets_folder():
    """Outside tilec/targets/, a target's modules are reached through the registry alone."""
    offenders = []
    for path in list((ROOT / "tilec").rglob("*.py")) + list((ROOT / "dialects").rglob("*.py")) + \
            list((ROOT / "passes").rglob("*.py")):
        if "targets" in path.relative_to(ROOT).parts[:2]:
            continue
        package = path.relative_to(ROOT).parent.parts
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package[:len(package) - node.level + 1] if node.level else ()
                found = [".".join((*base, node.module or ""))]
            else:
                continue
            offenders += [f"{path.relative_to(ROOT)}: {name}" for name in found if name.startswith("tilec.targets")]
    assert offenders == []


def test_an_op_has_one_rule_per_layer():
    first = lambda *a: None
    op_rules.register("test-layer", {"tile.made_up": first})
    op_rules.register("test-layer", {"tile.made_up": first})  # the same rule again: a module imported twice
    with pytest.raises(ValueError, match="'tile.made_up' has a rule already"):
        op_rules.register("test-layer", {"tile.made_up": lambda *a: None})


def test_obligations_come_from_the_ops_present_once_each():
    """A warp-specialised kernel brings its ring's proofs (one tile.warp_specialize), a cp.async
    kernel none: its checks are the generic ones."""
    from tilec.frontend import load_spec
    from tilec.lowering.driver import build_tile

    with dialects.context(), ir.Location.unknown():
        spec = load_spec(str(ROOT / "examples" / "gemm.ta"))
        hopper = build_tile(spec, {}, "bm=128 bn=128 bk=64 warps=8 stages=3 consumers=2", "sm_90a")
        ampere = build_tile(spec, {}, "bm=64 bn=64 bk=32", "sm_80")
        own = op_rules.obligations(hopper.tile.body.operations[0], "obligations")
        assert [f.__name__ for f in own] == ["warp_roles"]
        assert op_rules.obligations(ampere.tile.body.operations[0], "obligations") == []
        assert [f.__name__ for f in op_rules.obligations(hopper.tile.body.operations[0], "cuda-obligations")] == \
            ["register_split_in_cuda"]
        assert op_rules.features_used(hopper.tile.body.operations[0]) == ("tma", "wgmma", "setmaxnreg")
        assert op_rules.features_used(ampere.tile.body.operations[0]) == ()


def test_every_registered_targets_rule_modules_import():
    for target in names():
        for layer, module in get(target).rules:
            assert op_rules.rule(layer, "no.such_op") is None  # loads the layer's modules without error
            assert module in op_rules._LOADED


def test_a_walk_meeting_an_op_only_passes_read_names_the_pass(tmp_path):
    """tile.ring_start is tile-persistent's to replace: the emitter, given the IR before it, says so."""
    import subprocess
    import sys

    source = ROOT / "tests" / "filecheck" / "passes" / "tile-persistent.mlir"
    first = source.read_text().split("// -----")[0]
    (tmp_path / "roles.mlir").write_text(first)
    done = subprocess.run([sys.executable, "-m", "tilec", "translate", str(tmp_path / "roles.mlir")],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "has no rule for 'tile.ring_start', which tile-persistent replaces" in done.stderr
