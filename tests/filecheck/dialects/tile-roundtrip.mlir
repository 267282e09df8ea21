// RUN: tilec opt %s | tilec opt | filecheck %s
// Every tile op prints, parses back and prints the same.

// CHECK-LABEL: func.func @gemm_tile
func.func @gemm_tile(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // CHECK: "tile.program_id"() {axis = 0 : i64} : () -> index
  %pm = "tile.program_id"() {axis = 0 : i64} : () -> index
  // CHECK: "tile.num_programs"() {axis = 0 : i64} : () -> index
  %ctas = "tile.num_programs"() {axis = 0 : i64} : () -> index
  // CHECK: "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x128x64xbf16, 3>
  %sa = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x128x64xbf16, 3>
  %sb = "tile.alloc"() {layout = #tile.layout<[64, 128], [128, 1], [3, 3, 3]>} : () -> memref<3x64x128xbf16, 3>
  // CHECK: "tile.load"(%{{.*}}, %{{.*}}, %{{.*}}) {padding = 0.000000e+00 : f32} : (memref<?x?xf32>, index, index) -> tensor<128x128xf32>
  %acc0 = "tile.load"(%C, %pm, %c0) {padding = 0.0 : f32} : (memref<?x?xf32>, index, index) -> tensor<128x128xf32>
  // CHECK: scf.for
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%c = %acc0) -> (tensor<128x128xf32>) {
    // CHECK: "tile.async_copy"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?x?xbf16>, index, index, memref<3x128x64xbf16, 3>, index) -> ()
    "tile.async_copy"(%A, %pm, %k, %sa, %c0) : (memref<?x?xbf16>, index, index, memref<3x128x64xbf16, 3>, index) -> ()
    "tile.async_copy"(%B, %k, %c0, %sb, %c0) : (memref<?x?xbf16>, index, index, memref<3x64x128xbf16, 3>, index) -> ()
    // CHECK: "tile.commit_group"() : () -> ()
    "tile.commit_group"() : () -> ()
    // CHECK: "tile.wait_group"() {pending = 0 : i64} : () -> ()
    "tile.wait_group"() {pending = 0 : i64} : () -> ()
    // CHECK: "tile.barrier"() : () -> ()
    "tile.barrier"() : () -> ()
    // CHECK: "tile.smem_load"(%{{.*}}, %{{.*}}) : (memref<3x128x64xbf16, 3>, index) -> tensor<128x64xbf16>
    %a = "tile.smem_load"(%sa, %c0) : (memref<3x128x64xbf16, 3>, index) -> tensor<128x64xbf16>
    %b = "tile.smem_load"(%sb, %c0) : (memref<3x64x128xbf16, 3>, index) -> tensor<64x128xbf16>
    // CHECK: "tile.mma"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %d = "tile.mma"(%a, %b, %c) : (tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  // CHECK: } {tile.stages = 3 : i64}
  } {tile.stages = 3 : i64}
  // CHECK: "tile.split_sum"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {splits = 4 : i64} : (tensor<128x128xf32>, index, index, index) -> tensor<128x128xf32>
  %total = "tile.split_sum"(%acc, %pm, %c0, %c0) {splits = 4 : i64} : (tensor<128x128xf32>, index, index, index) -> tensor<128x128xf32>
  // CHECK: "tile.reduce"(%{{.*}}) {dim = 1 : i64, kind = "max"} : (tensor<128x128xf32>) -> tensor<128xf32>
  %mx = "tile.reduce"(%total) {kind = "max", dim = 1 : i64} : (tensor<128x128xf32>) -> tensor<128xf32>
  // CHECK: "tile.map"() ({
  // CHECK:   "tile.index"() {dim = 1 : i64} : () -> index
  // CHECK:   "tile.elem"(%{{.*}}) {map = #map{{[0-9]*}}} : (tensor<128x128xf32>) -> f32
  // CHECK:   "tile.elem"(%{{.*}}) {map = #map{{[0-9]*}}} : (tensor<128xf32>) -> f32
  // CHECK:   "tile.yield"(%{{.*}}) : (f32) -> ()
  // CHECK: }) : () -> tensor<128x128xf32>
  %e = "tile.map"() ({
    %col = "tile.index"() {dim = 1 : i64} : () -> index
    %x = "tile.elem"(%acc) {map = affine_map<(i, j) -> (i, j)>} : (tensor<128x128xf32>) -> f32
    %y = "tile.elem"(%mx) {map = affine_map<(i, j) -> (i)>} : (tensor<128xf32>) -> f32
    %z = arith.subf %x, %y : f32
    %w = math.exp %z : f32
    "tile.yield"(%w) : (f32) -> ()
  }) : () -> tensor<128x128xf32>
  // CHECK: "tile.store"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<128x128xf32>, memref<?x?xf32>, index, index) -> ()
  "tile.store"(%e, %C, %pm, %c0) : (tensor<128x128xf32>, memref<?x?xf32>, index, index) -> ()
  return
}

