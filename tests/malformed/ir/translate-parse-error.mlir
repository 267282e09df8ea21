func.func @f() -> f32 {
  return %x : f32
}
