"""The docs' generated tables (bench/tables.py) say what the results files hold: the check passes
on the tree, and finds a number edited by hand or a marker naming no generator."""

import pytest

from bench import tables
from conftest import ROOT


def test_every_generated_table_matches_its_results_files(capsys):
    assert tables.main(["--check"]) == 0, capsys.readouterr().out


def test_the_docs_hold_generated_tables():
    """Every generator's table is in one of the docs it rewrites."""
    text = "".join((ROOT / doc).read_text() for doc in tables.DOCS)
    assert all(f"<!-- table: {name} -->" in text for name in tables.TABLES)


def test_a_number_edited_by_hand_is_found():
    text = (ROOT / "docs" / "benchmarks.md").read_text()
    edited = text.replace("| ping-pong D=128 | 1.2373 /", "| ping-pong D=128 | 1.2273 /", 1)
    assert edited != text
    fixed, changed = tables.render(edited, "docs/benchmarks.md")
    assert changed == ["attention-inplace-pv"] and fixed == text
    assert tables.render(text, "docs/benchmarks.md") == (text, [])


def test_a_marker_naming_no_generator_is_refused():
    with pytest.raises(SystemExit, match=r"x.md: no table generator named 'gemm-peers'"):
        tables.render("<!-- table: gemm-peers -->\n| a |\n<!-- end table -->\n", "x.md")
