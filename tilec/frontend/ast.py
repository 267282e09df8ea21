"""The syntax tree of a spec, and the parser that builds it (lark, LALR)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import PatternStr

from tilec.dialects.dims import DimExpr, binary, const, sym

from ..diagnostics import SourceLoc, TilecError
from .limits import F32_MAX, MAX_DEPTH, MAX_INT


@dataclass(frozen=True)
class Node:
    loc: SourceLoc


@dataclass(frozen=True)
class Number(Node):
    value: float
    integer: bool = False  # spelled without '.' or an exponent


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
    indices: tuple | None = None  # f[j](...): subscripts written after a name that is no reducer


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
    default_loc: SourceLoc | None = None


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
    dim_locs: tuple[SourceLoc, ...] = ()


@dataclass(frozen=True)
class Assign(Node):
    let: bool
    name: str
    indices: tuple | None  # None: no subscript written
    expr: Node


@dataclass(frozen=True)
class _Dim:
    """A dimension expression while it is built, with where it was written."""

    expr: DimExpr
    loc: SourceLoc


class _Build(Transformer):
    """lark tree -> Node objects, each with its source location."""

    def __init__(self, file: str, source: str):
        super().__init__()
        self.file = file
        self.source = source

    def _loc(self, meta_or_token) -> SourceLoc:
        return SourceLoc(self.file, meta_or_token.line, meta_or_token.column)

    def _int(self, token, what: str) -> int:
        """An integer literal, refused beyond MAX_INT (before Python converts a huge one)."""
        text = str(token).lstrip("0") or "0"
        if len(text) > len(str(MAX_INT)) or int(text) > MAX_INT:
            raise TilecError(f"{what} {_abbreviated(str(token))} is too large; the limit is 2^31 - 1 = {MAX_INT}",
                             self._loc(token), self.source)
        return int(text)

    def start(self, items):
        return [s for group in items for s in (group if isinstance(group, list) else [group])]

    @v_args(meta=True)
    def param_decl(self, meta, items):
        return items

    def param_item(self, items):
        name, default = items[0], items[1] if len(items) > 1 else None
        if default is None:
            return Param(self._loc(name), str(name), None)
        return Param(self._loc(name), str(name), self._int(default, "parameter value"), self._loc(default))

    def const_decl(self, items):
        return Const(self._loc(items[0]), str(items[0]), items[1])

    def tensor_decl(self, items):
        io, name, *dims, dtype = items
        dims = [d for d in dims if d is not None]
        return TensorDecl(self._loc(name), str(io.children[0]), str(name), tuple(d.expr for d in dims),
                          str(dtype), self._loc(dtype), tuple(d.loc for d in dims))

    def dim_int(self, items):
        return _Dim(const(self._int(items[0], "dimension")), self._loc(items[0]))

    def dim_name(self, items):
        return _Dim(sym(str(items[0])), self._loc(items[0]))

    def _dim_binary(op):
        @v_args(meta=True)
        def build(self, meta, items):
            lhs, rhs = items
            if op == "/" and rhs.expr.op == "const" and rhs.expr.value == 0:
                raise TilecError("division by zero in a dimension", rhs.loc, self.source)
            return _Dim(binary(op, lhs.expr, rhs.expr), self._loc(meta))
        return build

    dim_add, dim_sub, dim_mul, dim_div = _dim_binary("+"), _dim_binary("-"), _dim_binary("*"), _dim_binary("/")

    def assign(self, items, let=False):
        name = items[0]
        subscript = items[1] if len(items) == 3 else None
        return Assign(self._loc(name), let, str(name), subscript, items[-1])

    def let_assign(self, items):
        return self.assign(items, let=True)

    def subscript(self, items):
        return tuple(i for i in items if i is not None)

    def number(self, items):
        value = float(items[0])
        if value > F32_MAX:
            raise TilecError(f"the number {_abbreviated(str(items[0]))} is too large for f32 (at most {F32_MAX:.7g})",
                             self._loc(items[0]), self.source)
        return Number(self._loc(items[0]), value, str(items[0]).isdigit())

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

    def indexed_call(self, items):
        name, subscript, *args = items
        return Call(self._loc(name), str(name), tuple(a for a in args if a is not None), subscript)

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


# terminals matched by a pattern, by what they are; keywords and punctuation show as written
_PATTERN_NAMES = {"NAME": "a name", "NUMBER": "a number", "INT": "an integer", "$END": "end of file"}


@lru_cache(maxsize=1)
def _terminal_names() -> dict[str, str]:
    names = dict(_PATTERN_NAMES)
    for terminal in _parser().terminals:
        if isinstance(terminal.pattern, PatternStr):
            names[terminal.name] = f"'{terminal.pattern.value}'"
    return names


def _describe(expected) -> str:
    """lark's expected terminals (``RPAR``, ``__ANON_0``) as what a user types (``')'``, ``'<='``)."""
    names = _terminal_names()
    words = sorted({names.get(e, "a name" if e.isidentifier() and e.isupper() else e.lower()) for e in expected},
                   key=lambda w: (not w.startswith("'"), w))
    return ", ".join(words[:10]) + (", ..." if len(words) > 10 else "")


def _abbreviated(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:10]}...{text[-6:]} ({len(text)} characters)"


def _check_depth(tree: Tree, file: str, text: str) -> None:
    """Refuse a statement nested deeper than MAX_DEPTH (the tree walks below recurse)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            meta = node.meta
            loc = SourceLoc(file, getattr(meta, "line", 1), getattr(meta, "column", 1))
            raise TilecError(f"this is nested more than {MAX_DEPTH} levels deep; split the expression "
                             f"with 'let' temporaries or constants", loc, text)
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def parse(text: str, file: str) -> list[Node]:
    """Parse spec text into a list of statements; syntax errors are TilecErrors."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        loc = SourceLoc(file, err.line if err.line > 0 else 1, err.column if err.column > 0 else 1)
        if isinstance(err, UnexpectedCharacters):
            message = f"unexpected character {text[err.pos_in_stream]!r}"
        elif isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
            lines = text.split("\n")  # lines as lark counts them; a final newline ends the last one
            if len(lines) > 1 and not lines[-1]:
                lines.pop()
            loc = SourceLoc(file, len(lines), len(lines[-1].removesuffix("\r")) + 1)
            message = f"unexpected end of file; expected {_describe(err.expected)}"
        else:
            message = f"unexpected {_abbreviated(repr(err.token.value))}; expected {_describe(err.expected)}"
        raise TilecError(message, loc, text) from None
    _check_depth(tree, file, text)
    try:
        return _Build(file, text).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, TilecError):
            raise err.orig_exc from None
        raise
