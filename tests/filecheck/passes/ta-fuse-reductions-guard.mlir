// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-fuse-reductions, canonicalize, cse)' | filecheck %s

// A guard of fully masked rows (torch's SDPA: 0 where every key is -inf) moves out of the sum
// whole: the group keeps its max as a result, and the select reads it after the division.
// CHECK-LABEL: func.func @ta_fuse_reductions_guard
// CHECK:       %[[M:.*]] = "ta.online"() ({
// CHECK:       }) {dim = 1 : i64, extents = ["S", "T", "D"], group = "g0", kind = "max"
// CHECK:       %[[L:.*]] = "ta.online"() ({
// CHECK:       }) {dim = 1 : i64, extents = ["S", "T", "D"], group = "g0", kind = "sum"
// CHECK:       %[[O:.*]] = "ta.online"() ({
// CHECK:       }) {dim = 1 : i64, extents = ["S", "T", "D"], group = "g0", kind = "sum"
// CHECK-NOT:   "ta.reduce"
// CHECK:       "ta.map"() ({
// CHECK:         "ta.at"(%[[O]])
// CHECK:         "ta.at"(%[[L]])
// CHECK:         arith.divf
// CHECK:         "ta.at"(%[[M]])
// CHECK:         arith.cmpf oeq
// CHECK:         arith.select

// The input is the ta IR of this spec after ta-decompose-softmax, ta-canonicalize:
//   param S = 16, T = 16, D = 8
//   input X[S, T] : f32
//   input V[T, D] : f32
//   output O[S, D] : f32
//   O[i, d] = sum[j](select(max[k](X[i, k]) == -inf, 0, softmax[j](X[i, j])) * V[j, d])

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
module {
  func.func @ta_fuse_reductions_guard(%arg0: tensor<?x?xf32, ["S", "T"]> {ta.name = "X"}, %arg1: tensor<?x?xf32, ["T", "D"]> {ta.name = "V"}) -> (tensor<?x?xf32, ["S", "D"]> {ta.name = "O"}) attributes {ta.params = {D = 8 : i64, S = 16 : i64, T = 16 : i64}} {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %0 = "ta.reduce"(%arg0) {dims = [1], kind = "max"} : (tensor<?x?xf32, ["S", "T"]>) -> tensor<?xf32, ["S"]>
    %1 = "ta.map"() ({
      %6 = "ta.at"(%arg0) {map = #map} : (tensor<?x?xf32, ["S", "T"]>) -> f32
      %7 = "ta.at"(%0) {map = #map1} : (tensor<?xf32, ["S"]>) -> f32
      %8 = arith.subf %6, %7 : f32
      %9 = math.exp %8 : f32
      "ta.yield"(%9) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["S", "T"]>
    %2 = "ta.reduce"(%1) {dims = [1], kind = "sum"} : (tensor<?x?xf32, ["S", "T"]>) -> tensor<?xf32, ["S"]>
    %3 = "ta.map"() ({
      %6 = "ta.at"(%1) {map = #map} : (tensor<?x?xf32, ["S", "T"]>) -> f32
      %7 = "ta.at"(%2) {map = #map1} : (tensor<?xf32, ["S"]>) -> f32
      %8 = arith.divf %6, %7 : f32
      "ta.yield"(%8) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["S", "T"]>
    %4 = "ta.map"() ({
      %6 = "ta.at"(%0) {map = #map1} : (tensor<?xf32, ["S"]>) -> f32
      %7 = arith.cmpf oeq, %6, %cst_0 : f32
      %8 = "ta.at"(%3) {map = #map} : (tensor<?x?xf32, ["S", "T"]>) -> f32
      %9 = arith.select %7, %cst, %8 : f32
      "ta.yield"(%9) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["S", "T"]>
    %5 = "ta.contract"(%4, %arg1) {maps = [#map2, #map3, #map4]} : (tensor<?x?xf32, ["S", "T"]>, tensor<?x?xf32, ["T", "D"]>) -> tensor<?x?xf32, ["S", "D"]>
    return %5 : tensor<?x?xf32, ["S", "D"]>
  }
}
