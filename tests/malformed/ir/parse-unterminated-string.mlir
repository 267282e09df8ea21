func.func @f() attributes {s = "abc} {
  return
}
