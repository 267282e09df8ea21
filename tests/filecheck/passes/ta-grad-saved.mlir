// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(ta-grad{saved=true}, canonicalize, cse)' | filecheck %s

// o = softmax(s) . v --> the forward saves lse = logsumexp(s); the backward reads it
// (p = exp(s - lse)) and the saved o (D = sum_d do * o, a row program), and is marked for recomputation
// CHECK-LABEL: func.func @attn_fwd(
// CHECK-SAME:    -> ({{.*}} {ta.name = "O"}, tensor<?xf32, ["S"]> {ta.name = "lse"})
// CHECK:       %[[P:.*]] = "ta.softmax"(%arg0) {dim = 1 : i64}
// CHECK:       %[[O:.*]] = "ta.contract"(%[[P]], %arg1)
// CHECK:       %[[L:.*]] = "ta.logsumexp"(%arg0) {dim = 1 : i64}
// CHECK:       return %[[O]], %[[L]]
// CHECK-LABEL: func.func @attn_bwd(%arg0: {{.*}} {ta.name = "X"}, %arg1: {{.*}} {ta.name = "V"}, %arg2: {{.*}} {ta.name = "O"}, %arg3: {{.*}} {ta.name = "lse"}, %arg4: {{.*}} {ta.name = "dO"})
// CHECK-SAME:    ta.recompute
// CHECK-NOT:   ta.softmax
// CHECK:       %[[EXP:.*]] = "ta.map"() ({
// CHECK:         "ta.at"(%arg0)
// CHECK:         "ta.at"(%arg3)
// CHECK:         arith.subf
// CHECK:         math.exp
// CHECK:       %[[DOO:.*]] = "ta.map"() ({
// CHECK-NEXT:    "ta.at"(%arg4)
// CHECK-NEXT:    "ta.at"(%arg2)
// CHECK-NEXT:    arith.mulf
// CHECK:       %[[D:.*]] = "ta.reduce"(%[[DOO]]) {dims = [1], kind = "sum"} : (tensor<?x?xf32, ["S", "E"]>) -> tensor<?xf32, ["S"]>
// CHECK-NOT:   "ta.reduce"({{.*}}["S", "T"]
// CHECK:       return
func.func @attn(%x: tensor<?x?xf32, ["S", "T"]> {ta.name = "X"}, %v: tensor<?x?xf32, ["T", "E"]> {ta.name = "V"}) -> (tensor<?x?xf32, ["S", "E"]> {ta.name = "O"}) {
  %p = "ta.softmax"(%x) {dim = 1 : i64} : (tensor<?x?xf32, ["S", "T"]>) -> tensor<?x?xf32, ["S", "T"]>
  %o = "ta.contract"(%p, %v) {maps = [affine_map<(i, d, j) -> (i, j)>, affine_map<(i, d, j) -> (j, d)>, affine_map<(i, d, j) -> (i, d)>]} : (tensor<?x?xf32, ["S", "T"]>, tensor<?x?xf32, ["T", "E"]>) -> tensor<?x?xf32, ["S", "E"]>
  return %o : tensor<?x?xf32, ["S", "E"]>
}

// -----

// a softmax returned (no contraction after it): read from lse, its row term stays sum_j dy * y
// CHECK-LABEL: func.func @softmax_bwd(
// CHECK-NOT:   ta.softmax
// CHECK:       math.exp
// CHECK:       "ta.reduce"({{.*}}) {dims = [1], kind = "sum"}
func.func @softmax(%x: tensor<?x?xf32, ["N", "C"]> {ta.name = "X"}) -> (tensor<?x?xf32, ["N", "C"]> {ta.name = "Y"}) {
  %y = "ta.softmax"(%x) {dim = 1 : i64} : (tensor<?x?xf32, ["N", "C"]>) -> tensor<?x?xf32, ["N", "C"]>
  return %y : tensor<?x?xf32, ["N", "C"]>
}

// -----

// no softmax: the pair is the gradient with the outputs passed along, not marked
// CHECK-LABEL: func.func @gemm_bwd(
// CHECK-NOT:   ta.recompute
// CHECK:       "ta.contract"
func.func @gemm(%a: tensor<?x?xf32, ["M", "K"]> {ta.name = "A"}, %b: tensor<?x?xf32, ["K", "N"]> {ta.name = "B"}) -> (tensor<?x?xf32, ["M", "N"]> {ta.name = "C"}) {
  %c = "ta.contract"(%a, %b) {maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]} : (tensor<?x?xf32, ["M", "K"]>, tensor<?x?xf32, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return %c : tensor<?x?xf32, ["M", "N"]>
}
