# GEMM
param M = 64, N = 64, K = 32
input A[M, K] : bf16
input B[K, N] : bf16
output C[M, N] : bf16
C[i, j] = sum[k](A[i, k] * B[k, j])
