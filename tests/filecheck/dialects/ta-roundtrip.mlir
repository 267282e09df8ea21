// RUN: tilec opt %s | tilec opt | filecheck %s
// Every ta op prints, parses back and prints the same.

// CHECK-LABEL: func.func @contract_reduce
func.func @contract_reduce(%a: tensor<?x?xbf16, ["M", "K"]>, %b: tensor<?x?xbf16, ["K", "N"]>) -> tensor<?xf32, ["M"]> {
  // CHECK: "ta.contract"(%{{.*}}, %{{.*}}) {maps = [#map{{[0-9]*}}, #map{{[0-9]*}}, #map{{[0-9]*}}]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  %c = "ta.contract"(%a, %b) {maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  // CHECK: "ta.reduce"(%{{.*}}) {dims = [1], kind = "max"} : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?xf32, ["M"]>
  %m = "ta.reduce"(%c) {kind = "max", dims = [1]} : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?xf32, ["M"]>
  return %m : tensor<?xf32, ["M"]>
}

// CHECK-LABEL: func.func @map_at_index_param
func.func @map_at_index_param(%x: tensor<?x?xf32, ["M", "N"]>, %m: tensor<?xf32, ["M"]>) -> tensor<?x?xf32, ["M", "N"]> {
  // CHECK: "ta.map"() ({
  // CHECK:   "ta.at"(%{{.*}}) {map = #map{{[0-9]*}}} : (tensor<?x?xf32, ["M", "N"]>) -> f32
  // CHECK:   "ta.at"(%{{.*}}) {map = #map{{[0-9]*}}} : (tensor<?xf32, ["M"]>) -> f32
  // CHECK:   "ta.index"() {dim = 1 : i64} : () -> index
  // CHECK:   "ta.param"() {name = "N"} : () -> index
  // CHECK:   "ta.yield"(%{{.*}}) : (f32) -> ()
  // CHECK: }) : () -> tensor<?x?xf32, ["M", "N"]>
  %y = "ta.map"() ({
    %a = "ta.at"(%x) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["M", "N"]>) -> f32
    %b = "ta.at"(%m) {map = affine_map<(i, j) -> (i)>} : (tensor<?xf32, ["M"]>) -> f32
    %j = "ta.index"() {dim = 1 : i64} : () -> index
    %n = "ta.param"() {name = "N"} : () -> index
    %lt = arith.cmpi slt, %j, %n : index
    %d = arith.subf %a, %b : f32
    %s = arith.select %lt, %d, %a : f32
    "ta.yield"(%s) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["M", "N"]>
  return %y : tensor<?x?xf32, ["M", "N"]>
}

// CHECK-LABEL: func.func @softmax_logsumexp_remap_fill
func.func @softmax_logsumexp_remap_fill(%x: tensor<?x8xf32, ["S", "8"]>, %k: tensor<?x?xbf16, ["H/4", "T"]>) -> (tensor<?x8xf32, ["S", "8"]>, tensor<?xf32, ["S"]>, tensor<?x?xbf16, ["H", "T"]>, tensor<4x?xf32, ["4", "N"]>) {
  // CHECK: "ta.softmax"(%{{.*}}) {dim = 1 : i64} : (tensor<?x8xf32, ["S", "8"]>) -> tensor<?x8xf32, ["S", "8"]>
  %p = "ta.softmax"(%x) {dim = 1 : i64} : (tensor<?x8xf32, ["S", "8"]>) -> tensor<?x8xf32, ["S", "8"]>
  // CHECK: "ta.logsumexp"(%{{.*}}) {dim = 1 : i64} : (tensor<?x8xf32, ["S", "8"]>) -> tensor<?xf32, ["S"]>
  %l = "ta.logsumexp"(%x) {dim = 1 : i64} : (tensor<?x8xf32, ["S", "8"]>) -> tensor<?xf32, ["S"]>
  // CHECK: "ta.remap"(%{{.*}}) {map = #map{{[0-9]*}}} : (tensor<?x?xbf16, ["H/4", "T"]>) -> tensor<?x?xbf16, ["H", "T"]>
  %g = "ta.remap"(%k) {map = affine_map<(h, j) -> (h floordiv 4, j)>} : (tensor<?x?xbf16, ["H/4", "T"]>) -> tensor<?x?xbf16, ["H", "T"]>
  // CHECK: "ta.fill"() {value = 0.000000e+00 : f32} : () -> tensor<4x?xf32, ["4", "N"]>
  %z = "ta.fill"() {value = 0.0 : f32} : () -> tensor<4x?xf32, ["4", "N"]>
  return %p, %l, %g, %z : tensor<?x8xf32, ["S", "8"]>, tensor<?xf32, ["S"]>, tensor<?x?xbf16, ["H", "T"]>, tensor<4x?xf32, ["4", "N"]>
}

// CHECK-LABEL: func.func @online
func.func @online(%s: tensor<?x?xf32, ["S", "T"]>, %v: tensor<?x?xbf16, ["T", "D"]>) -> (tensor<?xf32, ["S"]>, tensor<?x?xf32, ["S", "D"]>) {
  // CHECK: "ta.online"() ({
  // CHECK:   "ta.yield"(%{{.*}}, %{{.*}}) : (f32, f32) -> ()
  // CHECK: }) {dim = 1 : i64, extents = ["S", "T", "D"], group = "g0", kind = "sum", map = #map{{[0-9]*}}} : () -> tensor<?xf32, ["S"]>
  %l = "ta.online"() ({
    %x = "ta.at"(%s) {map = affine_map<(i, j, d) -> (i, j)>} : (tensor<?x?xf32, ["S", "T"]>) -> f32
    %one = arith.constant 1.0 : f32
    "ta.yield"(%x, %one) : (f32, f32) -> ()
  }) {kind = "sum", dim = 1 : i64, group = "g0", map = affine_map<(i, j, d) -> (i)>, extents = ["S", "T", "D"]} : () -> tensor<?xf32, ["S"]>
  // CHECK: "ta.online"() ({
  // CHECK: }) {dim = 1 : i64, extents = ["S", "T", "D"], group = "g0", kind = "sum", map = #map{{[0-9]*}}} : () -> tensor<?x?xf32, ["S", "D"]>
  %o = "ta.online"() ({
    %x = "ta.at"(%s) {map = affine_map<(i, j, d) -> (i, j)>} : (tensor<?x?xf32, ["S", "T"]>) -> f32
    %w = "ta.at"(%v) {map = affine_map<(i, j, d) -> (j, d)>} : (tensor<?x?xbf16, ["T", "D"]>) -> bf16
    %t = arith.extf %w : bf16 to f32
    "ta.yield"(%x, %t) : (f32, f32) -> ()
  }) {kind = "sum", dim = 1 : i64, group = "g0", map = affine_map<(i, j, d) -> (i, d)>, extents = ["S", "T", "D"]} : () -> tensor<?x?xf32, ["S", "D"]>
  return %l, %o : tensor<?xf32, ["S"]>, tensor<?x?xf32, ["S", "D"]>
}
