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

// -----

// A transposing copy read by a contraction is read through (its map composed).
// CHECK-LABEL: func.func @fold_reindex_into_contract
// CHECK-NOT:   "ta.map"
// CHECK:       "ta.contract"(%arg0, %arg1)
func.func @fold_reindex_into_contract(%a: tensor<?x?xbf16, ["K", "M"]>, %b: tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]> {
  %t = "ta.map"() ({
    %x = "ta.at"(%a) {map = affine_map<(i, k) -> (k, i)>} : (tensor<?x?xbf16, ["K", "M"]>) -> bf16
    "ta.yield"(%x) : (bf16) -> ()
  }) : () -> tensor<?x?xbf16, ["M", "K"]>
  %r = "ta.contract"(%t, %b) {maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return %r : tensor<?x?xf32, ["M", "N"]>
}

// -----

// A Linear's weight broadcast over the batch of a [B, T, C] matmul (a map that transposes and
// drops the batch index) is read through: the contraction reads the weight once, as stored.
// CHECK:       #[[W:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-LABEL: func.func @fold_broadcast_into_contract
// CHECK-NOT:   "ta.map"
// CHECK:       "ta.contract"(%arg0, %arg1) {maps = [#{{.*}}, #[[W]], #{{.*}}]}
func.func @fold_broadcast_into_contract(%y: tensor<2x37x64xf32, ["2", "37", "64"]>, %w: tensor<32x64xf32, ["32", "64"]>) -> tensor<2x37x32xf32, ["2", "37", "32"]> {
  %t = "ta.map"() ({
    %x = "ta.at"(%w) {map = affine_map<(b, k, n) -> (n, k)>} : (tensor<32x64xf32, ["32", "64"]>) -> f32
    "ta.yield"(%x) : (f32) -> ()
  }) : () -> tensor<2x64x32xf32, ["2", "64", "32"]>
  %r = "ta.contract"(%y, %t) {maps = [affine_map<(b, t, n, k) -> (b, t, k)>, affine_map<(b, t, n, k) -> (b, k, n)>, affine_map<(b, t, n, k) -> (b, t, n)>]} : (tensor<2x37x64xf32, ["2", "37", "64"]>, tensor<2x64x32xf32, ["2", "64", "32"]>) -> tensor<2x37x32xf32, ["2", "37", "32"]>
  return %r : tensor<2x37x32xf32, ["2", "37", "32"]>
}

// -----

// One K head shared by every query head (multi-query attention), scaled: the scale hoists out
// of the scores contraction through the broadcast, and K is read as stored.
// CHECK-LABEL: func.func @hoist_scale_through_a_broadcast
// CHECK:       %[[S:.*]] = "ta.contract"(%arg0, %arg1)
// CHECK:       "ta.map"
// CHECK:         "ta.at"(%[[S]])
// CHECK:         arith.mulf
func.func @hoist_scale_through_a_broadcast(%q: tensor<4x37x16xf32, ["4", "37", "16"]>, %k: tensor<37x16xf32, ["37", "16"]>) -> tensor<4x37x37xf32, ["4", "37", "37"]> {
  %c = arith.constant 5.000000e-01 : f32
  %t = "ta.map"() ({
    %x = "ta.at"(%k) {map = affine_map<(h, e, j) -> (j, e)>} : (tensor<37x16xf32, ["37", "16"]>) -> f32
    %y = arith.mulf %x, %c : f32
    "ta.yield"(%y) : (f32) -> ()
  }) : () -> tensor<4x16x37xf32, ["4", "16", "37"]>
  %r = "ta.contract"(%q, %t) {maps = [affine_map<(h, i, j, e) -> (h, i, e)>, affine_map<(h, i, j, e) -> (h, e, j)>, affine_map<(h, i, j, e) -> (h, i, j)>]} : (tensor<4x37x16xf32, ["4", "37", "16"]>, tensor<4x16x37xf32, ["4", "16", "37"]>) -> tensor<4x37x37xf32, ["4", "37", "37"]>
  return %r : tensor<4x37x37xf32, ["4", "37", "37"]>
}

// -----

// Grouped heads: repeat_interleave's broadcast and reshape become one remap at h floordiv 2,
// the mods its static extents bound dropped.
// CHECK:       #map = affine_map<(d0, d1, d2) -> (d0, d1 floordiv 2, d2)>
// CHECK-LABEL: func.func @grouped_heads_remap
// CHECK:       "ta.remap"(%arg0) {map = #map}
func.func @grouped_heads_remap(%k: tensor<2x2x8xbf16, ["2", "2", "8"]>) -> tensor<2x4x8xbf16, ["2", "4", "8"]> {
  %b = "ta.map"() ({
    %x = "ta.at"(%k) {map = affine_map<(b, h, g, e) -> (b, h, e)>} : (tensor<2x2x8xbf16, ["2", "2", "8"]>) -> bf16
    "ta.yield"(%x) : (bf16) -> ()
  }) : () -> tensor<2x2x2x8xbf16, ["2", "2", "2", "8"]>
  %r = "ta.remap"(%b) {map = affine_map<(b, h, e) -> (b mod 2, (h floordiv 2) mod 2, h mod 2, e mod 8)>} : (tensor<2x2x2x8xbf16, ["2", "2", "2", "8"]>) -> tensor<2x4x8xbf16, ["2", "4", "8"]>
  return %r : tensor<2x4x8xbf16, ["2", "4", "8"]>
}

// -----

// A reshape's index arithmetic that the extents decide: t floordiv 37 is 0 for t < 37, and then
// (b + 0) mod 2 is b for b < 2: the remap is the identity and goes. One whose index can pass
// its bound keeps its mod.
// CHECK:       #[[KEPT:map[0-9]*]] = affine_map<(d0, d1) -> (d0, (d1 + 3) mod 8)>
// CHECK-LABEL: func.func @bounded_floordiv
// CHECK-NEXT:  %[[S:.*]] = "ta.remap"(%arg1) {map = #[[KEPT]]}
// CHECK-NEXT:  return %arg0, %[[S]]
func.func @bounded_floordiv(%x: tensor<2x37x64xf32, ["2", "37", "64"]>, %y: tensor<4x8xf32, ["4", "8"]>)
    -> (tensor<2x37x64xf32, ["2", "37", "64"]>, tensor<4x8xf32, ["4", "8"]>) {
  %r = "ta.remap"(%x) {map = affine_map<(b, t, c) -> ((b + t floordiv 37) mod 2, t, c mod 64)>} : (tensor<2x37x64xf32, ["2", "37", "64"]>) -> tensor<2x37x64xf32, ["2", "37", "64"]>
  %s = "ta.remap"(%y) {map = affine_map<(i, j) -> (i, (j + 3) mod 8)>} : (tensor<4x8xf32, ["4", "8"]>) -> tensor<4x8xf32, ["4", "8"]>
  return %r, %s : tensor<2x37x64xf32, ["2", "37", "64"]>, tensor<4x8xf32, ["4", "8"]>
}

// -----

// A merged index split again: (32b + 8h + d) floordiv 32 is b and its mod 32 is 8h + d, as the
// terms that are no multiple of 32 stay below 32 (nn.MultiheadAttention's view of its input
// projection as [B*H, T, D]). One whose remainder can pass 32 keeps its floordiv.
// CHECK-DAG:   #[[HEADS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d2, d0, d1 * 8 + d3 + 64)>
// CHECK-DAG:   #[[KEPT:map[0-9]*]] = affine_map<(d0, d1) -> (d0, (d0 * 32 + d1 + 1) floordiv 32)>
// CHECK-LABEL: func.func @split_a_merged_index
// CHECK-NEXT:  "ta.remap"(%arg0) {map = #[[HEADS]]}
// CHECK-NEXT:  "ta.remap"(%arg1) {map = #[[KEPT]]}
func.func @split_a_merged_index(%x: tensor<5x2x96xf32, ["5", "2", "96"]>, %y: tensor<2x3xf32, ["2", "3"]>)
    -> (tensor<2x4x5x8xf32, ["2", "4", "5", "8"]>, tensor<2x32xf32, ["2", "32"]>) {
  %r = "ta.remap"(%x) {map = affine_map<(b, h, t, d) -> (t, ((b * 4 + h) * 8 + d) floordiv 32, ((b * 4 + h) * 8 + d) mod 32 + 64)>} : (tensor<5x2x96xf32, ["5", "2", "96"]>) -> tensor<2x4x5x8xf32, ["2", "4", "5", "8"]>
  %s = "ta.remap"(%y) {map = affine_map<(i, j) -> (i, (i * 32 + j + 1) floordiv 32)>} : (tensor<2x3xf32, ["2", "3"]>) -> tensor<2x32xf32, ["2", "32"]>
  return %r, %s : tensor<2x4x5x8xf32, ["2", "4", "5", "8"]>, tensor<2x32xf32, ["2", "32"]>
}

// -----

// A view of a tensor stored in bf16 reads it in bf16: the widening moves after the view, and
// the narrowing of a widening is the tensor itself (an identity copy, which the split reads through).
// CHECK-LABEL: func.func @casts_around_a_view
// CHECK:       %[[V:.*]] = "ta.remap"(%arg0)
// CHECK-SAME:  -> tensor<4x2xbf16
// CHECK-NEXT:  "ta.map"() ({
// CHECK-NEXT:    "ta.at"(%[[V]])
// CHECK-NEXT:    "ta.yield"
// CHECK:       return
func.func @casts_around_a_view(%x: tensor<2x4xbf16, ["2", "4"]>) -> tensor<4x2xbf16, ["4", "2"]> {
  %w = "ta.map"() ({
    %a = "ta.at"(%x) {map = affine_map<(i, j) -> (i, j)>} : (tensor<2x4xbf16, ["2", "4"]>) -> bf16
    %b = arith.extf %a : bf16 to f32
    "ta.yield"(%b) : (f32) -> ()
  }) : () -> tensor<2x4xf32, ["2", "4"]>
  %v = "ta.remap"(%w) {map = affine_map<(i, j) -> ((i * 2 + j) floordiv 4, (i * 2 + j) mod 4)>} : (tensor<2x4xf32, ["2", "4"]>) -> tensor<4x2xf32, ["4", "2"]>
  %n = "ta.map"() ({
    %a = "ta.at"(%v) {map = affine_map<(i, j) -> (i, j)>} : (tensor<4x2xf32, ["4", "2"]>) -> f32
    %b = arith.truncf %a : f32 to bf16
    "ta.yield"(%b) : (bf16) -> ()
  }) : () -> tensor<4x2xbf16, ["4", "2"]>
  return %n : tensor<4x2xbf16, ["4", "2"]>
}

// -----

// A slice of a widened bf16 tensor (a rotary cache's cos_cached[:T]) reads the bf16 tensor through
// a slice of its own: its map is the identity, but over fewer rows than the tensor has, which ta.at
// cannot read (once the widening read the 512 rows at a 64-row index: invalid IR).
// CHECK-LABEL: func.func @widen_after_a_slice
// CHECK:       %[[S:.*]] = "ta.remap"(%arg0)
// CHECK-SAME:  (tensor<512x16xbf16, ["512", "16"]>) -> tensor<64x16xbf16
// CHECK-NEXT:  "ta.map"() ({
// CHECK-NEXT:    "ta.at"(%[[S]])
// CHECK-NEXT:    arith.extf
func.func @widen_after_a_slice(%x: tensor<512x16xbf16, ["512", "16"]>) -> tensor<64x16xf32, ["64", "16"]> {
  %w = "ta.map"() ({
    %a = "ta.at"(%x) {map = affine_map<(i, j) -> (i, j)>} : (tensor<512x16xbf16, ["512", "16"]>) -> bf16
    %b = arith.extf %a : bf16 to f32
    "ta.yield"(%b) : (f32) -> ()
  }) : () -> tensor<512x16xf32, ["512", "16"]>
  %s = "ta.remap"(%w) {map = affine_map<(i, j) -> (i, j)>} : (tensor<512x16xf32, ["512", "16"]>) -> tensor<64x16xf32, ["64", "16"]>
  return %s : tensor<64x16xf32, ["64", "16"]>
}

// -----

// A widening read elementwise by a map (not a view) stays: the pattern needs a remap.
// CHECK-LABEL: func.func @keep_a_widening_read_by_a_map
// CHECK:       arith.extf
// CHECK:       math.exp
func.func @keep_a_widening_read_by_a_map(%x: tensor<4xbf16, ["4"]>) -> tensor<4xf32, ["4"]> {
  %w = "ta.map"() ({
    %a = "ta.at"(%x) {map = affine_map<(i) -> (i)>} : (tensor<4xbf16, ["4"]>) -> bf16
    %b = arith.extf %a : bf16 to f32
    "ta.yield"(%b) : (f32) -> ()
  }) : () -> tensor<4xf32, ["4"]>
  %e = "ta.map"() ({
    %a = "ta.at"(%w) {map = affine_map<(i) -> (i)>} : (tensor<4xf32, ["4"]>) -> f32
    %b = math.exp %a : f32
    "ta.yield"(%b) : (f32) -> ()
  }) : () -> tensor<4xf32, ["4"]>
  return %e : tensor<4xf32, ["4"]>
}

// -----

// Attention's [B, H, T, D] result that its one reader transposes and views as [B, T, H*D]:
// the contraction stores [B, T, H, D] and the remap only reshapes it (a view, no copy).
// CHECK-LABEL: func.func @permute_into_reshape
// CHECK:       %[[C:.*]] = "ta.contract"(%arg0, %arg1) {{.*}} -> tensor<2x5x3x8xf32, ["2", "5", "3", "8"]>
// CHECK-NEXT:  "ta.remap"(%[[C]]) {{.*}} (tensor<2x5x3x8xf32, ["2", "5", "3", "8"]>) -> tensor<2x5x24xf32
func.func @permute_into_reshape(%p: tensor<2x3x5x5xf32, ["2", "3", "5", "5"]>, %v: tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>) -> tensor<2x5x24xf32, ["2", "5", "24"]> {
  %o = "ta.contract"(%p, %v) {maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>]} : (tensor<2x3x5x5xf32, ["2", "3", "5", "5"]>, tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>) -> tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>
  %y = "ta.remap"(%o) {map = affine_map<(b, t, c) -> (b, c floordiv 8, t, c mod 8)>} : (tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>) -> tensor<2x5x24xf32, ["2", "5", "24"]>
  return %y : tensor<2x5x24xf32, ["2", "5", "24"]>
}

