// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-fuse-reductions, canonicalize, cse)' | filecheck %s

// Three statements, three groups: softmax·V and mean/variance fuse; tanh(x - max) cannot.
// softmax·V: a running max and two rescaled sums in one group, no reduction left
// CHECK-LABEL: func.func @ta_fuse_reductions
// CHECK:       %[[L:.*]] = "ta.online"() ({
// CHECK:         "ta.yield"(%{{.*}}, %{{.*}}) : (f32, f32) -> ()
// CHECK:       }) {dim = 1 : i64, extents = ["S", "T", "D"], group = "g0", kind = "sum"
// CHECK:       %[[O:.*]] = "ta.online"() ({
// CHECK:         "ta.at"(%arg1)
// CHECK:         "ta.yield"(%{{.*}}, %{{.*}}) : (f32, f32) -> ()
// CHECK:       }) {dim = 1 : i64, extents = ["S", "T", "D"], group = "g0", kind = "sum"
// CHECK:       "ta.map"() ({
// CHECK:         "ta.at"(%[[O]])
// CHECK:         "ta.at"(%[[L]])
// CHECK:         arith.divf
// mean then variance: sum x, the centred sum of (x - mean x)^2 and sum 1 in one group; no
// sum of x*x (which would cancel against mean^2 when |mean| >> std), and the difference of the
// two means stays one factor: var * T = S + n (sum x / n - sum x / T)^2
// CHECK:       %[[SX:.*]] = "ta.online"() ({
// CHECK-NOT:     arith.mulf
// CHECK:       }) {dim = 1 : i64, extents = ["S", "T"], group = "g1", kind = "sum", map = #{{.*}}} :
// CHECK:       %[[S2:.*]] = "ta.online"() ({
// CHECK-NEXT:    %[[X:.*]] = "ta.at"(%arg0)
// CHECK-NEXT:    "ta.yield"(%[[X]], %{{.*}}) : (f32, f32) -> ()
// CHECK:       }) {dim = 1 : i64, extents = ["S", "T"], group = "g1", kind = "sum", map = #{{.*}}, moment = 2 : i64}
// CHECK:       %[[N:.*]] = "ta.online"() ({
// CHECK-NEXT:    "ta.yield"(%{{.*}}) : (f32) -> ()
// CHECK:       }) {dim = 1 : i64, extents = ["S", "T"], group = "g1", kind = "sum", map = #{{.*}}} :
// CHECK:       "ta.map"() ({
// CHECK-DAG:     %[[S:.*]] = "ta.at"(%[[S2]])
// CHECK-DAG:     %[[C:.*]] = "ta.at"(%[[N]])
// CHECK-DAG:     %[[L:.*]] = "ta.at"(%[[SX]])
// CHECK:         %[[M:.*]] = arith.divf %[[L]], %[[C]]
// CHECK:         %[[D:.*]] = arith.subf %[[M]], %{{.*}}
// CHECK:         %[[D2:.*]] = arith.mulf %[[D]], %[[D]]
// CHECK:         %[[ND2:.*]] = arith.mulf %[[C]], %[[D2]]
// CHECK:         arith.addf %[[S]], %[[ND2]]
// keep: tanh of x - max is not linear in the max; the reductions stay
// CHECK:       "ta.reduce"(%arg0) {dims = [1], kind = "max"}
// CHECK:       math.tanh
// CHECK:       "ta.reduce"(%{{.*}}) {dims = [1], kind = "sum"}
// CHECK-NOT:   "ta.online"

