func.func @f() attributes {a = #nothere} {
  return
}