// -----

// Kept: the contraction's result has another reader, so storing it permuted would need both orders.
// CHECK-LABEL: func.func @keep_a_result_read_twice
// CHECK:       "ta.contract"{{.*}} -> tensor<2x3x5x8xf32
// CHECK-NEXT:  "ta.remap"(%0) {{.*}} (tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>) -> tensor<2x5x24xf32
func.func @keep_a_result_read_twice(%p: tensor<2x3x5x5xf32, ["2", "3", "5", "5"]>, %v: tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>) -> (tensor<2x5x24xf32, ["2", "5", "24"]>, tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>) {
  %o = "ta.contract"(%p, %v) {maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>]} : (tensor<2x3x5x5xf32, ["2", "3", "5", "5"]>, tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>) -> tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>
  %y = "ta.remap"(%o) {map = affine_map<(b, t, c) -> (b, c floordiv 8, t, c mod 8)>} : (tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>) -> tensor<2x5x24xf32, ["2", "5", "24"]>
  return %y, %o : tensor<2x5x24xf32, ["2", "5", "24"]>, tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>
}

// -----

// Kept: the remap reads two of the three heads, so no order of the result makes it a view.
// CHECK-LABEL: func.func @keep_a_remap_that_slices
// CHECK:       "ta.contract"{{.*}} -> tensor<2x3x5x8xf32
func.func @keep_a_remap_that_slices(%p: tensor<2x3x5x5xf32, ["2", "3", "5", "5"]>, %v: tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>) -> tensor<2x5x16xf32, ["2", "5", "16"]> {
  %o = "ta.contract"(%p, %v) {maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>]} : (tensor<2x3x5x5xf32, ["2", "3", "5", "5"]>, tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>) -> tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>
  %y = "ta.remap"(%o) {map = affine_map<(b, t, c) -> (b, c floordiv 8, t, c mod 8)>} : (tensor<2x3x5x8xf32, ["2", "3", "5", "8"]>) -> tensor<2x5x16xf32, ["2", "5", "16"]>
  return %y : tensor<2x5x16xf32, ["2", "5", "16"]>
}

