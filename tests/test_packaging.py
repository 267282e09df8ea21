"""The installed package is the whole package: pyproject lists every Python package in the tree.

CI also builds the wheel, installs it into a fresh environment and runs the README's main
command from outside the checkout (.ci/run); this test catches a missing entry in seconds.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def _tree_packages() -> set[str]:
    """Every directory with an __init__.py, named as it installs (package-dir applied)."""
    found = set()
    for name, where in _config()["package-dir"].items():
        base = ROOT / where
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base).parts
            if "__pycache__" in rel:
                continue
            found.add(".".join((name, *rel)))
    return found


def test_pyproject_lists_every_package():
    listed = set(_config()["packages"])
    tree = _tree_packages()
    assert tree - listed == set(), f"packages missing from pyproject.toml: {sorted(tree - listed)}"
    assert listed - tree == set(), f"pyproject.toml lists packages that do not exist: {sorted(listed - tree)}"


def test_package_data_is_listed():
    data = _config()["package-data"]
    for path in [*(ROOT / "tilec").rglob("*.lark"), *(ROOT / "tilec").rglob("*.h")]:
        package = ".".join(("tilec", *path.parent.relative_to(ROOT / "tilec").parts))
        assert any(path.match(pattern) for pattern in data.get(package, [])), path


def test_the_cache_key_changes_with_the_compiler_source(monkeypatch, tmp_path):
    """A kernel cached by an older compiler is not returned by a newer one of the same version:
    the key holds the build id, a hash of tilec's own source (tilec, dialects, passes)."""
    import re

    from tilec import __version__, build_id
    from tilec.build import package

    ident = build_id.build_id()
    assert re.fullmatch(re.escape(__version__) + r"\+[0-9a-f]{16}", ident), ident
    key = package.cache_key("spec", "bm=64", ("sm_90a",), "nvrtc")
    monkeypatch.setattr(package, "build_id", lambda: ident + "-edited")
    assert package.cache_key("spec", "bm=64", ("sm_90a",), "nvrtc") != key


def test_the_source_digest_follows_the_source_and_nothing_else(tmp_path):
    from tilec.build_id import source_digest

    pkg = tmp_path / "passes"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "sub" / "grammar.lark").write_text("start: NAME\n")
    first = source_digest([pkg])
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    (pkg / "notes.txt").write_text("not code")
    assert source_digest([pkg]) == first
    (pkg / "sub" / "grammar.lark").write_text("start: NUMBER\n")
    assert source_digest([pkg]) != first
