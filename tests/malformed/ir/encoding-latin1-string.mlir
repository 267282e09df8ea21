func.func @f() attributes {s = "café"} {
  return
}
