func.func @f() {
  return
}
// -----
func.func @f() {
  return
}
// -----
func.func @g() {
  %0 = arith.constant : f32
}
