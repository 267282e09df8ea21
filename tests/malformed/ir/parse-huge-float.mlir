func.func @f() {
  %0 = arith.constant 1e999 : f32
  return
}
