// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(ta-decompose-softmax)' | filecheck %s

// softmax(x, 1) --> m = max x; e = exp(x - m); e / sum e
// CHECK-LABEL: func.func @softmax
// CHECK:       %[[M:.*]] = "ta.reduce"(%arg0) {dims = [1], kind = "max"}
// CHECK:       %[[E:.*]] = "ta.map"() ({
// CHECK:         "ta.at"(%arg0)
// CHECK:         "ta.at"(%[[M]])
// CHECK:         arith.subf
// CHECK:         math.exp
// CHECK:       %[[S:.*]] = "ta.reduce"(%[[E]]) {dims = [1], kind = "sum"}
// CHECK:       %[[Y:.*]] = "ta.map"() ({
// CHECK:         "ta.at"(%[[E]])
// CHECK:         "ta.at"(%[[S]])
// CHECK:         arith.divf
// CHECK:       return %[[Y]]
// CHECK-NOT:   ta.softmax
func.func @softmax(%x: tensor<?x?xf32, ["M", "N"]>) -> tensor<?x?xf32, ["M", "N"]> {
  %p = "ta.softmax"(%x) {dim = 1 : i64} : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return %p : tensor<?x?xf32, ["M", "N"]>
}

// -----

// logsumexp(x, 0) --> m + log(sum exp(x - m))
// CHECK-LABEL: func.func @logsumexp
// CHECK:       %[[M:.*]] = "ta.reduce"(%arg0) {dims = [0], kind = "max"}
// CHECK:       math.exp
// CHECK:       %[[S:.*]] = "ta.reduce"(%{{.*}}) {dims = [0], kind = "sum"}
// CHECK:       "ta.map"() ({
// CHECK:         "ta.at"(%[[M]])
// CHECK:         "ta.at"(%[[S]])
// CHECK:         math.log
// CHECK:         arith.addf
// CHECK-NOT:   ta.logsumexp
func.func @logsumexp(%x: tensor<?x?xf32, ["N", "M"]>) -> tensor<?xf32, ["M"]> {
  %l = "ta.logsumexp"(%x) {dim = 0 : i64} : (tensor<?x?xf32, ["N", "M"]>) -> tensor<?xf32, ["M"]>
  return %l : tensor<?xf32, ["M"]>
}

// -----

// Nothing to decompose: the pass leaves plain reductions alone.
// CHECK-LABEL: func.func @keep_reduce
// CHECK-NEXT:  %[[R:.*]] = "ta.reduce"(%arg0) {dims = [1], kind = "max"}
// CHECK-NEXT:  return %[[R]]
func.func @keep_reduce(%x: tensor<?x?xf32, ["M", "N"]>) -> tensor<?xf32, ["M"]> {
  %m = "ta.reduce"(%x) {kind = "max", dims = [1]} : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?xf32, ["M"]>
  return %m : tensor<?xf32, ["M"]>
}
