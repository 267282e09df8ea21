func.func @f() {
  "ta.bogus"() : () -> ()
  return
}