// The input is the ta IR of this spec after ta-decompose-softmax, canonicalize:
//   param S = 16, T = 16, D = 8
//   input X[S, T] : f32
//   input V[T, D] : f32
//   output O[S, D] : f32
//   output var[S] : f32
//   output keep[S] : f32
//   O[i, d] = sum[j](softmax[j](X[i, j]) * V[j, d])
//   var[i] = sum[j]((X[i, j] - sum[k](X[i, k]) / T) * (X[i, j] - sum[k](X[i, k]) / T)) / T
//   keep[i] = sum[j](tanh(X[i, j] - max[k](X[i, k])))

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map5 = affine_map<(d0) -> (d0)>
module {
  func.func @ta_fuse_reductions(%arg0: tensor<?x?xf32, ["S", "T"]> {ta.name = "X"}, %arg1: tensor<?x?xf32, ["T", "D"]> {ta.name = "V"}) -> (tensor<?x?xf32, ["S", "D"]> {ta.name = "O"}, tensor<?xf32, ["S"]> {ta.name = "var"}, tensor<?xf32, ["S"]> {ta.name = "keep"}) attributes {ta.params = {D = 8 : i64, S = 16 : i64, T = 16 : i64}} {
    %0 = "ta.reduce"(%arg0) {dims = [1], kind = "max"} : (tensor<?x?xf32, ["S", "T"]>) -> tensor<?xf32, ["S"]>
    %1 = "ta.map"() ({
      %14 = "ta.at"(%arg0) {map = #map} : (tensor<?x?xf32, ["S", "T"]>) -> f32
      %15 = "ta.at"(%0) {map = #map1} : (tensor<?xf32, ["S"]>) -> f32
      %16 = arith.subf %14, %15 : f32
      %17 = math.exp %16 : f32
      "ta.yield"(%17) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["S", "T"]>
    %2 = "ta.reduce"(%1) {dims = [1], kind = "sum"} : (tensor<?x?xf32, ["S", "T"]>) -> tensor<?xf32, ["S"]>
    %3 = "ta.map"() ({
      %14 = "ta.at"(%1) {map = #map} : (tensor<?x?xf32, ["S", "T"]>) -> f32
      %15 = "ta.at"(%2) {map = #map1} : (tensor<?xf32, ["S"]>) -> f32
      %16 = arith.divf %14, %15 : f32
      "ta.yield"(%16) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["S", "T"]>
    %4 = "ta.contract"(%3, %arg1) {maps = [#map2, #map3, #map4]} : (tensor<?x?xf32, ["S", "T"]>, tensor<?x?xf32, ["T", "D"]>) -> tensor<?x?xf32, ["S", "D"]>
    %5 = "ta.reduce"(%arg0) {dims = [1], kind = "sum"} : (tensor<?x?xf32, ["S", "T"]>) -> tensor<?xf32, ["S"]>
    %6 = "ta.reduce"(%arg0) {dims = [1], kind = "sum"} : (tensor<?x?xf32, ["S", "T"]>) -> tensor<?xf32, ["S"]>
    %7 = "ta.map"() ({
      %14 = "ta.at"(%arg0) {map = #map} : (tensor<?x?xf32, ["S", "T"]>) -> f32
      %15 = "ta.at"(%5) {map = #map1} : (tensor<?xf32, ["S"]>) -> f32
      %16 = "ta.param"() {name = "T"} : () -> index
      %17 = arith.index_cast %16 : index to i64
      %18 = arith.sitofp %17 : i64 to f32
      %19 = arith.divf %15, %18 : f32
      %20 = arith.subf %14, %19 : f32
      "ta.yield"(%20) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["S", "T"]>
    %8 = "ta.map"() ({
      %14 = "ta.at"(%arg0) {map = #map} : (tensor<?x?xf32, ["S", "T"]>) -> f32
      %15 = "ta.at"(%6) {map = #map1} : (tensor<?xf32, ["S"]>) -> f32
      %16 = "ta.param"() {name = "T"} : () -> index
      %17 = arith.index_cast %16 : index to i64
      %18 = arith.sitofp %17 : i64 to f32
      %19 = arith.divf %15, %18 : f32
      %20 = arith.subf %14, %19 : f32
      "ta.yield"(%20) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["S", "T"]>
    %9 = "ta.contract"(%7, %8) {maps = [#map, #map, #map1]} : (tensor<?x?xf32, ["S", "T"]>, tensor<?x?xf32, ["S", "T"]>) -> tensor<?xf32, ["S"]>
    %10 = "ta.map"() ({
      %14 = "ta.at"(%9) {map = #map5} : (tensor<?xf32, ["S"]>) -> f32
      %15 = "ta.param"() {name = "T"} : () -> index
      %16 = arith.index_cast %15 : index to i64
      %17 = arith.sitofp %16 : i64 to f32
      %18 = arith.divf %14, %17 : f32
      "ta.yield"(%18) : (f32) -> ()
    }) : () -> tensor<?xf32, ["S"]>
    %11 = "ta.reduce"(%arg0) {dims = [1], kind = "max"} : (tensor<?x?xf32, ["S", "T"]>) -> tensor<?xf32, ["S"]>
    %12 = "ta.map"() ({
      %14 = "ta.at"(%arg0) {map = #map} : (tensor<?x?xf32, ["S", "T"]>) -> f32
      %15 = "ta.at"(%11) {map = #map1} : (tensor<?xf32, ["S"]>) -> f32
      %16 = arith.subf %14, %15 : f32
      %17 = math.tanh %16 : f32
      "ta.yield"(%17) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["S", "T"]>
    %13 = "ta.reduce"(%12) {dims = [1], kind = "sum"} : (tensor<?x?xf32, ["S", "T"]>) -> tensor<?xf32, ["S"]>
    return %4, %10, %13 : tensor<?x?xf32, ["S", "D"]>, tensor<?xf32, ["S"]>, tensor<?xf32, ["S"]>
  }
}
