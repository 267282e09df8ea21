// RUN: tilec translate %s | filecheck %s
// RUN: sed 's/tile.target = "sm_90a"/tile.target = "sm_80"/' %s | not tilec translate - 2>&1 | filecheck %s --check-prefix=SM80

// The CUDA of a warp-specialised contraction on sm_90a: one kernel (the copy engine needs rows of
// whole 16-byte chunks), 384 threads, the operands' tensor maps as grid constants, mbarriers
// initialised and fenced, the producer warpgroup giving up registers (setmaxnreg.dec) and one of
// its threads issuing the copies of a stage onto its mbarrier (A one 128 x 64 box, B two 64 x 64
// boxes side by side), the consumers taking registers (setmaxnreg.inc), waiting for the stage,
// issuing four wgmma k-steps as one group and releasing the stage once the group before is done.
// The same module marked for sm_80 is refused, naming what sm_80 lacks.
// CHECK:       // schedule: bm=128,bn=128,bk=64,warps=8,stages=3,{{.*}}consumers=2{{.*}}; copy engine, mbarriers, wgmma
// CHECK:       extern "C" __global__ void __launch_bounds__(384, 1)
// CHECK-NEXT:  {{gemm[a-z_0-9]*}}({{.*}}, const __grid_constant__ TensorMap tm_A, const __grid_constant__ TensorMap tm_B) {
// CHECK:       extern __shared__ __align__(1024) unsigned char smem[];
// CHECK:       fence.mbarrier_init.release.cluster;
// CHECK:       if (warp >= 8) {  // the producer warpgroup: one thread issues the copies
// CHECK-NEXT:  setmaxnreg.dec.sync.aligned.u32 40;
// CHECK:       mbar_expect(bar{{[0-9]+}} + 8 * (uint32_t)(i{{[0-9]+}}), 32768u);
// CHECK:       tma_load_2d({{.*}}, &tm_A,
// CHECK:       tma_load_2d({{.*}} + 0, &tm_B, (int)(i{{[0-9]+}} + 0),
// CHECK:       tma_load_2d({{.*}} + 4096, &tm_B, (int)(i{{[0-9]+}} + 64),
// CHECK:       } else {  // the consumer warpgroups
// CHECK-NEXT:  setmaxnreg.inc.sync.aligned.u32 232;
// CHECK:       wgmma.fence.sync.aligned;
// CHECK-COUNT-4: wgmma_m64n128k16_bf16_01(
// CHECK:       wgmma.commit_group.sync.aligned;
// CHECK:       wgmma.wait_group.sync.aligned 1;
// CHECK:       mbar_arrive(
// CHECK:       wgmma.wait_group.sync.aligned 0;
// CHECK-NOT:   _unaligned(
// SM80:        error: the tile module is for sm_80, which has no tma, wgmma, setmaxnreg; its ops need them

