func.func @f() {ÿ
  return
}
