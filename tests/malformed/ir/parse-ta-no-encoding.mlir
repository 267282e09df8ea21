func.func @f(%a: tensor<?xf32>) {
  %m = "ta.reduce"(%a) {kind = "sum", dims = [0]} : (tensor<?xf32>) -> tensor<f32>
  return
}
