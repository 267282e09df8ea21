"""``ta.online``: a reduction over one index whose terms are computed in one pass.

Kept apart from ta.py because of its size; part of the ta dialect.

    %l = "ta.online"() ({
      ... body over the domain (b, h, i, j) computing x and t ...
      "ta.yield"(%x, %t) : (f32, f32) -> ()
    }) {kind = "sum", dim = 3 : i64, group = "g0", map = affine_map<(b, h, i, j) -> (b, h, i)>,
        extents = ["B", "H", "S", "T"]} : () -> tensor<?x?x?xf32, ["B", "H", "S"]>

Meaning, for every point o of the result:
    kind max / min, one term t:       res[o] = max_j t(o, j)   (min_j)
    kind sum, one term t:             res[o] = sum_j t(o, j)
    kind sum, two terms x and t:      res[o] = sum_j exp(x(o, j) - max_j' x(o, j')) * t(o, j)
The terms may depend only on the result's dims and on ``dim``. Ops with the same
``group`` are computed in one loop over ``dim``; a stabilised sum keeps a
running max of x and rescales its partial sum by exp(m_old - m_new) whenever
the max grows (exp(a - m') = exp(a - m) * exp(m - m')), so no pass over the
index has to precede another.
"""

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Region, Result

from ._verify import Invalid, affine_maps_single, int_attr, projected_dims, str_attr, verifier
from .dims import DimError, parse_dim
from .ta import TA, tensor_dims

KINDS = ("max", "min", "sum")


def term_dims(body_block) -> list[set[int]]:
    """For each yielded term: the domain dims it depends on (through ta.index and ta.at)."""
    deps: dict = {}
    for op in body_block.operations:
        name = op.operation.name
        if name == "ta.yield":
            return [deps.get(v, set()) for v in op.operation.operands]
        if name == "ta.index":
            found = {ir.IntegerAttr(op.attributes["dim"]).value}
        elif name == "ta.at":
            found = set(projected_dims(ir.AffineMapAttr(op.attributes["map"]).value, "ta.at"))
        else:
            found = set().union(*(deps.get(v, set()) for v in op.operation.operands))
        for result in op.operation.results:
            deps[result] = found
    return []


def _check_online(op):
    kind = str_attr(op, "kind", KINDS)
    str_attr(op, "group")
    extents = op.attributes["extents"] if "extents" in op.attributes else None
    if not isinstance(extents, ir.ArrayAttr) or not all(isinstance(e, ir.StringAttr) for e in extents):
        raise Invalid("requires 'extents', the size of each domain dim as a string")
    try:
        domain = [parse_dim(ir.StringAttr(e).value) for e in extents]
    except DimError as err:
        raise Invalid(str(err)) from None
    dim = int_attr(op, "dim")
    if not 0 <= dim < len(domain):
        raise Invalid(f"dim {dim} is out of range for the {len(domain)}-d domain")
    amap = affine_maps_single(op, "map")
    kept = projected_dims(amap, "result")
    if amap.n_dims != len(domain) or dim in kept:
        raise Invalid(f"map must project the {len(domain)}-d domain onto the result, leaving out dim {dim}")
    res_dims = tensor_dims(op.res.type)
    if [str(d) for d in res_dims] != [str(domain[k]) for k in kept]:
        raise Invalid(f"result dims [{', '.join(map(str, res_dims))}] must be the extents of the kept dims")
    if not isinstance(ir.RankedTensorType(op.res.type).element_type, ir.F32Type):
        raise Invalid("result must be f32")
    blocks = list(op.body.blocks)
    if len(blocks) != 1 or len(blocks[0].arguments) != 0:
        raise Invalid("body must be one block without arguments")
    last = list(blocks[0].operations)[-1] if list(blocks[0].operations) else None
    if last is None or last.name != "ta.yield":
        raise Invalid("body must end with ta.yield")
    terms = list(last.operands)
    if not (len(terms) == 1 or (len(terms) == 2 and kind == "sum")):
        raise Invalid("body must yield one term, or two (x, t) for a stabilised sum")
    if any(not isinstance(t.type, ir.F32Type) for t in terms):
        raise Invalid("terms must be f32")
    for deps in term_dims(blocks[0]):
        extra = sorted(deps - set(kept) - {dim})
        if extra:
            raise Invalid(f"a term depends on domain dim d{extra[0]}, which is neither kept nor reduced")


class OnlineOp(TA.Operation, name="online", traits=[ext.Pure]):
    """A one-pass reduction over ``dim`` (see the module docstring for its meaning).

    Example (row sums of exp(x - rowmax x), one pass):
        %l = "ta.online"() ({
          %x = "ta.at"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["S", "T"]>) -> f32
          %one = arith.constant 1.0 : f32
          "ta.yield"(%x, %one) : (f32, f32) -> ()
        }) {kind = "sum", dim = 1 : i64, group = "g0", map = affine_map<(i, j) -> (i)>,
            extents = ["S", "T"]} : () -> tensor<?xf32, ["S"]>
    """

    res: Result[ir.RankedTensorType]
    body: Region
    verify_invariants = verifier(_check_online)
