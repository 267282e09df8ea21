"""Pass pipelines: ``builtin.module(canonicalize, ta-decompose-softmax, func.func(cse))``.

The textual form is mlir-opt's. tilec passes (Python) and upstream MLIR passes
mix freely at module level; nested anchors such as ``func.func(...)`` hold
upstream passes. ``build`` turns the text into one MLIR ``PassManager`` in
which each tilec pass is a Python pass, so MLIR's own IR printing, timing and
dump directories see every pass.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from lark import Lark
from lark.exceptions import UnexpectedInput
from torch_mlir import passmanager

from tilec import passes

from ..diagnostics import SourceLoc, TilecError
from .pipeline_guard import refusal

_GRAMMAR = r"""
elements: element ("," element)*
element: NAME OPTIONS? | NAME "(" [elements] ")"
NAME: /[A-Za-z_][A-Za-z0-9_.\-]*/
OPTIONS: /\{[^{}]*\}/
%import common.WS
%ignore WS
"""
_PARSER = Lark(_GRAMMAR, start="elements", parser="lalr", propagate_positions=True, maybe_placeholders=True)

PIPELINE_FILE = "<pass-pipeline>"


@dataclass
class Element:
    """One pipeline entry: a pass with options, or a nested anchor with children."""

    name: str
    options: dict[str, str]
    children: list["Element"] | None
    text: str
    col: int


def _error(message: str, text: str, col: int) -> TilecError:
    return TilecError(message, SourceLoc(PIPELINE_FILE, 1, col), text)


def _options(token, text: str, col: int) -> dict[str, str]:
    """``{a=1 b}`` -> {"a": "1", "b": "true"}; an option given twice is an error at the pass."""
    result = {}
    for item in str(token)[1:-1].split():
        key, eq, value = item.partition("=")
        if not eq and key:
            value = "true"  # a bare flag
        if key in result:
            raise _error(f"option '{key}' is given twice ({key}={result[key]} and {key}={value})", text, col)
        result[key] = value
    return result


def _elements(tree, text: str) -> list[Element]:
    out = []
    for node in tree.children:
        name = node.children[0]
        rest = node.children[1] if len(node.children) > 1 else None
        source = text[node.meta.start_pos:node.meta.end_pos]
        if rest is not None and getattr(rest, "type", None) == "OPTIONS":
            out.append(Element(str(name), _options(rest, text, name.column), None, source, name.column))
        elif rest is not None or source.rstrip().endswith(")"):
            children = _elements(rest, text) if rest is not None else []
            out.append(Element(str(name), {}, children, source, name.column))
        else:
            out.append(Element(str(name), {}, None, source, name.column))
    return out


def parse(text: str) -> list[Element]:
    """The module-level elements of a pipeline string (``builtin.module(...)`` unwrapped)."""
    try:
        tree = _PARSER.parse(text)
    except UnexpectedInput as err:
        raise _error("malformed pass pipeline", text, max(err.column, 1)) from None
    elements = _elements(tree, text)
    if len(elements) == 1 and elements[0].name == "builtin.module" and elements[0].children is not None:
        return elements[0].children
    return elements


def pass_names(elements: list[Element]) -> list[str]:
    return [e.name for e in elements]


def build(text: str, print_before: set[str] = frozenset(), print_after: set[str] = frozenset(),
          allow_file_writes: bool = False, allow_file_reads: bool = False) -> tuple[passmanager.PassManager, list]:
    """A PassManager for ``text`` (in the active context), and a list that collects
    the first error a tilec pass raised (the PassManager only reports "failed").
    Upstream passes that write files are refused unless ``allow_file_writes``, those whose
    options name files to read or a program to run unless either flag (tilec/lowering/pipeline_guard.py)."""
    pm = passmanager.PassManager("builtin.module")
    failures: list[Exception] = []
    elements = parse(text)
    for element in elements:
        if element.name in print_before:
            pm.add(_printer(f"IR Dump Before {element.name}"), name="print-ir")
        _add(pm, element, text, failures, allow_file_reads, allow_file_writes)
        if element.name in print_after:
            pm.add(_printer(f"IR Dump After {element.name}"), name="print-ir")
    return pm, failures


def _add(pm, element: Element, text: str, failures: list, reads: bool = False, writes: bool = False) -> None:
    if element.name in passes.names():
        if element.children is not None:
            raise _error(f"'{element.name}' is a pass, not an anchor", text, element.col)
        info = passes.get(element.name)
        try:
            options = passes.parse_options(info, element.options)
        except ValueError as err:
            raise _error(str(err), text, element.col) from None
        pm.add(_python_pass(info, options, failures), name=info.name, argument=info.name,
               description=info.summary)
        return
    for child in element.children or ():
        if child.name in passes.names():
            raise _error(f"tilec pass '{child.name}' runs on the whole module; move it out of "
                         f"'{element.name}(...)'", text, child.col)
    said = _quietly(pm.add, element.text)
    if said is None:
        refused = refusal(element, reads, writes)
        if refused is not None:
            raise _error(refused[0], text, refused[1])
        return
    bare = element.name if element.children is None else f"{element.name}(cse)"
    if _quietly(passmanager.PassManager("builtin.module").add, bare) is None:  # known: what is inside is wrong
        lines = [line.strip(" :") for line in said.splitlines() if line.strip(" :")]
        reason = (lines[0] if lines else "invalid").removeprefix("<Pass-Options-Parser>: ").split("error: ")[-1]
        inside = "options" if element.children is None else "pipeline"
        raise _error(f"bad {inside} in '{element.name}': {reason}", text, element.col)
    what = "anchor" if element.children is not None else "pass"
    raise _error(f"unknown {what} '{element.name}' (see 'tilec passes' and mlir-opt's pass list)",
                 text, element.col)


def _quietly(add, text: str) -> str | None:
    """None when ``add(text)`` succeeds, else what MLIR printed on stderr while refusing it
    (kept out of the user's terminal: the error we raise says it once, located)."""
    import os
    import tempfile

    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            add(text)
            return None
        except ValueError as err:
            failure = str(err)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        sink.seek(0)
        return sink.read().decode(errors="replace") or failure


def _python_pass(info, options, failures: list):
    def run(op, pass_):
        try:
            with op.location:
                info.run(op, options)
        except Exception as err:  # reported after the pass manager returns
            failures.append(err)
            pass_.signal_pass_failure()
    return run


def _printer(title: str):
    def run(op, pass_):
        sys.stderr.write(f"// -----// {title} //----- //\n{op}\n\n")
        sys.stderr.flush()
    return run
