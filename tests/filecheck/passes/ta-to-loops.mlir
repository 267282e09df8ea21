// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(ta-to-loops)' | filecheck %s

// A contraction: zero the result, then one loop per domain dim; sizes come from index arguments.
// CHECK-LABEL: func.func @gemm
// CHECK-SAME:  (%[[A:.*]]: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %[[B:.*]]: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %[[C:.*]]: memref<?x?xf32> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %[[K:.*]]: index {ta.param = "K"}, %[[M:.*]]: index {ta.param = "M"}, %[[N:.*]]: index {ta.param = "N"})
// CHECK:       scf.for %[[I:.*]] = %c0 to %[[M]]
// CHECK:         scf.for %[[J:.*]] = %c0 to %[[N]]
// CHECK:           memref.store %{{.*}}, %[[C]][%[[I]], %[[J]]]
// CHECK:       scf.for %[[I:.*]] = %c0 to %[[M]]
// CHECK:         scf.for %[[J:.*]] = %c0 to %[[N]]
// CHECK:           scf.for %[[P:.*]] = %c0 to %[[K]]
// CHECK:             memref.load %[[A]][%[[I]], %[[P]]]
// CHECK:             arith.extf
// CHECK:             memref.load %[[B]][%[[P]], %[[J]]]
// CHECK:             arith.mulf
// CHECK:             arith.addf
// CHECK-NOT:   memref.alloc
func.func @gemm(%a: tensor<?x?xbf16, ["M", "K"]> {ta.name = "A"}, %b: tensor<?x?xbf16, ["K", "N"]> {ta.name = "B"}) -> (tensor<?x?xf32, ["M", "N"]> {ta.name = "C"}) attributes {ta.params = {K, M, N}} {
  %c = "ta.contract"(%a, %b) {maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return %c : tensor<?x?xf32, ["M", "N"]>
}

// -----

// An online group: per row, a running max, one loop over T, rescaled sums; the
// scores are read only by the group, so they are computed in place (no S x T buffer).
// CHECK-LABEL: func.func @softmax_v
// CHECK-NOT:   memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK:       %[[RMAX:.*]] = memref.alloc() : memref<f32>
// CHECK:       scf.for %[[I:.*]] = %c0 to %[[S:.*]] step
// CHECK:         memref.store %{{.*}}, %[[RMAX]][]
// CHECK:         scf.for %[[J:.*]] = %c0 to %[[T:.*]] step
// CHECK:           memref.load %arg0[%[[I]], %[[J]]]
// CHECK:           arith.maximumf
// CHECK:           math.exp
// CHECK:           math.exp
// CHECK:           scf.for %[[D:.*]] = %c0 to
// CHECK:             arith.mulf
// CHECK:             arith.addf
// CHECK:       memref.dealloc %[[RMAX]]
func.func @softmax_v(%s: tensor<?x?xf32, ["S", "T"]> {ta.name = "X"}, %v: tensor<?x?xf32, ["T", "D"]> {ta.name = "V"}) -> (tensor<?x?xf32, ["S", "D"]> {ta.name = "O"}) attributes {ta.params = {D, S, T}} {
  %scaled = "ta.map"() ({
    %x = "ta.at"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["S", "T"]>) -> f32
    %h = arith.constant 0.5 : f32
    %y = arith.mulf %x, %h : f32
    "ta.yield"(%y) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["S", "T"]>
  %o = "ta.online"() ({
    %x = "ta.at"(%scaled) {map = affine_map<(i, j, d) -> (i, j)>} : (tensor<?x?xf32, ["S", "T"]>) -> f32
    %w = "ta.at"(%v) {map = affine_map<(i, j, d) -> (j, d)>} : (tensor<?x?xf32, ["T", "D"]>) -> f32
    "ta.yield"(%x, %w) : (f32, f32) -> ()
  }) {kind = "sum", dim = 1 : i64, group = "g0", map = affine_map<(i, j, d) -> (i, d)>, extents = ["S", "T", "D"]} : () -> tensor<?x?xf32, ["S", "D"]>
  return %o : tensor<?x?xf32, ["S", "D"]>
}
