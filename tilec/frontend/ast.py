"""The syntax tree of a spec, and the parser that builds it (lark, LALR)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from tilec.dialects.dims import DimExpr, binary, const, sym

from ..diagnostics import SourceLoc, TilecError


@dataclass(frozen=True)
class Node:
    loc: SourceLoc


@dataclass(frozen=True)
class Number(Node):
    value: float


@dataclass(frozen=True)
class Inf(Node):
    pass


@dataclass(frozen=True)
class Name(Node):
    id: str


@dataclass(frozen=True)
class Access(Node):
    name: str
    subscripts: tuple


@dataclass(frozen=True)
class Call(Node):
    fn: str
    args: tuple


@dataclass(frozen=True)
class Reduction(Node):
    kind: str  # sum, max, min, softmax, logsumexp
    indices: tuple[str, ...]
    body: Node


@dataclass(frozen=True)
class Unary(Node):
    op: str
    x: Node


@dataclass(frozen=True)
class Binary(Node):
    op: str  # + - * / and or, or a comparison
    a: Node
    b: Node


@dataclass(frozen=True)
class Where(Node):
    value: Node
    cond: Node
    fill: Node | None


@dataclass(frozen=True)
class Param(Node):
    name: str
    default: int | None


@dataclass(frozen=True)
class Const(Node):
    name: str
    expr: Node


@dataclass(frozen=True)
class TensorDecl(Node):
    io: str  # input or output
    name: str
    dims: tuple[DimExpr, ...]
    dtype: str
    dtype_loc: SourceLoc


@dataclass(frozen=True)
class Assign(Node):
    let: bool
    name: str
    indices: tuple | None  # None: no subscript written
    expr: Node


class _Build(Transformer):
    """lark tree -> Node objects, each with its source location."""

    def __init__(self, file: str):
        super().__init__()
        self.file = file

    def _loc(self, meta_or_token) -> SourceLoc:
        return SourceLoc(self.file, meta_or_token.line, meta_or_token.column)

    def start(self, items):
        return [s for group in items for s in (group if isinstance(group, list) else [group])]

    @v_args(meta=True)
    def param_decl(self, meta, items):
        return items

    def param_item(self, items):
        name = items[0]
        return Param(self._loc(name), str(name), int(items[1]) if len(items) > 1 else None)

    def const_decl(self, items):
        return Const(self._loc(items[0]), str(items[0]), items[1])

    def tensor_decl(self, items):
        io, name, *dims, dtype = items
        return TensorDecl(self._loc(name), str(io.children[0]), str(name),
                          tuple(d for d in dims if d is not None), str(dtype), self._loc(dtype))

    def dim_int(self, items):
        return const(int(items[0]))

    def dim_name(self, items):
        return sym(str(items[0]))

    def dim_add(self, items):
        return binary("+", *items)

    def dim_sub(self, items):
        return binary("-", *items)

    def dim_mul(self, items):
        return binary("*", *items)

    def dim_div(self, items):
        return binary("/", *items)

    def assign(self, items, let=False):
        name = items[0]
        subscript = items[1] if len(items) == 3 else None
        return Assign(self._loc(name), let, str(name), subscript, items[-1])

    def let_assign(self, items):
        return self.assign(items, let=True)

    def subscript(self, items):
        return tuple(i for i in items if i is not None)

    def number(self, items):
        return Number(self._loc(items[0]), float(items[0]))

    @v_args(meta=True)
    def inf(self, meta, items):
        return Inf(self._loc(meta))

    def name(self, items):
        return Name(self._loc(items[0]), str(items[0]))

    def access(self, items):
        return Access(self._loc(items[0]), str(items[0]), items[1])

    def call(self, items):
        fn = items[0]
        token = fn.children[0] if not isinstance(fn, Token) else fn
        return Call(self._loc(token), str(token), tuple(a for a in items[1:] if a is not None))

    def reduction(self, items):
        token = items[0].children[0]
        *indices, body = items[1:]
        return Reduction(self._loc(token), str(token), tuple(map(str, indices)), body)

    @v_args(meta=True)
    def neg(self, meta, items):
        return Unary(self._loc(meta), "-", items[0])

    def _binary(op):
        @v_args(meta=True)
        def build(self, meta, items):
            return Binary(self._loc(meta), op, items[0], items[1])
        return build

    add, sub, mul, div = _binary("+"), _binary("-"), _binary("*"), _binary("/")
    and_, or_ = _binary("and"), _binary("or")

    @v_args(meta=True)
    def compare(self, meta, items):
        a, op, b = items
        return Binary(self._loc(meta), str(op.children[0]), a, b)

    @v_args(meta=True)
    def where(self, meta, items):
        value, cond, *fill = items
        return Where(self._loc(meta), value, cond, fill[0] if fill else None)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files("tilec.frontend").joinpath("spec.lark").read_text()
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True)


_TOKEN_NAMES = {"LSQB": "'['", "RSQB": "']'", "LPAR": "'('", "RPAR": "')'", "EQUAL": "'='",
                "COMMA": "','", "COLON": "':'", "NAME": "a name", "NUMBER": "a number",
                "INT": "an integer", "$END": "end of file"}


def _describe(expected) -> str:
    names = sorted({_TOKEN_NAMES.get(e, e.lower()) for e in expected})
    return ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")


def parse(text: str, file: str) -> list[Node]:
    """Parse spec text into a list of statements; syntax errors are TilecErrors."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        loc = SourceLoc(file, err.line if err.line > 0 else 1, err.column if err.column > 0 else 1)
        if isinstance(err, UnexpectedCharacters):
            message = f"unexpected character {text[err.pos_in_stream]!r}"
        elif isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
            lines = text.splitlines() or [""]
            loc = SourceLoc(file, len(lines), len(lines[-1]) + 1)
            message = f"unexpected end of file; expected {_describe(err.expected)}"
        else:
            message = f"unexpected {err.token.value!r}; expected {_describe(err.expected)}"
        raise TilecError(message, loc, text) from None
    return _Build(file).transform(tree)