// The input: the tile IR of `tilec compile SPEC --emit tile --target sm_90a --schedule bm=128,bn=128,bk=64,warps=8,stages=3,consumers=2`,
// SPEC being
//   param M = 300, N = 520, K = 200
//   input A[M, K] : bf16
//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @gemm_sm_90a_warp_specialised(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+127)/128*((N+127)/128)", "1"], tile.operands = "nn", tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 128 : i64, bn = 128 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = false, softmax_overlap = false, stages = 3 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %cst = arith.constant 0.000000e+00 : f32
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %0 = arith.ceildivsi %arg4, %c128 : index
    %1 = arith.ceildivsi %arg5, %c128 : index
    %2 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %3 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x128x64xbf16, 3>
    %4 = "tile.alloc"() {layout = #tile.layout<[64, 128], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<3x64x128xbf16, 3>
    %5 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<3xi64, 3>
    %6 = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<3xi64, 3>
    %7 = arith.ceildivsi %arg3, %c64 : index
    "tile.warp_specialize"() ({
      %8 = arith.muli %1, %c8 : index
      %9 = arith.divsi %2, %8 : index
      %10 = arith.muli %9, %c8 : index
      %11 = arith.subi %0, %10 : index
      %12 = arith.minsi %11, %c8 : index
      %13 = arith.remsi %2, %8 : index
      %14 = arith.remsi %13, %12 : index
      %15 = arith.addi %10, %14 : index
      %16 = arith.divsi %13, %12 : index
      %17 = arith.muli %15, %c128 : index
      %18 = arith.muli %16, %c128 : index
      scf.for %arg6 = %c0 to %7 step %c1 {
        %19 = arith.remsi %arg6, %c3 : index
        %20 = arith.divsi %arg6, %c3 : index
        %21 = arith.remsi %20, %c2 : index
        %22 = arith.subi %c1, %21 : index
        "tile.mbarrier_wait"(%6, %19, %22) : (memref<3xi64, 3>, index, index) -> ()
        "tile.mbarrier_expect"(%5, %19) {bytes = 32768 : i64} : (memref<3xi64, 3>, index) -> ()
        %23 = arith.muli %arg6, %c64 : index
        "tile.tma_copy"(%arg0, %17, %23, %3, %19, %5) : (memref<?x?xbf16>, index, index, memref<3x128x64xbf16, 3>, index, memref<3xi64, 3>) -> ()
        "tile.tma_copy"(%arg1, %23, %18, %4, %19, %5) : (memref<?x?xbf16>, index, index, memref<3x64x128xbf16, 3>, index, memref<3xi64, 3>) -> ()
      }
    }, {
      %8 = arith.muli %1, %c8 : index
      %9 = arith.divsi %2, %8 : index
      %10 = arith.muli %9, %c8 : index
      %11 = arith.subi %0, %10 : index
      %12 = arith.minsi %11, %c8 : index
      %13 = arith.remsi %2, %8 : index
      %14 = arith.remsi %13, %12 : index
      %15 = arith.addi %10, %14 : index
      %16 = arith.divsi %13, %12 : index
      %17 = arith.muli %15, %c128 : index
      %18 = arith.muli %16, %c128 : index
      %19 = "tile.map"() ({
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %20 = scf.for %arg6 = %c0 to %7 step %c1 iter_args(%arg7 = %19) -> (tensor<128x128xf32, #tile.mma<[8, 1]>>) {
        %23 = arith.remsi %arg6, %c3 : index
        %24 = arith.divsi %arg6, %c3 : index
        %25 = arith.remsi %24, %c2 : index
        "tile.mbarrier_wait"(%5, %23, %25) : (memref<3xi64, 3>, index, index) -> ()
        %26 = "tile.wgmma"(%3, %4, %23, %arg7) {async, tile.computes = 0 : i64} : (memref<3x128x64xbf16, 3>, memref<3x64x128xbf16, 3>, index, tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
        %27 = arith.cmpi sge, %arg6, %c1 : index
        scf.if %27 {
          %28 = arith.subi %arg6, %c1 : index
          %29 = arith.remsi %28, %c3 : index
          "tile.mbarrier_arrive"(%6, %29) : (memref<3xi64, 3>, index) -> ()
        }
        scf.yield %26 : tensor<128x128xf32, #tile.mma<[8, 1]>>
      } {tile.stages = 3 : i64}
      "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
      %21 = arith.cmpi sge, %7, %c1 : index
      scf.if %21 {
        %23 = arith.subi %7, %c1 : index
        %24 = arith.remsi %23, %c3 : index
        "tile.mbarrier_arrive"(%6, %24) : (memref<3xi64, 3>, index) -> ()
      }
      %22 = "tile.map"() ({
        %23 = "tile.elem"(%20) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
        %24 = arith.truncf %23 : f32 to bf16
        "tile.yield"(%24) : (bf16) -> ()
      }) : () -> tensor<128x128xbf16, #tile.mma<[8, 1]>>
      "tile.store"(%22, %arg2, %17, %18) : (tensor<128x128xbf16, #tile.mma<[8, 1]>>, memref<?x?xbf16>, index, index) -> ()
    }) {consumer_registers = 232 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}
