"""print -> parse -> print is the identity for every op of both dialects."""

from pathlib import Path

import pytest
from torch_mlir import ir

from tilec import dialects
from tilec.cli.opt import split_chunks

FILES = sorted((Path(__file__).parent / "filecheck" / "dialects").glob("*-roundtrip.mlir"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_print_parse_print(path):
    for chunk, _ in split_chunks(path.read_text(), split=True):
        with dialects.context():
            first = str(ir.Module.parse(chunk))
            second = str(ir.Module.parse(first))
            generic = ir.Module.parse(first).operation.get_asm(print_generic_op_form=True)
            third = str(ir.Module.parse(generic))
        assert first == second == third


def test_every_op_has_a_roundtrip_case():
    from tilec.dialects import ta, tile

    text = "".join(p.read_text() for p in FILES)
    for dialect in (ta.TA, tile.Tile):
        for op in dialect.operations:
            assert f'"{op.OPERATION_NAME}"' in text, op.OPERATION_NAME


def test_every_op_has_a_docstring_with_an_example():
    from tilec.dialects import ta, tile

    for dialect in (ta.TA, tile.Tile):
        for op in dialect.operations:
            assert op.__doc__ and "Example" in op.__doc__, op.OPERATION_NAME


def test_every_op_has_an_invalid_case():
    from tilec.dialects import ta, tile

    text = "".join(p.read_text() for p in FILES[0].parent.glob("*-invalid.mlir"))
    checked = [op for d in (ta.TA, tile.Tile) for op in d.operations if hasattr(op, "verify_invariants")]
    for op in checked:
        assert f"'{op.OPERATION_NAME}' op" in text, op.OPERATION_NAME
