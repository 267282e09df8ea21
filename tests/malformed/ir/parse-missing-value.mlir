func.func @f() {
  %0 = arith.constant : f32
  return
}
