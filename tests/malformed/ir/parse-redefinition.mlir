func.func @f() {
  %0 = arith.constant 1.0 : f32
  %0 = arith.constant 2.0 : f32
  return
}
