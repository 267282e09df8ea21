// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(ta-grad)' | filecheck %s

// y = softmax(x) --> dx = y * (dy - sum_j dy * y): the forward kept, its gradient added
// CHECK-LABEL: func.func @softmax(
// CHECK-LABEL: func.func @softmax_grad(%arg0: {{.*}} {ta.name = "X"}, %arg1: {{.*}} {ta.name = "dY"}) -> ({{.*}} {ta.name = "dX"})
// CHECK:       %[[Y:.*]] = "ta.softmax"(%arg0)
// CHECK:       %[[P:.*]] = "ta.map"() ({
// CHECK:         "ta.at"(%arg1)
// CHECK:         "ta.at"(%[[Y]])
// CHECK:         arith.mulf
// CHECK:       %[[D:.*]] = "ta.reduce"(%[[P]]) {dims = [1], kind = "sum"}
// CHECK:       %[[DX:.*]] = "ta.map"() ({
// CHECK:         "ta.at"(%[[D]])
// CHECK:         arith.subf
// CHECK:         arith.mulf
// CHECK:       return %[[DX]]
func.func @softmax(%x: tensor<?x?xf32, ["N", "C"]> {ta.name = "X"}) -> (tensor<?x?xf32, ["N", "C"]> {ta.name = "Y"}) {
  %y = "ta.softmax"(%x) {dim = 1 : i64} : (tensor<?x?xf32, ["N", "C"]>) -> tensor<?x?xf32, ["N", "C"]>
  return %y : tensor<?x?xf32, ["N", "C"]>
}

// -----

// C = A.B --> dA = dC.B^T, dB = A^T.dC: contractions over the same iteration space
// CHECK-LABEL: func.func @gemm_grad(
// CHECK:       "ta.contract"(%arg2, %arg1) {maps = [#[[MN:map[0-9]*]], #[[KN:map[0-9]*]], #[[MK:map[0-9]*]]]}{{.*}} -> tensor<?x?xf32, ["M", "K"]>
// CHECK:       "ta.contract"(%arg2, %arg0) {maps = [#[[MN]], #[[MK]], #[[KN]]]}{{.*}} -> tensor<?x?xf32, ["K", "N"]>
func.func @gemm(%a: tensor<?x?xf32, ["M", "K"]> {ta.name = "A"}, %b: tensor<?x?xf32, ["K", "N"]> {ta.name = "B"}) -> (tensor<?x?xf32, ["M", "N"]> {ta.name = "C"}) {
  %c = "ta.contract"(%a, %b) {maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]} : (tensor<?x?xf32, ["M", "K"]>, tensor<?x?xf32, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return %c : tensor<?x?xf32, ["M", "N"]>
}

// -----

// a read broadcast over a dim (x[j] in a [i, j] map) sums its adjoint over that dim;
// an input no output reads gets zeros
// CHECK-LABEL: func.func @broadcast_grad(
// CHECK:       "ta.map"() ({
// CHECK:         math.tanh
// CHECK:       %[[G:.*]] = "ta.map"() ({
// CHECK:         arith.subf
// CHECK:       "ta.reduce"(%[[G]]) {dims = [0], kind = "sum"} : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?xf32, ["N"]>
// CHECK:       "ta.fill"() {value = 0.000000e+00 : f32} : () -> tensor<?xf32, ["M"]>
func.func @broadcast(%x: tensor<?xf32, ["N"]> {ta.name = "X"}, %z: tensor<?xf32, ["M"]> {ta.name = "Z"}) -> (tensor<?x?xf32, ["M", "N"]> {ta.name = "Y"}) {
  %y = "ta.map"() ({
    %e = "ta.at"(%x) {map = affine_map<(i, j) -> (j)>} : (tensor<?xf32, ["N"]>) -> f32
    %t = math.tanh %e : f32
    "ta.yield"(%t) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["M", "N"]>
  return %y : tensor<?x?xf32, ["M", "N"]>
}