// -----

// torch's bmm over merged batch dims, split again (einsum attention's scores): one contraction
// over [B, H, ...] that reads Q and K where they are stored.
// CHECK-LABEL: func.func @fold_reshape_into_contract
// CHECK:       %[[S:.*]] = "ta.contract"(%arg0, %arg1) {maps = [#{{.*}}, #{{.*}}, #{{.*}}]} : (tensor<2x4x5x8xf32, ["2", "4", "5", "8"]>, tensor<2x4x7x8xf32, ["2", "4", "7", "8"]>) -> tensor<2x4x5x7xf32
// CHECK-NEXT:  return %[[S]]
func.func @fold_reshape_into_contract(%q: tensor<2x4x5x8xf32, ["2", "4", "5", "8"]>, %k: tensor<2x4x7x8xf32, ["2", "4", "7", "8"]>) -> tensor<2x4x5x7xf32, ["2", "4", "5", "7"]> {
  %qm = "ta.remap"(%q) {map = affine_map<(g, i, e) -> (g floordiv 4, g mod 4, i, e)>} : (tensor<2x4x5x8xf32, ["2", "4", "5", "8"]>) -> tensor<8x5x8xf32, ["8", "5", "8"]>
  %km = "ta.remap"(%k) {map = affine_map<(g, e, j) -> (g floordiv 4, g mod 4, j, e)>} : (tensor<2x4x7x8xf32, ["2", "4", "7", "8"]>) -> tensor<8x8x7xf32, ["8", "8", "7"]>
  %s = "ta.contract"(%qm, %km) {maps = [affine_map<(g, i, j, e) -> (g, i, e)>, affine_map<(g, i, j, e) -> (g, e, j)>, affine_map<(g, i, j, e) -> (g, i, j)>]} : (tensor<8x5x8xf32, ["8", "5", "8"]>, tensor<8x8x7xf32, ["8", "8", "7"]>) -> tensor<8x5x7xf32, ["8", "5", "7"]>
  %y = "ta.remap"(%s) {map = affine_map<(b, h, i, j) -> (b * 4 + h, i, j)>} : (tensor<8x5x7xf32, ["8", "5", "7"]>) -> tensor<2x4x5x7xf32, ["2", "4", "5", "7"]>
  return %y : tensor<2x4x5x7xf32, ["2", "4", "5", "7"]>
}