// -----

// sm_90a: tiles placed as the copy engine writes them (B as four 64-column boxes: a split
// stride), two mbarrier rings, and the producer and consumer roles
// CHECK-LABEL: func.func @warp_specialized
func.func @warp_specialized(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %s: index, %p: index, %m0: index, %k0: index) {
  // CHECK: "tile.alloc"() {layout = #tile.layout<[64, 256], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<4x64x256xbf16, 3>
  %sa = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x128x64xbf16, 3>
  %sb = "tile.alloc"() {layout = #tile.layout<[64, 256], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<4x64x256xbf16, 3>
  // CHECK: "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
  %full = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
  %empty = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<4xi64, 3>
  %zero = "tile.map"() ({
    %c = arith.constant 0.0 : f32
    "tile.yield"(%c) : (f32) -> ()
  }) : () -> tensor<128x256xf32>
  // CHECK: "tile.warp_specialize"() ({
  "tile.warp_specialize"() ({
    // CHECK: "tile.mbarrier_wait"(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<4xi64, 3>, index, index) -> ()
    "tile.mbarrier_wait"(%empty, %s, %p) : (memref<4xi64, 3>, index, index) -> ()
    // CHECK: "tile.mbarrier_expect"(%{{.*}}, %{{.*}}) {bytes = 49152 : i64} : (memref<4xi64, 3>, index) -> ()
    "tile.mbarrier_expect"(%full, %s) {bytes = 49152 : i64} : (memref<4xi64, 3>, index) -> ()
    // CHECK: "tile.tma_copy"
    "tile.tma_copy"(%A, %m0, %k0, %sa, %s, %full) : (memref<?x?xbf16>, index, index, memref<4x128x64xbf16, 3>, index, memref<4xi64, 3>) -> ()
    "tile.tma_copy"(%B, %k0, %m0, %sb, %s, %full) : (memref<?x?xbf16>, index, index, memref<4x64x256xbf16, 3>, index, memref<4xi64, 3>) -> ()
  }, {
    "tile.mbarrier_wait"(%full, %s, %p) : (memref<4xi64, 3>, index, index) -> ()
    // CHECK: "tile.wgmma"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<4x128x64xbf16, 3>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32>) -> tensor<128x256xf32>
    %d = "tile.wgmma"(%sa, %sb, %s, %zero) : (memref<4x128x64xbf16, 3>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32>) -> tensor<128x256xf32>
    // CHECK: "tile.wgmma"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<128x64xbf16>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32>) -> tensor<128x256xf32>
    %pl = "tile.map"() ({
      %one = arith.constant 1.0 : bf16
      "tile.yield"(%one) : (bf16) -> ()
    }) : () -> tensor<128x64xbf16>
    %e = "tile.wgmma"(%pl, %sb, %s, %d) : (tensor<128x64xbf16>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32>) -> tensor<128x256xf32>
    // CHECK: "tile.wgmma"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {async} : (memref<4x128x64xbf16, 3>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32>) -> tensor<128x256xf32>
    %f = "tile.wgmma"(%sa, %sb, %s, %e) {async} : (memref<4x128x64xbf16, 3>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32>) -> tensor<128x256xf32>
    // CHECK: "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
    "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
    // CHECK: "tile.turn_pass"() {who = "all"} : () -> ()
    "tile.turn_pass"() {who = "all"} : () -> ()
    // CHECK: "tile.turn_wait"() {who = "first"} : () -> ()
    "tile.turn_wait"() {who = "first"} : () -> ()
    // CHECK: "tile.mbarrier_arrive"(%{{.*}}, %{{.*}}) : (memref<4xi64, 3>, index) -> ()
    "tile.mbarrier_arrive"(%empty, %s) : (memref<4xi64, 3>, index) -> ()
  // CHECK: }) {consumer_registers = 232 : i64, producer_registers = 40 : i64} : () -> ()
  }) {producer_registers = 40 : i64, consumer_registers = 232 : i64} : () -> ()
  return
}

// CHECK-LABEL: func.func @warpgroups_on_their_own
func.func @warpgroups_on_their_own(%s: index) {
  %turn = "tile.mbarrier_alloc"() {arrivals = 4 : i64} : () -> memref<2xi64, 3>
  // CHECK: "tile.warp_specialize"() ({
  "tile.warp_specialize"() ({
    "tile.mbarrier_arrive"(%turn, %s) : (memref<2xi64, 3>, index) -> ()
  }, {
    // CHECK: "tile.warpgroup_id"() : () -> index
    %g = "tile.warpgroup_id"() : () -> index
    "tile.mbarrier_wait"(%turn, %g, %s) : (memref<2xi64, 3>, index, index) -> ()
  // CHECK: }) {consumer_registers = 232 : i64, consumer_roles = 2 : i64, producer_registers = 40 : i64} : () -> ()
  }) {producer_registers = 40 : i64, consumer_registers = 232 : i64, consumer_roles = 2 : i64} : () -> ()
  return
}

// CHECK-LABEL: func.func @ring_start
func.func @ring_start(%nk: index) {
  "tile.warp_specialize"() ({
    // CHECK: %[[FIRST:.*]] = "tile.ring_start"() : () -> index
    %first = "tile.ring_start"() : () -> index
    %end = arith.addi %first, %nk : index
  }, {
    %first = "tile.ring_start"() : () -> index
  }) {producer_registers = 40 : i64, consumer_registers = 232 : i64} : () -> ()
  return
}

// CHECK-LABEL: func.func @staged_store
func.func @staged_store(%v: tensor<128x256xbf16>, %C: memref<?x?xbf16>, %m0: index, %n0: index, %first: index) {
  %st = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<2x128x64xbf16, 3>
  // CHECK: "tile.tma_store"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {sets = 1 : i64} : (tensor<128x256xbf16>, memref<?x?xbf16>, index, index, memref<2x128x64xbf16, 3>, index) -> ()
  "tile.tma_store"(%v, %C, %m0, %n0, %st, %first) {sets = 1 : i64} : (tensor<128x256xbf16>, memref<?x?xbf16>, index, index, memref<2x128x64xbf16, 3>, index) -> ()
  return
}

// CHECK-LABEL: func.func @gather_tile
func.func @gather_tile(%X: memref<2x37x3x16xbf16>, %Y: memref<2x3x37x16xbf16>, %b: index, %h: index, %r0: index) {
  %c0 = arith.constant 0 : index
  // CHECK: "tile.map"() ({
  %y = "tile.map"() ({
    %i = "tile.index"() {dim = 0 : i64} : () -> index
    %t = arith.addi %r0, %i : index
    %d = "tile.index"() {dim = 1 : i64} : () -> index
    // CHECK: "tile.gather"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {map = #map{{[0-9]*}}, padding = 0.000000e+00 : bf16} : (memref<2x37x3x16xbf16>, index, index, index, index) -> bf16
    %x = "tile.gather"(%X, %b, %h, %t, %d) {map = affine_map<(b, h, t, d) -> (b, t, h, (d + 8) mod 16)>, padding = 0.0 : bf16} : (memref<2x37x3x16xbf16>, index, index, index, index) -> bf16
    "tile.yield"(%x) : (bf16) -> ()
  }) : () -> tensor<8x256xbf16>
  "tile.store"(%y, %Y, %b, %h, %r0, %c0) : (tensor<8x256xbf16>, memref<2x3x37x16xbf16>, index, index, index, index) -> ()
  return
}
