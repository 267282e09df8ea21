// RUN: tilec translate %s | filecheck %s

// The CUDA rules of tile.wgmma on sm_90a (tilec/targets/sm_90a/codegen/cuda_hopper.py), in an attention kernel: one
// device function per instruction shape, named by its operands (`_00`: A and B through shared
// memory descriptors, both K-major; `_r1`: A as four registers of bf16 pairs, B MN-major). Q·Kᵀ
// is four m64n128k16 k-steps (head dim 64) from descriptors, one group, waited for at once; P·V
// is eight m64n64k16 k-steps (128 keys) with P's fragments in registers and V's descriptor
// stepping 128 (16-byte units of 16 rows x 128 bytes) per step.
// CHECK:       // schedule: bm=128,bn=128,{{.*}}consumers=2{{.*}}; copy engine, mbarriers, wgmma
// CHECK:       __device__ __forceinline__ void wgmma_m64n128k16_bf16_00(float* d, unsigned long long a, unsigned long long b) {
// CHECK-NEXT:    asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK:       __device__ __forceinline__ void wgmma_m64n64k16_bf16_r1(float* d, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, unsigned long long b) {
// CHECK-NEXT:    asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK:       wgmma.fence.sync.aligned;
// CHECK-COUNT-4: wgmma_m64n128k16_bf16_00(&r{{[0-9]+}}[0][0][0], da + {{[0-9]+}}, db + {{[0-9]+}});
// CHECK:       wgmma.commit_group.sync.aligned;
// CHECK-NEXT:  wgmma.wait_group.sync.aligned 0;
//
// P·V accumulates into the tile the key loop carries: the rescaled accumulator is copied there
// before the wgmma, and nothing copies out of the wgmma's registers before the wait_group that
// retires its group (after the loop; in the next iteration, Q·Kᵀ's wait).
// CHECK:       for (int e = 0; e < 32; ++e) ((float*)[[CARRIED:r[0-9]+]])[e] = ((float*){{r[0-9]+}})[e];
// CHECK-NEXT:  {  // wgmma over the stage
// CHECK:       wgmma.fence.sync.aligned;
// CHECK-NEXT:  wgmma_m64n64k16_bf16_r1(&[[CARRIED]][0][0][0], pa[0][0], pa[0][1], pa[0][2], pa[0][3], db + 0);
// CHECK-NEXT:  wgmma_m64n64k16_bf16_r1(&[[CARRIED]][0][0][0], pa[1][0], pa[1][1], pa[1][2], pa[1][3], db + 128);
// CHECK-COUNT-6: wgmma_m64n64k16_bf16_r1(&[[CARRIED]][0][0][0],
// CHECK-NEXT:  wgmma.commit_group.sync.aligned;
// CHECK-NOT:   [[CARRIED]]
// CHECK:       wgmma.wait_group.sync.aligned 0;

