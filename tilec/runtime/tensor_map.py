"""TMA tensor maps for torch tensors, built through the CUDA driver API at launch.

A Hopper kernel copies a tile with ``cp.async.bulk.tensor``, which reads a 128-byte
descriptor, the tensor map, passed by value as a ``__grid_constant__`` kernel parameter. The
map holds the tensor's address, its dims and byte strides (innermost first), the box (the
tile one copy moves), the shared-memory swizzle mode and what fills elements outside the
tensor (zeros: the masks of the sm_80 path).

    tmap = tensor_map(x, box=(64, 64), swizzle=128)     # x: a CUDA tensor, [rows, cols]

Maps are cached per (address, shape, strides, dtype, box, swizzle): a launch on the same
tensors encodes nothing. ``tiled_arguments`` is the pure part (what the driver is given and
why an argument is refused), testable without a GPU.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

SWIZZLES = (0, 32, 64, 128)    # bytes: the swizzle span (0: none)
_ELEMENT = {"bfloat16": ("BFLOAT16", 2), "float16": ("FLOAT16", 2), "float32": ("FLOAT32", 4)}
_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 256


class TensorMapError(ValueError):
    """A tensor or box the copy engine cannot describe; the message says which rule."""


@dataclass(frozen=True)
class TiledArguments:
    """What cuTensorMapEncodeTiled is given, innermost dim first (the driver's order)."""

    data_type: str          # the CUtensorMapDataType suffix: BFLOAT16, FLOAT16, FLOAT32
    dims: tuple             # elements per dim
    strides: tuple          # bytes between consecutive elements of dims 1.. (dim 0 is contiguous)
    box: tuple              # elements per dim that one copy moves
    swizzle: int            # bytes


def tiled_arguments(shape, strides, dtype: str, box, swizzle: int = 128) -> TiledArguments:
    """The driver's arguments for a tensor of ``shape`` and element ``strides`` (torch's order,
    outermost first) and a ``box`` in the same order; TensorMapError names the rule broken."""
    shape, strides, box = tuple(shape), tuple(strides), tuple(box)
    if dtype not in _ELEMENT:
        raise TensorMapError(f"no tensor map for {dtype} elements (bfloat16, float16 and float32 have one)")
    name, size = _ELEMENT[dtype]
    if not 1 <= len(shape) <= 5:
        raise TensorMapError(f"a tensor map has 1 to 5 dims; this tensor has {len(shape)}")
    if len(box) != len(shape):
        raise TensorMapError(f"the box has {len(box)} dims, the tensor {len(shape)}")
    if strides[-1] != 1:
        raise TensorMapError("the innermost dim must be contiguous (stride 1): call .contiguous()")
    for n, stride in enumerate(strides[:-1]):
        if stride * size % 16:
            raise TensorMapError(f"dim {n} steps {stride * size} bytes; the copy engine needs multiples of 16")
    if any(not 1 <= b <= 256 for b in box):
        raise TensorMapError(f"each box dim must be 1 to 256 elements; the box is {list(box)}")
    inner = box[-1] * size
    if inner % 16:
        raise TensorMapError(f"the box's inner dim is {inner} bytes; it must be a multiple of 16")
    if swizzle not in SWIZZLES:
        raise TensorMapError(f"swizzle must be one of {list(SWIZZLES)} bytes, not {swizzle}")
    if swizzle and inner > swizzle:
        raise TensorMapError(f"a {swizzle}-byte swizzle takes boxes at most {swizzle} bytes wide; "
                             f"this one is {inner}")
    return TiledArguments(name, tuple(reversed(shape)), tuple(s * size for s in reversed(strides[:-1])),
                          tuple(reversed(box)), swizzle)


def tensor_map(tensor, box, swizzle: int = 128):
    """The CUtensorMap of ``tensor`` (a CUDA tensor) for copies of ``box`` (outermost first);
    out-of-bounds elements read as zero. Cached per address, shape, strides, dtype and box."""
    key = (tensor.data_ptr(), tuple(tensor.shape), tuple(tensor.stride()), str(tensor.dtype), tuple(box), swizzle)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    if tensor.data_ptr() % 16:
        raise TensorMapError("the tensor's address must be 16-byte aligned")
    args = tiled_arguments(tensor.shape, tensor.stride(), str(tensor.dtype).removeprefix("torch."), box, swizzle)
    tmap = _encode(tensor.data_ptr(), args)
    _CACHE[key] = tmap
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return tmap


def _encode(address: int, args: TiledArguments):
    from cuda.bindings import driver

    swizzle = {0: "NONE", 32: "32B", 64: "64B", 128: "128B"}[args.swizzle]
    err, tmap = driver.cuTensorMapEncodeTiled(
        getattr(driver.CUtensorMapDataType, f"CU_TENSOR_MAP_DATA_TYPE_{args.data_type}"), len(args.dims),
        address, [driver.cuuint64_t(d) for d in args.dims], [driver.cuuint64_t(s) for s in args.strides],
        [driver.cuuint32_t(b) for b in args.box], [driver.cuuint32_t(1)] * len(args.dims),
        driver.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE,
        getattr(driver.CUtensorMapSwizzle, f"CU_TENSOR_MAP_SWIZZLE_{swizzle}"),
        driver.CUtensorMapL2promotion.CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
        driver.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
    if int(err) != 0:
        raise TensorMapError(f"cuTensorMapEncodeTiled refused the map: {err}")
    return tmap
