func.func @f() -> f32 {
  %0 = arith.constant 1 : i32
  return %0 : f32
}
