"""The arguments tilec.runtime.tensor_map gives the driver, and the tensors it refuses, checked
without a GPU (the maps themselves run in tests/gpu/test_gpu_tensor_map.py)."""

import pytest
import torch

from tilec.runtime.tensor_map import TensorMapError, tiled_arguments


def test_the_driver_gets_dims_innermost_first_and_byte_strides():
    args = tiled_arguments((4, 100, 72), (7200, 72, 1), "bfloat16", (1, 64, 64), swizzle=128)
    assert args.data_type == "BFLOAT16"
    assert args.dims == (72, 100, 4) and args.box == (64, 64, 1)
    assert args.strides == (144, 14400)  # bytes between rows, between matrices: dim 0 is contiguous
    assert tiled_arguments((8, 32), (32, 1), "float32", (8, 32), swizzle=128).strides == (128,)


@pytest.mark.parametrize("shape,strides,dtype,box,swizzle,rule", [
    ((64, 64), (1, 64), "bfloat16", (64, 64), 128, "innermost dim must be contiguous"),
    ((64, 36), (36, 1), "bfloat16", (64, 32), 64, "needs multiples of 16"),        # 72-byte rows
    ((64, 64), (64, 1), "bfloat16", (64, 4), 0, "multiple of 16"),                  # an 8-byte box row
    ((64, 512), (512, 1), "bfloat16", (64, 512), 0, "1 to 256 elements"),
    ((64, 128), (128, 1), "bfloat16", (64, 128), 128, "at most 128 bytes wide"),    # 256-byte box rows
    ((64, 64), (64, 1), "bfloat16", (64, 64), 48, "swizzle must be one of"),
    ((64, 64), (64, 1), "int8", (64, 64), 0, "no tensor map for int8"),
    ((1,) * 6, (1,) * 6, "float32", (1,) * 6, 0, "1 to 5 dims"),
    ((64, 64), (64, 1), "float32", (64,), 0, "the box has 1 dims"),
])
def test_what_the_copy_engine_cannot_describe_is_refused_by_rule(shape, strides, dtype, box, swizzle, rule):
    with pytest.raises(TensorMapError, match=rule):
        tiled_arguments(shape, strides, dtype, box, swizzle)


def test_a_row_view_is_mapped_on_the_same_memory():
    """Q stored [B, S, H, D], read as [B, S, H*D]: the map is the view's; a tensor whose strides
    do not give that view (a transposed one) is refused with what to pass instead."""
    from tilec.runtime.launch import mapped_tensor

    q = torch.zeros(2, 5, 3, 64, dtype=torch.bfloat16)
    entry = {"arg": "Q", "box": [1, 64, 64], "swizzle": 128, "view": ["B", "S", ["*", "H", "D"]]}
    env = {"B": 2, "S": 5, "H": 3, "D": 64}
    view = mapped_tensor(q, entry, env)
    assert view.shape == (2, 5, 192) and view.data_ptr() == q.data_ptr()
    assert mapped_tensor(q, {"arg": "Q", "box": [1, 1, 64, 64], "swizzle": 128}, env) is q
    with pytest.raises(TensorMapError, match="pass a contiguous tensor"):
        mapped_tensor(q.transpose(1, 2).contiguous().transpose(1, 2), entry, env)
