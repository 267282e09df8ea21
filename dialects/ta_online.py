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
    the same with ``moment = q``:     res[o] = sum_j (x(o, j) - mean_j' x(o, j'))^q * t(o, j)
                                      (a centred sum; mean_j x = sum_j x / the extent of dim)
The terms may depend only on the result's dims and on ``dim``. Ops with the same
``group`` are computed in one loop over ``dim``; a stabilised sum keeps a
running max of x and rescales its partial sum by exp(m_old - m_new) whenever
the max grows (exp(a - m') = exp(a - m) * exp(m - m')), so no pass over the
index has to precede another. A centred sum is kept about the running mean of x,
which its group's plain sums of 1 and of x give (``centred_parts``), and moves with
it by the binomial step (a - s') = (a - s) + (s - s'): Welford's update one key at a
time, Chan's combine of two partial states one block at a time.
"""

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Region, Result

from ._verify import Invalid, affine_maps_single, int_attr, projected_dims, str_attr, verifier
from .dims import DimError, parse_dim
from .reduce_kinds import NAMES
from .ta import TA, tensor_dims

KINDS = NAMES  # the reduction kinds (reduce_kinds.py)
MAX_MOMENT = 4  # the highest power of a centred sum (its step reads every lower one)


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
        raise Invalid("body must yield one term, or two (x, t) for a stabilised or centred sum")
    if "moment" in op.attributes and not (len(terms) == 2 and 1 <= int_attr(op, "moment") <= MAX_MOMENT):
        raise Invalid(f"'moment' (1 to {MAX_MOMENT}) belongs to a sum of two terms (x, t)")
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


def yielded(op) -> list:
    """The terms a ta.online body yields."""
    return list(list(op.regions[0].blocks[0].operations)[-1].operation.operands)


def moment(op) -> int:
    """The power q of a centred sum (its ``moment``), 0 for any other reduction.

    Example: the variance's sum of (x - mean x)^2 has moment 2; softmax's sums have 0."""
    if op.operation.name != "ta.online" or "moment" not in op.attributes:
        return 0
    return ir.IntegerAttr(op.attributes["moment"]).value


def same_value(a, b) -> bool:
    """``a`` and ``b``, each computed in its own ta.online body, are the same expression: the
    same ops with the same attributes on the same operands (values from outside the bodies
    identical). Example: the ``x`` two sums of one softmax yield are the same value."""
    if isinstance(a.owner, ir.Block) or isinstance(b.owner, ir.Block):
        return a == b
    x, y = a.owner.operation, b.owner.operation
    in_body = lambda op: op.parent is not None and op.parent.name == "ta.online"
    if not (in_body(x) and in_body(y)):
        return a == b
    return x.name == y.name and len(x.operands) == len(y.operands) and \
        {k: str(x.attributes[k]) for k in x.attributes} == {k: str(y.attributes[k]) for k in y.attributes} and \
        all(same_value(u, v) for u, v in zip(x.operands, y.operands))


def is_one(value) -> bool:
    """``value`` is the constant 1.0 (a sum of it counts the keys)."""
    owner = value.owner
    return not isinstance(owner, ir.Block) and owner.operation.name == "arith.constant" and \
        isinstance(owner.attributes["value"], ir.FloatAttr) and ir.FloatAttr(owner.attributes["value"]).value == 1.0


def centred_parts(op, group: list) -> dict:
    """The ops of ``group`` (ta.online ops) whose states the step of centred sum ``op`` reads:
    ``"count"`` (the sum of 1) and ``"total"`` (the sum of x), whose ratio is the running mean,
    and each lower moment r of the same weight t (0: the plain sum of t). With t = 1 moment 0 is
    the count and moment 1 is none: sum_j (x_j - mean x) = 0. KeyError names a part missing.

    Example: the variance sum_j (x_j - mean x)^2 reads {"count": sum_j 1, "total": sum_j x}."""
    x, t = yielded(op)
    domain = lambda o: [str(o.attributes[k]) for k in ("group", "dim", "map", "extents")]
    plain = [o for o in group if o.operation.name == "ta.online" and len(yielded(o)) == 1 and
             ir.StringAttr(o.attributes["kind"]).value == "sum" and domain(o) == domain(op)]
    centred = [o for o in group if moment(o) and domain(o) == domain(op) and o != op]
    find = lambda what, ops, match: next((o for o in ops if match(o)), None) or _missing(op, what)
    parts = {"count": find("the sum of 1", plain, lambda o: is_one(yielded(o)[0])),
             "total": find("the sum of x", plain, lambda o: same_value(yielded(o)[0], x))}
    for r in range(2 if is_one(t) else 0, moment(op)):
        parts[r] = find("the plain sum of its weight", plain, lambda o: same_value(yielded(o)[0], t)) if r == 0 else \
            find(f"its moment {r}", centred, lambda o, r=r: moment(o) == r and
                 same_value(yielded(o)[0], x) and same_value(yielded(o)[1], t))
    return parts


def _missing(op, what: str):
    raise KeyError(f"the centred sum has no {what} in its group")