// -----

// Kept: the split merges the head dim into the columns (c = 8h + d), and P and V are stored
// merged over [B*H]: no remap to read them through at (b, h), so no index of a contraction
// over [T, B, H, D] is one dim of them.
// CHECK-LABEL: func.func @keep_a_split_that_merges_columns
// CHECK:       "ta.contract"{{.*}} -> tensor<8x5x8xf32
// CHECK-NEXT:  "ta.remap"
func.func @keep_a_split_that_merges_columns(%p: tensor<8x5x7xf32, ["8", "5", "7"]>, %v: tensor<8x7x8xf32, ["8", "7", "8"]>) -> tensor<5x2x32xf32, ["5", "2", "32"]> {
  %o = "ta.contract"(%p, %v) {maps = [affine_map<(g, i, d, j) -> (g, i, j)>, affine_map<(g, i, d, j) -> (g, j, d)>, affine_map<(g, i, d, j) -> (g, i, d)>]} : (tensor<8x5x7xf32, ["8", "5", "7"]>, tensor<8x7x8xf32, ["8", "7", "8"]>) -> tensor<8x5x8xf32, ["8", "5", "8"]>
  %y = "ta.remap"(%o) {map = affine_map<(t, b, c) -> (b * 4 + c floordiv 8, t, c mod 8)>} : (tensor<8x5x8xf32, ["8", "5", "8"]>) -> tensor<5x2x32xf32, ["5", "2", "32"]>
  return %y : tensor<5x2x32xf32, ["5", "2", "32"]>
}

