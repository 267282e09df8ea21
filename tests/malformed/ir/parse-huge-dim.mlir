func.func private @f(memref<99999999999999999999xf32>)
