// RUN: tilec translate %s | filecheck %s

// The CUDA rule of tile.tma_store (tilec/targets/sm_90a/codegen/cuda_store.py) on sm_90a: the output's tensor map is a
// grid constant; the consumers' 128 x 256 tile goes out in four 64-column chunks, each written
// into its staging buffer in the 128-byte swizzle (chunk c into buffer c mod 2, after the copy of
// the chunk two back has finished reading it), fenced for the copy engine, and stored by one
// thread as a tensor copy committed to its bulk group.
// CHECK:       // schedule: {{.*}}persistent=true,tma-store=true{{.*}}; copy engine, mbarriers, wgmma
// CHECK:       const __grid_constant__ TensorMap tm_C) {
// CHECK:       {  // 128x256 tile: 4 chunks of 64 columns through shared memory, the copy engine storing them
// CHECK-NEXT:    if (tid == 0) bulk_wait_read<1>();
// CHECK-NEXT:    asm volatile("bar.sync 4, 256;" ::: "memory");
// CHECK:         *reinterpret_cast<__nv_bfloat162*>(s{{[0-9]+}} + (0LL + 0) * 8192 + (((row * 64) + (col - 0)) ^ ((((row * 64) + (col - 0)) >> 3) & 56))) = both;
// CHECK:         fence_async_shared();
// CHECK-NEXT:    asm volatile("bar.sync 4, 256;" ::: "memory");
// CHECK-NEXT:    if (tid == 0) { tma_store_2d(&tm_C, s{{[0-9]+}} + (0LL + 0) * 8192, (int)(i{{[0-9]+}} + 0), (int)(i{{[0-9]+}})); bulk_commit(); }
// CHECK:         tma_store_2d(&tm_C, s{{[0-9]+}} + (0LL + 1) * 8192, (int)(i{{[0-9]+}} + 64),
// CHECK:         tma_store_2d(&tm_C, s{{[0-9]+}} + (0LL + 0) * 8192, (int)(i{{[0-9]+}} + 128),
// CHECK:         tma_store_2d(&tm_C, s{{[0-9]+}} + (0LL + 1) * 8192, (int)(i{{[0-9]+}} + 192),

// The input: the tile IR of `tilec compile SPEC --emit tile --target sm_90a --schedule bm=128,bn=256,bk=64,warps=8,stages=4,consumers=2,persistent=true,tma-store=true`,
// SPEC being
//   param M = 256, N = 256, K = 128
//   input A[M, K] : bf16
//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @gemm(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 128 : i64, M = 256 : i64, N = 256 : i64}, tile.grid = ["(M+127)/128*((N+255)/256)", "1"], tile.operands = "nn", tile.persistent, tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 128 : i64, bn = 256 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = true, pingpong = false, softmax_overlap = false, stages = 4 : i64, swizzle = true, tma_store = true, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c128 = arith.constant 128 : index
    %0 = arith.ceildivsi %arg4, %c128 : index
    %1 = arith.ceildivsi %arg5, %c256 : index
    %2 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %3 = arith.muli %0, %1 : index
    %4 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x128x64xbf16, 3>
    %5 = "tile.alloc"() {layout = #tile.layout<[64, 256], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<4x64x256xbf16, 3>
    %6 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<2x128x64xbf16, 3>
    %7 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
    %8 = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<4xi64, 3>
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
        %23 = arith.muli %21, %c128 : index
        %24 = arith.muli %22, %c256 : index
        %25 = arith.addi %13, %9 : index
        scf.for %arg7 = %13 to %25 step %c1 {
          %26 = arith.remsi %arg7, %c4 : index
          %27 = arith.divsi %arg7, %c4 : index
          %28 = arith.remsi %27, %c2 : index
          %29 = arith.subi %c1, %28 : index
          "tile.mbarrier_wait"(%8, %26, %29) : (memref<4xi64, 3>, index, index) -> ()
          "tile.mbarrier_expect"(%7, %26) {bytes = 49152 : i64} : (memref<4xi64, 3>, index) -> ()
          %30 = arith.subi %arg7, %13 : index
          %31 = arith.muli %30, %c64 : index
          "tile.tma_copy"(%arg0, %23, %31, %4, %26, %7) : (memref<?x?xbf16>, index, index, memref<4x128x64xbf16, 3>, index, memref<4xi64, 3>) -> ()
          "tile.tma_copy"(%arg1, %31, %24, %5, %26, %7) : (memref<?x?xbf16>, index, index, memref<4x64x256xbf16, 3>, index, memref<4xi64, 3>) -> ()
        }
      } {tile.persistent}
    }, {
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
        %23 = arith.muli %21, %c128 : index
        %24 = arith.muli %22, %c256 : index
        %25 = "tile.map"() ({
          "tile.yield"(%cst) : (f32) -> ()
        }) : () -> tensor<128x256xf32, #tile.mma<[8, 1]>>
        %26 = arith.addi %13, %9 : index
        %27 = scf.for %arg7 = %13 to %26 step %c1 iter_args(%arg8 = %25) -> (tensor<128x256xf32, #tile.mma<[8, 1]>>) {
          %31 = arith.remsi %arg7, %c4 : index
          %32 = arith.divsi %arg7, %c4 : index
          %33 = arith.remsi %32, %c2 : index
          "tile.mbarrier_wait"(%7, %31, %33) : (memref<4xi64, 3>, index, index) -> ()
          %34 = "tile.wgmma"(%4, %5, %31, %arg8) {async, tile.computes = 0 : i64} : (memref<4x128x64xbf16, 3>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32, #tile.mma<[8, 1]>>) -> tensor<128x256xf32, #tile.mma<[8, 1]>>
          "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
          %35 = arith.addi %13, %c1 : index
          %36 = arith.cmpi sge, %arg7, %35 : index
          scf.if %36 {
            %37 = arith.subi %arg7, %c1 : index
            %38 = arith.remsi %37, %c4 : index
            "tile.mbarrier_arrive"(%8, %38) : (memref<4xi64, 3>, index) -> ()
          }
          scf.yield %34 : tensor<128x256xf32, #tile.mma<[8, 1]>>
        } {tile.stages = 4 : i64}
        "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
        %28 = arith.addi %13, %c1 : index
        %29 = arith.cmpi sge, %26, %28 : index
        scf.if %29 {
          %31 = arith.subi %26, %c1 : index
          %32 = arith.remsi %31, %c4 : index
          "tile.mbarrier_arrive"(%8, %32) : (memref<4xi64, 3>, index) -> ()
        }
        %30 = "tile.map"() ({
          %31 = "tile.elem"(%27) {map = #map} : (tensor<128x256xf32, #tile.mma<[8, 1]>>) -> f32
          %32 = arith.truncf %31 : f32 to bf16
          "tile.yield"(%32) : (bf16) -> ()
        }) : () -> tensor<128x256xbf16, #tile.mma<[8, 1]>>
        "tile.tma_store"(%30, %arg2, %23, %24, %6, %c0) {sets = 1 : i64} : (tensor<128x256xbf16, #tile.mma<[8, 1]>>, memref<?x?xbf16>, index, index, memref<2x128x64xbf16, 3>, index) -> ()
      } {tile.persistent}
    }) {consumer_registers = 232 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}