// -----

// nn.MultiheadAttention's P·V: P [B, H, T, S] merged to [B*H, T, S], V a view of the input
// projection's [S, B, 3C] as [S, B*H, D], the result merged as [T, B, H*D]. Rebuilt over
// [T, B, H, D] (c split into h and d), P read where it is stored and V through a remap at the
// column offset 64 + 8h + d; a view merges (h, d) back into c.
// CHECK-DAG:   #[[VMAP:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 8 + d3 + 64)>
// CHECK-DAG:   #[[MERGE:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2 floordiv 8, d2 mod 8)>
// CHECK-LABEL: func.func @fold_reshape_that_splits_columns
// CHECK-NEXT:  %[[V:.*]] = "ta.remap"(%arg1) {map = #[[VMAP]]} : {{.*}} -> tensor<7x2x4x8xf32
// CHECK-NEXT:  %[[O:.*]] = "ta.contract"(%arg0, %[[V]]) {{.*}} -> tensor<5x2x4x8xf32
// CHECK-NEXT:  %[[Y:.*]] = "ta.remap"(%[[O]]) {map = #[[MERGE]]} : {{.*}} -> tensor<5x2x32xf32
// CHECK-NEXT:  return %[[Y]]
func.func @fold_reshape_that_splits_columns(%p: tensor<2x4x5x7xf32, ["2", "4", "5", "7"]>, %qkv: tensor<7x2x96xf32, ["7", "2", "96"]>) -> tensor<5x2x32xf32, ["5", "2", "32"]> {
  %pm = "ta.remap"(%p) {map = affine_map<(g, t, s) -> (g floordiv 4, g mod 4, t, s)>} : (tensor<2x4x5x7xf32, ["2", "4", "5", "7"]>) -> tensor<8x5x7xf32, ["8", "5", "7"]>
  %v = "ta.remap"(%qkv) {map = affine_map<(s, g, d) -> (s, (g * 8 + d) floordiv 32, (g * 8 + d) mod 32 + 64)>} : (tensor<7x2x96xf32, ["7", "2", "96"]>) -> tensor<7x8x8xf32, ["7", "8", "8"]>
  %o = "ta.contract"(%pm, %v) {maps = [affine_map<(g, t, d, s) -> (g, t, s)>, affine_map<(g, t, d, s) -> (s, g, d)>, affine_map<(g, t, d, s) -> (g, t, d)>]} : (tensor<8x5x7xf32, ["8", "5", "7"]>, tensor<7x8x8xf32, ["7", "8", "8"]>) -> tensor<8x5x8xf32, ["8", "5", "8"]>
  %y = "ta.remap"(%o) {map = affine_map<(t, b, c) -> (b * 4 + c floordiv 8, t, c mod 8)>} : (tensor<8x5x8xf32, ["8", "5", "8"]>) -> tensor<5x2x32xf32, ["5", "2", "32"]>
  return %y : tensor<5x2x32xf32, ["5", "2", "32"]>
}