// The input: the tile IR of `tilec compile SPEC --emit tile --target sm_90a --schedule bm=128,bn=128,warps=8,stages=2,consumers=2`,
// SPEC being
//   param B = 2, H = 4, S = 128, T = 128, D = 64
//   input Q[B, H, S, D] : bf16
//   input K[B, H, T, D] : bf16
//   input V[B, H, T, D] : bf16
//   output O[B, H, S, D] : bf16
//   O[b, h, i, d] = sum[j](softmax[j](sum[e](Q[b, h, i, e] * K[b, h, j, e]) * rsqrt(D)) * V[b, h, j, d])

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
module attributes {tile.target = "sm_90a"} {
  func.func @attention(%arg0: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "Q"}, %arg1: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "K"}, %arg2: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "V"}, %arg3: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "O", ta.output}, %arg4: index {ta.param = "B"}, %arg5: index {ta.param = "D"}, %arg6: index {ta.param = "H"}, %arg7: index {ta.param = "S"}, %arg8: index {ta.param = "T"}) attributes {llvm.emit_c_interface, ta.params = {B = 2 : i64, D = 64 : i64, H = 4 : i64, S = 128 : i64, T = 128 : i64}, tile.grid = ["(S+127)/128", "1*B*H"], tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 128 : i64, bn = 128 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = false, softmax_overlap = false, stages = 2 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %0 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %1 = arith.muli %0, %c128 : index
    %2 = "tile.program_id"() {axis = 1 : i64} : () -> index
    %3 = arith.remsi %2, %arg6 : index
    %4 = arith.divsi %2, %arg6 : index
    %5 = arith.remsi %4, %arg4 : index
    %6 = arith.ceildivsi %arg8, %c128 : index
    %7 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<1x128x64xbf16, 3>
    %8 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<2x128x64xbf16, 3>
    %9 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<2x128x64xbf16, 3>
    %10 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<1xi64, 3>
    %11 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<2xi64, 3>
    %12 = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<2xi64, 3>
    "tile.warp_specialize"() ({
      "tile.mbarrier_expect"(%10, %c0) {bytes = 16384 : i64} : (memref<1xi64, 3>, index) -> ()
      "tile.tma_copy"(%arg0, %5, %3, %1, %c0, %7, %c0, %10) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<1x128x64xbf16, 3>, index, memref<1xi64, 3>) -> ()
      scf.for %arg9 = %c0 to %6 step %c1 {
        %13 = arith.remsi %arg9, %c2 : index
        %14 = arith.divsi %arg9, %c2 : index
        %15 = arith.remsi %14, %c2 : index
        %16 = arith.subi %c1, %15 : index
        "tile.mbarrier_wait"(%12, %13, %16) : (memref<2xi64, 3>, index, index) -> ()
        "tile.mbarrier_expect"(%11, %13) {bytes = 32768 : i64} : (memref<2xi64, 3>, index) -> ()
        %17 = arith.muli %arg9, %c128 : index
        "tile.tma_copy"(%arg1, %5, %3, %17, %c0, %8, %13, %11) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<2x128x64xbf16, 3>, index, memref<2xi64, 3>) -> ()
        "tile.tma_copy"(%arg2, %5, %3, %17, %c0, %9, %13, %11) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<2x128x64xbf16, 3>, index, memref<2xi64, 3>) -> ()
      }
    }, {
      "tile.mbarrier_wait"(%10, %c0, %c0) : (memref<1xi64, 3>, index, index) -> ()
      %13 = "tile.map"() ({
        "tile.yield"(%cst_0) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %14 = "tile.map"() ({
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %15 = "tile.map"() ({
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<128x64xf32, #tile.mma<[8, 1]>>
      %16:3 = scf.for %arg9 = %c0 to %6 step %c1 iter_args(%arg10 = %13, %arg11 = %14, %arg12 = %15) -> (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128x64xf32, #tile.mma<[8, 1]>>) {
        %20 = arith.remsi %arg9, %c2 : index
        %21 = arith.divsi %arg9, %c2 : index
        %22 = arith.remsi %21, %c2 : index
        "tile.mbarrier_wait"(%11, %20, %22) : (memref<2xi64, 3>, index, index) -> ()
        %23 = "tile.map"() ({
          "tile.yield"(%cst) : (f32) -> ()
        }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        %24 = "tile.wgmma"(%7, %8, %20, %23) {transpose_b} : (memref<1x128x64xbf16, 3>, memref<2x128x64xbf16, 3>, index, tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        %25 = arith.cmpi sge, %arg9, %c1 : index
        scf.if %25 {
          %38 = arith.subi %arg9, %c1 : index
          %39 = arith.remsi %38, %c2 : index
          "tile.mbarrier_arrive"(%12, %39) : (memref<2xi64, 3>, index) -> ()
        }
        %26 = arith.muli %arg9, %c128 : index
        %27 = "tile.map"() ({
          %38 = "tile.elem"(%24) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
          %39 = arith.mulf %38, %cst_2 : f32
          %40 = "tile.index"() {dim = 1 : i64} : () -> index
          %41 = arith.addi %26, %40 : index
          %42 = arith.cmpi slt, %41, %arg8 : index
          %43 = arith.select %42, %39, %cst_0 : f32
          "tile.yield"(%43) : (f32) -> ()
        }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        %28 = "tile.reduce"(%27) {dim = 1 : i64, kind = "max"} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %29 = "tile.map"() ({
          %38 = "tile.elem"(%arg10) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %39 = "tile.elem"(%28) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %40 = arith.maximumf %38, %39 : f32
          "tile.yield"(%40) : (f32) -> ()
        }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %30 = "tile.map"() ({
          %38 = "tile.elem"(%arg10) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %39 = "tile.elem"(%29) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %40 = arith.cmpf oeq, %38, %39 : f32
          %41 = arith.subf %38, %39 : f32
          %42 = math.exp %41 : f32
          %43 = arith.select %40, %cst_1, %42 : f32
          "tile.yield"(%43) : (f32) -> ()
        }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %31 = "tile.map"() ({
          %38 = "tile.elem"(%29) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %39 = arith.cmpf oeq, %38, %cst_0 : f32
          %40 = "tile.elem"(%29) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %41 = arith.select %39, %cst, %40 : f32
          "tile.yield"(%41) : (f32) -> ()
        }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %32 = "tile.map"() ({
          %38 = "tile.elem"(%27) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
          %39 = "tile.elem"(%31) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %40 = arith.subf %38, %39 : f32
          %41 = math.exp %40 : f32
          "tile.yield"(%41) : (f32) -> ()
        }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        %33 = "tile.reduce"(%32) {dim = 1 : i64, kind = "sum"} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %34 = "tile.map"() ({
          %38 = "tile.elem"(%arg11) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %39 = "tile.elem"(%30) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %40 = arith.mulf %38, %39 : f32
          %41 = "tile.elem"(%33) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %42 = arith.addf %40, %41 : f32
          "tile.yield"(%42) : (f32) -> ()
        }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %35 = "tile.map"() ({
          %38 = "tile.elem"(%32) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
          %39 = arith.truncf %38 : f32 to bf16
          "tile.yield"(%39) : (bf16) -> ()
        }) : () -> tensor<128x128xbf16, #tile.mma<[8, 1]>>
        %36 = "tile.map"() ({
          %38 = "tile.elem"(%arg12) {map = #map} : (tensor<128x64xf32, #tile.mma<[8, 1]>>) -> f32
          %39 = "tile.elem"(%30) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %40 = arith.mulf %38, %39 : f32
          "tile.yield"(%40) : (f32) -> ()
        }) : () -> tensor<128x64xf32, #tile.mma<[8, 1]>>
        %37 = "tile.wgmma"(%35, %9, %20, %36) {async} : (tensor<128x128xbf16, #tile.mma<[8, 1]>>, memref<2x128x64xbf16, 3>, index, tensor<128x64xf32, #tile.mma<[8, 1]>>) -> tensor<128x64xf32, #tile.mma<[8, 1]>>
        scf.yield %29, %34, %37 : tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128x64xf32, #tile.mma<[8, 1]>>
      } {tile.computes = [3, 3, 4], tile.stages = 2 : i64}
      "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
      %17 = arith.cmpi sge, %6, %c1 : index
      scf.if %17 {
        %20 = arith.subi %6, %c1 : index
        %21 = arith.remsi %20, %c2 : index
        "tile.mbarrier_arrive"(%12, %21) : (memref<2xi64, 3>, index) -> ()
      }
      %18 = "tile.map"() ({
        %20 = "tile.elem"(%16#2) {map = #map} : (tensor<128x64xf32, #tile.mma<[8, 1]>>) -> f32
        %21 = "tile.elem"(%16#1) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %22 = arith.divf %cst_1, %21 : f32
        %23 = arith.mulf %20, %22 : f32
        "tile.yield"(%23) : (f32) -> ()
      }) : () -> tensor<128x64xf32, #tile.mma<[8, 1]>>
      %19 = "tile.map"() ({
        %20 = "tile.elem"(%18) {map = #map} : (tensor<128x64xf32, #tile.mma<[8, 1]>>) -> f32
        %21 = arith.truncf %20 : f32 to bf16
        "tile.yield"(%21) : (bf16) -> ()
      }) : () -> tensor<128x64xbf16, #tile.mma<[8, 1]>>
      "tile.store"(%19, %arg3, %5, %3, %1, %c0) : (tensor<128x64xbf16, #tile.mma<[8, 1]>>, memref<?x?x?x64xbf16>, index, index, index, index) -> ()
    }) {consumer_registers = 232 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}
