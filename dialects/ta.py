"""The ``ta`` (tensor algebra) dialect: whole-tensor values over named indices.

Every ta value is a ranked tensor whose encoding names its dimensions
(``tensor<?x?xbf16, ["M", "K"]>``, see ``dims.py``), so verifiers can check that
a contraction's K of A is the K of B even when both are symbolic. Element types
are f32, f16 or bf16. The ops:

    ta.contract   sum of products, einsum-like, index maps per operand
    ta.map        pointwise computation written as a scalar region
    ta.at         inside ta.map: an element of a tensor (broadcast/transpose by map)
    ta.reduce     sum / max / min over some dims
    ta.softmax    softmax over one dim (sugar; decomposed by a pass)
    ta.logsumexp  log-sum-exp over one dim (sugar; decomposed by a pass)
    ta.remap      gather through an affine index map: transpose, broadcast, i+1, h/G
    ta.fill       a tensor of one value
    ta.index      inside ta.map: the current index along one dim
    ta.param      inside ta.map: the value of a shape parameter
    ta.yield      terminator of ta.map
"""


from collections.abc import Sequence
from typing import Any

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Region, Result

from ._verify import (Invalid, affine_maps, affine_maps_single, int_attr, int_list, is_float,
                      projected_dims, str_attr, verifier)
from .dims import DimError, DimExpr, parse_dim
from .reduce_kinds import NAMES

REDUCE_KINDS = NAMES


class TA(ext.Dialect, name="ta"):
    """Tensor algebra: the semantic reference level of tilec."""


def tensor_dims(value_type: ir.Type) -> list[DimExpr]:
    """The dimension expressions of a ta tensor type (from its encoding)."""
    t = ir.RankedTensorType(value_type)
    enc = t.encoding
    if enc is None or not isinstance(enc, ir.ArrayAttr):
        raise Invalid(f"tensor type {t} must name its dims in its encoding, e.g. [\"M\", \"K\"]")
    if len(enc) != t.rank or not all(isinstance(a, ir.StringAttr) for a in enc):
        raise Invalid(f"tensor type {t} must name each of its {t.rank} dims with a string")
    try:
        dims = [parse_dim(ir.StringAttr(a).value) for a in enc]
    except DimError as err:
        raise Invalid(str(err)) from None
    for size, dim in zip(t.shape, dims):
        # a symbolic dim may be dynamic, or static once its parameters are bound
        static = dim.static
        if static is not None and static != size:
            raise Invalid(f"tensor type {t}: size {'?' if ir.ShapedType.is_dynamic_size(size) else size} "
                          f"does not agree with dimension '{dim}'")
    if not is_float(t.element_type):
        raise Invalid(f"tensor type {t} must have an f32, f16 or bf16 element type")
    return dims


def _same_dim(expected: dict[int, DimExpr], pos: int, dim: DimExpr, what: str) -> None:
    if pos in expected and str(expected[pos]) != str(dim):
        raise Invalid(f"{what}: dimension d{pos} is '{expected[pos]}' in one place and '{dim}' in another")
    expected[pos] = dim


def _bind_dims(domain: dict[int, DimExpr], dims_of_tensor, positions, what) -> None:
    for dim, pos in zip(dims_of_tensor, positions):
        _same_dim(domain, pos, dim, what)


def _check_contract(op):
    lhs_map, rhs_map, out_map = affine_maps(op, "maps", 3)
    n = lhs_map.n_dims
    if rhs_map.n_dims != n or out_map.n_dims != n:
        raise Invalid("all three maps must range over the same iteration domain")
    operands = (("lhs", op.lhs.type, lhs_map), ("rhs", op.rhs.type, rhs_map),
                ("result", op.res.type, out_map))
    domain: dict[int, DimExpr] = {}
    for what, t, amap in operands:
        dims = tensor_dims(t)
        positions = projected_dims(amap, what)
        if len(positions) != len(dims):
            raise Invalid(f"{what} map has {len(positions)} results but the {what} has rank {len(dims)}")
        _bind_dims(domain, dims, positions, what)
    if len(domain) != n:
        missing = sorted(set(range(n)) - set(domain))
        raise Invalid(f"iteration dims {missing} appear in no operand")


class ContractOp(TA.Operation, name="contract", traits=[ext.Pure]):
    """Sum of products over the dims missing from the result map (einsum).

    Example (C = A @ B):
        %c = "ta.contract"(%a, %b) {maps = [affine_map<(i, j, k) -> (i, k)>,
              affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]}
              : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>)
              -> tensor<?x?xf32, ["M", "N"]>
    """

    lhs: Operand[ir.RankedTensorType]
    rhs: Operand[ir.RankedTensorType]
    maps: ir.ArrayAttr
    res: Result[ir.RankedTensorType]
    verify_invariants = verifier(_check_contract)