// -----

// Kept: a contraction stored [B, T, H, D] and viewed as [B, T, H*D] (permute_into_reshape's
// form, GPT-2's attention output) is left as it is, though the view splits c into (h, d).
// CHECK-LABEL: func.func @keep_a_contraction_under_a_view
// CHECK-NEXT:  %[[V:.*]] = "ta.remap"(%arg1) {{.*}} -> tensor<2x4x7x8xf32
// CHECK-NEXT:  %[[O:.*]] = "ta.contract"(%arg0, %[[V]]) {{.*}} -> tensor<2x5x4x8xf32
// CHECK-NEXT:  "ta.remap"(%[[O]])
func.func @keep_a_contraction_under_a_view(%p: tensor<2x4x5x7xf32, ["2", "4", "5", "7"]>, %qkv: tensor<2x7x96xf32, ["2", "7", "96"]>) -> tensor<2x5x32xf32, ["2", "5", "32"]> {
  %v = "ta.remap"(%qkv) {map = affine_map<(b, h, s, d) -> (b, s, h * 8 + d + 64)>} : (tensor<2x7x96xf32, ["2", "7", "96"]>) -> tensor<2x4x7x8xf32, ["2", "4", "7", "8"]>
  %o = "ta.contract"(%p, %v) {maps = [affine_map<(b, t, h, d, s) -> (b, h, t, s)>, affine_map<(b, t, h, d, s) -> (b, h, s, d)>, affine_map<(b, t, h, d, s) -> (b, t, h, d)>]} : (tensor<2x4x5x7xf32, ["2", "4", "5", "7"]>, tensor<2x4x7x8xf32, ["2", "4", "7", "8"]>) -> tensor<2x5x4x8xf32, ["2", "5", "4", "8"]>
  %y = "ta.remap"(%o) {map = affine_map<(b, t, c) -> (b, t, c floordiv 8, c mod 8)>} : (tensor<2x5x4x8xf32, ["2", "5", "4", "8"]>) -> tensor<2x5x32xf32, ["2", "5", "32"]>
  return %y : tensor<2x5x32xf32, ["2", "5", "32"]>
}

