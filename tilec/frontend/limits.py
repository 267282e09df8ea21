"""The bounds a spec must keep, so that any input is rejected quickly with a located error
instead of exhausting the stack, the integer types of MLIR, or the machine's memory.

    MAX_DEPTH      parse-tree depth of one statement (expressions, subscripts, dims)
    MAX_INT        sizes, parameter values and integer constants in subscripts: 2^31 - 1
    MAX_RANK       dimensions of one tensor
    MAX_INDICES    distinct index names in one statement (the oracle names each with a letter)
    F32_MAX        the largest finite f32: bigger numbers and constants are refused
"""

MAX_DEPTH = 100
MAX_INT = 2**31 - 1
MAX_RANK = 8
MAX_INDICES = 16
F32_MAX = 3.4028234663852886e38