def _check_map(op):
    tensor_dims(op.res.type)
    blocks = list(op.body.blocks)
    if len(blocks) != 1 or len(blocks[0].arguments) != 0:
        raise Invalid("body must be one block without arguments")
    ops = list(blocks[0].operations)
    if not ops or ops[-1].name != "ta.yield":
        raise Invalid("body must end with ta.yield")
    res_elt = ir.RankedTensorType(op.res.type).element_type
    if [v.type for v in ops[-1].operands] != [res_elt]:
        raise Invalid(f"body must yield one {res_elt} value")


class MapOp(TA.Operation, name="map", traits=[ext.Pure]):
    """A pointwise computation over the result's index space.

    The body computes one result element from elements of other tensors, read
    with ``ta.at`` (broadcasting and transposing through its map), the current
    index (``ta.index``) and shape parameters (``ta.param``).

    Example (row-wise x - m):
        %y = "ta.map"() ({
          %a = "ta.at"(%x) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["M", "N"]>) -> f32
          %b = "ta.at"(%m) {map = affine_map<(i, j) -> (i)>} : (tensor<?xf32, ["M"]>) -> f32
          %d = arith.subf %a, %b : f32
          "ta.yield"(%d) : (f32) -> ()
        }) : () -> tensor<?x?xf32, ["M", "N"]>
    """

    res: Result[ir.RankedTensorType]
    body: Region
    verify_invariants = verifier(_check_map)


def _check_at(op):
    amap = affine_maps_single(op, "map")
    res_dims = domain_dims(_enclosing_map(op))
    dims = tensor_dims(op.src.type)
    if amap.n_dims != len(res_dims):
        raise Invalid(f"map must range over the {len(res_dims)} dims of the enclosing body, got {amap}")
    positions = projected_dims(amap, "ta.at")
    if len(positions) != len(dims):
        raise Invalid(f"map has {len(positions)} results but the tensor has rank {len(dims)}")
    for k, (dim, pos) in enumerate(zip(dims, positions)):
        if str(dim) != str(res_dims[pos]):
            raise Invalid(f"tensor dim #{k} is '{dim}' but it is indexed by map dim d{pos} of size '{res_dims[pos]}'")
    if op.res.type != ir.RankedTensorType(op.src.type).element_type:
        raise Invalid("result must be the tensor's element type")


class AtOp(TA.Operation, name="at", traits=[ext.Pure]):
    """Inside ta.map: the element of ``src`` at ``map`` of the current index.

    Example:
        %b = "ta.at"(%m) {map = affine_map<(i, j) -> (i)>} : (tensor<?xf32, ["M"]>) -> f32
    """

    src: Operand[ir.RankedTensorType]
    map: ir.AffineMapAttr
    res: Result[Any]
    verify_invariants = verifier(_check_at)


def _reduced_dims(src_type, res_type, dims: list[int]) -> None:
    src, res = tensor_dims(src_type), tensor_dims(res_type)
    if len(set(dims)) != len(dims) or any(d < 0 or d >= len(src) for d in dims):
        raise Invalid(f"dims {dims} must be distinct and within the operand rank {len(src)}")
    kept = [str(d) for i, d in enumerate(src) if i not in dims]
    if kept != [str(d) for d in res]:
        raise Invalid(f"result dims [{', '.join(map(str, res))}] must be the operand dims "
                      f"without {dims}: [{', '.join(kept)}]")
    if ir.RankedTensorType(src_type).element_type != ir.RankedTensorType(res_type).element_type:
        raise Invalid("result element type must equal the operand element type")


def _check_reduce(op):
    str_attr(op, "kind", REDUCE_KINDS)
    dims = int_list(op, "dims")
    if not dims:
        raise Invalid("needs at least one dim to reduce")
    _reduced_dims(op.src.type, op.res.type, dims)


class ReduceOp(TA.Operation, name="reduce", traits=[ext.Pure]):
    """Reduce the dims ``dims`` with ``kind`` (sum, max or min).

    Example (row sums):
        %s = "ta.reduce"(%x) {kind = "sum", dims = [1]}
             : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?xf32, ["M"]>
    """

    src: Operand[ir.RankedTensorType]
    kind: ir.StringAttr
    dims: ir.ArrayAttr
    res: Result[ir.RankedTensorType]
    verify_invariants = verifier(_check_reduce)


def _check_softmax(op):
    dim = int_attr(op, "dim")
    rank = ir.RankedTensorType(op.src.type).rank
    if not 0 <= dim < rank:
        raise Invalid(f"dim {dim} is out of range for rank {rank}")
    if op.src.type != op.res.type:
        raise Invalid("result type must equal the operand type")
    tensor_dims(op.src.type)


class SoftmaxOp(TA.Operation, name="softmax", traits=[ext.Pure]):
    """softmax along ``dim``: exp(x - max) / sum(exp(x - max)).

    Example:
        %p = "ta.softmax"(%s) {dim = 1 : i64}
             : (tensor<?x?xf32, ["S", "T"]>) -> tensor<?x?xf32, ["S", "T"]>
    """

    src: Operand[ir.RankedTensorType]
    dim: ir.IntegerAttr
    res: Result[ir.RankedTensorType]
    verify_invariants = verifier(_check_softmax)


