// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(ta-specialize-shapes{shapes=M=64,N=32})' | filecheck %s

// Bound parameters become static sizes; names stay; ta.param folds to a constant.
// CHECK-LABEL: func.func @bind
// CHECK-SAME:  (%arg0: tensor<64x32xf32, ["M", "N"]>) -> tensor<64x32xf32, ["M", "N"]>
// CHECK:       "ta.map"() ({
// CHECK:         %[[C:.*]] = arith.constant 32 : index
// CHECK:         arith.index_cast %[[C]]
// CHECK:       }) : () -> tensor<64x32xf32, ["M", "N"]>
func.func @bind(%x: tensor<?x?xf32, ["M", "N"]>) -> tensor<?x?xf32, ["M", "N"]> {
  %y = "ta.map"() ({
    %a = "ta.at"(%x) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["M", "N"]>) -> f32
    %n = "ta.param"() {name = "N"} : () -> index
    %i = arith.index_cast %n : index to i64
    %f = arith.sitofp %i : i64 to f32
    %d = arith.divf %a, %f : f32
    "ta.yield"(%d) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["M", "N"]>
  return %y : tensor<?x?xf32, ["M", "N"]>
}

// -----

// Dims over parameters that are not bound keep their dynamic size.
// CHECK-LABEL: func.func @keep_unbound
// CHECK-SAME:  (%arg0: tensor<?x64xf32, ["K", "M"]>) -> tensor<64xf32, ["M"]>
func.func @keep_unbound(%x: tensor<?x?xf32, ["K", "M"]>) -> tensor<?xf32, ["M"]> {
  %s = "ta.reduce"(%x) {kind = "sum", dims = [0]} : (tensor<?x?xf32, ["K", "M"]>) -> tensor<?xf32, ["M"]>
  return %s : tensor<?xf32, ["M"]>
}

// -----

// A parameter with a default is bound only when named: the kernel fixes what it says it fixes.
// CHECK-LABEL: func.func @default_stays_symbolic
// CHECK-SAME:  (%arg0: tensor<?x64xf32, ["K", "M"]>) -> tensor<64xf32, ["M"]>
func.func @default_stays_symbolic(%x: tensor<?x?xf32, ["K", "M"]>) -> tensor<?xf32, ["M"]>
    attributes {ta.params = {K = 16 : i64, M}} {
  %s = "ta.reduce"(%x) {kind = "sum", dims = [0]} : (tensor<?x?xf32, ["K", "M"]>) -> tensor<?xf32, ["M"]>
  return %s : tensor<?xf32, ["M"]>
}

// -----

// A bound parameter's stated range is dropped (it has one size now); the others' stay.
// CHECK-LABEL: func.func @ranges
// CHECK-SAME:  ta.ranges = {K = [1, 8]}
// CHECK-NOT:   M = [
func.func @ranges(%x: tensor<?x?xf32, ["K", "M"]>) -> tensor<?xf32, ["M"]> attributes {ta.ranges = {K = [1, 8], M = [1, 64]}} {
  %s = "ta.reduce"(%x) {kind = "sum", dims = [0]} : (tensor<?x?xf32, ["K", "M"]>) -> tensor<?xf32, ["M"]>
  return %s : tensor<?xf32, ["M"]>
}
