// RUN: tilec opt %s --split-input-file --verify-diagnostics
// Each verifier rule of the tile dialect, broken once.

func.func @program_id_axis() {
  // expected-error @+1 {{'tile.program_id' op axis must be 0, 1 or 2, got 3}}
  %p = "tile.program_id"() {axis = 3 : i64} : () -> index
  return
}

// -----

func.func @num_programs_axis() {
  // expected-error @+1 {{'tile.num_programs' op axis must be 0, 1 or 2, got -1}}
  %n = "tile.num_programs"() {axis = -1 : i64} : () -> index
  return
}

// -----

func.func @load_offsets(%A: memref<?x?xbf16>, %i: index) {
  // expected-error @+1 {{'tile.load' op expects 2 offsets for the 2-d source, got 1}}
  %a = "tile.load"(%A, %i) {padding = 0.0 : bf16} : (memref<?x?xbf16>, index) -> tensor<16x16xbf16>
  return
}

// -----

func.func @load_dynamic_tile(%A: memref<?x?xbf16>, %i: index) {
  // expected-error @+1 {{'tile.load' op result must be a statically shaped tensor}}
  %a = "tile.load"(%A, %i, %i) {padding = 0.0 : bf16} : (memref<?x?xbf16>, index, index) -> tensor<?x16xbf16>
  return
}

// -----

func.func @load_from_shared(%S: memref<2x16x16xbf16, 3>, %i: index) {
  // expected-error @+1 {{'tile.load' op source must be in global memory}}
  %a = "tile.load"(%S, %i, %i, %i) {padding = 0.0 : bf16} : (memref<2x16x16xbf16, 3>, index, index, index) -> tensor<1x16x16xbf16>
  return
}

// -----

func.func @store_element_type(%C: memref<?x?xbf16>, %t: tensor<16x16xf32>, %i: index) {
  // expected-error @+1 {{'tile.store' op tile element type f32 must equal the destination's bf16}}
  "tile.store"(%t, %C, %i, %i) : (tensor<16x16xf32>, memref<?x?xbf16>, index, index) -> ()
  return
}

// -----