// -----

// A Linear from a batch-first [B, T, C] into [T, B, N] (nn.MultiheadAttention's input
// projection): stored [B, T, N], a GEMM's order, and read through a transpose.
// CHECK-LABEL: func.func @contract_in_row_order
// CHECK:       %[[C:.*]] = "ta.contract"(%arg0, %arg1) {{.*}} -> tensor<2x5x6xf32, ["2", "5", "6"]>
// CHECK-NEXT:  "ta.remap"(%[[C]]) {map = #{{.*}}} : (tensor<2x5x6xf32, ["2", "5", "6"]>) -> tensor<5x2x6xf32
func.func @contract_in_row_order(%x: tensor<2x5x3xf32, ["2", "5", "3"]>, %w: tensor<6x3xf32, ["6", "3"]>) -> tensor<5x2x6xf32, ["5", "2", "6"]> {
  %y = "ta.contract"(%x, %w) {maps = [affine_map<(t, b, n, k) -> (b, t, k)>, affine_map<(t, b, n, k) -> (n, k)>, affine_map<(t, b, n, k) -> (t, b, n)>]} : (tensor<2x5x3xf32, ["2", "5", "3"]>, tensor<6x3xf32, ["6", "3"]>) -> tensor<5x2x6xf32, ["5", "2", "6"]>
  return %y : tensor<5x2x6xf32, ["5", "2", "6"]>
}

// -----

// Kept: a batched product whose batch dim both operands read keeps its order (not a Linear).
// CHECK-LABEL: func.func @keep_a_batched_product
// CHECK:       "ta.contract"{{.*}} -> tensor<5x2x6xf32
// CHECK-NOT:   "ta.remap"
func.func @keep_a_batched_product(%x: tensor<2x5x3xf32, ["2", "5", "3"]>, %w: tensor<2x3x6xf32, ["2", "3", "6"]>) -> tensor<5x2x6xf32, ["5", "2", "6"]> {
  %y = "ta.contract"(%x, %w) {maps = [affine_map<(t, b, n, k) -> (b, t, k)>, affine_map<(t, b, n, k) -> (b, k, n)>, affine_map<(t, b, n, k) -> (t, b, n)>]} : (tensor<2x5x3xf32, ["2", "5", "3"]>, tensor<2x3x6xf32, ["2", "3", "6"]>) -> tensor<5x2x6xf32, ["5", "2", "6"]>
  return %y : tensor<5x2x6xf32, ["5", "2", "6"]>
}
