func.func @f() {
  %0 = arith.constant 99999999999999999999999 : i64
  return
}
