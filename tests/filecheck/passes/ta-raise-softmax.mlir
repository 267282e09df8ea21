// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(ta-raise-softmax, canonicalize, cse)' | filecheck %s

// softmax as torch-mlir writes it out: max, subtract, exp, sum, divide --> one ta.softmax of the
// scaled scores (a ta.map of their expression)
// CHECK-LABEL: func.func @written_out(
// CHECK:       %[[X:.*]] = "ta.map"() ({
// CHECK:         arith.mulf
// CHECK:       %[[Y:.*]] = "ta.softmax"(%[[X]]) {dim = 1 : i64}
// CHECK-NOT:   ta.reduce
// CHECK:       return %[[Y]]
func.func @written_out(%s: tensor<?x?xf32, ["N", "C"]> {ta.name = "S"}) -> (tensor<?x?xf32, ["N", "C"]> {ta.name = "Y"}) {
  %c = arith.constant 2.500000e-01 : f32
  %x = "ta.map"() ({
    %a = "ta.at"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["N", "C"]>) -> f32
    %b = arith.mulf %a, %c : f32
    "ta.yield"(%b) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["N", "C"]>
  %m = "ta.reduce"(%x) {dims = [1], kind = "max"} : (tensor<?x?xf32, ["N", "C"]>) -> tensor<?xf32, ["N"]>
  %t = "ta.map"() ({
    %a = "ta.at"(%x) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["N", "C"]>) -> f32
    %b = "ta.at"(%m) {map = affine_map<(i, j) -> (i)>} : (tensor<?xf32, ["N"]>) -> f32
    %d = arith.subf %a, %b : f32
    "ta.yield"(%d) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["N", "C"]>
  %e = "ta.map"() ({
    %a = "ta.at"(%t) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["N", "C"]>) -> f32
    %b = math.exp %a : f32
    "ta.yield"(%b) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["N", "C"]>
  %l = "ta.reduce"(%e) {dims = [1], kind = "sum"} : (tensor<?x?xf32, ["N", "C"]>) -> tensor<?xf32, ["N"]>
  %y = "ta.map"() ({
    %a = "ta.at"(%e) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["N", "C"]>) -> f32
    %b = "ta.at"(%l) {map = affine_map<(i, j) -> (i)>} : (tensor<?xf32, ["N"]>) -> f32
    %d = arith.divf %a, %b : f32
    "ta.yield"(%d) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["N", "C"]>
  return %y : tensor<?x?xf32, ["N", "C"]>
}

// -----

// the max of another row than the exponent's (exp(x - max_j z)): not a softmax, left alone
// CHECK-LABEL: func.func @other_max(
// CHECK-NOT:   ta.softmax
// CHECK:       "ta.reduce"{{.*}}kind = "max"
func.func @other_max(%x: tensor<?x?xf32, ["N", "C"]> {ta.name = "X"}, %z: tensor<?x?xf32, ["N", "C"]> {ta.name = "Z"}) -> (tensor<?x?xf32, ["N", "C"]> {ta.name = "Y"}) {
  %m = "ta.reduce"(%z) {dims = [1], kind = "max"} : (tensor<?x?xf32, ["N", "C"]>) -> tensor<?xf32, ["N"]>
  %e = "ta.map"() ({
    %a = "ta.at"(%x) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["N", "C"]>) -> f32
    %b = "ta.at"(%m) {map = affine_map<(i, j) -> (i)>} : (tensor<?xf32, ["N"]>) -> f32
    %d = arith.subf %a, %b : f32
    %f = math.exp %d : f32
    "ta.yield"(%f) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["N", "C"]>
  %l = "ta.reduce"(%e) {dims = [1], kind = "sum"} : (tensor<?x?xf32, ["N", "C"]>) -> tensor<?xf32, ["N"]>
  %y = "ta.map"() ({
    %a = "ta.at"(%e) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["N", "C"]>) -> f32
    %b = "ta.at"(%l) {map = affine_map<(i, j) -> (i)>} : (tensor<?xf32, ["N"]>) -> f32
    %d = arith.divf %a, %b : f32
    "ta.yield"(%d) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["N", "C"]>
  return %y : tensor<?x?xf32, ["N", "C"]>
}

// -----

// the sum over another dim than the max's: left alone
// CHECK-LABEL: func.func @other_dim(
// CHECK-NOT:   ta.softmax
func.func @other_dim(%x: tensor<?x?xf32, ["N", "N"]> {ta.name = "X"}) -> (tensor<?x?xf32, ["N", "N"]> {ta.name = "Y"}) {
  %m = "ta.reduce"(%x) {dims = [1], kind = "max"} : (tensor<?x?xf32, ["N", "N"]>) -> tensor<?xf32, ["N"]>
  %e = "ta.map"() ({
    %a = "ta.at"(%x) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["N", "N"]>) -> f32
    %b = "ta.at"(%m) {map = affine_map<(i, j) -> (i)>} : (tensor<?xf32, ["N"]>) -> f32
    %d = arith.subf %a, %b : f32
    %f = math.exp %d : f32
    "ta.yield"(%f) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["N", "N"]>
  %l = "ta.reduce"(%e) {dims = [0], kind = "sum"} : (tensor<?x?xf32, ["N", "N"]>) -> tensor<?xf32, ["N"]>
  %y = "ta.map"() ({
    %a = "ta.at"(%e) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["N", "N"]>) -> f32
    %b = "ta.at"(%l) {map = affine_map<(i, j) -> (j)>} : (tensor<?xf32, ["N"]>) -> f32
    %d = arith.divf %a, %b : f32
    "ta.yield"(%d) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["N", "N"]>
  return %y : tensor<?x?xf32, ["N", "N"]>
}