def _check_logsumexp(op):
    _reduced_dims(op.src.type, op.res.type, [int_attr(op, "dim")])


class LogsumexpOp(TA.Operation, name="logsumexp", traits=[ext.Pure]):
    """log(sum(exp(x))) along ``dim``, which the result drops.

    Example:
        %l = "ta.logsumexp"(%x) {dim = 1 : i64}
             : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?xf32, ["M"]>
    """

    src: Operand[ir.RankedTensorType]
    dim: ir.IntegerAttr
    res: Result[ir.RankedTensorType]
    verify_invariants = verifier(_check_logsumexp)


def _check_remap(op):
    amap = affine_maps_single(op, "map")
    src_dims, res_dims = tensor_dims(op.src.type), tensor_dims(op.res.type)
    if amap.n_symbols:
        raise Invalid("map must not use symbols")
    if amap.n_dims != len(res_dims) or len(amap.results) != len(src_dims):
        raise Invalid(f"map must send the {len(res_dims)} result dims to the {len(src_dims)} "
                      f"operand dims, got {amap}")
    if ir.RankedTensorType(op.src.type).element_type != ir.RankedTensorType(op.res.type).element_type:
        raise Invalid("result element type must equal the operand element type")


class RemapOp(TA.Operation, name="remap", traits=[ext.Pure]):
    """res[i...] = src[map(i...)]: transpose, broadcast, shifts, grouped heads.

    Every index the map produces must be inside ``src`` (checked when run).

    Example (K head shared by groups of 4 query heads):
        %kg = "ta.remap"(%k) {map = affine_map<(h, j) -> (h floordiv 4, j)>}
              : (tensor<?x?xbf16, ["H/4", "T"]>) -> tensor<?x?xbf16, ["H", "T"]>
    """

    src: Operand[ir.RankedTensorType]
    map: ir.AffineMapAttr
    res: Result[ir.RankedTensorType]
    verify_invariants = verifier(_check_remap)


def _check_fill(op):
    tensor_dims(op.res.type)
    value = op.attributes["value"] if "value" in op.attributes else None
    if not isinstance(value, ir.FloatAttr):
        raise Invalid("requires a float attribute 'value'")
    if value.type != ir.RankedTensorType(op.res.type).element_type:
        raise Invalid("value type must equal the result element type")


class FillOp(TA.Operation, name="fill", traits=[ext.Pure]):
    """A tensor whose every element is ``value``.

    Example:
        %z = "ta.fill"() {value = 0.0 : f32} : () -> tensor<?x?xf32, ["M", "N"]>
    """

    value: ir.FloatAttr
    res: Result[ir.RankedTensorType]
    verify_invariants = verifier(_check_fill)


BODY_OPS = ("ta.map", "ta.online")


def _enclosing_map(op):
    parent = op.operation.parent
    if parent is None or parent.name not in BODY_OPS:
        raise Invalid("must be inside a ta.map or ta.online body")
    return parent.opview


def domain_dims(body_op) -> list[DimExpr]:
    """The index space a ta.map or ta.online body runs over."""
    if body_op.operation.name == "ta.online":
        return [parse_dim(ir.StringAttr(a).value) for a in ir.ArrayAttr(body_op.attributes["extents"])]
    return tensor_dims(body_op.res.type)


def _check_index(op):
    dim = int_attr(op, "dim")
    rank = len(domain_dims(_enclosing_map(op)))
    if not 0 <= dim < rank:
        raise Invalid(f"dim {dim} is out of range for the enclosing body of rank {rank}")


class IndexOp(TA.Operation, name="index", traits=[ext.Pure]):
    """Inside ta.map: the current index along result dim ``dim`` (for masks).

    Example:
        %i = "ta.index"() {dim = 0 : i64} : () -> index
    """

    dim: ir.IntegerAttr
    res: Result[ir.IndexType]
    verify_invariants = verifier(_check_index)


def _check_param(op):
    _enclosing_map(op)
    name = str_attr(op, "name")
    if not name.isidentifier():
        raise Invalid(f"'{name}' is not a shape parameter name")


class ParamOp(TA.Operation, name="param", traits=[ext.Pure]):
    """Inside ta.map: the value of shape parameter ``name`` (e.g. for 1/sqrt(D)).

    Example:
        %d = "ta.param"() {name = "D"} : () -> index
    """

    name: ir.StringAttr
    res: Result[ir.IndexType]
    verify_invariants = verifier(_check_param)


def _check_yield(op):
    _enclosing_map(op)


class YieldOp(TA.Operation, name="yield", traits=[ir.IsTerminatorTrait]):
    """Terminates a ta.map body with the result element (a ta.online body: its terms).

    Example:
        "ta.yield"(%v) : (f32) -> ()
    """

    values: Sequence[Operand[Any]]
    verify_invariants = verifier(_check_yield)
