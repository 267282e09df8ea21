// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(ta-canonicalize)' | filecheck %s

// A map that only transposes disappears into the index map of its reader.
// CHECK-LABEL: func.func @fold_reindex_into_at
// CHECK:       "ta.map"() ({
// CHECK-NEXT:    "ta.at"(%arg0) {map = #[[T:map[0-9]*]]}
// CHECK-NEXT:    math.exp
// CHECK:       return
// CHECK-NOT:   "ta.map"
func.func @fold_reindex_into_at(%x: tensor<?x?xf32, ["M", "N"]>) -> tensor<?x?xf32, ["N", "M"]> {
  %t = "ta.map"() ({
    %a = "ta.at"(%x) {map = affine_map<(j, i) -> (i, j)>} : (tensor<?x?xf32, ["M", "N"]>) -> f32
    "ta.yield"(%a) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["N", "M"]>
  %e = "ta.map"() ({
    %a = "ta.at"(%t) {map = affine_map<(j, i) -> (j, i)>} : (tensor<?x?xf32, ["N", "M"]>) -> f32
    %b = math.exp %a : f32
    "ta.yield"(%b) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["N", "M"]>
  return %e : tensor<?x?xf32, ["N", "M"]>
}

// -----

// A scale on a contraction operand is applied to the (smaller) result instead,
// and the contraction reads the bf16 input directly.
// CHECK-LABEL: func.func @hoist_scale_out_of_contract
// CHECK:       %[[C:.*]] = "ta.contract"(%arg0, %arg1)
// CHECK:       "ta.map"() ({
// CHECK:         "ta.at"(%[[C]])
// CHECK:         arith.mulf
func.func @hoist_scale_out_of_contract(%a: tensor<?x?xbf16, ["M", "K"]>, %b: tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]> {
  %s = "ta.map"() ({
    %x = "ta.at"(%a) {map = affine_map<(i, k) -> (i, k)>} : (tensor<?x?xbf16, ["M", "K"]>) -> bf16
    %c = arith.constant 0.125 : bf16
    %y = arith.mulf %x, %c : bf16
    "ta.yield"(%y) : (bf16) -> ()
  }) : () -> tensor<?x?xbf16, ["M", "K"]>
  %r = "ta.contract"(%s, %b) {maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return %r : tensor<?x?xf32, ["M", "N"]>
}

// -----

// Keep: the scale varies along k (it reads a tensor), so it stays inside.
// CHECK-LABEL: func.func @keep_varying_scale
// CHECK:       %[[S:.*]] = "ta.map"()
// CHECK:       "ta.contract"(%[[S]], %arg1)
func.func @keep_varying_scale(%a: tensor<?x?xf32, ["M", "K"]>, %b: tensor<?x?xf32, ["K", "N"]>, %w: tensor<?xf32, ["K"]>) -> tensor<?x?xf32, ["M", "N"]> {
  %s = "ta.map"() ({
    %x = "ta.at"(%a) {map = affine_map<(i, k) -> (i, k)>} : (tensor<?x?xf32, ["M", "K"]>) -> f32
    %c = "ta.at"(%w) {map = affine_map<(i, k) -> (k)>} : (tensor<?xf32, ["K"]>) -> f32
    %y = arith.mulf %x, %c : f32
    "ta.yield"(%y) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["M", "K"]>
  %r = "ta.contract"(%s, %b) {maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]} : (tensor<?x?xf32, ["M", "K"]>, tensor<?x?xf32, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return %r : tensor<?x?xf32, ["M", "N"]>
}

// -----

// Remaps compose; an identity remap is dropped; a constant map becomes a fill.
// CHECK-LABEL: func.func @remaps_and_constants
// CHECK:       "ta.remap"(%arg0) {map = #[[G:map[0-9]*]]}
// CHECK-NOT:   "ta.remap"
// CHECK:       "ta.fill"() {value = 2.500000e+00 : f32}
// CHECK-NOT:   "ta.map"
func.func @remaps_and_constants(%k: tensor<?xf32, ["H/4"]>) -> (tensor<?xf32, ["H"]>, tensor<?xf32, ["H"]>) {
  %r = "ta.remap"(%k) {map = affine_map<(h) -> (h floordiv 2)>} : (tensor<?xf32, ["H/4"]>) -> tensor<?xf32, ["H/2"]>
  %g = "ta.remap"(%r) {map = affine_map<(h) -> (h floordiv 2)>} : (tensor<?xf32, ["H/2"]>) -> tensor<?xf32, ["H"]>
  %i = "ta.remap"(%g) {map = affine_map<(h) -> (h)>} : (tensor<?xf32, ["H"]>) -> tensor<?xf32, ["H"]>
  %c = "ta.map"() ({
    %v = arith.constant 2.5 : f32
    "ta.yield"(%v) : (f32) -> ()
  }) : () -> tensor<?xf32, ["H"]>
  return %i, %c : tensor<?xf32, ["H"]>, tensor<?xf32, ["H"]>
}