func.func @alloc_global() {
  // expected-error @+1 {{'tile.alloc' op result must be in shared memory (address space 3)}}
  %s = "tile.alloc"() {layout = #tile.layout<[16, 16], [16, 1], [0, 0, 0]>} : () -> memref<2x16x16xbf16>
  return
}

// -----

func.func @alloc_layout_shape() {
  // expected-error @+1 {{'tile.alloc' op layout shape [16, 32] must equal the tile shape [16, 16]}}
  %s = "tile.alloc"() {layout = #tile.layout<[16, 32], [32, 1], [0, 0, 0]>} : () -> memref<2x16x16xbf16, 3>
  return
}

// -----

func.func @alloc_layout_overflows() {
  // expected-error @+1 {{'tile.alloc' op layout reaches offset 270 outside the 256-element tile}}
  %s = "tile.alloc"() {layout = #tile.layout<[16, 16], [17, 1], [0, 0, 0]>} : () -> memref<2x16x16xbf16, 3>
  return
}

// -----

func.func @async_copy_rank(%A: memref<?x?xbf16>, %S: memref<16x16xbf16, 3>, %i: index) {
  // expected-error @+1 {{'tile.async_copy' op destination memref<16x16xbf16, 3> must be stages x a 2-d tile of the source's trailing dims}}
  "tile.async_copy"(%A, %i, %i, %S, %i) : (memref<?x?xbf16>, index, index, memref<16x16xbf16, 3>, index) -> ()
  return
}

// -----

func.func @wait_pending() {
  // expected-error @+1 {{'tile.wait_group' op pending must be non-negative}}
  "tile.wait_group"() {pending = -1 : i64} : () -> ()
  return
}

// -----

func.func @smem_load_shape(%S: memref<2x16x16xbf16, 3>, %i: index) {
  // expected-error @+1 {{'tile.smem_load' op result must be one [16, 16] bf16 stage of the buffer}}
  %t = "tile.smem_load"(%S, %i) : (memref<2x16x16xbf16, 3>, index) -> tensor<16x32xbf16>
  return
}

// -----

func.func @mma_shapes(%a: tensor<16x32xbf16>, %b: tensor<16x8xbf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.mma' op shapes do not multiply: 16x32 * 16x8 into 16x8}}
  %d = "tile.mma"(%a, %b, %c) : (tensor<16x32xbf16>, tensor<16x8xbf16>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @mma_accumulator(%a: tensor<16x16xbf16>, %b: tensor<16x8xbf16>, %c: tensor<16x8xbf16>) {
  // expected-error @+1 {{'tile.mma' op acc must be f32}}
  %d = "tile.mma"(%a, %b, %c) : (tensor<16x16xbf16>, tensor<16x8xbf16>, tensor<16x8xbf16>) -> tensor<16x8xbf16>
  return
}

// -----

func.func @reduce_result(%s: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.reduce' op result must be the source without dim 1: [16]}}
  %m = "tile.reduce"(%s) {kind = "max", dim = 1 : i64} : (tensor<16x8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @map_yield(%s: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.map' op body must end with tile.yield of one bf16}}
  %e = "tile.map"() ({
    %x = "tile.elem"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<16x8xf32>) -> f32
    "tile.yield"(%x) : (f32) -> ()
  }) : () -> tensor<16x8xbf16>
  return
}

// -----

func.func @elem_shape(%s: tensor<8xf32>) {
  %e = "tile.map"() ({
    // expected-error @+1 {{'tile.elem' op source shape [8] does not match the map (d0, d1) -> (d0) over [16, 8]}}
    %x = "tile.elem"(%s) {map = affine_map<(i, j) -> (i)>} : (tensor<8xf32>) -> f32
    "tile.yield"(%x) : (f32) -> ()
  }) : () -> tensor<16x8xf32>
  return
}

// -----

func.func @yield_outside(%c: f32) {
  // expected-error @+1 {{'tile.yield' op must be inside a tile.map body}}
  "tile.yield"(%c) : (f32) -> ()
}

// -----

func.func @index_dim(%s: tensor<16x8xf32>) {
  %e = "tile.map"() ({
    // expected-error @+1 {{'tile.index' op dim 2 is out of range for the enclosing tile.map of rank 2}}
    %i = "tile.index"() {dim = 2 : i64} : () -> index
    %x = "tile.elem"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<16x8xf32>) -> f32
    "tile.yield"(%x) : (f32) -> ()
  }) : () -> tensor<16x8xf32>
  return
}

// -----

func.func @mbarrier_alloc_arrivals() {
  // expected-error @+1 {{'tile.mbarrier_alloc' op arrivals must be at least 1}}
  %b = "tile.mbarrier_alloc"() {arrivals = 0 : i64} : () -> memref<4xi64, 3>
  return
}

// -----

func.func @mbarrier_expect_global(%b: memref<4xi64>, %s: index) {
  // expected-error @+1 {{'tile.mbarrier_expect' op barrier must be memref<stages x i64, 3> (mbarriers in shared memory)}}
  "tile.mbarrier_expect"(%b, %s) {bytes = 16 : i64} : (memref<4xi64>, index) -> ()
  return
}

// -----

func.func @mbarrier_wait_type(%b: memref<4xi32, 3>, %s: index) {
  // expected-error @+1 {{'tile.mbarrier_wait' op barrier must be memref<stages x i64, 3>}}
  "tile.mbarrier_wait"(%b, %s, %s) : (memref<4xi32, 3>, index, index) -> ()
  return
}

// -----

func.func @mbarrier_arrive_rank(%b: memref<4x2xi64, 3>, %s: index) {
  // expected-error @+1 {{'tile.mbarrier_arrive' op barrier must be memref<stages x i64, 3>}}
  "tile.mbarrier_arrive"(%b, %s) : (memref<4x2xi64, 3>, index) -> ()
  return
}

// -----

func.func @tma_copy_layout(%A: memref<?x?xbf16>, %i: index) {
  %s = "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [2, 3, 3]>} : () -> memref<2x64x64xbf16, 3>
  %b = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<2xi64, 3>
  // expected-error @+1 {{'tile.tma_copy' op the destination's layout is not one the copy engine writes}}
  "tile.tma_copy"(%A, %i, %i, %s, %i, %b) : (memref<?x?xbf16>, index, index, memref<2x64x64xbf16, 3>, index, memref<2xi64, 3>) -> ()
  return
}

// -----

func.func @wgmma_shapes(%a: memref<2x64x64xbf16, 3>, %b: memref<2x64x64xbf16, 3>, %i: index, %c: tensor<64x128xf32>) {
  // expected-error @+1 {{'tile.wgmma' op shapes do not chain: [64, 64] x [64, 64] into [64, 128]}}
  %d = "tile.wgmma"(%a, %b, %i, %c) : (memref<2x64x64xbf16, 3>, memref<2x64x64xbf16, 3>, index, tensor<64x128xf32>) -> tensor<64x128xf32>
  return
}

// -----

func.func @wgmma_register_a_transposed(%a: tensor<64x64xbf16>, %b: memref<2x64x64xbf16, 3>, %i: index, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.wgmma' op a register operand A is a 2-d [m, k] tile (no transpose_a)}}
  %d = "tile.wgmma"(%a, %b, %i, %c) {transpose_a} : (tensor<64x64xbf16>, memref<2x64x64xbf16, 3>, index, tensor<64x64xf32>) -> tensor<64x64xf32>
  return
}

// -----

func.func @wgmma_register_a_f32(%a: tensor<64x64xf32>, %b: memref<2x64x64xbf16, 3>, %i: index, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.wgmma' op a register operand A is bf16 or f16, as B; got f32 and bf16}}
  %d = "tile.wgmma"(%a, %b, %i, %c) : (tensor<64x64xf32>, memref<2x64x64xbf16, 3>, index, tensor<64x64xf32>) -> tensor<64x64xf32>
  return
}

// -----

func.func @turn_wait_by_the_last() {
  // expected-error @+1 {{'tile.turn_wait' op who = 'last': a turn is waited for by all or the first warpgroup, passed on by all or the last}}
  "tile.turn_wait"() {who = "last"} : () -> ()
  return
}

// -----

func.func @turn_pass_by_nobody() {
  // expected-error @+1 {{'tile.turn_pass' op attribute 'who' must be one of all, first, last; got 'none'}}
  "tile.turn_pass"() {who = "none"} : () -> ()
  return
}

// -----

func.func @warp_specialize_registers() {
  // expected-error @+1 {{'tile.warp_specialize' op producer_registers must be a multiple of 8 in 24..256 (setmaxnreg), got 20}}
  "tile.warp_specialize"() ({
  }, {
  }) {producer_registers = 20 : i64, consumer_registers = 232 : i64} : () -> ()
  return
}

// -----

func.func @warp_specialize_roles() {
  // expected-error @+1 {{'tile.warp_specialize' op consumer_roles must be 1 to 3 (consumer warpgroups), got 4}}
  "tile.warp_specialize"() ({
    %c = arith.constant 0 : index
  }, {
    %d = arith.constant 0 : index
  }) {producer_registers = 40 : i64, consumer_registers = 232 : i64, consumer_roles = 4 : i64} : () -> ()
  return
}

// -----

func.func @ring_start_outside_roles() {
  // expected-error @+1 {{'tile.ring_start' op tile.ring_start is read in a region of a tile.warp_specialize (a role's first ring iteration)}}
  %first = "tile.ring_start"() : () -> index
  return
}

// -----

func.func @warpgroup_id_of_warpgroups_together() {
  "tile.warp_specialize"() ({
    %c = arith.constant 0 : index
  }, {
    // expected-error @+1 {{'tile.warpgroup_id' op tile.warpgroup_id is read in the consumer region of a tile.warp_specialize whose consumer warpgroups run on their own (consumer_roles > 1)}}
    %g = "tile.warpgroup_id"() : () -> index
  }) {producer_registers = 40 : i64, consumer_registers = 232 : i64} : () -> ()
  return
}

// -----

func.func @wgmma_wait_negative() {
  // expected-error @+1 {{'tile.wgmma_wait' op pending must be at least 0}}
  "tile.wgmma_wait"() {pending = -1 : i64} : () -> ()
  return
}

// -----

func.func @gather_outside_map(%X: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{'tile.gather' op must be inside a tile.map body}}
  %x = "tile.gather"(%X, %i, %i) {map = affine_map<(a, b) -> (a, b)>, padding = 0.0 : f32} : (memref<?x?xf32>, index, index) -> f32
  return
}

// -----

func.func @gather_rank(%X: memref<?x?xf32>, %i: index) {
  %e = "tile.map"() ({
    // expected-error @+1 {{'tile.gather' op map must send the 2 indices to the 2 source dims, got (d0, d1) -> (d0)}}
    %x = "tile.gather"(%X, %i, %i) {map = affine_map<(a, b) -> (a)>, padding = 0.0 : f32} : (memref<?x?xf32>, index, index) -> f32
    "tile.yield"(%x) : (f32) -> ()
  }) : () -> tensor<16x8xf32>
  return
}

// -----

func.func @gather_type(%X: memref<?x?xbf16>, %i: index) {
  %e = "tile.map"() ({
    // expected-error @+1 {{'tile.gather' op result must be the source's element type bf16}}
    %x = "tile.gather"(%X, %i, %i) {map = affine_map<(a, b) -> (a, b)>, padding = 0.0 : f32} : (memref<?x?xbf16>, index, index) -> f32
    "tile.yield"(%x) : (f32) -> ()
  }) : () -> tensor<16x8xf32>
  return
}

// -----

func.func @staged_store_two_boxes(%v: tensor<128x256xbf16>, %C: memref<?x?xbf16>, %m0: index, %n0: index, %f: index) {
  %st = "tile.alloc"() {layout = #tile.layout<[128, 128], [64, [64, 1, 8192]], [3, 3, 3]>} : () -> memref<2x128x128xbf16, 3>
  // expected-error @+1 {{'tile.tma_store' op the staging layout is not one box the copy engine reads (tma_layout of the chunk)}}
  "tile.tma_store"(%v, %C, %m0, %n0, %st, %f) {sets = 1 : i64} : (tensor<128x256xbf16>, memref<?x?xbf16>, index, index, memref<2x128x128xbf16, 3>, index) -> ()
  return
}

// -----

func.func @staged_store_one_buffer_a_set(%v: tensor<128x256xbf16>, %C: memref<?x?xbf16>, %m0: index, %n0: index, %f: index) {
  %st = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<2x128x64xbf16, 3>
  // expected-error @+1 {{'tile.tma_store' op 2 staging buffers are not 'sets' = 2 sets of at least two}}
  "tile.tma_store"(%v, %C, %m0, %n0, %st, %f) {sets = 2 : i64} : (tensor<128x256xbf16>, memref<?x?xbf16>, index, index, memref<2x128x64xbf16, 3>, index) -> ()
  return
}

// -----

func.func @staged_store_rows(%v: tensor<64x256xbf16>, %C: memref<?x?xbf16>, %m0: index, %n0: index, %f: index) {
  %st = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<2x128x64xbf16, 3>
  // expected-error @+1 {{'tile.tma_store' op staging tiles 128x64 of bf16 do not chunk the 64x256 tile of bf16}}
  "tile.tma_store"(%v, %C, %m0, %n0, %st, %f) {sets = 1 : i64} : (tensor<64x256xbf16>, memref<?x?xbf16>, index, index, memref<2x128x64xbf16, 3>, index) -> ()
  return
}

// -----

func.func @staged_store_element(%v: tensor<128x256xf32>, %C: memref<?x?xbf16>, %m0: index, %n0: index, %f: index) {
  %st = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<2x128x64xbf16, 3>
  // expected-error @+1 {{'tile.tma_store' op tile element type f32 must equal the destination's bf16}}
  "tile.tma_store"(%v, %C, %m0, %n0, %st, %f) {sets = 1 : i64} : (tensor<128x256xf32>, memref<?x?xbf16>, index, index, memref<2x128x64xbf16, 3>, index) -> ()
  return
}

// -----

func.func @split_sum_splits(%acc: tensor<64x64xf32>, %slot: index, %k0: index) {
  // expected-error @+1 {{'tile.split_sum' op splits must be 2 to 16, got 1}}
  %t = "tile.split_sum"(%acc, %slot, %k0, %k0) {splits = 1 : i64} : (tensor<64x64xf32>, index, index, index) -> tensor<64x64xf32>
  return
}

// -----

func.func @split_sum_part(%acc: tensor<64x64xbf16>, %slot: index, %k0: index) {
  // expected-error @+1 {{'tile.split_sum' op accumulator must be a 2-d f32 tile, got tensor<64x64xbf16>}}
  %t = "tile.split_sum"(%acc, %slot, %k0, %k0) {splits = 2 : i64} : (tensor<64x64xbf16>, index, index, index) -> tensor<64x64xbf16>
  return
}

// -----

func.func @split_sum_in_a_loop(%acc: tensor<64x64xf32>, %slot: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'tile.split_sum' op must run once per CTA: at the top of the function (or of a warp role), not in a loop}}
    %t = "tile.split_sum"(%acc, %slot, %i, %i) {splits = 2 : i64} : (tensor<64x64xf32>, index, index, index) -> tensor<64x64xf32>
  }
  return
}
