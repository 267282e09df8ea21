"""docs/modules.md is what docs/module_table.py reads from the tree: every module of every package,
with the first line of its docstring."""

import subprocess
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "docs"))
import module_table  # noqa: E402


def test_the_page_is_what_the_tree_gives():
    result = subprocess.run([sys.executable, str(ROOT / "docs" / "module_table.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_module_of_every_package_is_a_row():
    rows = {(package, name) for package, modules in module_table.packages().items() for name, _ in modules}
    files = {p for folder in ("tilec", "dialects", "passes") for p in (ROOT / folder).rglob("*.py")}
    assert len(rows) == len(files) >= 190
    assert ("tilec.dialects", "target.py") in rows and ("tilec.passes.ta_to_tile", "online.py") in rows


def test_a_stale_page_fails_the_check(tmp_path, monkeypatch):
    stale = tmp_path / "modules.md"
    stale.write_text(module_table.page().replace("| `target.py` |", "| `targets.py` |"))
    monkeypatch.setattr(module_table, "PAGE", stale)
    assert module_table.main(["--check"]) == 1
    module_table.main([])
    assert module_table.main(["--check"]) == 0
