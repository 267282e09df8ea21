// RUN: tilec translate %s | filecheck %s

// The CUDA of a persistent ping-pong contraction on sm_90a: CTAs loop over the output tiles,
// stepping by the number launched (gridDim.x, the runtime's occupancy cap); the producer's loop
// runs every tile of its CTA, each of the two consumer warpgroups every other one (starting at its
// own index, stepping by twice the CTAs), each on a 64-row tile of its own; a warpgroup passes the
// turn to the other by arriving on the other's mbarrier of the turn ring (two stages, four warps)
// once its wgmma groups are issued, then finishes and stores its tile while the other multiplies.
// CHECK:       // schedule: bm=64,bn=128,bk=64,warps=8,stages=3,{{.*}}consumers=2,pingpong=true,persistent=true,{{.*}}; copy engine, mbarriers, wgmma
// CHECK:       extern "C" __global__ void __launch_bounds__(384, 1)
// CHECK:       if (tid == 0) for (int s = 0; s < 2; ++s) mbar_init(bar{{[0-9]+}} + 8 * s, 4);
// CHECK:       if (warp >= 8) {  // the producer warpgroup: one thread issues the copies
// CHECK-NEXT:  setmaxnreg.dec.sync.aligned.u32 40;
// CHECK:       const long long [[CTAS:i[0-9]+]] = (long long)gridDim.x;
// CHECK-NEXT:  for (long long [[TILE:k[0-9]+]] = {{i[0-9]+}}; [[TILE]] < {{i[0-9]+}}; [[TILE]] += [[CTAS]]) {
// CHECK:       } else {  // the consumer warpgroups
// CHECK-NEXT:  setmaxnreg.inc.sync.aligned.u32 232;
// CHECK-NEXT:  const int wg_id = warp / 4, wg_warp = warp % 4, wg_tid = tid % 128;
// CHECK:       const long long [[CCTAS:i[0-9]+]] = (long long)gridDim.x;
// CHECK-NEXT:  const long long [[SKIP:i[0-9]+]] = (long long)wg_id * [[CCTAS]];
// CHECK-NEXT:  const long long [[FIRST:i[0-9]+]] = {{i[0-9]+}} + [[SKIP]];
// CHECK-NEXT:  const long long [[STEP:i[0-9]+]] = [[CCTAS]] * 2LL;
// CHECK-NEXT:  for (long long [[OWN:k[0-9]+]] = [[FIRST]]; [[OWN]] < {{i[0-9]+}}; [[OWN]] += [[STEP]]) {
// CHECK-COUNT-4: wgmma_m64n128k16_bf16_01(
// CHECK:       wgmma.commit_group.sync.aligned;
// CHECK:       const long long [[NEXT:i[0-9]+]] = (long long)wg_id + 1LL;
// CHECK-NEXT:  const long long [[OTHER:i[0-9]+]] = [[NEXT]] % 2LL;
// CHECK-NEXT:  if (lane == 0) mbar_arrive(bar{{[0-9]+}} + 8 * (uint32_t)([[OTHER]]));
// CHECK-NEXT:  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
// CHECK:       {  // epilogue: every fragment element of the 64x128 tile, masked to the output
// CHECK-NOT:   _unaligned(

