func.func @f(%a: tensor<?xf32, ["M"]>) {
  %m = "ta.reduce"(%a) {kind = "mean", dims = [0]} : (tensor<?xf32, ["M"]>) -> tensor<f32, []>
  return
}