// The input: the tile IR of `tilec compile SPEC --emit tile --target sm_90a --schedule
// bm=64,bn=128,bk=64,warps=8,stages=3,consumers=2,pingpong=true,persistent=true`, SPEC being
//   param M = 300, N = 520, K = 200
//   input A[M, K] : bf16
//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @g(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+63)/64*((N+127)/128)", "1"], tile.operands = "nn", tile.persistent, tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 64 : i64, bn = 128 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = true, pingpong = true, softmax_overlap = false, stages = 3 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %cst = arith.constant 0.000000e+00 : f32
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %c64 = arith.constant 64 : index
    %0 = arith.ceildivsi %arg4, %c64 : index
    %1 = arith.ceildivsi %arg5, %c128 : index
    %2 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %3 = arith.muli %0, %1 : index
    %4 = "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x64x64xbf16, 3>
    %5 = "tile.alloc"() {layout = #tile.layout<[64, 128], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<3x64x128xbf16, 3>
    %6 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<3xi64, 3>
    %7 = "tile.mbarrier_alloc"() {arrivals = 4 : i64} : () -> memref<3xi64, 3>
    %8 = "tile.mbarrier_alloc"() {arrivals = 4 : i64} : () -> memref<2xi64, 3>
    %9 = arith.ceildivsi %arg3, %c64 : index
    "tile.warp_specialize"() ({
      %10 = "tile.num_programs"() {axis = 0 : i64} : () -> index
      scf.for %arg6 = %2 to %3 step %10 {
        %11 = arith.subi %arg6, %2 : index
        %12 = arith.divsi %11, %10 : index
        %13 = arith.muli %12, %9 : index
        %14 = arith.muli %1, %c8 : index
        %15 = arith.divsi %arg6, %14 : index
        %16 = arith.muli %15, %c8 : index
        %17 = arith.subi %0, %16 : index
        %18 = arith.minsi %17, %c8 : index
        %19 = arith.remsi %arg6, %14 : index
        %20 = arith.remsi %19, %18 : index
        %21 = arith.addi %16, %20 : index
        %22 = arith.divsi %19, %18 : index
        %23 = arith.muli %21, %c64 : index
        %24 = arith.muli %22, %c128 : index
        %25 = arith.addi %13, %9 : index
        scf.for %arg7 = %13 to %25 step %c1 {
          %26 = arith.remsi %arg7, %c3 : index
          %27 = arith.divsi %arg7, %c3 : index
          %28 = arith.remsi %27, %c2 : index
          %29 = arith.subi %c1, %28 : index
          "tile.mbarrier_wait"(%7, %26, %29) : (memref<3xi64, 3>, index, index) -> ()
          "tile.mbarrier_expect"(%6, %26) {bytes = 24576 : i64} : (memref<3xi64, 3>, index) -> ()
          %30 = arith.subi %arg7, %13 : index
          %31 = arith.muli %30, %c64 : index
          "tile.tma_copy"(%arg0, %23, %31, %4, %26, %6) : (memref<?x?xbf16>, index, index, memref<3x64x64xbf16, 3>, index, memref<3xi64, 3>) -> ()
          "tile.tma_copy"(%arg1, %31, %24, %5, %26, %6) : (memref<?x?xbf16>, index, index, memref<3x64x128xbf16, 3>, index, memref<3xi64, 3>) -> ()
        }
      } {tile.persistent}
    }, {
      %10 = "tile.warpgroup_id"() : () -> index
      %11 = "tile.num_programs"() {axis = 0 : i64} : () -> index
      %12 = arith.muli %10, %11 : index
      %13 = arith.addi %2, %12 : index
      %14 = arith.muli %11, %c2 : index
      scf.for %arg6 = %13 to %3 step %14 {
        %15 = arith.subi %arg6, %2 : index
        %16 = arith.divsi %15, %11 : index
        %17 = arith.muli %16, %9 : index
        %18 = arith.addi %16, %c1 : index
        %19 = arith.divsi %18, %c2 : index
        %20 = arith.addi %19, %c1 : index
        %21 = arith.remsi %20, %c2 : index
        "tile.mbarrier_wait"(%8, %10, %21) : (memref<2xi64, 3>, index, index) -> ()
        %22 = arith.muli %1, %c8 : index
        %23 = arith.divsi %arg6, %22 : index
        %24 = arith.muli %23, %c8 : index
        %25 = arith.subi %0, %24 : index
        %26 = arith.minsi %25, %c8 : index
        %27 = arith.remsi %arg6, %22 : index
        %28 = arith.remsi %27, %26 : index
        %29 = arith.addi %24, %28 : index
        %30 = arith.divsi %27, %26 : index
        %31 = arith.muli %29, %c64 : index
        %32 = arith.muli %30, %c128 : index
        %33 = "tile.map"() ({
          "tile.yield"(%cst) : (f32) -> ()
        }) : () -> tensor<64x128xf32, #tile.mma<[4, 1]>>
        %34 = arith.addi %17, %9 : index
        %35 = scf.for %arg7 = %17 to %34 step %c1 iter_args(%arg8 = %33) -> (tensor<64x128xf32, #tile.mma<[4, 1]>>) {
          %41 = arith.remsi %arg7, %c3 : index
          %42 = arith.divsi %arg7, %c3 : index
          %43 = arith.remsi %42, %c2 : index
          "tile.mbarrier_wait"(%6, %41, %43) : (memref<3xi64, 3>, index, index) -> ()
          %44 = "tile.wgmma"(%4, %5, %41, %arg8) {async, tile.computes = 0 : i64} : (memref<3x64x64xbf16, 3>, memref<3x64x128xbf16, 3>, index, tensor<64x128xf32, #tile.mma<[4, 1]>>) -> tensor<64x128xf32, #tile.mma<[4, 1]>>
          "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
          %45 = arith.addi %17, %c1 : index
          %46 = arith.cmpi sge, %arg7, %45 : index
          scf.if %46 {
            %47 = arith.subi %arg7, %c1 : index
            %48 = arith.remsi %47, %c3 : index
            "tile.mbarrier_arrive"(%7, %48) : (memref<3xi64, 3>, index) -> ()
          }
          scf.yield %44 : tensor<64x128xf32, #tile.mma<[4, 1]>>
        } {tile.stages = 3 : i64}
        %36 = arith.addi %10, %c1 : index
        %37 = arith.remsi %36, %c2 : index
        "tile.mbarrier_arrive"(%8, %37) : (memref<2xi64, 3>, index) -> ()
        "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
        %38 = arith.addi %17, %c1 : index
        %39 = arith.cmpi sge, %34, %38 : index
        scf.if %39 {
          %41 = arith.subi %34, %c1 : index
          %42 = arith.remsi %41, %c3 : index
          "tile.mbarrier_arrive"(%7, %42) : (memref<3xi64, 3>, index) -> ()
        }
        %40 = "tile.map"() ({
          %41 = "tile.elem"(%35) {map = #map} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> f32
          %42 = arith.truncf %41 : f32 to bf16
          "tile.yield"(%42) : (bf16) -> ()
        }) : () -> tensor<64x128xbf16, #tile.mma<[4, 1]>>
        "tile.store"(%40, %arg2, %31, %32) : (tensor<64x128xbf16, #tile.mma<[4, 1]>>, memref<?x?xbf16>, index, index) -> ()
      } {tile.persistent}
    }) {consumer_registers = 232 : i64, consumer_roles = 2 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}
